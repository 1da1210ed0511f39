/* SPDX-License-Identifier: GPL-2.0-only */
/* pktgen's arguments: every word checked, then the configuration of a run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "pktgen.h"

enum kind { NUM, IP, MAC, FLAGS, NAME, PORT_NAME };

/* A key: what its value is, the bounds of a number, where it goes. */
struct key {
	const char *name;
	enum kind kind;
	uint64_t min, max;
};

static const struct key keys[] = {
	{ "device", PORT_NAME, 0, 0 },
	{ "dev", NAME, 0, 0 },
	{ "count", NUM, 0, UINT64_MAX },
	{ "pkt_size", NUM, PG_FRAME_MIN, PG_FRAME_MAX },
	{ "min_pkt_size", NUM, PG_FRAME_MIN, PG_FRAME_MAX },
	{ "max_pkt_size", NUM, PG_FRAME_MIN, PG_FRAME_MAX },
	{ "clone_skb", NUM, 0, UINT32_MAX },
	{ "delay", NUM, 0, 1000000000000ull },
	{ "dst", IP, 0, 0 },
	{ "dst_min", IP, 0, 0 },
	{ "dst_max", IP, 0, 0 },
	{ "src_min", IP, 0, 0 },
	{ "src_max", IP, 0, 0 },
	{ "dst_mac", MAC, 0, 0 },
	{ "src_mac", MAC, 0, 0 },
	{ "udp_src_min", NUM, 0, 65535 },
	{ "udp_src_max", NUM, 0, 65535 },
	{ "udp_dst_min", NUM, 0, 65535 },
	{ "udp_dst_max", NUM, 0, 65535 },
	{ "flows", NUM, 0, PG_FLOWS_MAX },
	{ "flowlen", NUM, 1, UINT32_MAX },
	{ "flag", FLAGS, 0, 0 },
	{ "seed", NUM, 0, UINT64_MAX },
	{ "runs", NUM, 1, PG_RUNS_MAX },
};

static const char *const flag_names[] = {
	"IPSRC_RND", "IPDST_RND", "UDPSRC_RND", "UDPDST_RND", "TXSIZE_RND",
};

static int bad(const char *word, const char *why)
{
	printf("pktgen: error: %s: %s\n", word, why);
	return -1;
}

static int parse_num(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno != 0 || *end != '\0' ? -1 : 0;
}

static int parse_mac(const char *s, uint8_t *mac)
{
	unsigned int b[6];
	char tail;

	if (strlen(s) != 17 ||
	    sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2],
		   &b[3], &b[4], &b[5], &tail) != 6)
		return -1;
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

/* Flag names joined by '+' (a boot loader may split a line at ','). */
static int parse_flags(const char *s, unsigned int *flags)
{
	const char *p = s;

	while (*p != '\0') {
		size_t n = strcspn(p, "+");
		unsigned int i;

		for (i = 0; i < sizeof(flag_names) / sizeof(*flag_names); i++)
			if (strlen(flag_names[i]) == n &&
			    strncmp(p, flag_names[i], n) == 0)
				break;
		if (i == sizeof(flag_names) / sizeof(*flag_names))
			return -1;
		*flags |= 1u << i;
		p += n;
		if (*p == '+')
			p++;
	}
	return 0;
}

static const struct key *key_of(const char *word, size_t len)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		if (strlen(keys[i].name) == len &&
		    strncmp(word, keys[i].name, len) == 0)
			return &keys[i];
	return NULL;
}

