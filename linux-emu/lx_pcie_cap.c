/* SPDX-License-Identifier: GPL-2.0-only */
/* pcie_capability_read_word, _read_dword, _write_word, _clear_and_set_word_locked: registers of a device's PCI Express capability; pcie_set_readrq, pcie_get_readrq, pcie_relaxed_ordering_enabled. */
/*
 * Linux also hides registers a version 1 capability of some port types
 * lacks; here every register of a PCI Express device is read and written
 * as it is (QEMU's devices carry version 2 capabilities).
 */
#include <linux/pci.h>
#include <linux/spinlock.h>

static DEFINE_SPINLOCK(pcie_cap_lock);

static bool has_register(struct pci_dev *dev, int pos)
{
	return pci_is_pcie(dev) && !(pos & 1) && pos >= 0 &&
	       pos <= PCI_EXP_SLTSTA2;
}

/* pcie_capability_read_word - the word at @pos of @dev's PCI Express
 * capability into *@val.  0; -EINVAL (*@val 0) for a device that is not
 * PCI Express or a misaligned @pos; the configuration read's error
 * (*@val 0, as Linux), such as a register beyond the 256 bytes of
 * configuration space Graft reaches. */
int pcie_capability_read_word(struct pci_dev *dev, int pos, u16 *val)
{
	int err;

	*val = 0;
	if (!has_register(dev, pos))
		return -EINVAL;
	err = pci_read_config_word(dev, pci_pcie_cap(dev) + pos, val);
	if (err)
		*val = 0;
	return err;
}

/* pcie_capability_read_dword - the double word at @pos (a multiple of
 * 4) into *@val; as the word's read. */
int pcie_capability_read_dword(struct pci_dev *dev, int pos, u32 *val)
{
	int err;

	*val = 0;
	if (!has_register(dev, pos) || (pos & 3))
		return -EINVAL;
	err = pci_read_config_dword(dev, pci_pcie_cap(dev) + pos, val);
	if (err)
		*val = 0;
	return err;
}

/* pcie_capability_write_word - @val to the word at @pos; as the read. */
int pcie_capability_write_word(struct pci_dev *dev, int pos, u16 val)
{
	if (!has_register(dev, pos))
		return -EINVAL;
	return pci_write_config_word(dev, pci_pcie_cap(dev) + pos, val);
}

/* pcie_capability_clear_and_set_word_unlocked - the word at @pos with
 * @clear's bits off and @set's on; as the read. */
int pcie_capability_clear_and_set_word_unlocked(struct pci_dev *dev, int pos,
						u16 clear, u16 set)
{
	u16 val;
	int err = pcie_capability_read_word(dev, pos, &val);

	if (err)
		return err;
	return pcie_capability_write_word(dev, pos, (val & ~clear) | set);
}

/* pcie_capability_clear_and_set_word_locked - the same under a lock
 * (Linux's for the link and root control registers). */
int pcie_capability_clear_and_set_word_locked(struct pci_dev *dev, int pos,
					      u16 clear, u16 set)
{
	unsigned long flags;
	int err;

	spin_lock_irqsave(&pcie_cap_lock, flags);
	err = pcie_capability_clear_and_set_word_unlocked(dev, pos, clear, set);
	spin_unlock_irqrestore(&pcie_cap_lock, flags);
	return err;
}

/*
 * pcie_set_readrq - make @rq bytes (a power of two, 128 to 4096) the
 * device's Max_Read_Request_Size.  0; -EINVAL for another @rq; the
 * configuration write's error (a device without the capability: the
 * write does nothing, 0, as Linux).  Graft's PCI bus configuration is
 * Linux's default, so the size is not clamped to the payload size.
 */
int pcie_set_readrq(struct pci_dev *dev, int rq)
{
	int err;

	if (rq < 128 || rq > 4096 || !is_power_of_2(rq))
		return -EINVAL;
	err = pcie_capability_clear_and_set_word(dev, PCI_EXP_DEVCTL,
						 PCI_EXP_DEVCTL_READRQ,
						 (ffs(rq) - 8) << 12);
	return pcibios_err_to_errno(err);
}

/* pcie_get_readrq - @dev's Max_Read_Request_Size in bytes (128 to 4096;
 * 128 for a device without the capability: its DEVCTL reads 0). */
int pcie_get_readrq(struct pci_dev *dev)
{
	u16 ctl;

	pcie_capability_read_word(dev, PCI_EXP_DEVCTL, &ctl);
	return 128 << ((ctl & PCI_EXP_DEVCTL_READRQ) >> 12);
}

/* pcie_relaxed_ordering_enabled - whether @dev may issue relaxed-ordered
 * requests (DEVCTL's enable bit); false without the capability. */
bool pcie_relaxed_ordering_enabled(struct pci_dev *dev)
{
	u16 ctl;

	pcie_capability_read_word(dev, PCI_EXP_DEVCTL, &ctl);
	return ctl & PCI_EXP_DEVCTL_RELAX_EN;
}
