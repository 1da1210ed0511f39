/* SPDX-License-Identifier: GPL-2.0-only */
/* The VT-d remapping unit: root and context tables, one second-level page table per domain with its sink, register-based invalidation, fault records. */
/*
 * Tables (legacy mode, VT-d 1.x format): the root table has an entry per
 * bus pointing to its context table, which has an entry per devfn.  A
 * context entry is either pass-through (translation type 2, domain
 * PASS_ID, no page table) or translated (type 0) through its domain's
 * second-level table of `levels` levels of 512 eight-byte entries (bit
 * 0 read, bit 1 write, bits 12-51 the next table or the page), as the
 * CPU's page tables but with its own format.  Only 4 KiB leaves are
 * made; a device address is its physical address.
 *
 * Every entry of a domain's table is present (its own pages, or the
 * way to its sink, dmar.h), so mapping a page changes a translation the
 * unit may hold, as unmapping does.  Invalidation is register-based (no
 * queue): after a context entry changes, the context cache and the
 * whole IOTLB; after a domain's pages are mapped or unmapped, that
 * domain's IOTLB entries.  A unit that is not coherent (ECAP.C clear)
 * reads the tables from memory, not the CPU's caches: every table line
 * written is flushed with clflush.
 *
 * Each page is mapped in a domain at most once at a time: DMA memory
 * belongs to one claim, and a page is lent only while no other loan
 * holds its address in the task (dev_claim_lend), so dmar_unmap never
 * takes a page another user still needs.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/clock.h"
#include "kern/cmdline.h"
#include "kern/kprintf.h"
#include "kern/panic.h"
#include "kern/string.h"
#include "vm/vm_page.h"
#include "x86_64/cpu.h"
#include "x86_64/dmar.h"
#include "x86_64/dmar_find.h"
#include "x86_64/layout.h"
#include "x86_64/pmap_io.h"

/* Registers. */
#define REG_CAP		0x08
#define REG_ECAP	0x10
#define REG_GCMD	0x18
#define REG_GSTS	0x1c
#define REG_RTADDR	0x20
#define REG_CCMD	0x28
#define REG_FSTS	0x34

#define CAP_RWBF	(1ull << 4)
#define CAP_SAGAW(c)	(((c) >> 8) & 0x1f)
#define CAP_FRO(c)	((((c) >> 24) & 0x3ff) * 16)
#define CAP_NFR(c)	((((c) >> 40) & 0xff) + 1)
#define CAP_DWD		(1ull << 54)
#define CAP_DRD		(1ull << 55)
#define CAP_ND(c)	((c) & 7)
#define ECAP_C		(1ull << 0)
#define ECAP_PT		(1ull << 6)
#define ECAP_IRO(e)	((((e) >> 8) & 0x3ff) * 16)

#define GCMD_TE		(1u << 31)
#define GCMD_SRTP	(1u << 30)
#define GCMD_WBF	(1u << 27)
/* GSTS bits that stay set (translation, queue, interrupt remapping,
 * compatibility format): written back with each one-shot command. */
#define GSTS_KEEP	0x96800000u

#define CCMD_ICC	(1ull << 63)
#define CCMD_GLOBAL	(1ull << 61)
#define IOTLB_IVT	(1ull << 63)
#define IOTLB_GLOBAL	(1ull << 60)
#define IOTLB_DOMAIN	(2ull << 60)
#define IOTLB_DR	(1ull << 49)
#define IOTLB_DW	(1ull << 48)
#define FSTS_PFO	(1u << 0)
#define FSTS_PPF	(1u << 1)
#define FRCD_F		(1ull << 63)

/* Table entries. */
#define PRESENT		1ull
#define SL_READ		1ull
#define SL_WRITE	2ull
#define ADDR_MASK	0x000ffffffffff000ull
#define CTX_PASS	(2ull << 2)	/* translation type 2 */
#define CTX_DID(hi)	(((hi) >> 8) & 0xffff)

#define PAGE		VM_PAGE_SIZE
#define ENTRIES		512
#define DEVFNS		DMAR_DEVFNS
#define BUSES		DMAR_BUSES
#define PASS_ID		1
#define FIRST_ID	2
#define DOMAINS		64		/* the first: nowhere's */
#define LEVELS_MAX	4
#define POLL_TICKS	10
#define PRINTED_MAX	32
#define SPIN_MAX	10000000ul

