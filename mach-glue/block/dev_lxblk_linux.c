/* SPDX-License-Identifier: GPL-2.0-only */
/* The block module's disks in the kernel: linux-emu's lx_emul_disk_*. */
#include <stddef.h>

#include "linux-emu/include/lx_emul_disk.h"
#include "mach-glue/block/dev_lxblk.h"

const struct dev_lxblk_disks dev_lxblk_linux = {
	.next = lx_emul_disk_next,
	.info = lx_emul_disk_info,
	.submit = lx_emul_disk_submit,
	.submit_now = lx_emul_disk_submit_now,
	.probe_set = lx_emul_disk_probe_set,
};
