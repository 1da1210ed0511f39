/* SPDX-License-Identifier: GPL-2.0-only */
/* netd_client: netd.defs from a task, against peers on the host (netd-client suite). */
/*
 * netd's service port is netd=N, a send right the boot script made
 * (${netd-port} on its module line), or else its bootstrap port, which
 * netd sets when it starts the program itself (run=rd0).  Arguments:
 * peer=A.B.C.D (the host), http=PORT, path=/FILE,
 * len=N and crc=C (the file's length and CRC-32, which the harness
 * computed), udp=PORT (a UDP echo server on the host), listen=PORT (the
 * harness connects there, sends one line and expects it back; with
 * peer6, once over IPv4 and once over IPv6), leave=PORT (a listener left
 * open at the end); peer6=IPV6 (the host's link-local address), http6=
 * and udp6= (its HTTP and UDP echo servers on IPv6) for the IPv6 calls.
 * Each check prints "USER-PASS name" or "USER-FAIL name ..."; the last
 * line is "USER-DONE n" with n the number of checks
 * (tests/harness/netd_host.py reads them).
 */
#include <mach/mig_errors.h>
#include <mach/task_special_ports.h>
#include <mach/thread_switch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "netd_err.h"
#include "netd_user.h"

static mach_port_t service;	/* netd's service port */
static mach_port_t netd;	/* the session every call goes to */
static unsigned int checks, failed;
static netd_data_t buf;

static void check(const char *name, long expected, long got)
{
	checks++;
	if (expected == got) {
		printf("USER-PASS %s\n", name);
		return;
	}
	failed++;
	printf("USER-FAIL %s: expected %ld (0x%lx), got %ld (0x%lx)\n", name,
	       expected, (unsigned long)expected, got, (unsigned long)got);
}

static uint32_t parse_ip(const char *s)
{
	unsigned int b[4] = { 0 };

	sscanf(s, "%u.%u.%u.%u", &b[0], &b[1], &b[2], &b[3]);
	return b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
}

/* "x:x:...:x" with at most one "::" into 16 bytes; 0 if malformed. */
static int parse_ip6(const char *s, netd_ip6_t out)
{
	unsigned int words[8], n = 0, gap = 8;

	memset(out, 0, sizeof(netd_ip6_t));
	if (s[0] == ':' && s[1] == ':') {
		gap = 0;
		s += 2;
	}
	while (*s != '\0' && n < 8) {
		char *end;

		words[n++] = (unsigned int)strtoul(s, &end, 16);
		if (end == s || words[n - 1] > 0xffff)
			return 0;
		s = end;
		if (s[0] == ':' && s[1] == ':' && gap == 8) {
			gap = n;
			s += 2;
		} else if (s[0] == ':') {
			s++;
		} else if (s[0] != '\0') {
			return 0;
		}
	}
	if (*s != '\0' || (gap == 8 && n != 8) || (gap != 8 && n > 7))
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int at = i < gap ? i : 8 - n + i;

		out[2 * at] = (char)(words[i] >> 8);
		out[2 * at + 1] = (char)words[i];
	}
	return 1;
}

static uint32_t crc32(uint32_t crc, const unsigned char *p, size_t n)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

/* check() with @tag before @name ("" for IPv4, "ipv6_" for IPv6). */
static void checkt(const char *tag, const char *name, long expected,
		   long got)
{
	char full[64];

	snprintf(full, sizeof(full), "%s%s", tag, name);
	check(full, expected, got);
}

/* GET @path on the connected socket @s; check the body's length and
 * CRC-32; close it. */