struct ctx_entry {
	uint64_t lo, hi;
};

/*
 * A domain's table maps the pages dmar_map put there; every other
 * device address leads to its sink: sink[0] a page, sink[l] a table of
 * level l each of whose entries leads to sink[l - 1], the top table's
 * free entries to sink[levels - 1].  Three or four pages stand for all
 * the space, and a table is made for a range only when a page in it is
 * mapped.
 */
struct domain {
	const void *owner;		/* NULL: the slot is free */
	uint64_t root;			/* its top table's physical address */
	uint64_t sink[LEVELS_MAX];
	unsigned int functions;
};

static volatile uint8_t *regs;
static uint64_t cap, ecap, iotlb_reg;
static unsigned int levels, aw, ids, last_bus;
static bool on, coherent;
static uint64_t root_pa;
static struct ctx_entry *ctx[BUSES];	/* NULL: no table for the bus */
static uint32_t covered[BUSES][DMAR_COVER_WORDS];	/* the unit's */
static struct domain domains[DOMAINS];
static const char nowhere;		/* the blocked functions' owner */
static uint64_t faults, absorbed;
static unsigned int printed;
static struct timeout poll_timeout;

static uint32_t r32(unsigned int off)
{
	return *(volatile uint32_t *)(regs + off);
}

static uint64_t r64(unsigned int off)
{
	return *(volatile uint64_t *)(regs + off);
}

static void w32(unsigned int off, uint32_t v)
{
	*(volatile uint32_t *)(regs + off) = v;
}

static void w64(unsigned int off, uint64_t v)
{
	*(volatile uint64_t *)(regs + off) = v;
}

/* Spin until (read(@off) & @bit) == @want; the unit answers in
 * microseconds, so one that does not is broken: panic. */
static void wait_bit(unsigned int off, uint64_t bit, bool wide, bool want)
{
	for (unsigned long i = 0; i < SPIN_MAX; i++)
		if (((wide ? r64(off) : r32(off)) & bit ? true : false) == want)
			return;
	panic("dmar: the remapping unit did not complete a command "
	      "(register %#x)", off);
}

static void flush_line(const void *p)
{
	if (!coherent)
		__asm__ volatile("clflush (%0)" : : "r"(p) : "memory");
}

static void flush_range(const void *p, size_t n)
{
	for (size_t i = 0; i < n; i += 64)
		flush_line((const uint8_t *)p + i);
}

static void command(uint32_t bit, uint32_t status_bit, bool want)
{
	w32(REG_GCMD, (r32(REG_GSTS) & GSTS_KEEP) | bit);
	wait_bit(REG_GSTS, status_bit, false, want);
}

static void write_buffer_flush(void)
{
	if (cap & CAP_RWBF)
		command(GCMD_WBF, GCMD_WBF, false);
}

static void context_flush(void)
{
	write_buffer_flush();
	w64(REG_CCMD, CCMD_ICC | CCMD_GLOBAL);
	wait_bit(REG_CCMD, CCMD_ICC, true, false);
}

/* Invalidate the IOTLB entries of domain @id (0: all). */
static void iotlb_flush(unsigned int id)
{
	uint64_t v = IOTLB_IVT | (id != 0 ? IOTLB_DOMAIN | (uint64_t)id << 32 :
				  IOTLB_GLOBAL);

	if (cap & CAP_DRD)
		v |= IOTLB_DR;
	if (cap & CAP_DWD)
		v |= IOTLB_DW;
	write_buffer_flush();
	w64(iotlb_reg, v);
	wait_bit(iotlb_reg, IOTLB_IVT, true, false);
}

/* A zeroed page for a table (flushed), or 0. */
static uint64_t table_alloc(void)
{
	uint64_t pa;

	if (vm_page_alloc(VM_ZONE_DMA32, &pa) != KERN_SUCCESS)
		return 0;
	memset(phys_to_virt(pa), 0, PAGE);
	flush_range(phys_to_virt(pa), PAGE);
	return pa;
}

