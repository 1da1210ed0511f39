/* SPDX-License-Identifier: GPL-2.0-only */
/* netd.defs served: sockets over lwIP's raw API, answered late when they wait. */
/*
 * Clients open a session on the service port (netd_session_open): a port
 * of netd's own, in its port set, whose no-senders notification comes
 * back to it; every socket belongs to the session it was made on, other
 * sessions cannot name it, and when the last send right to the session
 * goes (closed, or its task died) its sockets are closed.  A socket id is
 * (generation << 6) | slot, so an id that was closed stays unknown
 * (NETD_EBADSOCK) after its slot is reused.  A call that must wait
 * returns MIG_NO_REPLY and keeps its reply port (a send-once right) in the
 * socket; lwIP's callbacks answer it through netd_reply.defs.  Each socket
 * has one slot per kind of waiting call (connect or accept, send,
 * receive); a second call of a kind already waiting is NETD_EBUSY.
 */
#include <mach/message.h>
#include <mach/mig_errors.h>
#include <mach/notify.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "lwip/tcp.h"
#include "lwip/udp.h"
#include "netd.h"
#include "netd_err.h"
#include "netd_types.h"
#include "netd_reply.h"
#include "netd_server.h"

#define NSOCK		64
#define DATA_MAX	NETD_DATA_MAX
#define UDP_QUEUE	16
#define ACCEPT_QUEUE	8
#define NSESSION	32

enum kind { SOCK_FREE, SOCK_TCP, SOCK_LISTEN, SOCK_UDP };

struct dgram {
	struct pbuf *p;
	ip_addr_t addr;			/* IPv4 or IPv6 */
	u16_t port;
};

struct sock {
	enum kind kind;
	unsigned int gen;
	mach_port_t owner;		/* the session it was made on */
	struct tcp_pcb *tcp;
	struct udp_pcb *udp;
	struct pbuf *rx;		/* TCP: bytes not yet received */
	int eof;			/* TCP: the peer has closed */
	int reset;			/* TCP: the pcb is gone (RST, refusal) */
	struct dgram dq[UDP_QUEUE];	/* UDP: datagrams not yet received */
	unsigned int dq_head, dq_len;
	int acceptq[ACCEPT_QUEUE];	/* listener: connections not accepted */
	unsigned int aq_len;
	mach_port_t conn_reply, send_reply, recv_reply;
	int conn6;			/* conn_reply waits in a connect6 */
	int recv6;			/* recv_reply waits in a recvfrom6 */
	int recv_max;
	char *sbuf;			/* TCP: the waiting send's bytes */
	size_t slen, sdone;
};

static struct sock socks[NSOCK];
static mach_port_t service, port_set;
static mach_port_t sessions[NSESSION];

boolean_t netd_server(mach_msg_header_t *in, mach_msg_header_t *out);

static int sock_id(const struct sock *s)
{
	return (int)(s->gen << 6 | (unsigned int)(s - socks));
}

/* Whether @port is the port of an open session. */
static int is_session(mach_port_t port)
{
	for (int i = 0; i < NSESSION; i++)
		if (port != MACH_PORT_NULL && sessions[i] == port)
			return 1;
	return 0;
}

/* Socket @id of session @owner, or NULL. */
static struct sock *sock_get(int id, mach_port_t owner)
{
	struct sock *s;

	if (id < 0)
		return NULL;
	s = &socks[id & (NSOCK - 1)];
	if (s->kind == SOCK_FREE || sock_id(s) != id || s->owner != owner)
		return NULL;
	return s;
}

static struct sock *sock_new(enum kind kind, mach_port_t owner)
{
	for (int i = 0; i < NSOCK; i++) {
		struct sock *s = &socks[i];
		unsigned int gen = s->gen;

		if (s->kind != SOCK_FREE)
			continue;
		memset(s, 0, sizeof(*s));
		s->kind = kind;
		s->owner = owner;
		s->gen = (gen + 1) & 0xffffff;
		s->conn_reply = s->send_reply = s->recv_reply = MACH_PORT_NULL;
		return s;
	}
	return NULL;
}

/* Socket @id of session @server, which must be of @kind (SOCK_FREE:
 * any kind): in *@s, or the error to answer (*@s NULL). */
