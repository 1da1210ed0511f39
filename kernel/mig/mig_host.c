/* SPDX-License-Identifier: GPL-2.0-only */
/* mach_host.defs routines: what the host tells about itself, and the time. */
/*
 * Served: host_info (HOST_BASIC_INFO, HOST_PROCESSOR_SLOTS,
 * HOST_SCHED_INFO), host_kernel_version, host_get_time, host_processors
 * and processor_info (one processor object: the boot CPU, a kernel port
 * of type IKOT_PROCESSOR; processor sets do not exist).  HOST_LOAD_INFO
 * needs load averages the scheduler does not keep: it says so and fails.
 * Graft keeps no time of day yet (no RTC is read): host_get_time counts
 * from boot.  time_value_t is 12 bytes here, as on the wire
 * (graft_time_value.h, included first).
 */
#include "graft_time_value.h"

#include <cpuid.h>
#include <stddef.h>

#include <mach/host_info.h>
#include <mach/message.h>
#include <mach/machine.h>
#include <mach/processor_info.h>

#include "graft_mig.h"
#include "ipc/ipc_kobject.h"
#include "ipc/ipc_port.h"
#include "kern/bootinfo.h"
#include "kern/clock.h"
#include "kern/kalloc.h"
#include "kern/klog.h"
#include "kern/panic.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task_port.h"
#include "mig/mig_host.h"
#include "mig/mig_server.h"
#include "mig/mig_time.h"

/* The boot CPU's processor object has no state of its own. */
static int boot_processor_object;
static struct ipc_port *boot_processor_port;

void mig_host_init(void)
{
	boot_processor_port = ipc_port_alloc_kernel(&boot_processor_object,
						    IKOT_PROCESSOR);
	if (boot_processor_port == NULL)
		panic("mig_host_init: no memory for the processor port");
	ipc_kobject_set_handler(IKOT_PROCESSOR, mig_server_handle);
}

/* intran / outtran of processor_t (mach_types.defs): 1 stands for the
 * boot CPU, 0 for anything else. */
processor_t convert_port_to_processor(ipc_port_t port)
{
	unsigned int kotype;

	(void)ipc_port_kobject(port, &kotype);
	return kotype == IKOT_PROCESSOR ? 1 : 0;
}

ipc_port_t convert_processor_to_port(processor_t p)
{
	return p ? ipc_port_make_send(boot_processor_port) : NULL;
}

/* The version string host_kernel_version answers (kernel_version_t holds
 * 512 bytes with the terminating NUL). */
static const char graft_version[] =
	"Graft x86_64 microkernel (built " __DATE__ ")";
_Static_assert(sizeof(graft_version) <= sizeof(kernel_version_t),
	       "the version fits kernel_version_t");

/* GNU Mach's cpu_type for the boot CPU's family (x86_64 CPUs report
 * family 6 or above, which GNU Mach calls CPU_TYPE_PENTIUMPRO). */
static cpu_type_t host_cpu_type(void)
{
	unsigned int eax, ebx, ecx, edx, family;

	__cpuid(1, eax, ebx, ecx, edx);
	family = (eax >> 8) & 0xf;
	if (family == 0xf)
		family += (eax >> 20) & 0xff;
	if (family >= 6)
		return CPU_TYPE_PENTIUMPRO;
	return family == 5 ? CPU_TYPE_PENTIUM : CPU_TYPE_I486;
}

static void host_basic_info(host_basic_info_t info)
{
	info->max_cpus = 1;
	info->avail_cpus = 1;
	info->memory_size = bootinfo_usable_bytes(&bootinfo);
	info->cpu_type = host_cpu_type();
	info->cpu_subtype = CPU_SUBTYPE_AT386;
}

/*
 * host_info - @flavor's record in @info, at most *@count integers
 * (*@count is then what was written).  KERN_INVALID_HOST for a port that
 * is not the host's, KERN_FAILURE when *@count is below the flavor's size
 * (as GNU Mach), KERN_INVALID_ARGUMENT for an unknown flavor, KERN_FAILURE
 * with a console line for HOST_LOAD_INFO (not measured).
 */
static KLOG_SOURCE(load_info_log, "mig");

