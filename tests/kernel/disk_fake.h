/* SPDX-License-Identifier: GPL-2.0-only */
/* A disk for the block module without Linux: RAM behind lx_emul_disk.h. */
#ifndef TESTS_KERNEL_DISK_FAKE_H
#define TESTS_KERNEL_DISK_FAKE_H

#include <stdint.h>

#include "mach-glue/block/dev_lxblk.h"

/*
 * The table dev_lxblk_start takes (struct dev_lxblk_disks), serving one
 * disk over @image (@sectors of 512 bytes, direct-mapped, written in
 * place) with limits tighter than ata_piix's, so that requests split:
 * 32 KiB per command, 8 segments of at most 8 KiB, 64 KiB boundary
 * windows, 512-byte alignment, and a 24-bit DMA mask, so every page
 * above 16 MiB is bounced.  Commands complete on the next clock tick
 * (interrupt context, interrupts off), in order; one touching
 * @fail_lba (~0: none) fails with -EIO and moves no data.
 * submit_now answers -EAGAIN every other call, so both of the module's
 * paths run.  Every command is checked against the contract and the
 * limits; one breaking them is refused (-EINVAL) and counted.
 */
extern const struct dev_lxblk_disks disk_fake_disks;

void disk_fake_init(uint8_t *image, uint64_t sectors, uint64_t fail_lba);

/* What the fake saw so far. */
struct disk_fake_counts {
	unsigned int cmds;		/* accepted */
	unsigned int refused;		/* broke the contract or limits */
	unsigned int busy;		/* submit_now answered -EAGAIN */
	unsigned int failed;		/* completed with -EIO */
	unsigned int pending;		/* accepted, not completed */
};

void disk_fake_counts(struct disk_fake_counts *out);

#endif