static kern_return_t sock_of(mach_port_t server, int id, enum kind kind,
			     struct sock **s)
{
	*s = NULL;
	if (!is_session(server))
		return NETD_ENOSESSION;
	*s = sock_get(id, server);
	if (*s == NULL)
		return NETD_EBADSOCK;
	if (kind != SOCK_FREE && (*s)->kind != kind) {
		*s = NULL;
		return NETD_EKIND;
	}
	return KERN_SUCCESS;
}

/* Address in host order from netd.defs into lwIP's; 0 if unusable. */
static int peer_addr(uint32_t addr, int port, ip_addr_t *ip)
{
	if (port <= 0 || port > 0xffff || addr == 0 || addr == 0xffffffff ||
	    (addr >> 28) == 0xe || (addr >> 24) == 127)
		return 0;
	ip_addr_set_ip4_u32_val(*ip, lwip_htonl(addr));
	return 1;
}

/* An IPv6 address of netd.defs (16 bytes) into lwIP's, its zone netd's
 * one netif; 0 if unusable: the port out of range, the unspecified
 * address, loopback, multicast, or an IPv4-mapped one (the IPv4 calls
 * are for those). */
static int peer_addr6(const netd_ip6_t addr, int port, ip_addr_t *ip)
{
	ip6_addr_t *a = ip_2_ip6(ip);

	if (port <= 0 || port > 0xffff)
		return 0;
	ip_addr_set_zero_ip6(ip);
	memcpy(a->addr, addr, sizeof(a->addr));
	if (ip6_addr_isany(a) || ip6_addr_isloopback(a) ||
	    ip6_addr_ismulticast(a) || ip6_addr_isipv4mappedipv6(a))
		return 0;
	ip6_addr_assign_zone(a, IP6_UNICAST, &netd_netif);
	return 1;
}

/* @ip as netd.defs's IPv6 bytes (an IPv4 address mapped). */
static void addr6_of(const ip_addr_t *ip, netd_ip6_t out)
{
	ip6_addr_t a;

	if (IP_IS_V4(ip)) {
		ip4_2_ipv4_mapped_ipv6(&a, ip_2_ip4(ip));
	} else {
		ip6_addr_copy(a, *ip_2_ip6(ip));
	}
	memcpy(out, a.addr, sizeof(a.addr));
}

/* What lwIP's refusal of a connect or a send answers. */
static kern_return_t send_error(err_t err)
{
	return err == ERR_RTE ? NETD_EUNREACH : NETD_ENOMEM;
}

/* --- late answers ----------------------------------------------------- */

static void answer_conn(struct sock *s, kern_return_t kr, int id)
{
	mach_port_t r = s->conn_reply;

	if (r == MACH_PORT_NULL)
		return;
	s->conn_reply = MACH_PORT_NULL;
	if (s->kind == SOCK_LISTEN)
		netd_tcp_accept_reply(r, kr, id);
	else if (s->conn6)
		netd_tcp_connect6_reply(r, kr, id);
	else
		netd_tcp_connect_reply(r, kr, id);
}

static void answer_send(struct sock *s, kern_return_t kr)
{
	mach_port_t r = s->send_reply;

	if (r == MACH_PORT_NULL)
		return;
	s->send_reply = MACH_PORT_NULL;
	netd_tcp_send_reply(r, kr, kr == KERN_SUCCESS ? (int)s->slen : 0);
	free(s->sbuf);
	s->sbuf = NULL;
}

/* Answer a waiting TCP receive if there is data, an end or a reset. */
static void tcp_try_recv(struct sock *s)
{
	static char buf[DATA_MAX];
	mach_port_t r = s->recv_reply;
	u16_t n;

	if (r == MACH_PORT_NULL)
		return;
	if (s->rx != NULL) {
		n = (u16_t)(s->rx->tot_len < s->recv_max ? s->rx->tot_len :
			    s->recv_max);
		pbuf_copy_partial(s->rx, buf, n, 0);
		s->rx = pbuf_free_header(s->rx, n);
		if (s->tcp != NULL)
			tcp_recved(s->tcp, n);
		s->recv_reply = MACH_PORT_NULL;
		netd_tcp_recv_reply(r, KERN_SUCCESS, buf, n);
	} else if (s->eof || s->reset) {
		s->recv_reply = MACH_PORT_NULL;
		netd_tcp_recv_reply(r, s->eof ? KERN_SUCCESS : NETD_ERESET,
				    buf, 0);
	}
}

