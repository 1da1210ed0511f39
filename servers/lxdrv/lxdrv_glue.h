/* SPDX-License-Identifier: GPL-2.0-only */
/* Between lxdrv.c and the files that claim hardware and serve devices. */
#ifndef LXDRV_GLUE_H
#define LXDRV_GLUE_H

#include <stdbool.h>

#include <device/device_types.h>
#include <mach/kern_return.h>
#include <mach/message.h>
#include <mach/port.h>

/* pci.c: lxdrv_pci_claim - claim 00:@slot.@fn for the server, grant its
 * I/O BARs and fixed ports: 0, or -1 (not there, held by another, no
 * room).  lxdrv_pci_first_claim - the first claim's port
 * (MACH_PORT_NULL: none).  lxdrv_pci_release_unbound - give back the
 * claims no driver bound but the first; how many stay. */
int lxdrv_pci_claim(unsigned int slot, unsigned int fn);
mach_port_t lxdrv_pci_first_claim(void);
unsigned int lxdrv_pci_release_unbound(void);

/* isa.c: lxdrv_isa_claim - claim the ISA cards "NAME:PORT" of @list
 * (split at @separators) and grant their ports; a refused claim is
 * printed, a malformed list ends the server.  lxdrv_isa_first_claim -
 * the first ISA claim's port (MACH_PORT_NULL: none).  lxdrv_isa_add -
 * register their platform devices (after lx_emul_init, before the
 * drivers' initcalls). */
void lxdrv_isa_claim(const char *list, const char *separators);
mach_port_t lxdrv_isa_first_claim(void);
void lxdrv_isa_add(void);

/* memory.c: lxdrv_memory_init - the world's memory pool, @bytes of DMA
 * memory of @claim, in the direct map it names through @claim if the
 * kernel lets it.  0, or -1 (printed).  lxdrv_memory_pool - the pool's
 * bytes; lxdrv_memory_pool_start - its first.  lxdrv_memory_direct - whether the direct map was named (pages
 * lent by the kernel are then in it). */
int lxdrv_memory_init(mach_port_t claim, unsigned long bytes);
unsigned long lxdrv_memory_pool(void);
void *lxdrv_memory_pool_start(void);
bool lxdrv_memory_direct(void);

/* net.c: lxdrv_net_start - open the world's net devices and publish
 * them.  Thread context. */
void lxdrv_net_start(void);

/* net_info.c: lxdrv_net_probes_start - time the server's net paths on
 * every frame, unless a bench build holds lxdrv_probe_fn.
 * lxdrv_net_info - answer @flavor for @ndev: GRAFT_DEV_INFO (the
 * driver, Linux's counters, the probes) in at most *@count ints at
 * @status, else D_INVALID_OPERATION; D_INVALID_SIZE for a count below
 * GRAFT_DEV_INFO_COUNT.  A thread of the world's. */
struct lx_emul_netdev;
void lxdrv_net_probes_start(void);
kern_return_t lxdrv_net_info(struct lx_emul_netdev *ndev,
			     dev_flavor_t flavor, int *status,
			     mach_msg_type_number_t *count);

/* disk.c: lxdrv_disk_start - publish the world's disks and their MBR
 * partitions (printed).  Thread context; after the serve thread started
 * (it reads each disk's first block). */
void lxdrv_disk_start(void);

#endif