/* Every entry of table @pa leads to @next. */
static void table_fill(uint64_t pa, uint64_t next)
{
	uint64_t *t = phys_to_virt(pa);

	for (unsigned int i = 0; i < ENTRIES; i++)
		t[i] = next | SL_READ | SL_WRITE;
	flush_range(t, PAGE);
}

/* Free @d's table @pa of level @level and its own tables below it (not
 * the sink's). */
static void table_free(const struct domain *d, uint64_t pa,
		       unsigned int level)
{
	const uint64_t *t = phys_to_virt(pa);

	if (level > 1)
		for (unsigned int i = 0; i < ENTRIES; i++)
			if ((t[i] & ADDR_MASK) != d->sink[level - 1])
				table_free(d, t[i] & ADDR_MASK, level - 1);
	vm_page_free_contig(pa, 1);
}

/* Free @d's tables, its sink's first @n pages, and the slot. */
static void domain_free(struct domain *d, unsigned int n)
{
	if (d->root != 0)
		table_free(d, d->root, levels);
	while (n-- > 0)
		vm_page_free_contig(d->sink[n], 1);
	d->root = 0;
	d->owner = NULL;
}

/* Make @d's sink and its empty top table for @owner; false (nothing
 * kept) if memory is short. */
static bool domain_make(struct domain *d, const void *owner)
{
	d->root = 0;
	for (unsigned int l = 0; l < levels; l++) {
		d->sink[l] = table_alloc();
		if (d->sink[l] == 0) {
			domain_free(d, l);
			return false;
		}
		if (l > 0)
			table_fill(d->sink[l], d->sink[l - 1]);
	}
	d->root = table_alloc();
	if (d->root == 0) {
		domain_free(d, levels);
		return false;
	}
	table_fill(d->root, d->sink[levels - 1]);
	d->owner = owner;
	d->functions = 0;
	return true;
}

/* The leaf entry of device address @a in domain @d, making its own
 * tables on the way (for a range that led to the sink) if @make; NULL
 * if the range leads to the sink (or no page for a table). */
static uint64_t *leaf(const struct domain *d, uint64_t a, bool make)
{
	uint64_t *t = phys_to_virt(d->root);

	for (unsigned int level = levels; level > 1; level--) {
		uint64_t *e = &t[(a >> (12 + 9 * (level - 1))) % ENTRIES];

		if ((*e & ADDR_MASK) == d->sink[level - 1]) {
			uint64_t pa = make ? table_alloc() : 0;

			if (pa == 0)
				return NULL;
			table_fill(pa, d->sink[level - 2]);
			*e = pa | SL_READ | SL_WRITE;
			flush_line(e);
		}
		t = phys_to_virt(*e & ADDR_MASK);
	}
	return &t[(a >> 12) % ENTRIES];
}

static struct domain *domain_of(const void *owner)
{
	for (unsigned int i = 0; i < DOMAINS; i++)
		if (domains[i].owner == owner && owner != NULL)
			return &domains[i];
	return NULL;
}

static unsigned int id_of(const struct domain *d)
{
	return FIRST_ID + (unsigned int)(d - domains);
}

/* Whether one more fault or absorbed write may be printed: the first
 * PRINTED_MAX are, and a line says when the rest are counted only. */
static bool may_print(void)
{
	if (printed > PRINTED_MAX)
		return false;
	if (++printed <= PRINTED_MAX)
		return true;
	kprintf("dmar: further faults and absorbed writes are counted "
		"only\n");
	return false;
}

/* Count and print a write a device made into @d's sink, and empty it
 * again (interrupts off). */
static void absorb(const struct domain *d)
{
	uint64_t *p = phys_to_virt(d->sink[0]);
	bool written = false;

	for (unsigned int i = 0; i < ENTRIES && !written; i++)
		written = p[i] != 0;
	if (!written)
		return;
	memset(p, 0, PAGE);
	flush_range(p, PAGE);
	absorbed++;
	if (may_print())
		kprintf("dmar: a device of domain %u wrote outside its memory: "
			"absorbed by its sink\n", id_of(d));
}

