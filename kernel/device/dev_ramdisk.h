/* SPDX-License-Identifier: GPL-2.0-only */
/* The "rd0" device: a RAM disk on a multiboot module. */
#ifndef DEVICE_DEV_RAMDISK_H
#define DEVICE_DEV_RAMDISK_H

#include <stdint.h>

#define RAMDISK_RECORD_SIZE	512

/*
 * dev_ramdisk_init - find rd0's image: the first multiboot module that is
 * not an ELF program and whose command line holds the word "rd0" after
 * the file name (QEMU: -initrd "disk.img rd0"; GRUB: module /disk.img
 * rd0).  Its whole 512-byte records are the disk; a tail shorter than a
 * record is left out.  Without such a module, "rd0" is no device.  Once,
 * at boot.
 */
void dev_ramdisk_init(void);

/* The image's records (0 if there is none), for tests. */
uint64_t dev_ramdisk_records(void);

#endif
