/* SPDX-License-Identifier: GPL-2.0-only */
/* Interrupt lines over the 8259A pair: handler table, counts, dispatch. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/intr.h"
#include "kern/panic.h"
#include "x86_64/cpu.h"
#include "x86_64/pic.h"

struct intr_handler {
	void (*fn)(unsigned int line, void *arg);
	void *arg;
};

struct intr_line {
	struct intr_handler handlers[INTR_MAX_HANDLERS];
	unsigned int nhandlers;
	volatile uint64_t count;	/* written by intr_dispatch only */
	volatile uint64_t spurious;
};

static struct intr_line lines[INTR_LINES];

static void intr_check_line(unsigned int line)
{
	if (line >= INTR_LINES)
		panic("interrupt line %u out of range", line);
}

kern_return_t intr_register(unsigned int line,
			    void (*fn)(unsigned int line, void *arg),
			    void *arg)
{
	struct intr_line *l;
	kern_return_t kr = KERN_SUCCESS;
	uint64_t flags;

	if (line >= INTR_LINES || fn == NULL)
		return KERN_INVALID_ARGUMENT;
	l = &lines[line];
	flags = cpu_intr_save();
	if (l->nhandlers == INTR_MAX_HANDLERS) {
		kr = KERN_NO_SPACE;
	} else {
		l->handlers[l->nhandlers].fn = fn;
		l->handlers[l->nhandlers].arg = arg;
		l->nhandlers++;
	}
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t intr_unregister(unsigned int line,
			      void (*fn)(unsigned int line, void *arg),
			      void *arg)
{
	struct intr_line *l;
	kern_return_t kr = KERN_INVALID_ARGUMENT;
	uint64_t flags;
	unsigned int i;

	if (line >= INTR_LINES)
		return KERN_INVALID_ARGUMENT;
	l = &lines[line];
	flags = cpu_intr_save();
	for (i = 0; i < l->nhandlers; i++) {
		if (l->handlers[i].fn == fn && l->handlers[i].arg == arg)
			break;
	}
	if (i < l->nhandlers) {
		/* Close the gap so the others keep their order. */
		for (; i + 1 < l->nhandlers; i++)
			l->handlers[i] = l->handlers[i + 1];
		l->nhandlers--;
		kr = KERN_SUCCESS;
	}
	cpu_intr_restore(flags);
	return kr;
}

unsigned int intr_handler_count(unsigned int line)
{
	return line < INTR_LINES ? lines[line].nhandlers : 0;
}

void intr_mask(unsigned int line)
{
	uint64_t flags;

	intr_check_line(line);
	flags = cpu_intr_save();
	pic_mask(line);
	cpu_intr_restore(flags);
}

void intr_unmask(unsigned int line)
{
	uint64_t flags;

	intr_check_line(line);
	flags = cpu_intr_save();
	pic_unmask(line);
	cpu_intr_restore(flags);
}

bool intr_is_masked(unsigned int line)
{
	intr_check_line(line);
	return pic_is_masked(line);
}

uint64_t intr_count(unsigned int line)
{
	if (line >= INTR_LINES)
		return 0;
	return lines[line].count;
}

uint64_t intr_spurious_count(unsigned int line)
{
	if (line >= INTR_LINES)
		return 0;
	return lines[line].spurious;
}

void intr_dispatch(unsigned int line)
{
	struct intr_handler run[INTR_MAX_HANDLERS];
	struct intr_line *l;
	unsigned int n;
	bool level;

	intr_check_line(line);
	l = &lines[line];
	if (pic_spurious(line)) {
		l->spurious++;
		return;
	}
	l->count++;
	level = pic_level_triggered(line);
	if (!level)
		pic_eoi(line);
	/* A copy, so a handler may (un)register on its own line. */
	n = l->nhandlers;
	for (unsigned int i = 0; i < n; i++)
		run[i] = l->handlers[i];
	for (unsigned int i = 0; i < n; i++)
		run[i].fn(line, run[i].arg);
	if (level)
		pic_eoi(line);
}

void intr_init(void)
{
	pic_init(INTR_VECTOR_BASE);
	cpu_intr_enable();
}
