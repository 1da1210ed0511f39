/* SPDX-License-Identifier: GPL-2.0-only */
/* Frames of a task lent to an out-of-line copy for a kernel receiver. */
#ifndef VM_VM_PAGE_LOAN_H
#define VM_VM_PAGE_LOAN_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A loan is a hold of a copy (vm_map_copy) on a frame that a task's map
 * still maps, write-protected (vm_map.c keeps the rules).  The registry
 * counts the holds of each frame (a frame may be lent to several copies
 * at once) and whether the map gave the frame up meanwhile (an orphan):
 * the last hold given back frees an orphan.  It holds at most
 * VM_PAGE_LOAN_MAX frames; a copy that would need more copies instead.
 *
 * Locking: one CPU; callers run with interrupts off (vm_map.c).
 */
#define VM_PAGE_LOAN_MAX	4096	/* frames: 16 MiB */

/* vm_page_loans_active - frames held now; 0 lets callers skip lookups. */
extern uint64_t vm_page_loans_active;

/* vm_page_loan_room - whether @n more frames (distinct or not) can be
 * lent now. */
bool vm_page_loan_room(uint64_t n);

/* vm_page_loan_take - one more hold on frame @pa (page aligned).  The
 * caller checked vm_page_loan_room first; taking beyond it panics. */
void vm_page_loan_take(uint64_t pa);

/* vm_page_loan_give - drop one hold on @pa (held: else panic); the last
 * hold of an orphan frees the frame. */
void vm_page_loan_give(uint64_t pa);

/* vm_page_loaned - whether any copy holds @pa. */
bool vm_page_loaned(uint64_t pa);

/* vm_page_loan_orphan - the map gives @pa up: if it is held, it becomes
 * an orphan (freed by its last hold) and the answer is true; else false
 * and the frame is still the caller's to free. */
bool vm_page_loan_orphan(uint64_t pa);

#endif
