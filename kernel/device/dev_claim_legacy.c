/* SPDX-License-Identifier: GPL-2.0-only */
/* The fixed ports and ISA lines a PCI function decodes beside its BARs: held by its claim, granted by claim_legacy_grant. */
/*
 * Some PCI functions answer at PC addresses no BAR names.  An IDE
 * controller with a channel in compatibility mode (class 0x0101, bit 0
 * of the programming interface clear for the primary channel, bit 2 for
 * the secondary) decodes that channel's fixed ports and raises ISA line
 * 14 or 15 instead of its PCI line; a VGA controller decodes its
 * registers at 0x3b0-0x3df.  They belong to the function's claim: its
 * holder is granted the ports (claim_legacy_grant) and registers the
 * lines (claim_isa_intr_register), and no ISA claim may take either
 * (dev_claim_isa.c).
 */
#include <stddef.h>
#include <stdint.h>

#include "device/dev_claim_priv.h"
#include "device/ds_mig.h"

#define PCI_CLASS_IDE		0x0101
#define PCI_CLASS_VGA		0x0300

static const struct {
	unsigned int class, native_bit;	/* native_bit 0: always decoded */
	struct claim_ports ports;
	unsigned int line;		/* NO_IRQ: none */
} decodes[] = {
	{ PCI_CLASS_IDE, 0x1, { 0x1f0, 0x1f7 }, 14 },
	{ PCI_CLASS_IDE, 0x1, { 0x3f6, 0x3f6 }, NO_IRQ },
	{ PCI_CLASS_IDE, 0x4, { 0x170, 0x177 }, 15 },
	{ PCI_CLASS_IDE, 0x4, { 0x376, 0x376 }, NO_IRQ },
	{ PCI_CLASS_VGA, 0, { 0x3b0, 0x3df }, NO_IRQ },
};

void dev_claim_legacy_read(struct dev_claim *c)
{
	unsigned int class = c->class_rev >> 16;
	unsigned int progif = (c->class_rev >> 8) & 0xff;

	c->nlegacy = 0;
	c->legacy_lines = 0;
	for (size_t i = 0; i < sizeof(decodes) / sizeof(*decodes); i++) {
		if (decodes[i].class != class ||
		    (progif & decodes[i].native_bit) ||
		    c->nlegacy == CLAIM_LEGACY_MAX)
			continue;
		c->legacy[c->nlegacy++] = decodes[i].ports;
		if (decodes[i].line != NO_IRQ)
			c->legacy_lines |= 1u << decodes[i].line;
	}
}

/* claim.defs's claim_legacy_grant (the stub passes a looked-up claim,
 * or NULL): D_SUCCESS; D_NO_SUCH_DEVICE (no claim); D_INVALID_OPERATION
 * (an ISA claim, a function that decodes no fixed ports, or the kernel's
 * own task); D_NO_MEMORY. */
kern_return_t dc_claim_legacy_grant(claim_t claim)
{
	struct dev_claim *c = CLAIM(claim);
	io_return_t rc = D_SUCCESS;

	if (c == NULL)
		return D_NO_SUCH_DEVICE;
	if (c->isa || c->nlegacy == 0)
		return D_INVALID_OPERATION;
	for (unsigned int i = 0; i < c->nlegacy && rc == D_SUCCESS; i++)
		rc = dev_claim_grant(c, c->legacy[i].from, c->legacy[i].to);
	return rc;
}
