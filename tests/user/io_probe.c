/* SPDX-License-Identifier: GPL-2.0-only */
/* A user task that asks for I/O ports with i386_io_perm_create / _modify and uses them. */
/*
 * The ports are the CMOS index/data pair 0x70/0x71: writing 0 to 0x70
 * selects the RTC seconds register, which 0x71 reads as BCD.  Modes
 * (word "mode=..."; device=N names the device master port):
 *   grant   refused requests first, then a grant of 0x70-0x71 to itself;
 *           reads the seconds, sleeps so that other tasks run, reads
 *           again, and exits
 *   revoke  grant, read, withdraw, then read again: must end in #GP
 *   none    sleeps until a granted task runs, then reads 0x71 without a
 *           grant: must end in #GP
 *   drop    grant, drop the io_perm's only send right, read: the grant
 *           outlives the object (as in GNU Mach)
 * Each check prints "USER-PASS name" or "USER-FAIL ..."; the line
 * "USER-IO about to fault" precedes an access that must fault.
 */
#include <mach/message.h>
#include <mach/thread_switch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "mach_i386.h"
#include "user_args.h"
#include "user_check.h"
#include "user_io.h"

#define CMOS_INDEX	0x70
#define CMOS_DATA	0x71

/* The RTC seconds register, checked to be a BCD value 00..59. */
static void read_seconds(const char *name)
{
	unsigned char v;

	outb(CMOS_INDEX, 0x00);
	v = inb(CMOS_DATA);
	check(name, 1, (v & 0x0f) <= 9 && (v >> 4) <= 5);
}

static void fault_now(void)
{
	printf("USER-IO about to fault\n");
	fflush(stdout);
	(void)inb(CMOS_DATA);
	printf("USER-FAIL port_access_did_not_fault\n");
}

static void refused_requests(mach_port_t device)
{
	io_perm_t perm = MACH_PORT_NULL;

	check("create_reversed_range_is_invalid_argument",
	      KERN_INVALID_ARGUMENT,
	      i386_io_perm_create(device, CMOS_DATA, CMOS_INDEX, &perm));
	check("create_through_host_port_is_invalid_argument",
	      KERN_INVALID_ARGUMENT,
	      i386_io_perm_create(mach_host_self(), CMOS_INDEX, CMOS_DATA,
				  &perm));
	check("create_through_task_port_is_invalid_argument",
	      KERN_INVALID_ARGUMENT,
	      i386_io_perm_create(mach_task_self(), CMOS_INDEX, CMOS_DATA,
				  &perm));
	check("modify_with_null_perm_is_invalid_argument",
	      KERN_INVALID_ARGUMENT,
	      i386_io_perm_modify(mach_task_self(), MACH_PORT_NULL, 1));
	check("modify_with_host_port_as_perm_is_invalid_argument",
	      KERN_INVALID_ARGUMENT,
	      i386_io_perm_modify(mach_task_self(), mach_host_self(), 1));
}

/* A grant of 0x70-0x71 to this task; the io_perm's name in *@perm. */
static void grant(mach_port_t device, io_perm_t *perm)
{
	check("create_cmos_ports", KERN_SUCCESS,
	      i386_io_perm_create(device, CMOS_INDEX, CMOS_DATA, perm));
	check("modify_on_host_port_is_invalid_argument", KERN_INVALID_ARGUMENT,
	      i386_io_perm_modify(mach_host_self(), *perm, 1));
	check("grant_to_self", KERN_SUCCESS,
	      i386_io_perm_modify(mach_task_self(), *perm, 1));
}

int main(int argc, char **argv)
{
	mach_port_t device = graft_arg_port(argc, argv, "device");
	io_perm_t perm = MACH_PORT_NULL;

	if (has_word(argc, argv, "mode=none")) {
		thread_switch(MACH_PORT_NULL, SWITCH_OPTION_WAIT, 100);
		fault_now();
	} else if (has_word(argc, argv, "mode=revoke")) {
		grant(device, &perm);
		read_seconds("granted_read_works");
		check("withdraw", KERN_SUCCESS,
		      i386_io_perm_modify(mach_task_self(), perm, 0));
		fault_now();
	} else if (has_word(argc, argv, "mode=drop")) {
		grant(device, &perm);
		check("drop_perm_right", KERN_SUCCESS,
		      mach_port_deallocate(mach_task_self(), perm));
		read_seconds("grant_outlives_perm_object");
	} else {
		refused_requests(device);
		grant(device, &perm);
		read_seconds("granted_read_works");
		thread_switch(MACH_PORT_NULL, SWITCH_OPTION_WAIT, 300);
		read_seconds("granted_read_works_after_switches");
		check("grant_again_is_idempotent", KERN_SUCCESS,
		      i386_io_perm_modify(mach_task_self(), perm, 1));
		read_seconds("granted_read_works_after_second_grant");
	}
	printf("USER-DONE %d\n", checks);
	return 0;
}