/* Answer a receive of either form with @code, the datagram @buf of @n
 * bytes from @addr:@port (NULL: none; an IPv6 sender reads as address 0
 * in the IPv4 form). */
static void udp_answer(mach_port_t r, int v6, kern_return_t code,
		       const ip_addr_t *addr, u16_t port, const char *buf,
		       u16_t n)
{
	netd_ip6_t a6 = { 0 };
	uint32_t a4 = 0;

	if (addr != NULL && IP_IS_V4(addr))
		a4 = lwip_ntohl(ip4_addr_get_u32(ip_2_ip4(addr)));
	if (addr != NULL)
		addr6_of(addr, a6);
	if (v6)
		netd_udp_recvfrom6_reply(r, code, a6, port, (char *)buf, n);
	else
		netd_udp_recvfrom_reply(r, code, a4, port, (char *)buf, n);
}

static void udp_try_recv(struct sock *s)
{
	static char buf[DATA_MAX];
	mach_port_t r = s->recv_reply;
	struct dgram *d;
	u16_t n;

	if (r == MACH_PORT_NULL || s->dq_len == 0)
		return;
	d = &s->dq[s->dq_head];
	n = (u16_t)(d->p->tot_len < s->recv_max ? d->p->tot_len :
		    s->recv_max);
	pbuf_copy_partial(d->p, buf, n, 0);
	s->recv_reply = MACH_PORT_NULL;
	udp_answer(r, s->recv6, KERN_SUCCESS, &d->addr, d->port, buf, n);
	pbuf_free(d->p);
	s->dq_head = (s->dq_head + 1) % UDP_QUEUE;
	s->dq_len--;
}

/* Queue what the send buffer takes of the waiting send; answer at the end. */
static void tcp_try_send(struct sock *s)
{
	if (s->send_reply == MACH_PORT_NULL)
		return;
	if (s->tcp == NULL || s->reset) {
		answer_send(s, NETD_ERESET);
		return;
	}
	while (s->sdone < s->slen) {
		size_t n = s->slen - s->sdone;
		u16_t room = tcp_sndbuf(s->tcp);

		if (n > room)
			n = room;
		if (n == 0 || tcp_write(s->tcp, s->sbuf + s->sdone, (u16_t)n,
					TCP_WRITE_FLAG_COPY) != ERR_OK)
			break;
		s->sdone += n;
	}
	tcp_output(s->tcp);
	if (s->sdone == s->slen)
		answer_send(s, KERN_SUCCESS);
}

/* --- lwIP callbacks --------------------------------------------------- */

static err_t on_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p,
		     err_t err)
{
	struct sock *s = arg;

	(void)pcb;
	if (err != ERR_OK) {
		if (p != NULL)
			pbuf_free(p);
		return ERR_OK;
	}
	if (p == NULL)
		s->eof = 1;
	else if (s->rx == NULL)
		s->rx = p;
	else
		pbuf_cat(s->rx, p);
	tcp_try_recv(s);
	return ERR_OK;
}

static err_t on_sent(void *arg, struct tcp_pcb *pcb, u16_t len)
{
	(void)pcb, (void)len;
	tcp_try_send(arg);
	return ERR_OK;
}

/* The pcb is gone (lwIP freed it): answer whatever waits on it. */
static void on_err(void *arg, err_t err)
{
	struct sock *s = arg;

	(void)err;
	s->tcp = NULL;
	s->reset = 1;
	answer_conn(s, NETD_ERESET, 0);
	answer_send(s, NETD_ERESET);
	tcp_try_recv(s);
}

static void tcp_attach(struct sock *s, struct tcp_pcb *pcb)
{
	s->tcp = pcb;
	tcp_arg(pcb, s);
	tcp_recv(pcb, on_recv);
	tcp_sent(pcb, on_sent);
	tcp_err(pcb, on_err);
}

static err_t on_connected(void *arg, struct tcp_pcb *pcb, err_t err)
{
	struct sock *s = arg;

	(void)pcb;
	answer_conn(s, err == ERR_OK ? KERN_SUCCESS : NETD_ERESET,
		    sock_id(s));
	return ERR_OK;
}