/* Put @k's value @v (a number or an address) into @c. */
static void apply(struct pg_config *c, const char *name, uint64_t v)
{
	uint32_t w = (uint32_t)v;

	if (strcmp(name, "count") == 0)
		c->count = v;
	else if (strcmp(name, "pkt_size") == 0)
		c->size.min = c->size.max = w;
	else if (strcmp(name, "min_pkt_size") == 0)
		c->size.min = w;
	else if (strcmp(name, "max_pkt_size") == 0)
		c->size.max = w;
	else if (strcmp(name, "clone_skb") == 0)
		c->clone_skb = w;
	else if (strcmp(name, "delay") == 0)
		c->delay_ns = v;
	else if (strcmp(name, "dst") == 0)
		c->dst.min = c->dst.max = w;
	else if (strcmp(name, "dst_min") == 0)
		c->dst.min = w;
	else if (strcmp(name, "dst_max") == 0)
		c->dst.max = w;
	else if (strcmp(name, "src_min") == 0)
		c->src.min = w;
	else if (strcmp(name, "src_max") == 0)
		c->src.max = w;
	else if (strcmp(name, "udp_src_min") == 0)
		c->udp_src.min = w;
	else if (strcmp(name, "udp_src_max") == 0)
		c->udp_src.max = w;
	else if (strcmp(name, "udp_dst_min") == 0)
		c->udp_dst.min = w;
	else if (strcmp(name, "udp_dst_max") == 0)
		c->udp_dst.max = w;
	else if (strcmp(name, "flows") == 0)
		c->flows = w;
	else if (strcmp(name, "flowlen") == 0)
		c->flowlen = w;
	else if (strcmp(name, "seed") == 0)
		c->seed = v;
	else if (strcmp(name, "runs") == 0)
		c->runs = w;
}

/* One word: its key known, its value of the key's kind and bounds. */
static int parse_word(struct pg_config *c, const char *word)
{
	const char *eq = strchr(word, '=');
	const struct key *k = eq ? key_of(word, (size_t)(eq - word)) : NULL;
	const char *v = eq ? eq + 1 : NULL;
	uint64_t n;
	uint32_t ip;

	if (k == NULL)
		return bad(word, "unknown argument");
	switch (k->kind) {
	case NUM:
		if (parse_num(v, &n) != 0)
			return bad(word, "not a number");
		if (n < k->min || n > k->max) {
			printf("pktgen: error: %s: out of range %llu-%llu\n",
			       word, (unsigned long long)k->min,
			       (unsigned long long)k->max);
			return -1;
		}
		apply(c, k->name, n);
		return 0;
	case IP:
		if (graft_parse_ipv4(v, &ip) != 0)
			return bad(word, "not an IPv4 address");
		apply(c, k->name, ip);
		return 0;
	case MAC:
		if (parse_mac(v, strcmp(k->name, "dst_mac") == 0 ?
			      c->dst_mac : c->src_mac) != 0)
			return bad(word, "not a MAC address");
		c->src_mac_set |= strcmp(k->name, "src_mac") == 0;
		return 0;
	case FLAGS:
		if (parse_flags(v, &c->flags) != 0)
			return bad(word, "unknown flag");
		return 0;
	case NAME:
		if (*v == '\0' || strlen(v) >= PG_DEV_MAX)
			return bad(word, "empty or too long");
		strcpy(c->dev, v);	/* dev=, the only name */
		return 0;
	case PORT_NAME:
		return 0;
	}
	return 0;
}

/* A range whose minimum passes its maximum. */
static int crossed(const struct pg_range *r, const char *what)
{
	if (r->min <= r->max)
		return 0;
	printf("pktgen: error: %s: minimum above maximum\n", what);
	return -1;
}

int pg_config_parse(int argc, char **argv, struct pg_config *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->dev, "eth0");
	c->count = 1000;
	c->size.min = c->size.max = PG_FRAME_MIN;
	c->dst.min = c->dst.max = 10u << 24 | 2u << 8 | 2u;	/* 10.0.2.2 */
	c->src.min = c->src.max = 10u << 24 | 2u << 8 | 15u;	/* 10.0.2.15 */
	c->udp_src.min = c->udp_src.max = 9;
	c->udp_dst.min = c->udp_dst.max = 9;
	c->seed = 1;
	c->runs = 1;
	/* argv[0] is the file, argv[1] the module's name word when it has
	 * no '=' (the boot script's "pktgen count=..."). */
	for (int i = 1; i < argc; i++)
		if ((i != 1 || strchr(argv[i], '=') != NULL) &&
		    parse_word(c, argv[i]) != 0)
			return -1;
	if (crossed(&c->size, "pkt_size") || crossed(&c->dst, "dst") ||
	    crossed(&c->src, "src") || crossed(&c->udp_src, "udp_src") ||
	    crossed(&c->udp_dst, "udp_dst"))
		return -1;
	if (c->flows != 0 && c->flowlen == 0) {
		printf("pktgen: error: flows=%u: needs flowlen\n", c->flows);
		return -1;
	}
	if (c->count == 0 && c->runs > 1) {
		printf("pktgen: error: runs=%u: needs a count\n", c->runs);
		return -1;
	}
	return 0;
}
