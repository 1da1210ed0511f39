/* SPDX-License-Identifier: GPL-2.0-only */
/* The MC146818 CMOS RAM behind the RTC's ports: rtc_lock, rtc_cmos_read. */
/*
 * x86's CMOS_READ (asm/mc146818rtc.h) is rtc_cmos_read; a driver takes
 * rtc_lock around it (the floppy driver reads its drive types from byte
 * 0x10).  The index port's bit 7 is the NMI mask: the index written
 * keeps it clear, as Linux's does.  Port I/O is direct, so the world
 * must hold ports 0x70-0x71: the kernel's does, a driver server does
 * not reach them.
 */
#include <linux/io.h>
#include <linux/mc146818rtc.h>
#include <linux/spinlock.h>

DEFINE_SPINLOCK(rtc_lock);

/* rtc_cmos_read - CMOS byte @addr (0-127).  Caller holds rtc_lock. */
unsigned char rtc_cmos_read(unsigned char addr)
{
	outb(addr & 0x7f, RTC_PORT(0));
	return inb(RTC_PORT(1));
}
