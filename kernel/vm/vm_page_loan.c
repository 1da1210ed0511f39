/* SPDX-License-Identifier: GPL-2.0-only */
/* The registry of lent frames (vm_page_loan.h): an open-addressed table. */
/*
 * Linear probing over twice VM_PAGE_LOAN_MAX slots keyed by frame
 * number (below 2^32: 16 TiB), so a lookup stays short; a slot freed is
 * refilled by moving later members of its run back (no tombstones).
 */
#include <stdbool.h>
#include <stdint.h>

#include "kern/panic.h"
#include "vm/vm_page.h"
#include "vm/vm_page_loan.h"

#define SLOTS	(2 * VM_PAGE_LOAN_MAX)

struct slot {
	uint32_t pfn;		/* frame number + 1; 0: empty */
	uint16_t holds;		/* at most VM_PAGE_LOAN_MAX */
	bool orphan;
};

static struct slot slots[SLOTS];
uint64_t vm_page_loans_active;	/* slots in use */
static uint64_t holds_total;

static uint64_t home(uint64_t key)
{
	return (key * 0x9e3779b97f4a7c15ull >> 32) % SLOTS;
}

static struct slot *find(uint64_t pa)
{
	uint32_t key = (uint32_t)(pa / VM_PAGE_SIZE + 1);

	if (vm_page_loans_active == 0)
		return NULL;
	for (uint64_t i = home(key);; i = (i + 1) % SLOTS) {
		if (slots[i].pfn == key)
			return &slots[i];
		if (slots[i].pfn == 0)
			return NULL;
	}
}

/* Empty slot @s and close the gap it leaves in its run. */
static void slot_clear(struct slot *s)
{
	uint64_t hole = (uint64_t)(s - slots);

	for (uint64_t i = (hole + 1) % SLOTS; slots[i].pfn != 0;
	     i = (i + 1) % SLOTS) {
		uint64_t h = home(slots[i].pfn);

		/* slot i may move to the hole iff its home is not in
		 * (hole, i] (cyclically) */
		if (hole <= i ? (h <= hole || h > i) : (h <= hole && h > i)) {
			slots[hole] = slots[i];
			hole = i;
		}
	}
	slots[hole] = (struct slot){ 0 };
	vm_page_loans_active--;
}

bool vm_page_loan_room(uint64_t n)
{
	return n <= VM_PAGE_LOAN_MAX - holds_total;
}

void vm_page_loan_take(uint64_t pa)
{
	uint32_t key = (uint32_t)(pa / VM_PAGE_SIZE + 1);
	struct slot *s = find(pa);
	uint64_t i;

	if (holds_total >= VM_PAGE_LOAN_MAX || pa % VM_PAGE_SIZE != 0 ||
	    pa / VM_PAGE_SIZE >= UINT32_MAX)
		panic("vm_page_loan_take: 0x%llx: no room or unaligned",
		      (unsigned long long)pa);
	holds_total++;
	if (s != NULL) {
		s->holds++;
		return;
	}
	for (i = home(key); slots[i].pfn != 0; i = (i + 1) % SLOTS)
		;
	slots[i] = (struct slot){ .pfn = key, .holds = 1 };
	vm_page_loans_active++;
}

void vm_page_loan_give(uint64_t pa)
{
	struct slot *s = find(pa);

	if (s == NULL)
		panic("vm_page_loan_give: 0x%llx is not lent",
		      (unsigned long long)pa);
	holds_total--;
	if (--s->holds > 0)
		return;
	if (s->orphan)
		vm_page_free_contig(pa, 1);
	slot_clear(s);
}

bool vm_page_loaned(uint64_t pa)
{
	return find(pa) != NULL;
}

bool vm_page_loan_orphan(uint64_t pa)
{
	struct slot *s = find(pa);

	if (s == NULL)
		return false;
	s->orphan = true;
	return true;
}