kern_return_t mig_host_info(host_t host, int flavor, host_info_t info,
			    mach_msg_type_number_t *count)
{
	host_sched_info_t sched;

	if (!host)
		return KERN_INVALID_HOST;
	switch (flavor) {
	case HOST_BASIC_INFO:
		if (*count < HOST_BASIC_INFO_COUNT)
			return KERN_FAILURE;
		host_basic_info((host_basic_info_t)info);
		*count = HOST_BASIC_INFO_COUNT;
		return KERN_SUCCESS;
	case HOST_PROCESSOR_SLOTS:
		if (*count < 1)
			return KERN_FAILURE;
		info[0] = 0;	/* the boot CPU is slot 0 */
		*count = 1;
		return KERN_SUCCESS;
	case HOST_SCHED_INFO:
		if (*count < HOST_SCHED_INFO_COUNT)
			return KERN_FAILURE;
		sched = (host_sched_info_t)info;
		sched->min_timeout = 1000 / HZ;
		sched->min_quantum = SCHED_QUANTUM * 1000 / HZ;
		*count = HOST_SCHED_INFO_COUNT;
		return KERN_SUCCESS;
	case HOST_LOAD_INFO:
		klog(&load_info_log, "mig: host_info HOST_LOAD_INFO is not "
		     "implemented (no load averages); answering "
		     "KERN_FAILURE\n");
		return KERN_FAILURE;
	default:
		return KERN_INVALID_ARGUMENT;
	}
}

/* host_kernel_version - the banner's version string.  KERN_SUCCESS or
 * KERN_INVALID_HOST. */
kern_return_t mig_host_kernel_version(host_t host, kernel_version_t version)
{
	if (!host)
		return KERN_INVALID_HOST;
	memset(version, 0, sizeof(kernel_version_t));
	memcpy(version, graft_version, sizeof(graft_version));
	return KERN_SUCCESS;
}

/* host_get_time - the time since boot (clock_ns), microseconds below one
 * million.  KERN_SUCCESS or KERN_INVALID_HOST. */
kern_return_t mig_host_get_time(host_t host, time_value_t *current_time)
{
	if (!host)
		return KERN_INVALID_HOST;
	mig_us_to_time(clock_ns() / 1000, current_time);
	return KERN_SUCCESS;
}

/* host_processors - send rights to every processor (the boot CPU), out
 * of line.  KERN_INVALID_HOST without the privileged host port,
 * KERN_RESOURCE_SHORTAGE. */
kern_return_t mig_host_processors(host_t host_priv, processor_array_t *list,
				  mach_msg_type_number_t *count)
{
	struct ipc_port **ports;

	if (!host_priv)
		return KERN_INVALID_HOST;
	/* An out-of-line port array in a kernel message is a kalloc()ed
	 * array of rights (kernel/ipc/ipc_kmsg.h); copyout frees it. */
	ports = kalloc(sizeof(*ports));
	if (ports == NULL)
		return KERN_RESOURCE_SHORTAGE;
	ports[0] = ipc_port_make_send(boot_processor_port);
	*list = (processor_array_t)ports;
	*count = 1;
	return KERN_SUCCESS;
}

/*
 * processor_info - PROCESSOR_BASIC_INFO of the boot CPU and the host it
 * belongs to.  KERN_INVALID_ARGUMENT (not a processor port, or another
 * flavor), KERN_FAILURE (*@count below the flavor's size).
 */
kern_return_t mig_processor_info(processor_t processor, int flavor,
				 host_t *host, processor_info_t info,
				 mach_msg_type_number_t *count)
{
	processor_basic_info_t basic = (processor_basic_info_t)info;

	if (!processor || flavor != PROCESSOR_BASIC_INFO)
		return KERN_INVALID_ARGUMENT;
	if (*count < PROCESSOR_BASIC_INFO_COUNT)
		return KERN_FAILURE;
	basic->cpu_type = host_cpu_type();
	basic->cpu_subtype = CPU_SUBTYPE_AT386;
	basic->running = 1;
	basic->slot_num = 0;
	basic->is_master = 1;
	*count = PROCESSOR_BASIC_INFO_COUNT;
	*host = 1;
	return KERN_SUCCESS;
}
