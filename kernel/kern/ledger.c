/* SPDX-License-Identifier: GPL-2.0-only */
/* Ledgers: per-task counts of kernel resources held through requests. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/kalloc.h"
#include "kern/ledger.h"
#include "kern/panic.h"
#include "x86_64/cpu.h"

struct ledger {
	bool released;			/* its task is gone */
	uint64_t used[LEDGER_ITEMS];
};

/*
 * Two transfers of the largest size (DEV_IO_MAX, 16 MiB) may be in
 * flight at once; 1024 requests cover a sender keeping hundreds of
 * frames outstanding.  Four
 * interrupt lines serve a driver server with a NIC and an IDE controller
 * of two channels; 16 MiB of DMA memory hold a NIC's rings and buffers
 * many times over; 16 published devices cover a driver server's NICs
 * and disks with their partitions.
 */
static const uint64_t limits[LEDGER_ITEMS] = {
	[LEDGER_IO_REQUESTS] = 1024,
	[LEDGER_IO_BYTES] = 32u << 20,
	[LEDGER_INTR_LINES] = 4,
	[LEDGER_NET_FILTERS] = 64,
	[LEDGER_IO_PERMS] = 64,
	[LEDGER_DMA_BYTES] = 16u << 20,
	[LEDGER_DEVICE_PROXIES] = 16,
};

static unsigned int ledgers_alive;

unsigned int ledger_count(void)
{
	return ledgers_alive;
}

struct ledger *ledger_create(void)
{
	struct ledger *ledger = kzalloc(sizeof(*ledger));
	uint64_t flags;

	if (ledger == NULL)
		return NULL;
	flags = cpu_intr_save();
	ledgers_alive++;
	cpu_intr_restore(flags);
	return ledger;
}

static bool nothing_charged(const struct ledger *ledger)
{
	for (int i = 0; i < LEDGER_ITEMS; i++)
		if (ledger->used[i] != 0)
			return false;
	return true;
}

/* Free @ledger if its task is gone and nothing is charged (interrupts
 * off). */
static void free_if_done(struct ledger *ledger)
{
	if (ledger->released && nothing_charged(ledger)) {
		ledgers_alive--;
		kfree(ledger);
	}
}

void ledger_release(struct ledger *ledger)
{
	uint64_t flags;

	if (ledger == NULL)
		return;
	flags = cpu_intr_save();
	if (ledger->released)
		panic("ledger %p released twice", (void *)ledger);
	ledger->released = true;
	free_if_done(ledger);
	cpu_intr_restore(flags);
}

bool ledger_charge(struct ledger *ledger, enum ledger_item item, uint64_t n)
{
	uint64_t flags;
	bool ok;

	if (ledger == NULL)
		return true;
	flags = cpu_intr_save();
	ok = n <= limits[item] && ledger->used[item] <= limits[item] - n;
	if (ok)
		ledger->used[item] += n;
	cpu_intr_restore(flags);
	return ok;
}

void ledger_credit(struct ledger *ledger, enum ledger_item item, uint64_t n)
{
	uint64_t flags;

	if (ledger == NULL)
		return;
	flags = cpu_intr_save();
	if (ledger->used[item] < n)
		panic("ledger %p: credit of %llu, %llu charged (item %d)",
		      (void *)ledger, (unsigned long long)n,
		      (unsigned long long)ledger->used[item], item);
	ledger->used[item] -= n;
	free_if_done(ledger);
	cpu_intr_restore(flags);
}

bool ledger_charge_io(struct ledger *ledger, uint64_t bytes,
		      enum ledger_item *refused)
{
	uint64_t flags, *used;
	bool ok = false;

	if (ledger == NULL)
		return true;
	used = ledger->used;
	flags = cpu_intr_save();
	if (used[LEDGER_IO_REQUESTS] >= limits[LEDGER_IO_REQUESTS]) {
		*refused = LEDGER_IO_REQUESTS;
	} else if (bytes > limits[LEDGER_IO_BYTES] ||
		   used[LEDGER_IO_BYTES] > limits[LEDGER_IO_BYTES] - bytes) {
		*refused = LEDGER_IO_BYTES;
	} else {
		used[LEDGER_IO_REQUESTS]++;
		used[LEDGER_IO_BYTES] += bytes;
		ok = true;
	}
	cpu_intr_restore(flags);
	return ok;
}

void ledger_credit_io(struct ledger *ledger, uint64_t bytes)
{
	uint64_t flags;

	if (ledger == NULL)
		return;
	flags = cpu_intr_save();
	if (ledger->used[LEDGER_IO_REQUESTS] == 0 ||
	    ledger->used[LEDGER_IO_BYTES] < bytes)
		panic("ledger %p: credit of a request of %llu bytes not charged",
		      (void *)ledger, (unsigned long long)bytes);
	ledger->used[LEDGER_IO_REQUESTS]--;
	ledger->used[LEDGER_IO_BYTES] -= bytes;
	free_if_done(ledger);
	cpu_intr_restore(flags);
}

