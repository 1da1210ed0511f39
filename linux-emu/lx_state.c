/* SPDX-License-Identifier: GPL-2.0-only */
/* Linux's global state that compiled Linux code reads directly. */
/*
 * The configuration is uniprocessor (no CONFIG_SMP), so per-CPU variables
 * are ordinary variables, read without %gs.
 *
 * current_task is set whenever a thread takes the Linux world
 * (lx_sched.c); lx_init_task is only what it names before that.
 */
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/mmzone.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/workqueue.h>

#include <lx_bus.h>
#include <lx_emul.h>
#include <lx_host.h>
#include <lx_net.h>
#include <lx_world.h>

static struct task_struct lx_init_task = {
	.comm = "graft",
};

/* As once boot is over: preemption enabled, no interrupt being handled
 * (x86 keeps the need-resched bit inverted in the same word). */
DEFINE_PER_CPU(int, __preempt_count) = PREEMPT_ENABLED;
DEFINE_PER_CPU(struct task_struct *, current_task) = &lx_init_task;
unsigned long phys_base;		/* Graft's image is not relocated */
enum system_states system_state = SYSTEM_RUNNING;
/* Linux's "reset_devices" boot option (set for a kdump kernel, whose
 * devices may be mid-command): Graft boots its drivers cold, off. */
unsigned int reset_devices;
/* Linux sets it once jump_label_init() has run, early in boot: static
 * keys may be used (without CONFIG_JUMP_LABEL they are plain counts). */
bool static_key_initialized = true;

int lx_emul_preempt_count(void)
{
	return preempt_count();
}

static int init_in_world(void *arg)
{
	int err = lx_page_init();

	if (!err)
		err = lx_timer_init();
	if (!err)
		err = lx_softirq_init();
	if (!err)
		lx_tasklet_init();
	if (!err)
		seq_file_init();	/* fs/seq_file.c's cache */
	if (!err)
		err = lx_workqueue_init();
	if (!err)
		err = lx_net_init();
	if (!err)
		err = lx_auxiliary_init();
	return err;
}

int lx_emul_host_check(unsigned int host_version)
{
	if (host_version == LX_HOST_VERSION)
		return 0;
	pr_err("linux-emu: the host implements lx_host.h version %u, "
	       "linux-emu needs %u\n", host_version, LX_HOST_VERSION);
	return -EPROTO;
}

int lx_emul_init(void)
{
	int err = lx_emul_host_check(lx_host_version());

	if (err)
		return err;
	lx_paravirt_init();
	return lx_world_run(init_in_world, NULL);
}