static err_t on_accept(void *arg, struct tcp_pcb *pcb, err_t err)
{
	struct sock *l = arg, *s;

	if (err != ERR_OK || pcb == NULL)
		return ERR_VAL;
	if (l->aq_len == ACCEPT_QUEUE ||
	    (s = sock_new(SOCK_TCP, l->owner)) == NULL) {
		tcp_abort(pcb);
		return ERR_ABRT;
	}
	tcp_attach(s, pcb);
	if (l->conn_reply != MACH_PORT_NULL)
		answer_conn(l, KERN_SUCCESS, sock_id(s));
	else
		l->acceptq[l->aq_len++] = sock_id(s);
	return ERR_OK;
}

static void on_datagram(void *arg, struct udp_pcb *pcb, struct pbuf *p,
			const ip_addr_t *addr, u16_t port)
{
	struct sock *s = arg;
	struct dgram *d;

	(void)pcb;
	if (s->dq_len == UDP_QUEUE) {
		pbuf_free(p);
		return;
	}
	d = &s->dq[(s->dq_head + s->dq_len++) % UDP_QUEUE];
	d->p = p;
	ip_addr_copy(d->addr, *addr);
	d->port = port;
	udp_try_recv(s);
}

/* A free socket of @kind for @owner with a new TCP pcb of address
 * @type (IPADDR_TYPE_V4, _V6, _ANY) in *@pcb, or NULL (no socket, or no
 * pcb: nothing kept). */
static struct sock *tcp_sock_new(enum kind kind, mach_port_t owner,
				 u8_t type, struct tcp_pcb **pcb)
{
	struct sock *s = sock_new(kind, owner);

	if (s == NULL)
		return NULL;
	*pcb = tcp_new_ip_type(type);
	if (*pcb == NULL) {
		s->kind = SOCK_FREE;
		return NULL;
	}
	return s;
}

/* --- the routines ----------------------------------------------------- */

/* Connect a new socket of @server to @ip:@port (checked), answering
 * through @reply with the IPv6 form's reply if @v6. */
static kern_return_t tcp_connect_to(mach_port_t server, mach_port_t reply,
				    const ip_addr_t *ip, int port, int v6,
				    int *id)
{
	struct tcp_pcb *pcb;
	struct sock *s;
	err_t err;

	s = tcp_sock_new(SOCK_TCP, server, IP_GET_TYPE(ip), &pcb);
	if (s == NULL)
		return NETD_ENOMEM;
	tcp_attach(s, pcb);
	err = tcp_connect(pcb, ip, (u16_t)port, on_connected);
	if (err != ERR_OK) {
		tcp_abort(pcb);
		s->kind = SOCK_FREE;
		return send_error(err);
	}
	*id = sock_id(s);
	s->conn_reply = reply;
	s->conn6 = v6;
	return MIG_NO_REPLY;
}

kern_return_t S_netd_tcp_connect(mach_port_t server, mach_port_t reply,
				 uint32_t addr, int port, int *id)
{
	ip_addr_t ip;

	if (!is_session(server))
		return NETD_ENOSESSION;
	if (!peer_addr(addr, port, &ip))
		return NETD_EADDR;
	return tcp_connect_to(server, reply, &ip, port, 0, id);
}

kern_return_t S_netd_tcp_connect6(mach_port_t server, mach_port_t reply,
				  const netd_ip6_t addr, int port, int *id)
{
	ip_addr_t ip;

	if (!is_session(server))
		return NETD_ENOSESSION;
	if (!peer_addr6(addr, port, &ip))
		return NETD_EADDR;
	return tcp_connect_to(server, reply, &ip, port, 1, id);
}

kern_return_t S_netd_tcp_listen(mach_port_t server, int port, int *id)
{
	struct tcp_pcb *pcb, *lpcb;
	struct sock *s;
	err_t err;

	if (!is_session(server))
		return NETD_ENOSESSION;
	if (port <= 0 || port > 0xffff)
		return NETD_EADDR;
	s = tcp_sock_new(SOCK_LISTEN, server, IPADDR_TYPE_ANY, &pcb);
	if (s == NULL)
		return NETD_ENOMEM;
	err = tcp_bind(pcb, IP_ANY_TYPE, (u16_t)port);
	lpcb = err == ERR_OK ? tcp_listen(pcb) : NULL;
	if (lpcb == NULL) {
		tcp_close(pcb);
		s->kind = SOCK_FREE;
		return err == ERR_USE ? NETD_EINUSE : NETD_ENOMEM;
	}
	s->tcp = lpcb;
	tcp_arg(lpcb, s);
	tcp_accept(lpcb, on_accept);
	*id = sock_id(s);
	return KERN_SUCCESS;
}

