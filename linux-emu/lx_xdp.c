/* SPDX-License-Identifier: GPL-2.0-only */
/* XDP receive queue information: __xdp_rxq_info_reg, xdp_rxq_info_reg_mem_model, xdp_rxq_info_unreg(_mem_model). */
/*
 * Drivers register each receive queue, and the memory its frames come
 * from, before any XDP program could run on it.  No program can be
 * attached in Graft (no bpf system call), so the registration is all
 * there is: its state, device, queue and memory type, with Linux's
 * checks and warnings for a driver that gets the order wrong.  Memory
 * models with an allocator (page pools, AF_XDP buffers) are refused
 * with a console line: their registry (net/core/xdp.c's rhashtable) is
 * not here.  Callers hold the world.
 */
#include <linux/netdevice.h>
#include <linux/string.h>
#include <net/xdp.h>

/* xdp_rxq_info.reg_state: a driver's zeroed struct is new (values of
 * net/core/xdp.c, private to it and to this file) */
enum {
	REG_STATE_NEW,
	REG_STATE_REGISTERED,
	REG_STATE_UNREGISTERED,
	REG_STATE_UNUSED,
};

/* xdp_rxq_info_unreg_mem_model - forget @xdp_rxq's memory model (none
 * has state to release here); a warning if it is not registered. */
void xdp_rxq_info_unreg_mem_model(struct xdp_rxq_info *xdp_rxq)
{
	if (xdp_rxq->reg_state != REG_STATE_REGISTERED) {
		WARN(1, "Missing register, driver bug");
		return;
	}
	xdp_rxq->mem.type = 0;
	xdp_rxq->mem.id = 0;
}

/* xdp_rxq_info_unreg - @xdp_rxq unregistered (one never meant to be
 * registered, REG_STATE_UNUSED, is left alone). */
void xdp_rxq_info_unreg(struct xdp_rxq_info *xdp_rxq)
{
	if (xdp_rxq->reg_state == REG_STATE_UNUSED)
		return;
	xdp_rxq_info_unreg_mem_model(xdp_rxq);
	xdp_rxq->reg_state = REG_STATE_UNREGISTERED;
	xdp_rxq->dev = NULL;
}

/*
 * __xdp_rxq_info_reg - register receive queue @queue_index of @dev
 * (NAPI id @napi_id, fragments of @frag_size) in @xdp_rxq, which is
 * cleared first (a queue still registered is unregistered, warned).
 * 0; -ENODEV without @dev, -EINVAL for REG_STATE_UNUSED (both warned).
 */
int __xdp_rxq_info_reg(struct xdp_rxq_info *xdp_rxq, struct net_device *dev,
		       u32 queue_index, unsigned int napi_id, u32 frag_size)
{
	if (!dev) {
		WARN(1, "Missing net_device from driver");
		return -ENODEV;
	}
	if (xdp_rxq->reg_state == REG_STATE_UNUSED) {
		WARN(1, "Driver promised not to register this");
		return -EINVAL;
	}
	if (xdp_rxq->reg_state == REG_STATE_REGISTERED) {
		WARN(1, "Missing unregister, handled but fix driver");
		xdp_rxq_info_unreg(xdp_rxq);
	}
	memset(xdp_rxq, 0, sizeof(*xdp_rxq));
	xdp_rxq->dev = dev;
	xdp_rxq->queue_index = queue_index;
	xdp_rxq->napi_id = napi_id;
	xdp_rxq->frag_size = frag_size;
	xdp_rxq->reg_state = REG_STATE_REGISTERED;
	return 0;
}

/*
 * xdp_rxq_info_reg_mem_model - the memory @xdp_rxq's frames come from:
 * @type without an @allocator (shared pages, order-0 pages).  0;
 * -EFAULT for a queue not registered (warned); -EINVAL for an unknown
 * type or a page pool without its pool; -EOPNOTSUPP (console line) for
 * a model with an allocator.
 */
int xdp_rxq_info_reg_mem_model(struct xdp_rxq_info *xdp_rxq,
			       enum xdp_mem_type type, void *allocator)
{
	if (xdp_rxq->reg_state != REG_STATE_REGISTERED) {
		WARN(1, "Missing register, driver bug");
		return -EFAULT;
	}
	if (type >= MEM_TYPE_MAX || (type == MEM_TYPE_PAGE_POOL && !allocator))
		return -EINVAL;
	if (allocator) {
		netdev_err(xdp_rxq->dev,
			   "linux-emu: XDP memory models with an allocator (type %d) are not implemented\n",
			   type);
		return -EOPNOTSUPP;
	}
	xdp_rxq->mem.type = type;
	xdp_rxq->mem.id = 0;
	return 0;
}