static void fetch(const char *tag, int s, const char *path, long len,
		  unsigned long crc)
{
	mach_msg_type_number_t n;
	unsigned long body = 0, got_crc = 0;
	int header_done = 0, status = 0, match = 0;
	static netd_data_t req;
	char head[1024];
	size_t hl = 0;
	int sent = 0;
	kern_return_t kr;

	snprintf(req, sizeof(req), "GET %s HTTP/1.0\r\nHost: peer\r\n\r\n",
		 path);
	checkt(tag, "tcp_send_request", KERN_SUCCESS,
	       netd_tcp_send(netd, s, req, strlen(req), &sent));
	checkt(tag, "tcp_send_all_of_it", (long)strlen(req), sent);
	for (;;) {
		size_t i = 0;

		n = sizeof(buf);
		kr = netd_tcp_recv(netd, s, sizeof(buf), buf, &n);
		if (kr != KERN_SUCCESS || n == 0)
			break;
		/* Header bytes up to the blank line, then the body. */
		while (!header_done && i < n) {
			if (hl < sizeof(head) - 1)
				head[hl++] = buf[i];
			match = buf[i++] == "\r\n\r\n"[match] ? match + 1 :
				buf[i - 1] == '\r';
			header_done = match == 4;
		}
		got_crc = crc32((uint32_t)got_crc, (unsigned char *)buf + i,
				n - i);
		body += n - i;
	}
	head[hl] = '\0';
	sscanf(head, "HTTP/%*s %d", &status);
	checkt(tag, "tcp_recv_ends_cleanly", KERN_SUCCESS, kr);
	checkt(tag, "http_status_200", 200, status);
	checkt(tag, "http_body_length", len, (long)body);
	checkt(tag, "http_body_crc32", (long)crc, (long)got_crc);
	checkt(tag, "tcp_close", KERN_SUCCESS, netd_close(netd, s));
}

/* Closed sockets are unknown. */
static void closed_socket(int s)
{
	mach_msg_type_number_t n;
	int sent = 0;

	/* The same id again: closed, so unknown. */
	n = sizeof(buf);
	check("recv_on_closed_socket", NETD_EBADSOCK,
	      netd_tcp_recv(netd, s, 16, buf, &n));
	check("send_on_closed_socket", NETD_EBADSOCK,
	      netd_tcp_send(netd, s, buf, 1, &sent));
	check("close_closed_socket", NETD_EBADSOCK, netd_close(netd, s));
}

/* One datagram to the host's UDP echo server and back. */
static void udp_echo(uint32_t peer, int port)
{
	static const char msg[] = "graft netd udp echo";
	mach_msg_type_number_t n = sizeof(buf);
	uint32_t from = 0;
	int u = -1, from_port = 0;

	memcpy(buf, msg, sizeof(msg));
	check("udp_bind", KERN_SUCCESS, netd_udp_bind(netd, 0, &u));
	check("udp_sendto", KERN_SUCCESS,
	      netd_udp_sendto(netd, u, peer, port, buf, sizeof(msg) - 1));
	check("udp_recvfrom", KERN_SUCCESS,
	      netd_udp_recvfrom(netd, u, sizeof(buf), &from, &from_port, buf,
				&n));
	check("udp_reply_from_peer", (long)peer, (long)from);
	check("udp_reply_from_port", port, from_port);
	check("udp_reply_length", (long)sizeof(msg) - 1, (long)n);
	check("udp_reply_bytes", 0, memcmp(buf, msg, sizeof(msg) - 1));
	check("udp_sendto_invalid_address", NETD_EADDR,
	      netd_udp_sendto(netd, u, 0, port, buf, 1));
	check("udp_sendto_port_zero", NETD_EADDR,
	      netd_udp_sendto(netd, u, peer, 0, buf, 1));
	n = sizeof(buf);
	check("tcp_recv_on_udp_socket", NETD_EKIND,
	      netd_tcp_recv(netd, u, 16, buf, &n));
	check("udp_close", KERN_SUCCESS, netd_close(netd, u));
}

/* Accept @conns connections on @port in turn (the harness comes over
 * IPv4, then over IPv6: a listener takes both), echo the line each
 * brings, close. */
static void serve(int port, int conns)
{
	int l = -1, c = -1, sent = 0, again = -1;

	check("tcp_listen", KERN_SUCCESS, netd_tcp_listen(netd, port, &l));
	check("tcp_listen_port_taken", NETD_EINUSE,
	      netd_tcp_listen(netd, port, &again));
	printf("netd_client: listening on %d\n", port);
	for (int i = 0; i < conns; i++) {
		mach_msg_type_number_t n = sizeof(buf);
		const char *tag = i ? "ipv6_" : "";

		checkt(tag, "tcp_accept", KERN_SUCCESS,
		       netd_tcp_accept(netd, l, &c));
		checkt(tag, "tcp_recv_line", KERN_SUCCESS,
		       netd_tcp_recv(netd, c, sizeof(buf), buf, &n));
		checkt(tag, "tcp_send_line_back", KERN_SUCCESS,
		       netd_tcp_send(netd, c, buf, n, &sent));
		checkt(tag, "tcp_close_accepted", KERN_SUCCESS,
		       netd_close(netd, c));
	}
	check("tcp_close_listener", KERN_SUCCESS, netd_close(netd, l));
}