kern_return_t S_netd_tcp_accept(mach_port_t server, mach_port_t reply,
				int id, int *conn)
{
	struct sock *s;
	kern_return_t code = sock_of(server, id, SOCK_LISTEN, &s);

	if (s == NULL)
		return code;
	if (s->conn_reply != MACH_PORT_NULL)
		return NETD_EBUSY;
	if (s->aq_len > 0) {
		*conn = s->acceptq[0];
		memmove(s->acceptq, s->acceptq + 1,
			--s->aq_len * sizeof(*s->acceptq));
		return KERN_SUCCESS;
	}
	s->conn_reply = reply;
	return MIG_NO_REPLY;
}

kern_return_t S_netd_tcp_send(mach_port_t server, mach_port_t reply, int id,
			      const netd_data_t data, mach_msg_type_number_t len,
			      int *sent)
{
	struct sock *s;
	kern_return_t code = sock_of(server, id, SOCK_TCP, &s);

	if (s == NULL)
		return code;
	if (s->send_reply != MACH_PORT_NULL)
		return NETD_EBUSY;
	if (s->tcp == NULL || s->reset)
		return NETD_ERESET;
	if (len > DATA_MAX)
		return NETD_ETOOBIG;
	s->sbuf = malloc(len ? len : 1);
	if (s->sbuf == NULL)
		return NETD_ENOMEM;
	memcpy(s->sbuf, data, len);
	s->slen = len;
	s->sdone = 0;
	s->send_reply = reply;
	*sent = (int)len;
	tcp_try_send(s);
	return MIG_NO_REPLY;
}

/* Check a receive of at most @max bytes on socket @id of @server, which
 * must be of @kind, and keep its reply right @reply: the socket, or NULL
 * with *@code the error to answer. */
static struct sock *recv_start(mach_port_t server, mach_port_t reply,
			       int id, enum kind kind, int max,
			       kern_return_t *code)
{
	struct sock *s;

	*code = sock_of(server, id, kind, &s);
	if (s == NULL)
		return NULL;
	if (max <= 0 || max > DATA_MAX)
		*code = NETD_ETOOBIG;
	else if (s->recv_reply != MACH_PORT_NULL)
		*code = NETD_EBUSY;
	else
		*code = MIG_NO_REPLY;
	if (*code != MIG_NO_REPLY)
		return NULL;
	s->recv_reply = reply;
	s->recv_max = max;
	return s;
}

kern_return_t S_netd_tcp_recv(mach_port_t server, mach_port_t reply, int id,
			      int max, netd_data_t data,
			      mach_msg_type_number_t *len)
{
	kern_return_t code;
	struct sock *s = recv_start(server, reply, id, SOCK_TCP, max, &code);

	(void)data;
	*len = 0;
	if (s != NULL)
		tcp_try_recv(s);
	return code;
}

kern_return_t S_netd_close(mach_port_t server, int id)
{
	static const netd_data_t empty;
	struct sock *s;
	kern_return_t code = sock_of(server, id, SOCK_FREE, &s);

	if (s == NULL)
		return code;
	answer_conn(s, NETD_ECLOSED, 0);
	answer_send(s, NETD_ECLOSED);
	if (s->recv_reply != MACH_PORT_NULL) {
		if (s->kind == SOCK_UDP)
			udp_answer(s->recv_reply, s->recv6, NETD_ECLOSED,
				   NULL, 0, empty, 0);
		else
			netd_tcp_recv_reply(s->recv_reply, NETD_ECLOSED,
					    empty, 0);
		s->recv_reply = MACH_PORT_NULL;
	}
	if (s->tcp != NULL) {
		tcp_arg(s->tcp, NULL);
		if (s->kind == SOCK_LISTEN) {
			tcp_accept(s->tcp, NULL);
		} else {
			tcp_recv(s->tcp, NULL);
			tcp_sent(s->tcp, NULL);
			tcp_err(s->tcp, NULL);
		}
		if (tcp_close(s->tcp) != ERR_OK)
			tcp_abort(s->tcp);
	}
	if (s->rx != NULL)
		pbuf_free(s->rx);
	for (unsigned int i = 0; i < s->dq_len; i++)
		pbuf_free(s->dq[(s->dq_head + i) % UDP_QUEUE].p);
	if (s->udp != NULL)
		udp_remove(s->udp);
	s->kind = SOCK_FREE;
	/* Connections never accepted go with their listener. */
	for (unsigned int i = 0; i < s->aq_len; i++)
		S_netd_close(server, s->acceptq[i]);
	return KERN_SUCCESS;
}

