/* SPDX-License-Identifier: GPL-2.0-only */
/* Sleepable RCU (Tiny SRCU's structure): init_srcu_struct, cleanup_srcu_struct, synchronize_srcu. */
/*
 * Readers count themselves in srcu_lock_nesting[] (Linux's inline
 * __srcu_read_lock); synchronize_srcu flips srcu_idx so new readers use
 * the other counter, then waits for the old counter to drain, then for
 * the new one (a grace period covers every reader that began before).
 * It polls: readers do not wake it.  No call_srcu callbacks.
 */
#include <linux/delay.h>
#include <linux/srcu.h>

/* init_srcu_struct - @ssp with no reader.  0. */
int init_srcu_struct(struct srcu_struct *ssp)
{
	ssp->srcu_lock_nesting[0] = 0;
	ssp->srcu_lock_nesting[1] = 0;
	ssp->srcu_gp_running = false;
	ssp->srcu_gp_waiting = false;
	ssp->srcu_idx = 0;
	ssp->srcu_idx_max = 0;
	ssp->srcu_cb_head = NULL;
	ssp->srcu_cb_tail = &ssp->srcu_cb_head;
	return 0;
}

/* cleanup_srcu_struct - @ssp is no longer used (a reader still inside
 * is a bug: warned). */
void cleanup_srcu_struct(struct srcu_struct *ssp)
{
	WARN_ON(READ_ONCE(ssp->srcu_lock_nesting[0]) ||
		READ_ONCE(ssp->srcu_lock_nesting[1]));
}

/* synchronize_srcu - wait until every reader of @ssp that started
 * before the call has left.  Sleeps. */
void synchronize_srcu(struct srcu_struct *ssp)
{
	for (int flip = 0; flip < 2; flip++) {
		int idx = (READ_ONCE(ssp->srcu_idx) & 0x2) >> 1;

		WRITE_ONCE(ssp->srcu_idx, ssp->srcu_idx + 2);
		while (READ_ONCE(ssp->srcu_lock_nesting[idx]))
			msleep(1);
	}
}