/* Set the context entry of @devfn on @bus to (@lo, @hi), 0: not
 * present; the unit's caches invalidated before it returns.  The
 * domain the entry named loses a function (and goes with its last). */
static void ctx_set(unsigned int bus, unsigned int devfn, uint64_t lo,
		    uint64_t hi)
{
	struct ctx_entry *e = &ctx[bus][devfn];
	uint64_t old_lo = e->lo, old_hi = e->hi;

	e->lo = 0;
	flush_line(e);
	context_flush();
	iotlb_flush(0);
	if (lo & PRESENT) {
		e->hi = hi;
		e->lo = lo;
		flush_line(e);
		context_flush();
	}
	if ((old_lo & PRESENT) && !(old_lo & CTX_PASS) &&
	    CTX_DID(old_hi) > FIRST_ID) {	/* not nowhere's */
		struct domain *d = &domains[CTX_DID(old_hi) - FIRST_ID];

		if (--d->functions == 0) {
			absorb(d);
			domain_free(d, levels);
		}
	}
}

/* Whether the unit translates function @devfn of @bus. */
static bool has_ctx(unsigned int bus, unsigned int devfn)
{
	return on && bus < BUSES && devfn < DEVFNS && ctx[bus] != NULL &&
	       (covered[bus][devfn / 32] >> (devfn % 32) & 1);
}

bool dmar_on(void)
{
	return on;
}

int dmar_state(unsigned int bus, unsigned int devfn)
{
	const struct ctx_entry *e;

	if (!has_ctx(bus, devfn))
		return -1;
	e = &ctx[bus][devfn];
	if (e->lo & CTX_PASS)
		return 2;
	return CTX_DID(e->hi) == FIRST_ID ? 0 : 1;
}

unsigned int dmar_domains(void)
{
	unsigned int n = 0;

	for (unsigned int i = 1; i < DOMAINS; i++)
		n += domains[i].owner != NULL;
	return n;
}

kern_return_t dmar_attach(unsigned int bus, unsigned int devfn,
			  const void *owner)
{
	uint64_t flags;
	struct domain *d;
	kern_return_t kr = KERN_SUCCESS;

	if (!on)
		return KERN_SUCCESS;
	if (bus >= BUSES || devfn >= DEVFNS || owner == NULL)
		return KERN_INVALID_ARGUMENT;
	if (!has_ctx(bus, devfn)) {
		kprintf("dmar: %02x:%02x.%u is not behind the remapping unit: "
			"its DMA is not confined\n", bus, devfn >> 3,
			devfn & 7);
		return KERN_SUCCESS;
	}
	flags = cpu_intr_save();
	d = domain_of(owner);
	for (unsigned int i = 1; d == NULL && i < DOMAINS; i++)
		if (domains[i].owner == NULL && FIRST_ID + i < ids)
			d = &domains[i];
	if (d == NULL || (d->owner == NULL && !domain_make(d, owner))) {
		kr = KERN_RESOURCE_SHORTAGE;	/* no id, or no memory */
		goto out;
	}
	d->functions++;		/* before ctx_set can drop it */
	ctx_set(bus, devfn, d->root | PRESENT,
		aw | (uint64_t)id_of(d) << 8);
out:
	cpu_intr_restore(flags);
	return kr;
}

void dmar_block(unsigned int bus, unsigned int devfn)
{
	uint64_t flags;

	if (!has_ctx(bus, devfn))
		return;
	flags = cpu_intr_save();
	ctx_set(bus, devfn, domains[0].root | PRESENT,
		aw | (uint64_t)FIRST_ID << 8);
	cpu_intr_restore(flags);
	(void)dmar_faults_poll();
}

void dmar_passthrough(unsigned int bus, unsigned int devfn)
{
	uint64_t flags;

	if (!has_ctx(bus, devfn))
		return;
	flags = cpu_intr_save();
	if (dmar_state(bus, devfn) != 2)
		ctx_set(bus, devfn, CTX_PASS | PRESENT,
			aw | (uint64_t)PASS_ID << 8);
	cpu_intr_restore(flags);
}

/* Lead the leaves of [@pa, @pa + @bytes) in @d to its sink again (no
 * invalidation). */
