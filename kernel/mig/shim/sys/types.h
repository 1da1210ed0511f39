/* SPDX-License-Identifier: GPL-2.0-only */
/* Stands in for <sys/types.h>, which gnumach-dev's mach_debug headers include. */
#include <stddef.h>
#include <stdint.h>
