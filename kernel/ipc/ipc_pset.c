/* SPDX-License-Identifier: GPL-2.0-only */
/* Port sets: membership, the oldest member message, and death. */
#include <stddef.h>

#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_pset.h"
#include "kern/kalloc.h"
#include "kern/panic.h"
#include "kern/sched.h"

static unsigned int psets_alive;

unsigned int ipc_pset_count(void)
{
	return psets_alive;
}

struct ipc_pset *ipc_pset_alloc(void)
{
	struct ipc_pset *pset = kzalloc(sizeof(*pset));

	if (pset != NULL) {
		pset->refs = 1;
		pset->active = true;
		psets_alive++;
	}
	return pset;
}

void ipc_pset_reference(struct ipc_pset *pset)
{
	pset->refs++;
}

void ipc_pset_release(struct ipc_pset *pset)
{
	if (pset->refs == 0)
		panic("ipc_pset_release: set %p is free", (void *)pset);
	if (--pset->refs != 0)
		return;
	if (pset->active || pset->members != NULL)
		panic("ipc_pset_release: live set %p freed", (void *)pset);
	psets_alive--;
	kfree(pset);
}

void ipc_pset_add(struct ipc_pset *pset, struct ipc_port *port)
{
	if (port->pset != NULL)
		panic("ipc_pset_add: port %p is in a set", (void *)port);
	port->pset = pset;
	port->pset_next = pset->members;
	pset->members = port;
	if (port->msg_head != NULL)
		thread_wakeup(&pset->rcv_event);
}

void ipc_pset_remove(struct ipc_port *port)
{
	struct ipc_pset *pset = port->pset;
	struct ipc_port **pp;

	if (pset == NULL)
		return;
	for (pp = &pset->members; *pp != port; pp = &(*pp)->pset_next)
		;
	*pp = port->pset_next;
	port->pset_next = NULL;
	port->pset = NULL;
}

void ipc_pset_destroy(struct ipc_pset *pset)
{
	while (pset->members != NULL)
		ipc_pset_remove(pset->members);
	pset->active = false;
	pset->space = NULL;
	thread_wakeup(&pset->rcv_event);
	ipc_pset_release(pset);
}

struct ipc_kmsg *ipc_pset_first_message(const struct ipc_pset *pset,
					struct ipc_port **portp)
{
	struct ipc_kmsg *best = NULL;
	struct ipc_port *port;

	for (port = pset->members; port != NULL; port = port->pset_next) {
		struct ipc_kmsg *kmsg = port->msg_head;

		if (kmsg == NULL)
			continue;
		if (best == NULL || kmsg->stamp < best->stamp) {
			best = kmsg;
			*portp = port;
		}
	}
	return best;
}
