/* SPDX-License-Identifier: GPL-2.0-only */
/* init_uts_ns: the system's name as Linux code reads it (init_utsname()). */
/*
 * Drivers read the name and release to describe themselves: usbcore
 * makes each root hub's manufacturer string "Linux 6.1.x uhci_hcd".
 * The release is the Linux tree's; the node name is Graft's.  No UTS
 * namespaces: nothing else of the structure is set.
 */
#include <generated/compile.h>
#include <generated/utsrelease.h>
#include <linux/utsname.h>

struct uts_namespace init_uts_ns = {
	.name = {
		.sysname = "Linux",
		.nodename = "graft",
		.release = UTS_RELEASE,
		.version = "#1",
		.machine = UTS_MACHINE,
		.domainname = "(none)",
	},
};