/* Connect to @addr:@port over IPv6, asking again while netd has no
 * address to send from (NETD_EUNREACH: its link-local address is still
 * in duplicate address detection), 10 s at most. */
static kern_return_t connect6(const netd_ip6_t addr, int port, int *s)
{
	kern_return_t kr = NETD_EUNREACH;

	for (int i = 0; i < 100 && kr == NETD_EUNREACH; i++) {
		kr = netd_tcp_connect6(netd, (char *)addr, port, s);
		if (kr == NETD_EUNREACH)
			thread_switch(MACH_PORT_NULL, SWITCH_OPTION_WAIT, 100);
	}
	return kr;
}

/*
 * netd.defs over IPv6, against the host's link-local address @peer: the
 * addresses no call may use refused, the file fetched from the host's
 * HTTP server on @http, a datagram echoed by its UDP server on @udp
 * (the sender seen as @peer), and an IPv4 sender seen mapped.
 */
static void ipv6(const netd_ip6_t peer, int http, int udp, uint32_t peer4,
		 int udp4, const char *path, long len, unsigned long crc)
{
	static const char msg[] = "graft netd udp echo over ipv6";
	static const struct {
		const char *name, *addr;
	} refused[] = {
		{ "ipv6_connect_unspecified", "::" },
		{ "ipv6_connect_loopback", "::1" },
		{ "ipv6_connect_multicast", "ff02::1" },
		{ "ipv6_connect_ipv4_mapped", "::ffff:a00:201" },
	};
	netd_ip6_t bad, from;
	mach_msg_type_number_t n;
	int s = -1, u = -1, from_port = 0;

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		parse_ip6(refused[i].addr, bad);
		check(refused[i].name, NETD_EADDR,
		      netd_tcp_connect6(netd, bad, http, &s));
	}
	check("ipv6_connect_port_zero", NETD_EADDR,
	      netd_tcp_connect6(netd, (char *)peer, 0, &s));
	check("ipv6_connect_port_70000", NETD_EADDR,
	      netd_tcp_connect6(netd, (char *)peer, 70000, &s));
	check("ipv6_tcp_connect", KERN_SUCCESS, connect6(peer, http, &s));
	fetch("ipv6_", s, path, len, crc);
	check("ipv6_connect_refused", NETD_ERESET, connect6(peer, 1, &s));

	check("ipv6_udp_bind", KERN_SUCCESS, netd_udp_bind(netd, 0, &u));
	parse_ip6("ff02::1", bad);
	check("ipv6_udp_sendto_multicast", NETD_EADDR,
	      netd_udp_sendto6(netd, u, bad, udp, buf, 1));
	memcpy(buf, msg, sizeof(msg));
	check("ipv6_udp_sendto", KERN_SUCCESS,
	      netd_udp_sendto6(netd, u, (char *)peer, udp, buf,
			       sizeof(msg) - 1));
	n = sizeof(buf);
	check("ipv6_udp_recvfrom", KERN_SUCCESS,
	      netd_udp_recvfrom6(netd, u, sizeof(buf), from, &from_port, buf,
				 &n));
	check("ipv6_udp_reply_from_peer", 0, memcmp(from, peer, 16));
	check("ipv6_udp_reply_from_port", udp, from_port);
	check("ipv6_udp_reply_bytes", 0, n == sizeof(msg) - 1 ?
	      memcmp(buf, msg, n) : -1);
	/* The same socket over IPv4: the sender comes mapped. */
	memcpy(buf, msg, sizeof(msg));
	check("ipv4_udp_sendto_on_the_same_socket", KERN_SUCCESS,
	      netd_udp_sendto(netd, u, peer4, udp4, buf, sizeof(msg) - 1));
	n = sizeof(buf);
	check("ipv4_udp_recvfrom6", KERN_SUCCESS,
	      netd_udp_recvfrom6(netd, u, sizeof(buf), from, &from_port, buf,
				 &n));
	parse_ip6("::ffff:0:0", bad);
	bad[12] = (char)(peer4 >> 24);
	bad[13] = (char)(peer4 >> 16);
	bad[14] = (char)(peer4 >> 8);
	bad[15] = (char)peer4;
	check("ipv4_sender_mapped", 0, memcmp(from, bad, 16));
	check("ipv6_udp_close", KERN_SUCCESS, netd_close(netd, u));
}

