/* SPDX-License-Identifier: GPL-2.0-only */
/* kobject_uevent_env: events for user space, which Graft's Linux world has none of. */
#include <linux/kobject.h>
#include <linux/printk.h>

/* kobject_uevent_env - there is no netlink socket and no uevent helper
 * to tell: the event is named at debug level and dropped, as Linux
 * drops it with neither.  0. */
int kobject_uevent_env(struct kobject *kobj, enum kobject_action action,
		       char *envp[])
{
	pr_debug("uevent %d for %s dropped (%s)\n", action,
		 kobject_name(kobj) ? kobject_name(kobj) : "?",
		 envp && envp[0] ? envp[0] : "");
	return 0;
}
