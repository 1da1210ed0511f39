/* SPDX-License-Identifier: GPL-2.0-only */
/* PCI configuration space through the host: pci_read_config_*, pci_write_config_*, the capability list, pci_device_is_present. */
/*
 * The host arbitrates configuration space (lx_host_pci_config_read): inside
 * the kernel it is mechanism #1 (0xCF8/0xCFC), in a driver server the
 * functions it claimed.  Only the 256 bytes of conventional configuration
 * space are reachable (no ECAM, so cfg_size is 256).  Results are
 * PCIBIOS_* codes, as Linux's accessors return.
 */
#include <linux/pci.h>

#include <lx_host.h>

#include "lx_pci.h"

/* PCIBIOS_SUCCESSFUL, or why an access of @size at @where is refused. */
static int check(const struct pci_dev *dev, int where, int size)
{
	if (!dev || !dev->bus)
		return PCIBIOS_DEVICE_NOT_FOUND;
	if (where < 0 || where + size > dev->cfg_size || (where & (size - 1)))
		return PCIBIOS_BAD_REGISTER_NUMBER;
	return PCIBIOS_SUCCESSFUL;
}

/* Failed reads give all ones, as Linux's accessors do. */
static int read(const struct pci_dev *dev, int where, int size, u32 *val)
{
	int err = check(dev, where, size);

	*val = err ? ~0u >> (32 - 8 * size) :
	       lx_host_pci_config_read(dev->bus->number, dev->devfn, where,
				       size);
	return err;
}

static int write(const struct pci_dev *dev, int where, int size, u32 val)
{
	int err = check(dev, where, size);

	if (!err)
		lx_host_pci_config_write(dev->bus->number, dev->devfn, where,
					 size, val);
	return err;
}

int pci_read_config_byte(const struct pci_dev *dev, int where, u8 *val)
{
	u32 v;
	int err = read(dev, where, 1, &v);

	*val = v;
	return err;
}

int pci_read_config_word(const struct pci_dev *dev, int where, u16 *val)
{
	u32 v;
	int err = read(dev, where, 2, &v);

	*val = v;
	return err;
}

int pci_read_config_dword(const struct pci_dev *dev, int where, u32 *val)
{
	return read(dev, where, 4, val);
}

int pci_write_config_byte(const struct pci_dev *dev, int where, u8 val)
{
	return write(dev, where, 1, val);
}

int pci_write_config_word(const struct pci_dev *dev, int where, u16 val)
{
	return write(dev, where, 2, val);
}

int pci_write_config_dword(const struct pci_dev *dev, int where, u32 val)
{
	return write(dev, where, 4, val);
}

/* The first capability @cap in @dev's list after the pointer at @next
 * (PCI_CAPABILITY_LIST, or a capability's PCI_CAP_LIST_NEXT), 0 if none. */
static u8 find_from(struct pci_dev *dev, u8 next, int cap)
{
	u8 pos, id;
	int ttl = 48;	/* the list cannot be longer: 256 bytes, 4 each */

	pci_read_config_byte(dev, next, &pos);
	while (ttl-- && pos >= 0x40) {
		pos &= ~3;
		pci_read_config_byte(dev, pos + PCI_CAP_LIST_ID, &id);
		if (id == 0xff)
			break;
		if (id == cap)
			return pos;
		pci_read_config_byte(dev, pos + PCI_CAP_LIST_NEXT, &pos);
	}
	return 0;
}

/* As Linux's: the offset of capability @cap in @dev's list, 0 if absent. */
u8 pci_find_capability(struct pci_dev *dev, int cap)
{
	u16 status;

	pci_read_config_word(dev, PCI_STATUS, &status);
	if (!(status & PCI_STATUS_CAP_LIST) ||
	    (dev->hdr_type != PCI_HEADER_TYPE_NORMAL &&
	     dev->hdr_type != PCI_HEADER_TYPE_BRIDGE))
		return 0;
	return find_from(dev, PCI_CAPABILITY_LIST, cap);
}

/* pci_find_next_capability - the next capability @cap after the one at
 * @pos in @dev's list (virtio's vendor capabilities), 0 if none. */
u8 pci_find_next_capability(struct pci_dev *dev, u8 pos, int cap)
{
	return find_from(dev, pos + PCI_CAP_LIST_NEXT, cap);
}

/* pci_device_is_present - whether @dev still answers configuration
 * reads (its vendor ID is neither all ones nor all zeros). */
bool pci_device_is_present(struct pci_dev *dev)
{
	u32 id;

	if (pci_read_config_dword(dev, PCI_VENDOR_ID, &id))
		return false;
	return id != 0xffffffff && id != 0 && id != 0x0000ffff &&
	       id != 0xffff0000;
}