static void clear(const struct domain *d, uint64_t pa, uint64_t bytes)
{
	for (uint64_t off = 0; off < bytes; off += PAGE) {
		uint64_t *e = leaf(d, pa + off, false);

		if (e != NULL) {
			*e = d->sink[0] | SL_READ | SL_WRITE;
			flush_line(e);
		}
	}
}

static bool range_ok(uint64_t pa, uint64_t bytes)
{
	uint64_t width = 1ull << (12 + 9 * levels);

	return (pa | bytes) % PAGE == 0 && pa < width && bytes <= width - pa;
}

kern_return_t dmar_map(const void *owner, uint64_t pa, uint64_t bytes,
		       bool writable)
{
	uint64_t flags;
	const struct domain *d;
	kern_return_t kr = KERN_SUCCESS;

	if (!on)
		return KERN_SUCCESS;
	if (!range_ok(pa, bytes))
		return KERN_INVALID_ARGUMENT;
	flags = cpu_intr_save();
	d = domain_of(owner);
	for (uint64_t off = 0; d != NULL && off < bytes; off += PAGE) {
		uint64_t *e = leaf(d, pa + off, true);

		if (e == NULL) {
			clear(d, pa, off);
			iotlb_flush(id_of(d));
			kr = KERN_RESOURCE_SHORTAGE;
			break;
		}
		*e = (pa + off) | SL_READ | (writable ? SL_WRITE : 0);
		flush_line(e);
	}
	/* the unit may hold the range's way to the sink */
	if (d != NULL && kr == KERN_SUCCESS)
		iotlb_flush(id_of(d));
	cpu_intr_restore(flags);
	return kr;
}

void dmar_unmap(const void *owner, uint64_t pa, uint64_t bytes)
{
	uint64_t flags;
	const struct domain *d;

	if (!on || !range_ok(pa, bytes))
		return;
	flags = cpu_intr_save();
	d = domain_of(owner);
	if (d != NULL) {
		clear(d, pa, bytes);
		iotlb_flush(id_of(d));
	}
	cpu_intr_restore(flags);
}

uint64_t dmar_absorbed_poll(void)
{
	uint64_t flags, total;

	if (!on)
		return 0;
	flags = cpu_intr_save();
	for (unsigned int i = 0; i < DOMAINS; i++)
		if (domains[i].owner != NULL)
			absorb(&domains[i]);
	total = absorbed;
	cpu_intr_restore(flags);
	return total;
}

uint64_t dmar_faults_poll(void)
{
	uint64_t flags, fro, nfr, total;
	uint32_t fsts;

	if (!on)
		return 0;
	flags = cpu_intr_save();
	fro = CAP_FRO(cap);
	nfr = CAP_NFR(cap);
	fsts = r32(REG_FSTS);
	for (uint64_t i = (fsts >> 8) & 0xff, n = 0;
	     (fsts & FSTS_PPF) && n < nfr; i = (i + 1) % nfr, n++) {
		unsigned int at = (unsigned int)(fro + i * 16);
		uint64_t lo = r64(at), hi = r64(at + 8);
		unsigned int sid = hi & 0xffff;

		if (!(hi & FRCD_F))
			break;
		w64(at + 8, FRCD_F);
		faults++;
		if (may_print())
			kprintf("dmar: blocked %s of %#llx by %02x:%02x.%u "
				"(reason %#x)\n",
				hi & (1ull << 62) ? "read" : "write",
				(unsigned long long)(lo & ~0xfffull),
				sid >> 8, (sid >> 3) & 31, sid & 7,
				(unsigned int)(hi >> 32) & 0xff);
	}
	if (fsts & FSTS_PFO)
		w32(REG_FSTS, FSTS_PFO);	/* records were lost: counted
						 * as one */
	faults += (fsts & FSTS_PFO) != 0;
	total = faults;
	cpu_intr_restore(flags);
	return total;
}

static void poll_tick(void *arg)
{
	(void)dmar_faults_poll();
	(void)dmar_absorbed_poll();
	timeout_set(&poll_timeout, POLL_TICKS, poll_tick, arg);
}

/* Map the registers (a page, more if the IOTLB or fault registers lie
 * past it) and read the capabilities; false if they do not fit. */
