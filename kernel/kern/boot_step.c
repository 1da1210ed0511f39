/* SPDX-License-Identifier: GPL-2.0-only */
/* Boot steps: run those the command line asks for. */
#include <stddef.h>

#include "kern/boot_step.h"
#include "kern/cmdline.h"

void boot_steps_run(const char *cmdline)
{
	for (const struct boot_step *s = __start_boot_steps;
	     s < __stop_boot_steps; s++)
		if (cmdline_find(cmdline, s->word, NULL, NULL))
			s->run();
}
