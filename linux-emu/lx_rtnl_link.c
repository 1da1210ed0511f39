/* SPDX-License-Identifier: GPL-2.0-only */
/* Link kinds drivers offer rtnetlink: rtnl_link_register, rtnl_link_unregister. */
/*
 * Linux keeps the registered kinds ("rmnet", "vlan"...) for the
 * RTM_NEWLINK requests that create devices of a kind.  Graft has no
 * rtnetlink, so no such request comes and no device is made through a
 * kind: the list is kept (a kind registered twice is refused, as Linux
 * refuses it) and never looked up.
 */
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/string.h>
#include <net/rtnetlink.h>

static LIST_HEAD(link_ops);

/* rtnl_link_register - offer @ops's kind.  0; -EEXIST (kind taken).
 * Takes the rtnl lock. */
int rtnl_link_register(struct rtnl_link_ops *ops)
{
	struct rtnl_link_ops *o;
	int err = 0;

	rtnl_lock();
	list_for_each_entry(o, &link_ops, list)
		if (!strcmp(o->kind, ops->kind)) {
			err = -EEXIST;
			goto out;
		}
	list_add_tail(&ops->list, &link_ops);
out:
	rtnl_unlock();
	return err;
}

/* rtnl_link_unregister - withdraw @ops's kind (no device has it: above).
 * Takes the rtnl lock. */
void rtnl_link_unregister(struct rtnl_link_ops *ops)
{
	rtnl_lock();
	list_del(&ops->list);
	rtnl_unlock();
}