static bool map_regs(uint64_t base)
{
	void *va;
	uint64_t size = PAGE, need;

	if (pmap_io_map(base, size, &va) != KERN_SUCCESS)
		return false;
	regs = va;
	cap = r64(REG_CAP);
	ecap = r64(REG_ECAP);
	need = ECAP_IRO(ecap) + 16;
	if (CAP_FRO(cap) + CAP_NFR(cap) * 16 > need)
		need = CAP_FRO(cap) + CAP_NFR(cap) * 16;
	if (need <= size)
		return true;
	(void)pmap_io_unmap(va);
	size = (need + PAGE - 1) / PAGE * PAGE;
	if (pmap_io_map(base, size, &va) != KERN_SUCCESS)
		return false;
	regs = va;
	return true;
}

/* Nowhere's domain (blocked functions), the root table and a context
 * table per numbered bus, every function pass-through; false if memory
 * ran out (nothing kept). */
static bool tables_make(void)
{
	uint64_t *root;

	if (!domain_make(&domains[0], &nowhere))
		return false;
	root_pa = table_alloc();
	if (root_pa == 0) {
		domain_free(&domains[0], levels);
		return false;
	}
	root = phys_to_virt(root_pa);
	for (unsigned int bus = 0; bus <= last_bus; bus++) {
		uint64_t pa = table_alloc();

		if (pa == 0) {
			for (unsigned int b = 0; b < bus; b++) {
				vm_page_free_contig(root[2 * b] & ADDR_MASK,
						    1);
				ctx[b] = NULL;
			}
			vm_page_free_contig(root_pa, 1);
			domain_free(&domains[0], levels);
			return false;
		}
		ctx[bus] = phys_to_virt(pa);
		for (unsigned int devfn = 0; devfn < DEVFNS; devfn++) {
			ctx[bus][devfn].hi = aw | (uint64_t)PASS_ID << 8;
			ctx[bus][devfn].lo = CTX_PASS | PRESENT;
		}
		flush_range(ctx[bus], PAGE);
		root[2 * bus] = pa | PRESENT;
		flush_line(&root[2 * bus]);
	}
	return true;
}

void dmar_init(const char *cmdline)
{
	const char *why = NULL, *value;
	size_t len;
	uint64_t base;

	if (cmdline_find(cmdline, "dmar", &value, &len) && len == 3 &&
	    memcmp(value, "off", 3) == 0) {
		kprintf("dmar: off (dmar=off): driver tasks' devices reach "
			"all memory\n");
		return;
	}
	base = dmar_find_unit(covered, &why);
	if (base != 0 && !map_regs(base))
		why = "its registers cannot be mapped";
	if (why == NULL) {
		coherent = ecap & ECAP_C;
		levels = CAP_SAGAW(cap) & 2 ? 3 : CAP_SAGAW(cap) & 4 ? 4 : 0;
		aw = levels - 2;
		ids = 1u << (4 + 2 * CAP_ND(cap));
		iotlb_reg = ECAP_IRO(ecap) + 8;
		if (!(ecap & ECAP_PT))
			why = "its unit has no pass-through";
		else if (levels == 0)
			why = "its unit has no 3- or 4-level tables";
		else if (ids <= FIRST_ID)
			why = "its unit has too few domain ids";
	}
	if (why == NULL) {
		last_bus = dmar_buses_numbered();
		if (!tables_make())
			why = "no memory for its tables";
	}
	if (why != NULL) {
		kprintf("dmar: off (%s): driver tasks' devices reach all "
			"memory\n", why);
		return;
	}
	w64(REG_RTADDR, root_pa);
	command(GCMD_SRTP, GCMD_SRTP, true);
	context_flush();
	iotlb_flush(0);
	command(GCMD_TE, GCMD_TE, true);
	on = true;
	timeout_set(&poll_timeout, POLL_TICKS, poll_tick, NULL);
	kprintf("dmar: on: unit at %#llx, %u-level tables, buses 0-%u, "
		"%u domain ids; driver tasks' devices reach only their "
		"memory\n", (unsigned long long)base, levels, last_bus, ids);
}
