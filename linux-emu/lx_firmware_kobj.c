/* SPDX-License-Identifier: GPL-2.0-only */
/* firmware_kobj: the "firmware" kobject, parent of firmware description sets. */
/*
 * Linux makes it at boot (drivers/base/firmware.c) as /sys/firmware.
 * Graft has no sysfs: the object exists, named, with a reference the
 * world keeps for ever, so that sets created under it have a parent.
 */
#include <linux/kobject.h>

static struct kobject firmware = {
	.name = "firmware",
	.entry = LIST_HEAD_INIT(firmware.entry),
	.kref = KREF_INIT(1),
};

struct kobject *firmware_kobj = &firmware;
