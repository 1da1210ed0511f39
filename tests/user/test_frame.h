/* SPDX-License-Identifier: GPL-2.0-only */
/* The test frames the net programs send to the harness's peer (Graft's net_probe, native Linux's lxbench). */
#ifndef TESTS_USER_TEST_FRAME_H
#define TESTS_USER_TEST_FRAME_H

#include <stdint.h>
#include <string.h>

#define ETH_TYPE_TEST	0x88b5

/* The harness's peer (tests/harness/net_peer.py). */
static const uint8_t peer_mac[6] = { 0x02, 'G', 'R', 'A', 'F', 'T' };

/* The frame of @len bytes both sides build: to the peer, from @mac, type
 * 0x88b5, then byte i is (i * 7 + len * 3) mod 256. */
__attribute__((unused))
static void build_test_frame(uint8_t *f, unsigned int len,
			     const uint8_t *mac)
{
	memcpy(f, peer_mac, 6);
	memcpy(f + 6, mac, 6);
	f[12] = ETH_TYPE_TEST >> 8;
	f[13] = ETH_TYPE_TEST & 0xff;
	for (unsigned int i = 14; i < len; i++)
		f[i] = (uint8_t)(i * 7 + len * 3);
}

#endif