kern_return_t S_netd_udp_bind(mach_port_t server, int port, int *id)
{
	struct sock *s;
	err_t err;

	if (!is_session(server))
		return NETD_ENOSESSION;
	if (port < 0 || port > 0xffff)
		return NETD_EADDR;
	s = sock_new(SOCK_UDP, server);
	if (s == NULL)
		return NETD_ENOMEM;
	s->udp = udp_new_ip_type(IPADDR_TYPE_ANY);
	if (s->udp == NULL) {
		s->kind = SOCK_FREE;
		return NETD_ENOMEM;
	}
	err = udp_bind(s->udp, IP_ANY_TYPE, (u16_t)port);
	if (err != ERR_OK) {
		udp_remove(s->udp);
		s->kind = SOCK_FREE;
		return err == ERR_USE ? NETD_EINUSE : NETD_ENOMEM;
	}
	udp_recv(s->udp, on_datagram, s);
	*id = sock_id(s);
	return KERN_SUCCESS;
}

/* One datagram of @len bytes at @data on @s to @ip:@port. */
static kern_return_t datagram_send(struct sock *s, const ip_addr_t *ip,
				   int port, const netd_data_t data,
				   mach_msg_type_number_t len)
{
	struct pbuf *p;
	err_t err;

	if (len > DATA_MAX)
		return NETD_ETOOBIG;
	p = pbuf_alloc(PBUF_TRANSPORT, (u16_t)len, PBUF_RAM);
	if (p == NULL)
		return NETD_ENOMEM;
	pbuf_take(p, data, (u16_t)len);
	err = udp_sendto(s->udp, p, ip, (u16_t)port);
	pbuf_free(p);
	return err == ERR_OK ? KERN_SUCCESS : send_error(err);
}

/* A sendto of either form: the socket checked, then the address (@ok:
 * the address's check said usable), then sent. */
static kern_return_t sendto_checked(mach_port_t server, int id, int ok,
				    const ip_addr_t *ip, int port,
				    const netd_data_t data,
				    mach_msg_type_number_t len)
{
	struct sock *s;
	kern_return_t code = sock_of(server, id, SOCK_UDP, &s);

	if (s == NULL)
		return code;
	if (!ok)
		return NETD_EADDR;
	return datagram_send(s, ip, port, data, len);
}

kern_return_t S_netd_udp_sendto(mach_port_t server, int id, uint32_t addr,
				int port, const netd_data_t data,
				mach_msg_type_number_t len)
{
	ip_addr_t ip;
	int ok = peer_addr(addr, port, &ip);

	return sendto_checked(server, id, ok, &ip, port, data, len);
}

kern_return_t S_netd_udp_sendto6(mach_port_t server, int id,
				 const netd_ip6_t addr, int port,
				 const netd_data_t data,
				 mach_msg_type_number_t len)
{
	ip_addr_t ip;
	int ok = peer_addr6(addr, port, &ip);

	return sendto_checked(server, id, ok, &ip, port, data, len);
}

/* A receive of either form on socket @id: waits, or answered now. */
static kern_return_t datagram_recv(mach_port_t server, mach_port_t reply,
				   int id, int max, int v6,
				   mach_msg_type_number_t *len)
{
	kern_return_t code;
	struct sock *s = recv_start(server, reply, id, SOCK_UDP, max, &code);

	*len = 0;
	if (s != NULL) {
		s->recv6 = v6;
		udp_try_recv(s);
	}
	return code;
}

