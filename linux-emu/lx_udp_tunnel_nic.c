/* SPDX-License-Identifier: GPL-2.0-only */
/* udp_tunnel_nic_ops: the UDP tunnel port offload table's operations, absent. */
/*
 * Linux fills this pointer when its udp_tunnel module loads; every
 * caller (the udp_tunnel_nic_* inlines) checks it for NULL first.
 * Graft has no UDP tunnels (no IP stack in the world), so no port is
 * ever offered to a NIC and the pointer stays NULL, as in a Linux whose
 * udp_tunnel module is not loaded.
 */
#include <net/udp_tunnel.h>

const struct udp_tunnel_nic_ops *udp_tunnel_nic_ops;