/* Messages no MIG stub sends: one larger than netd receives (the kernel
 * destroys it), one with an id netd.defs does not have (MIG_BAD_ID). */
static void bad_messages(void)
{
	static struct {
		mach_msg_header_t h;
		mach_msg_type_t t;
		int data[4095];
	} big;
	static union {
		mig_reply_header_t r;
		char bytes[256];
	} reply;
	mach_port_t port = MACH_PORT_NULL;
	kern_return_t kr;

	big.h.msgh_bits = MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND, 0);
	big.h.msgh_size = sizeof(big);
	big.h.msgh_remote_port = netd;
	big.h.msgh_local_port = MACH_PORT_NULL;
	big.h.msgh_id = 7405;
	big.t.msgt_name = MACH_MSG_TYPE_INTEGER_32;
	big.t.msgt_size = 32;
	big.t.msgt_number = sizeof(big.data) / sizeof(big.data[0]);
	big.t.msgt_inline = TRUE;
	check("oversize_message_sent", MACH_MSG_SUCCESS,
	      mach_msg(&big.h, MACH_SEND_MSG, sizeof(big), 0, MACH_PORT_NULL,
		       0, MACH_PORT_NULL));
	check("reply_port", KERN_SUCCESS,
	      mach_port_allocate(mach_task_self(), MACH_PORT_RIGHT_RECEIVE,
				 &port));
	big.h.msgh_bits = MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND,
					 MACH_MSG_TYPE_MAKE_SEND_ONCE);
	big.h.msgh_size = sizeof(big.h);
	big.h.msgh_local_port = port;
	big.h.msgh_id = 7399;
	kr = mach_msg(&big.h, MACH_SEND_MSG | MACH_RCV_MSG | MACH_RCV_TIMEOUT,
		      sizeof(big.h), sizeof(reply), port, 5000,
		      MACH_PORT_NULL);
	check("unknown_id_answered", MACH_MSG_SUCCESS, kr);
	memcpy(&reply, &big, sizeof(reply));
	check("unknown_id_is_mig_bad_id", MIG_BAD_ID,
	      kr == MACH_MSG_SUCCESS ? reply.r.RetCode : 0);
	mach_port_destroy(mach_task_self(), port);
	check("netd_answers_after_bad_messages", NETD_EBADSOCK,
	      netd_close(netd, 4242));
}

/* Sockets belong to their session: the service port makes none, another
 * session cannot name them, a session whose last right goes is closed. */
static void sessions(uint32_t peer)
{
	mach_port_t other = MACH_PORT_NULL, again = MACH_PORT_NULL;
	mach_msg_type_number_t n = sizeof(buf);
	int s = -1, t = -1, port = 0;
	uint32_t from = 0;

	(void)peer;
	check("socket_call_on_service_port", NETD_ENOSESSION,
	      netd_udp_bind(service, 0, &s));
	check("session_open_on_a_session", NETD_EKIND,
	      netd_session_open(netd, &again));
	check("second_session", KERN_SUCCESS,
	      netd_session_open(service, &other));
	check("udp_bind_in_first_session", KERN_SUCCESS,
	      netd_udp_bind(netd, 0, &s));
	check("other_session_cannot_receive", NETD_EBADSOCK,
	      netd_udp_recvfrom(other, s, 16, &from, &port, buf, &n));
	check("other_session_cannot_close", NETD_EBADSOCK,
	      netd_close(other, s));
	check("udp_bind_in_second_session", KERN_SUCCESS,
	      netd_udp_bind(other, 0, &t));
	/* The second session's only send right goes: netd closes it. */
	check("second_session_released", KERN_SUCCESS,
	      mach_port_deallocate(mach_task_self(), other));
	check("first_session_still_works", KERN_SUCCESS, netd_close(netd, s));
}

