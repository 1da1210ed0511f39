/* SPDX-License-Identifier: GPL-2.0-only */
/* netd's run= option: start an ELF program read from a device as a task. */
/*
 * Graft's boot script can give a module the host and device ports but not
 * a port of another module, so a client of netd.defs booted as a module
 * could not find netd.  Until the kernel can pass a server's port to
 * another module, netd starts such a client itself: run=DEV reads device
 * DEV (a RAM disk, rd0, filled from a boot module) whose first 512-byte
 * record says "netd-program LENGTH\n" and whose next LENGTH bytes are an
 * ELF executable (with that header the kernel does not also start the
 * module as a task).  netd loads its PT_LOAD segments into a new task
 * (task_create, vm_allocate at their addresses, vm_write, vm_protect as
 * their flags say), gives it a 64 KiB stack below 4 GiB with the command
 * line (args=, '+' standing for ' ') at its top, makes netd's service
 * port its bootstrap port (task_set_special_port) and starts one thread
 * at the entry point with the command line's address in %rdi, as the
 * kernel starts boot modules (user/start.c).
 */
#include <device/device.h>
#include <elf.h>
#include <mach/task_special_ports.h>
#include <mach/thread_status.h>
#include <stdio.h>
#include <string.h>

#include "graft_user.h"
#include "netd.h"

#define SPAWN_STACK_TOP		0x3f000000ul
#define SPAWN_STACK_SIZE	(64ul << 10)
#define SPAWN_IMAGE_MAX		(4ul << 20)
#define PAGE			4096ul
#define SPAWN_HEADER		512ul

/* Read device @dev, at most SPAWN_IMAGE_MAX bytes, into our memory. */
static kern_return_t read_image(mach_port_t dev, vm_address_t *image,
				vm_size_t *size)
{
	int st[DEV_STATUS_MAX];
	mach_msg_type_number_t n = DEV_STATUS_MAX;
	io_buf_ptr_t data;
	mach_msg_type_number_t got;
	kern_return_t kr;

	kr = device_get_status(dev, DEV_GET_SIZE, st, &n);
	if (kr != D_SUCCESS)
		return kr;
	*size = (vm_size_t)st[DEV_GET_SIZE_DEVICE_SIZE];
	if (*size > SPAWN_IMAGE_MAX)
		*size = SPAWN_IMAGE_MAX;
	kr = device_read(dev, 0, 0, (int)*size, &data, &got);
	if (kr != D_SUCCESS)
		return kr;
	*image = (vm_address_t)data;
	*size = got;
	return KERN_SUCCESS;
}

/* The ELF file inside the image read by read_image; NULL if none. */
static const char *program_of(vm_address_t image, vm_size_t size,
			      vm_size_t *len)
{
	char head[32];
	unsigned long n;

	if (size < SPAWN_HEADER)
		return NULL;
	memcpy(head, (const char *)image, sizeof(head) - 1);
	head[sizeof(head) - 1] = '\0';
	if (sscanf(head, "netd-program %lu", &n) != 1 ||
	    n > size - SPAWN_HEADER)
		return NULL;
	*len = n;
	return (const char *)image + SPAWN_HEADER;
}

/* Copy segment @ph of @image into @task at its address. */
static kern_return_t load_segment(mach_port_t task, const char *image,
				  vm_size_t size, const Elf64_Phdr *ph)
{
	vm_address_t start = ph->p_vaddr & ~(PAGE - 1);
	vm_address_t end = (ph->p_vaddr + ph->p_memsz + PAGE - 1) & ~(PAGE - 1);
	vm_address_t buf = 0, at = start;
	kern_return_t kr;

	if (ph->p_filesz > ph->p_memsz || ph->p_offset > size ||
	    ph->p_filesz > size - ph->p_offset || end <= start)
		return KERN_INVALID_ARGUMENT;
	kr = vm_allocate(task, &at, end - start, FALSE);
	if (kr != KERN_SUCCESS)
		return kr;
	kr = vm_allocate(netd_task, &buf, end - start, TRUE);
	if (kr != KERN_SUCCESS)
		return kr;
	memcpy((char *)buf + (ph->p_vaddr - start), image + ph->p_offset,
	       ph->p_filesz);
	kr = vm_write(task, start, buf, end - start);
	vm_deallocate(netd_task, buf, end - start);
	if (kr != KERN_SUCCESS)
		return kr;
	return vm_protect(task, start, end - start, FALSE,
			  VM_PROT_READ |
			  (ph->p_flags & PF_W ? VM_PROT_WRITE : 0) |
			  (ph->p_flags & PF_X ? VM_PROT_EXECUTE : 0));
}

