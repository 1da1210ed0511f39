/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "linux-blk": linux-emu's blk-mq (tag sets, passthrough requests, timeouts, busy and requeued requests, quiesce, freeze, iteration, teardown) against the fake driver of tests/linux-emu/lx_selftest_blk.c. */
/*
 * No device: the fake driver's queue_rq answers in the Linux world.
 * The cases run in order on one tag set and queue, the first starting
 * the Linux world, the last tearing them down.
 */
#include "kern/ktest.h"
#include "linux-emu/include/lx_emul.h"
#include "tests/linux-emu/lx_selftest_blk.h"

static void expect_passes(struct ktest *t, const char *what, int line)
{
	if (line)
		ktest_fail(t, "%s: the check at lx_selftest_blk.c:%d failed",
			   what, line);
}

static void tags_per_hardware_queue_with_reserved_ones(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_init(), 0);
	expect_passes(t, "tags", lx_emul_selftest_blk_tags());
}

static void kernel_buffers_move_through_passthrough_requests(struct ktest *t)
{
	expect_passes(t, "execute", lx_emul_selftest_blk_execute());
}

static void a_held_request_times_out_after_one_reset(struct ktest *t)
{
	expect_passes(t, "timeout", lx_emul_selftest_blk_timeout());
}

static void busy_and_requeued_requests_are_dispatched_again(struct ktest *t)
{
	expect_passes(t, "busy/requeue",
		      lx_emul_selftest_blk_busy_and_requeue());
}

static void a_quiesced_queue_dispatches_after_the_last_unquiesce(struct ktest *t)
{
	expect_passes(t, "quiesce", lx_emul_selftest_blk_quiesce());
}

static void a_freeze_waits_for_the_last_request(struct ktest *t)
{
	expect_passes(t, "freeze", lx_emul_selftest_blk_freeze());
}

static void busy_iteration_sees_started_requests(struct ktest *t)
{
	expect_passes(t, "busy_iter", lx_emul_selftest_blk_busy_iter());
}

static void submitted_bios_end_once_after_partial_completions(struct ktest *t)
{
	expect_passes(t, "bio", lx_emul_selftest_blk_bio());
}

static void a_destroyed_queue_refuses_and_is_freed(struct ktest *t)
{
	expect_passes(t, "teardown", lx_emul_selftest_blk_teardown());
}

static const struct ktest_case linux_blk_cases[] = {
	{ "tags_per_hardware_queue_with_reserved_ones",
	  tags_per_hardware_queue_with_reserved_ones },
	{ "kernel_buffers_move_through_passthrough_requests",
	  kernel_buffers_move_through_passthrough_requests },
	{ "a_held_request_times_out_after_one_reset",
	  a_held_request_times_out_after_one_reset },
	{ "busy_and_requeued_requests_are_dispatched_again",
	  busy_and_requeued_requests_are_dispatched_again },
	{ "a_quiesced_queue_dispatches_after_the_last_unquiesce",
	  a_quiesced_queue_dispatches_after_the_last_unquiesce },
	{ "a_freeze_waits_for_the_last_request",
	  a_freeze_waits_for_the_last_request },
	{ "busy_iteration_sees_started_requests",
	  busy_iteration_sees_started_requests },
	{ "submitted_bios_end_once_after_partial_completions",
	  submitted_bios_end_once_after_partial_completions },
	{ "a_destroyed_queue_refuses_and_is_freed",
	  a_destroyed_queue_refuses_and_is_freed },
};
KTEST_SUITE(linux_blk_suite, "linux-blk", linux_blk_cases);
