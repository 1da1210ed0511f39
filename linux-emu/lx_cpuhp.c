/* SPDX-License-Identifier: GPL-2.0-only */
/* CPU hot-plug states: __cpuhp_setup_state, __cpuhp_remove_state and their multi-instance forms. */
/*
 * The Linux world has one CPU, online from the start, that never goes
 * away.  So a state's callbacks run only when the caller asks for them
 * to run now (invoke): startup when the state or an instance is added,
 * teardown when it is removed, on that CPU, in the caller's thread.
 * Nothing else ever calls them.  Dynamic states (CPUHP_AP_ONLINE_DYN,
 * CPUHP_BP_PREPARE_DYN) get a free number of their range, as Linux's
 * kernel/cpu.c gives them.  Callers hold the world.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/list.h>

struct lx_cpuhp_state {
	const char *name;		/* NULL: free */
	bool multi;
	union {
		int (*single)(unsigned int cpu);
		int (*multi)(unsigned int cpu, struct hlist_node *node);
	} startup, teardown;
	struct hlist_head instances;
};

static struct lx_cpuhp_state states[CPUHP_ONLINE + 1];

/* A free number in @state's dynamic range, @state itself when it is not
 * dynamic; -ENOSPC when the range is full, -EINVAL out of range. */
static int state_number(enum cpuhp_state state)
{
	int first = state, last = state;

	if (state == CPUHP_AP_ONLINE_DYN) {
		last = CPUHP_AP_ONLINE_DYN_END;
	} else if (state == CPUHP_BP_PREPARE_DYN) {
		last = CPUHP_BP_PREPARE_DYN_END;
	} else {
		if (state <= CPUHP_OFFLINE || state > CPUHP_ONLINE)
			return -EINVAL;
		return state;
	}
	for (int n = first; n <= last; n++)
		if (!states[n].name)
			return n;
	return -ENOSPC;
}

static bool dynamic(enum cpuhp_state state)
{
	return state == CPUHP_AP_ONLINE_DYN || state == CPUHP_BP_PREPARE_DYN;
}

/*
 * __cpuhp_setup_state - install @name's callbacks for @state (a number
 * of the dynamic range for CPUHP_AP_ONLINE_DYN and CPUHP_BP_PREPARE_DYN)
 * and, with @invoke, run @startup on the online CPU (a multi-instance
 * state has no instance yet: nothing runs).  The dynamic number given,
 * or 0 for a fixed state; -EINVAL (bad state or no name), -EBUSY (the
 * fixed state is taken), -ENOSPC (dynamic range full), or @startup's
 * error, the state then left free.
 */
int __cpuhp_setup_state(enum cpuhp_state state, const char *name,
			bool invoke, int (*startup)(unsigned int cpu),
			int (*teardown)(unsigned int cpu), bool multi_instance)
{
	struct lx_cpuhp_state *st;
	int n = state_number(state);
	unsigned int cpu;

	if (!name || n < 0)
		return n < 0 ? n : -EINVAL;
	st = &states[n];
	if (st->name)
		return -EBUSY;
	st->name = name;
	st->multi = multi_instance;
	st->startup.single = startup;
	st->teardown.single = teardown;
	INIT_HLIST_HEAD(&st->instances);
	if (invoke && startup && !multi_instance) {
		for_each_online_cpu(cpu) {
			int err = startup(cpu);

			if (err) {
				st->name = NULL;
				return err;
			}
		}
	}
	return dynamic(state) ? n : 0;
}

/* __cpuhp_setup_state_cpuslocked - __cpuhp_setup_state (no CPU comes or
 * goes, so there is no hot-plug lock to hold). */
int __cpuhp_setup_state_cpuslocked(enum cpuhp_state state, const char *name,
				   bool invoke,
				   int (*startup)(unsigned int cpu),
				   int (*teardown)(unsigned int cpu),
				   bool multi_instance)
{
	return __cpuhp_setup_state(state, name, invoke, startup, teardown,
				   multi_instance);
}

static struct lx_cpuhp_state *installed(enum cpuhp_state state)
{
	if (state <= CPUHP_OFFLINE || state > CPUHP_ONLINE ||
	    !states[state].name)
		return NULL;
	return &states[state];
}

/*
 * __cpuhp_state_add_instance - add @node to multi-instance @state and,
 * with @invoke, run its startup for @node on the online CPU.  0;
 * -EINVAL for a state not installed or not multi-instance; startup's
 * error (@node then not added).
 */
int __cpuhp_state_add_instance(enum cpuhp_state state,
			       struct hlist_node *node, bool invoke)
{
	struct lx_cpuhp_state *st = installed(state);
	unsigned int cpu;

	if (!st || !st->multi)
		return -EINVAL;
	if (invoke && st->startup.multi) {
		for_each_online_cpu(cpu) {
			int err = st->startup.multi(cpu, node);

			if (err)
				return err;
		}
	}
	hlist_add_head(node, &st->instances);
	return 0;
}

/* __cpuhp_state_add_instance_cpuslocked - __cpuhp_state_add_instance. */
int __cpuhp_state_add_instance_cpuslocked(enum cpuhp_state state,
					  struct hlist_node *node, bool invoke)
{
	return __cpuhp_state_add_instance(state, node, invoke);
}

/*
 * __cpuhp_state_remove_instance - with @invoke, run @state's teardown
 * for @node on the online CPU, then take @node off.  0; -EINVAL for a
 * state not installed or not multi-instance.
 */
int __cpuhp_state_remove_instance(enum cpuhp_state state,
				  struct hlist_node *node, bool invoke)
{
	struct lx_cpuhp_state *st = installed(state);
	unsigned int cpu;

	if (!st || !st->multi)
		return -EINVAL;
	if (invoke && st->teardown.multi)
		for_each_online_cpu(cpu)
			st->teardown.multi(cpu, node);
	hlist_del(node);
	return 0;
}

/*
 * __cpuhp_remove_state - with @invoke, run @state's teardown on the
 * online CPU, then free the state.  A multi-instance state that still
 * has instances is left as it is, with a warning (Linux's rule).
 */
void __cpuhp_remove_state(enum cpuhp_state state, bool invoke)
{
	struct lx_cpuhp_state *st = installed(state);
	unsigned int cpu;

	if (!st)
		return;
	if (st->multi && WARN(!hlist_empty(&st->instances),
			      "cpuhp: %s removed with instances\n", st->name))
		return;
	if (invoke && !st->multi && st->teardown.single)
		for_each_online_cpu(cpu)
			st->teardown.single(cpu);
	st->name = NULL;
}

/* __cpuhp_remove_state_cpuslocked - __cpuhp_remove_state. */
void __cpuhp_remove_state_cpuslocked(enum cpuhp_state state, bool invoke)
{
	__cpuhp_remove_state(state, invoke);
}
