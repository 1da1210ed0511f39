/* SPDX-License-Identifier: GPL-2.0-only */
/* Stands in for <mach/mig_support.h> in MIG's kernel server stubs (they call nothing from it). */
#include "graft_mig.h"