/* Calls netd must refuse with an error, and live. */
static void bad_calls(uint32_t peer)
{
	mach_msg_type_number_t n = sizeof(buf);
	int s = -1, sent = 0, port = 0;
	uint32_t from = 0;

	check("recv_unknown_socket", NETD_EBADSOCK,
	      netd_tcp_recv(netd, 12345, 16, buf, &n));
	check("send_negative_socket", NETD_EBADSOCK,
	      netd_tcp_send(netd, -1, buf, 1, &sent));
	check("close_unknown_socket", NETD_EBADSOCK, netd_close(netd, 999));
	check("connect_to_address_zero", NETD_EADDR,
	      netd_tcp_connect(netd, 0, 80, &s));
	check("connect_to_broadcast", NETD_EADDR,
	      netd_tcp_connect(netd, 0xffffffff, 80, &s));
	check("connect_to_port_zero", NETD_EADDR,
	      netd_tcp_connect(netd, peer, 0, &s));
	check("connect_to_port_70000", NETD_EADDR,
	      netd_tcp_connect(netd, peer, 70000, &s));
	check("listen_on_port_zero", NETD_EADDR,
	      netd_tcp_listen(netd, 0, &s));
	check("udp_bind_port_negative", NETD_EADDR,
	      netd_udp_bind(netd, -5, &s));
	check("udp_bind", KERN_SUCCESS, netd_udp_bind(netd, 0, &s));
	n = sizeof(buf);
	check("recv_oversize_buffer", NETD_ETOOBIG,
	      netd_udp_recvfrom(netd, s, 100000, &from, &port, buf, &n));
	check("recv_zero_buffer", NETD_ETOOBIG,
	      netd_udp_recvfrom(netd, s, 0, &from, &port, buf, &n));
	check("send_oversize_buffer_refused_by_stub", MIG_ARRAY_TOO_LARGE,
	      netd_udp_sendto(netd, s, peer, 9, buf, 8193));
	check("accept_on_udp_socket", NETD_EKIND,
	      netd_tcp_accept(netd, s, &sent));
	check("close", KERN_SUCCESS, netd_close(netd, s));
	/* A connection the peer refuses (nothing listens on port 1). */
	check("connect_refused", NETD_ERESET,
	      netd_tcp_connect(netd, peer, 1, &s));
}

int main(int argc, char **argv)
{
	uint32_t peer = parse_ip(graft_arg(argc, argv, "peer", "10.0.2.1"));
	const char *peer6 = graft_arg(argc, argv, "peer6", NULL);
	const char *path = graft_arg(argc, argv, "path", "/");
	long len = atol(graft_arg(argc, argv, "len", "0"));
	unsigned long crc = strtoul(graft_arg(argc, argv, "crc", "0"), NULL,
				    0);
	int udp = atoi(graft_arg(argc, argv, "udp", "7"));
	netd_ip6_t addr6;
	int leave = -1, s = -1;
	kern_return_t kr;

	service = graft_arg_port(argc, argv, "netd");
	kr = KERN_SUCCESS;
	if (service == MACH_PORT_NULL)
		kr = task_get_special_port(mach_task_self(),
					   TASK_BOOTSTRAP_PORT, &service);
	if (kr != KERN_SUCCESS || service == MACH_PORT_NULL) {
		printf("USER-FAIL no netd port (error 0x%x)\nUSER-DONE 1\n",
		       kr);
		return 1;
	}
	check("session_open", KERN_SUCCESS,
	      netd_session_open(service, &netd));
	sessions(peer);
	bad_calls(peer);
	bad_messages();
	check("tcp_connect", KERN_SUCCESS,
	      netd_tcp_connect(netd, peer, atoi(graft_arg(argc, argv, "http",
							  "8000")), &s));
	fetch("", s, path, len, crc);
	closed_socket(s);
	udp_echo(peer, udp);
	if (peer6 != NULL) {
		check("ipv6_peer_parsed", 1, parse_ip6(peer6, addr6));
		ipv6(addr6, atoi(graft_arg(argc, argv, "http6", "8006")),
		     atoi(graft_arg(argc, argv, "udp6", "7008")), peer, udp,
		     path, len, crc);
	}
	serve(atoi(graft_arg(argc, argv, "listen", "2000")),
	      peer6 != NULL ? 2 : 1);
	/* Left open: netd closes it when this task dies (its session's
	 * last send right goes); the harness checks. */
	check("listener_left_open", KERN_SUCCESS,
	      netd_tcp_listen(netd, atoi(graft_arg(argc, argv, "leave",
						      "2001")), &leave));
	printf("USER-DONE %u\n", checks);
	printf("netd_client: done, %u checks, %u failed\n", checks, failed);
	return failed != 0;
}
