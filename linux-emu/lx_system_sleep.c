/* SPDX-License-Identifier: GPL-2.0-only */
/* lock_system_sleep, unlock_system_sleep: the system sleep transition lock (Graft never suspends, so it only excludes other holders). */
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/suspend.h>

DEFINE_MUTEX(system_transition_mutex);

/*
 * lock_system_sleep - take the system transition lock, the task marked
 * not freezable meanwhile.  The task's previous flags, for
 * unlock_system_sleep.  Thread context; sleeps.
 */
unsigned int lock_system_sleep(void)
{
	unsigned int flags = current->flags;

	current->flags |= PF_NOFREEZE;
	mutex_lock(&system_transition_mutex);
	return flags;
}

/* unlock_system_sleep - release the lock; PF_NOFREEZE as @flags had it. */
void unlock_system_sleep(unsigned int flags)
{
	if (!(flags & PF_NOFREEZE))
		current->flags &= ~PF_NOFREEZE;
	mutex_unlock(&system_transition_mutex);
}