/* The stack with @args at its top; the thread's start state into @s. */
static kern_return_t make_stack(mach_port_t task, const char *args,
				struct i386_thread_state *s)
{
	vm_address_t base = SPAWN_STACK_TOP - SPAWN_STACK_SIZE, page = 0;
	size_t len = strlen(args) + 1;
	unsigned long arg = (SPAWN_STACK_TOP - len) & ~15ul;
	kern_return_t kr;

	if (len > PAGE)
		return KERN_INVALID_ARGUMENT;
	kr = vm_allocate(task, &base, SPAWN_STACK_SIZE, FALSE);
	if (kr == KERN_SUCCESS)
		kr = vm_allocate(netd_task, &page, PAGE, TRUE);
	if (kr != KERN_SUCCESS)
		return kr;
	memcpy((char *)page + (arg - (SPAWN_STACK_TOP - PAGE)), args, len);
	kr = vm_write(task, SPAWN_STACK_TOP - PAGE, page, PAGE);
	vm_deallocate(netd_task, page, PAGE);
	s->edi = (unsigned int)arg;
	s->uesp = (unsigned int)(arg - 8);
	return kr;
}

kern_return_t netd_spawn(const char *devname, const char *args,
			 mach_port_t service)
{
	struct i386_thread_state s;
	mach_msg_type_number_t n = i386_THREAD_STATE_COUNT;
	mach_port_t dev, task = MACH_PORT_NULL, thread;
	vm_address_t image = 0;
	vm_size_t size = 0, len = 0;
	const char *elf;
	const Elf64_Ehdr *eh;
	kern_return_t kr;

	kr = device_open(netd_device_master, D_READ, devname, &dev);
	if (kr == D_SUCCESS)
		kr = read_image(dev, &image, &size);
	if (kr != KERN_SUCCESS)
		return kr;
	elf = program_of(image, size, &len);
	eh = (const Elf64_Ehdr *)elf;
	kr = KERN_INVALID_ARGUMENT;
	if (elf == NULL || len < sizeof(*eh) ||
	    memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_X86_64 ||
	    eh->e_type != ET_EXEC || eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    eh->e_phoff > len ||
	    eh->e_phnum > (len - eh->e_phoff) / sizeof(Elf64_Phdr) ||
	    eh->e_entry >= SPAWN_STACK_TOP - SPAWN_STACK_SIZE)
		goto out;
	kr = task_create(netd_task, FALSE, &task);
	for (int i = 0; kr == KERN_SUCCESS && i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(elf +
			eh->e_phoff) + i;

		if (ph->p_type == PT_LOAD)
			kr = load_segment(task, elf, len, ph);
	}
	if (kr == KERN_SUCCESS)
		kr = mach_port_insert_right(netd_task, service, service,
					    MACH_MSG_TYPE_MAKE_SEND);
	if (kr == KERN_SUCCESS)
		kr = task_set_special_port(task, TASK_BOOTSTRAP_PORT, service);
	if (kr == KERN_SUCCESS)
		kr = thread_create(task, &thread);
	if (kr == KERN_SUCCESS)
		kr = thread_get_state(thread, i386_THREAD_STATE,
				      (natural_t *)&s, &n);
	if (kr == KERN_SUCCESS)
		kr = make_stack(task, args, &s);
	if (kr == KERN_SUCCESS) {
		s.eip = (unsigned int)eh->e_entry;
		kr = thread_set_state(thread, i386_THREAD_STATE,
				      (natural_t *)&s,
				      i386_THREAD_STATE_COUNT);
	}
	if (kr == KERN_SUCCESS)
		kr = thread_resume(thread);
	if (kr != KERN_SUCCESS && task != MACH_PORT_NULL)
		task_terminate(task);
out:
	vm_deallocate(netd_task, image, size);
	device_close(dev);
	return kr;
}
