/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-pci suite that run in the Linux world (lx_selftest_pci.c). */
/*
 * Each returns 0 or the line of the first failed check (C types only:
 * tests/kernel/linux_pci_test.c includes this too).  They expect QEMU's
 * e1000 at 00:03.0 with MAC 52:54:00:12:34:56 and ne2k_pci at 00:04.0
 * with MAC 52:54:00:12:34:57, a pci-bridge at 00:05.0 with a pci-testdev
 * at 01.0 behind it (the suite's -device options).
 */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_PCI_H
#define TESTS_LINUX_EMU_LX_SELFTEST_PCI_H

int lx_emul_selftest_pci_enumeration(void);
int lx_emul_selftest_pci_bridge(void);
int lx_emul_selftest_pci_config_access(void);
int lx_emul_selftest_pcie_link(void);
int lx_emul_selftest_pci_driver_e1000(void);
int lx_emul_selftest_pci_ne2k_ports(void);
int lx_emul_selftest_pci_id_matching(void);
int lx_emul_selftest_pci_power(void);
int lx_emul_selftest_dma_coherent(void);
int lx_emul_selftest_dma_streaming(void);

/* The physical address of the e1000's BAR 0 (0 if there is no e1000). */
unsigned long lx_emul_selftest_pci_e1000_bar0(void);

#endif
