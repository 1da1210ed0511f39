/* SPDX-License-Identifier: GPL-2.0-only */
/* newlib's system calls on Mach (it calls write, sbrk, ...; and _exit). */
/*
 * Only what a test program needs so far.  stdout and stderr go to the
 * kernel console through mach_print (a program that wants the console
 * device opens it itself); stdin reads nothing; the heap grows inside
 * one region reserved with vm_allocate (pages are zero-filled on first
 * touch, so reserving is cheap); exit terminates the task.  Calls that have no Mach meaning yet
 * fail with the errno a Unix would give.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "graft_user.h"

#undef errno
extern int errno;

#define HEAP_RESERVE	(256ul << 20)	/* address space for malloc */
#define PRINT_CHUNK	256

int write(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	char chunk[PRINT_CHUNK + 1];
	size_t done = 0;

	if (fd != 1 && fd != 2) {
		errno = EBADF;
		return -1;
	}
	while (done < n) {
		size_t k = n - done < PRINT_CHUNK ? n - done : PRINT_CHUNK;

		for (size_t i = 0; i < k; i++)
			chunk[i] = p[done + i] != '\0' ? p[done + i] : ' ';
		chunk[k] = '\0';
		mach_print(chunk);
		done += k;
	}
	return (int)n;
}

int read(int fd, void *buf, size_t n)
{
	(void)buf, (void)n;
	if (fd != 0) {
		errno = EBADF;
		return -1;
	}
	return 0;
}

void *sbrk(ptrdiff_t incr)
{
	static vm_address_t base, brk;
	vm_address_t old;

	if (base == 0) {
		if (vm_allocate(mach_task_self(), &base, HEAP_RESERVE, TRUE) !=
		    KERN_SUCCESS) {
			errno = ENOMEM;
			return (void *)-1;
		}
		brk = base;
	}
	if (incr > 0 && (size_t)incr > base + HEAP_RESERVE - brk) {
		errno = ENOMEM;
		return (void *)-1;
	}
	if (incr < 0 && (size_t)-incr > brk - base) {
		errno = EINVAL;
		return (void *)-1;
	}
	old = brk;
	brk += incr;
	return (void *)old;
}

void _exit(int status)
{
	(void)status;
	task_terminate(mach_task_self());
	for (;;)
		(void)*(volatile int *)0;	/* unreachable: ends the task */
}

int close(int fd)
{
	(void)fd;
	errno = EBADF;
	return -1;
}

int fstat(int fd, struct stat *st)
{
	if (fd < 0 || fd > 2) {
		errno = EBADF;
		return -1;
	}
	st->st_mode = S_IFCHR;
	return 0;
}

int isatty(int fd)
{
	return fd >= 0 && fd <= 2;
}

off_t lseek(int fd, off_t off, int whence)
{
	(void)fd, (void)off, (void)whence;
	errno = ESPIPE;
	return -1;
}

int kill(int pid, int sig)
{
	(void)pid, (void)sig;
	errno = EINVAL;
	return -1;
}

int getpid(void)
{
	return 1;
}
