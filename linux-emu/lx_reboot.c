/* SPDX-License-Identifier: GPL-2.0-only */
/* The reboot notifier chain: register_reboot_notifier, unregister_reboot_notifier. */
/*
 * Linux calls it when the machine restarts, halts or powers off, so
 * that drivers quiesce their devices.  Graft does not end the Linux
 * world through Linux's reboot path (a driver server that ends is
 * stopped whole; the kernel's world ends with the machine), so the
 * chain takes its notifiers and is never called.  The chain itself,
 * reboot_notifier_list, is kernel/notifier.c's (library.manifest).
 */
#include <linux/notifier.h>
#include <linux/reboot.h>

/* register_reboot_notifier - 0; -EEXIST if @nb is on the chain. */
int register_reboot_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&reboot_notifier_list, nb);
}

/* unregister_reboot_notifier - 0; -ENOENT if @nb is not on it. */
int unregister_reboot_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&reboot_notifier_list, nb);
}
