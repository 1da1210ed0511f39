/* SPDX-License-Identifier: GPL-2.0-only */
/* Stands in for GNU Mach's <kern/ipc_host.h> in MIG's kernel server stubs. */
#include "graft_mig.h"