kern_return_t S_netd_udp_recvfrom(mach_port_t server, mach_port_t reply,
				  int id, int max, uint32_t *addr, int *port,
				  netd_data_t data, mach_msg_type_number_t *len)
{
	(void)addr, (void)port, (void)data;
	return datagram_recv(server, reply, id, max, 0, len);
}

kern_return_t S_netd_udp_recvfrom6(mach_port_t server, mach_port_t reply,
				   int id, int max, netd_ip6_t addr, int *port,
				   netd_data_t data,
				   mach_msg_type_number_t *len)
{
	(void)addr, (void)port, (void)data;
	return datagram_recv(server, reply, id, max, 1, len);
}

/* --- sessions ------------------------------------------------------- */

kern_return_t S_netd_session_open(mach_port_t server, mach_port_t *session)
{
	mach_port_t port = MACH_PORT_NULL, previous;
	int i;

	if (server != service)
		return NETD_EKIND;
	for (i = 0; i < NSESSION && sessions[i] != MACH_PORT_NULL; i++)
		;
	if (i == NSESSION)
		return NETD_ENOMEM;
	/* No-senders once the reply's send right (make-send count 1) is
	 * gone, to the session port itself. */
	if (mach_port_allocate(netd_task, MACH_PORT_RIGHT_RECEIVE,
			       &port) != KERN_SUCCESS)
		return NETD_ENOMEM;
	if (mach_port_request_notification(netd_task, port,
					   MACH_NOTIFY_NO_SENDERS, 1, port,
					   MACH_MSG_TYPE_MAKE_SEND_ONCE,
					   &previous) != KERN_SUCCESS ||
	    mach_port_move_member(netd_task, port, port_set) !=
		    KERN_SUCCESS) {
		mach_port_destroy(netd_task, port);
		return NETD_ENOMEM;
	}
	sessions[i] = port;
	*session = port;
	return KERN_SUCCESS;
}

/* The session's last sender went: close its sockets and its port. */
static void session_end(mach_port_t session)
{
	for (int i = 0; i < NSOCK; i++)
		if (socks[i].kind != SOCK_FREE && socks[i].owner == session)
			S_netd_close(session, sock_id(&socks[i]));
	for (int i = 0; i < NSESSION; i++)
		if (sessions[i] == session)
			sessions[i] = MACH_PORT_NULL;
	mach_port_destroy(netd_task, session);
}

void netd_rpc_counts(unsigned int *nsessions, unsigned int *nsockets)
{
	*nsessions = *nsockets = 0;
	for (int i = 0; i < NSESSION; i++)
		*nsessions += sessions[i] != MACH_PORT_NULL;
	for (int i = 0; i < NSOCK; i++)
		*nsockets += socks[i].kind != SOCK_FREE;
}

/* --- the port --------------------------------------------------------- */

mach_port_t netd_rpc_init(mach_port_t set, mach_port_t given)
{
	port_set = set;
	service = given;
	if ((service == MACH_PORT_NULL &&
	     mach_port_allocate(netd_task, MACH_PORT_RIGHT_RECEIVE,
				&service) != KERN_SUCCESS) ||
	    mach_port_move_member(netd_task, service, set) !=
		    KERN_SUCCESS)
		return MACH_PORT_NULL;
	return service;
}

/* Serve one request; send the reply unless the routine kept it. */
void netd_rpc_serve(mach_msg_header_t *in)
{
	static union {
		mig_reply_header_t hdr;
		char bytes[DATA_MAX + 512];
	} out;

	if (in->msgh_id == MACH_NOTIFY_NO_SENDERS &&
	    is_session(in->msgh_local_port)) {
		session_end(in->msgh_local_port);
		return;
	}
	/* Not done yet: the rights and memory of a complex message netd
	 * does not know are not destroyed (netd.defs sends none). */
	netd_server(in, &out.hdr.Head);
	if (out.hdr.RetCode == MIG_NO_REPLY ||
	    out.hdr.Head.msgh_remote_port == MACH_PORT_NULL)
		return;
	mach_msg(&out.hdr.Head, MACH_SEND_MSG | MACH_SEND_TIMEOUT,
		 out.hdr.Head.msgh_size, 0, MACH_PORT_NULL, 0,
		 MACH_PORT_NULL);
}
