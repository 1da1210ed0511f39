/* SPDX-License-Identifier: GPL-2.0-only */
/* ISA cards through the server's ISA claims (isa=NAME:PORT,...): the ports granted, the board's platform devices, the lines the drivers ask for. */
/*
 * An ISA card cannot be enumerated: the module line names it, as the
 * kernel's ne_io= does for the kernel's Linux world.  The server claims
 * its I/O range (claim_isa, the extent its driver decodes), is granted
 * the ports, and registers the platform device as lx_boot does (no IRQ
 * resource), so the driver finds its line by autoIRQ: probe_irq_on
 * attaches every line the kernel lets the claim take, the card
 * interrupts, probe_irq_off detaches them all, and the driver's
 * request_irq attaches the one found.  The lines are registered through
 * the first ISA claim (claim_isa_intr_register, pci.c): a probe does not
 * say which card it is for.  Linux's outb_p pauses through
 * pv_ops.cpu.io_delay, the host's lx_host_io_delay: the server needs no
 * grant of the PC's delay port.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graft_user.h>
#include <graft/claim.h>
#include <device/device_types.h>

#include <lx_emul.h>

#include "lxdrv.h"
#include "lxdrv_glue.h"

#define ISA_CARDS_MAX	4

/* The I/O extents of the ISA cards the linked drivers drive, by the
 * platform device name their driver binds (ne: Linux's NE_IO_EXTENT). */
static const struct {
	const char *name;
	unsigned int ports;
} extents[] = {
	{ "ne", 0x20 },
};

struct card {
	const char *name;		/* extents[]'s: stays valid */
	unsigned int io, ports;
	int id;				/* of the platform device name.id */
	mach_port_t claim;
};

static struct card cards[ISA_CARDS_MAX];
static unsigned int ncards;

/* The card "NAME:PORT" at @word (up to a list separator) in *@card, or
 * die: the module line is wrong. */
static void parse(const char *word, size_t len, struct card *card)
{
	char name[16], *end;
	const char *colon = memchr(word, ':', len);
	unsigned long io;

	if (!colon || (size_t)(colon - word) >= sizeof(name))
		lxdrv_die("isa= takes NAME:PORT,... (ne:0x300; + also separates)");
	memcpy(name, word, (size_t)(colon - word));
	name[colon - word] = '\0';
	io = strtoul(colon + 1, &end, 0);
	if (end == colon + 1 || end != word + len || io > 0xffff)
		lxdrv_die("isa=: the port is not a number up to 0xffff");
	for (size_t i = 0; i < sizeof(extents) / sizeof(*extents); i++) {
		if (strcmp(extents[i].name, name) != 0)
			continue;
		card->name = extents[i].name;
		card->ports = extents[i].ports;
		card->io = (unsigned int)io;
		return;
	}
	lxdrv_die("isa=: no ISA card of that name (the server knows ne)");
}

void lxdrv_isa_claim(const char *list, const char *separators)
{
	for (const char *p = list; *p; ) {
		size_t len = strcspn(p, separators);
		struct card *c = &cards[ncards];
		kern_return_t kr;

		if (ncards == ISA_CARDS_MAX)
			lxdrv_die("isa= names more than 4 cards");
		memset(c, 0, sizeof(*c));
		parse(p, len, c);
		p += len;
		p += *p ? 1 : 0;
		for (unsigned int i = 0; i < ncards; i++)
			c->id += strcmp(cards[i].name, c->name) == 0;
		kr = claim_isa(lxdrv_master, (int)c->io, (int)c->ports,
			       &c->claim);
		if (kr == D_SUCCESS) {
			kr = claim_io_grant(c->claim, 0);
			if (kr != D_SUCCESS)
				(void)mach_port_deallocate(lxdrv_task,
							   c->claim);
		}
		if (kr != D_SUCCESS) {
			printf("lxdrv: ISA %s at %#x could not be claimed "
			       "(%#x)\n", c->name, c->io, kr);
			continue;
		}
		printf("lxdrv: claimed ISA %s.%d ports %#x-%#x\n", c->name,
		       c->id, c->io, c->io + c->ports - 1);
		ncards++;
	}
}

mach_port_t lxdrv_isa_first_claim(void)
{
	return ncards ? cards[0].claim : MACH_PORT_NULL;
}

void lxdrv_isa_add(void)
{
	for (unsigned int i = 0; i < ncards; i++) {
		struct card *c = &cards[i];
		int err = lx_emul_platform_isa_add(c->name, c->id, c->io,
						   c->ports);

		if (err)
			printf("lxdrv: ISA %s.%d not added: %d\n", c->name,
			       c->id, err);
	}
}
