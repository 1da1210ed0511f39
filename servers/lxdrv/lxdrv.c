/* SPDX-License-Identifier: GPL-2.0-only */
/* The Linux driver server: unmodified Linux drivers in a Mach task, their devices served through the kernel's proxy (README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graft_user.h>

#include <lx_emul.h>
#include <lx_host.h>

#include "lxdrv.h"
#include "lxdrv_glue.h"
#include "lxdrv_probe.h"
#include "serve.h"

#define POOL_DEFAULT_MIB	14
/* Lists on the module line: ',' as on the kernel command line, or '+'
 * where a boot loader splits module lines at commas (QEMU's -initrd). */
#define LIST_SEPARATORS		",+"

mach_port_t lxdrv_task, lxdrv_host, lxdrv_master;
void (*lxdrv_probe_fn)(int point, size_t len);

static int argc_saved;
static char **argv_saved;

/* Claim the functions "pci=SS.F,..." names, or else every one on bus 0
 * nobody holds (bridges and the kernel's are refused by the kernel). */
static void claim_functions(const char *list)
{
	unsigned int slot, fn;

	if (!list) {
		for (slot = 0; slot < 32; slot++)
			for (fn = 0; fn < 8; fn++)
				(void)lxdrv_pci_claim(slot, fn);
		return;
	}
	for (const char *p = list; *p; ) {
		if (sscanf(p, "%x.%u", &slot, &fn) != 2 || slot >= 32 ||
		    fn >= 8)
			lxdrv_die("pci= takes SS.F,SS.F,... (hex slot; + also separates)");
		if (lxdrv_pci_claim(slot, fn) != 0)
			printf("lxdrv: 00:%02x.%u could not be claimed\n",
			       slot, fn);
		p = strpbrk(p, LIST_SEPARATORS);
		p = p ? p + 1 : "";
	}
}

/* The module line's words, joined: the drivers' parameters are among
 * them ("libata.dma=0"), as on the kernel command line. */
static void set_params(void)
{
	char line[512];
	size_t len = 0;

	line[0] = '\0';
	for (int i = 1; i < argc_saved; i++) {
		int n = snprintf(line + len, sizeof(line) - len, "%s%s",
				 len ? " " : "", argv_saved[i]);

		if (n < 0 || (size_t)n >= sizeof(line) - len)
			lxdrv_die("the module line is longer than 511 bytes");
		len += (size_t)n;
	}
	if (lx_emul_params_set(line) != 0)
		lxdrv_die("a bad driver parameter on the module line");
}

static void start(void *arg)
{
	const char *drivers = graft_arg(argc_saved, argv_saved, "drivers", "");
	const char *pool = graft_arg(argc_saved, argv_saved, "pool", NULL);
	const char *pci = graft_arg(argc_saved, argv_saved, "pci", NULL);
	const char *isa = graft_arg(argc_saved, argv_saved, "isa", NULL);
	mach_port_t first;
	unsigned long mib = pool ? strtoul(pool, NULL, 0) : POOL_DEFAULT_MIB;
	char names[256], *name, *save;
	int err;

	(void)arg;
	/* with isa= alone, no PCI function is claimed */
	if (pci || !isa)
		claim_functions(pci);
	if (isa)
		lxdrv_isa_claim(isa, LIST_SEPARATORS);
	first = lxdrv_pci_first_claim();
	if (first == MACH_PORT_NULL)
		first = lxdrv_isa_first_claim();
	if (first == MACH_PORT_NULL)
		lxdrv_die("no PCI function nor ISA card could be claimed");
	if (lxdrv_memory_init(first, mib << 20) != 0)
		lxdrv_die("no memory for the Linux world");
	err = lx_emul_init();
	if (err == 0)
		err = lx_emul_pci_init();
	if (err != 0) {
		printf("lxdrv: the Linux world did not start: %d\n", err);
		lxdrv_die("no world");
	}
	lxdrv_isa_add();
	set_params();
	snprintf(names, sizeof(names), "%s", drivers);
	for (name = strtok_r(names, LIST_SEPARATORS, &save); name;
	     name = strtok_r(NULL, LIST_SEPARATORS, &save)) {
		err = lx_emul_driver_init(name);
		if (err)
			printf("lxdrv: driver %s: %d\n", name, err);
	}
	printf("lxdrv: %u function(s) bound\n",
	       lxdrv_pci_release_unbound());
	if (lxdrv_serve_start() != 0)
		lxdrv_die("no thread to serve calls");
	lxdrv_net_start();
	lxdrv_disk_start();
	lxdrv_probe(LXDRV_PROBE_READY, 0);
	printf("lxdrv: ready\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	argc_saved = argc;
	argv_saved = argv;
	lxdrv_task = mach_task_self();
	lxdrv_host = mach_host_self();
	lxdrv_master = graft_arg_port(argc, argv, "device");
	if (lxdrv_master == MACH_PORT_NULL)
		lxdrv_die("device=${driver-port} is missing");
	lxdrv_sched_init();
	if (lxdrv_exc_start() != 0)
		printf("lxdrv: no exception port: a Linux WARN ends the "
		       "server\n");
	if (lx_host_thread_create("lxdrv-start", start, NULL) != 0)
		lxdrv_die("no thread");
	lxdrv_loop();
}
