/* SPDX-License-Identifier: GPL-2.0-only */
/* netdev_rss_key_fill: the key of receive-side scaling hashes. */
/*
 * Linux fills it once with random bytes, so that nobody outside can aim
 * flows at one receive queue.  linux-emu has no entropy source: the key
 * is the 40-byte Toeplitz key of Microsoft's RSS specification, the one
 * many NICs reset to, repeated, the same on every boot.  Flows spread as
 * well; choosing flows that collide is easy for one who knows it.
 */
#include <linux/netdevice.h>
#include <linux/string.h>

static const u8 rss_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
	0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
	0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

/* netdev_rss_key_fill - the first @len bytes of the key into @buffer
 * (@len at most NETDEV_RSS_KEY_LEN, as Linux's BUG_ON demands). */
void netdev_rss_key_fill(void *buffer, size_t len)
{
	u8 *out = buffer;

	BUG_ON(len > NETDEV_RSS_KEY_LEN);
	for (size_t i = 0; i < len; i++)
		out[i] = rss_key[i % sizeof(rss_key)];
}
