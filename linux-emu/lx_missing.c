/* SPDX-License-Identifier: GPL-2.0-only */
/* Linux functions whose address compiled code takes, not implemented yet: each stops loudly when called. */
/*
 * Functions that are only called get generated stubs
 * (tools/linux_link.py); one whose address is stored needs a definition
 * of its own, and until linux-emu implements it, it is this.
 */
#include <linux/fs.h>
#include <linux/irq.h>

#include <lx_host.h>

/* Not used: kernel/resource.c names it for the "iomem" pseudo file
 * system, which Graft never mounts. */
void kill_anon_super(struct super_block *sb)
{
	lx_host_missing(__func__);
}

/* Not used: the I2C core (drivers-linux/shared/i2c) names it for the
 * interrupts of its host-notify domain, made only for an I2C adapter,
 * which Graft has none of. */
void handle_simple_irq(struct irq_desc *desc)
{
	lx_host_missing(__func__);
}
