/* SPDX-License-Identifier: GPL-2.0-only */
/* Stands in for GNU Mach's <kern/ipc_kobject.h> in MIG's kernel server stubs. */
#include "graft_mig.h"
