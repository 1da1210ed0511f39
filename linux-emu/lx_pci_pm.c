/* SPDX-License-Identifier: GPL-2.0-only */
/* PCI power management and bus-mode bits drivers touch in probe: save state, power states, wake-up and PME#, ASPM (left alone), PCI-X read byte count. */
/*
 * Graft has no system sleep and does not handle PME: arming wake-up is
 * refused with -EINVAL (Linux's answer for a device that may not wake the
 * system) and disarming succeeds (nothing was armed).  Power states are
 * changed through the PM capability's control register; a device without
 * one stays in D0 and refuses the others (-EIO).  D3cold needs the
 * platform (ACPI), which Graft does not have.  Coming back from D3hot,
 * Linux restores the BARs of a device that lost them (no No_Soft_Reset);
 * that is not done here.  pci_restore_state writes back the standard
 * header pci_save_state kept (not the PCI Express, PCI-X or MSI state).
 */
#include <linux/delay.h>
#include <linux/pci.h>

#include "lx_pci.h"

/* pci_save_state - keep the first 64 bytes of configuration space. */
int pci_save_state(struct pci_dev *dev)
{
	for (int i = 0; i < 16; i++)
		pci_read_config_dword(dev, i * 4, &dev->saved_config_space[i]);
	dev->state_saved = true;
	if (pci_find_capability(dev, PCI_CAP_ID_PCIX))
		dev_info(&dev->dev, "PCI-X command register not saved (not implemented)\n");
	return 0;
}

/*
 * pci_restore_state - write back the 64 bytes pci_save_state kept, the
 * highest dword first and only those that changed (the command register
 * last, as Linux), and forget them; nothing if none were kept.
 */
void pci_restore_state(struct pci_dev *dev)
{
	u32 now;
	int i;

	if (!dev->state_saved)
		return;
	for (i = 15; i >= 0; i--) {
		pci_read_config_dword(dev, i * 4, &now);
		if (now != dev->saved_config_space[i])
			pci_write_config_dword(dev, i * 4,
					       dev->saved_config_space[i]);
	}
	dev->state_saved = false;
}

/*
 * pci_choose_state - the state for system sleep event @state: D0 without
 * a PM capability, for PM_EVENT_ON, freeze and quiesce; D3hot to
 * suspend or hibernate; PCI_POWER_ERROR for an event that is none.
 */
pci_power_t pci_choose_state(struct pci_dev *dev, pm_message_t state)
{
	if (!dev->pm_cap)
		return PCI_D0;
	switch (state.event) {
	case PM_EVENT_ON:
	case PM_EVENT_FREEZE:
	case PM_EVENT_PRETHAW:
		return PCI_D0;
	case PM_EVENT_SUSPEND:
	case PM_EVENT_HIBERNATE:
		return PCI_D3hot;
	default:
		pci_info(dev, "unrecognized suspend event %d\n", state.event);
		return PCI_POWER_ERROR;
	}
}

static bool supported(struct pci_dev *dev, pci_power_t state)
{
	u16 pmc;

	if (state == PCI_D0 || state == PCI_D3hot)
		return true;
	if (state == PCI_D3cold)
		return false;
	pci_read_config_word(dev, dev->pm_cap + PCI_PM_PMC, &pmc);
	return pmc & (state == PCI_D1 ? PCI_PM_CAP_D1 : PCI_PM_CAP_D2);
}

/*
 * pci_set_power_state - move @dev to @state through its PM capability.
 * 0; -EINVAL for a state that is none; -EIO if the device has no PM
 * capability (only D0 then), does not support @state, or @state is D3cold.
 */
int pci_set_power_state(struct pci_dev *dev, pci_power_t state)
{
	pci_power_t from = dev->current_state;
	u16 pmcsr;

	if (state < PCI_D0 || state > PCI_D3cold)
		return -EINVAL;
	if (state == from)
		return 0;
	if (!dev->pm_cap) {
		if (state == PCI_D0) {
			dev->current_state = PCI_D0;
			return 0;
		}
		dev_info(&dev->dev, "no PM capability: cannot enter D%d, stays in D0\n",
			 (int)state);
		return -EIO;
	}
	if (!supported(dev, state)) {
		dev_info(&dev->dev, "power state D%d not supported here\n",
			 (int)state);
		return -EIO;
	}
	pci_read_config_word(dev, dev->pm_cap + PCI_PM_CTRL, &pmcsr);
	pmcsr = (pmcsr & ~PCI_PM_CTRL_STATE_MASK) | (u16)state;
	pci_write_config_word(dev, dev->pm_cap + PCI_PM_CTRL, pmcsr);
	if (state == PCI_D3hot || from == PCI_D3hot)
		msleep(10);		/* PCI PM 1.2: D3hot transitions */
	else if (state == PCI_D2 || from == PCI_D2)
		udelay(200);
	pci_read_config_word(dev, dev->pm_cap + PCI_PM_CTRL, &pmcsr);
	dev->current_state = pmcsr & PCI_PM_CTRL_STATE_MASK;
	return dev->current_state == state ? 0 : -EIO;
}

/* pci_enable_wake - 0 when turning wake-up off; -EINVAL when turning it
 * on (Graft has no system sleep, CONFIG_PM is off). */
int pci_enable_wake(struct pci_dev *dev, pci_power_t state, bool enable)
{
	if (!enable)
		return 0;
	dev_info(&dev->dev, "wake-up from D%d not available (no power management)\n",
		 (int)state);
	return -EINVAL;
}

/*
 * pci_pme_active - turn @dev's PME# generation off, clearing a pending
 * PME status, through its PM capability (nothing without one).  Turning
 * it on is refused (logged, left off): Graft does not handle PME.
 */
void pci_pme_active(struct pci_dev *dev, bool enable)
{
	u16 pmcsr;

	if (!dev->pm_cap)
		return;
	if (enable) {
		dev_info(&dev->dev, "PME# not enabled (no power management)\n");
		return;
	}
	pci_read_config_word(dev, dev->pm_cap + PCI_PM_CTRL, &pmcsr);
	pmcsr = (pmcsr & ~PCI_PM_CTRL_PME_ENABLE) | PCI_PM_CTRL_PME_STATUS;
	pci_write_config_word(dev, dev->pm_cap + PCI_PM_CTRL, pmcsr);
}

/* pci_dev_run_wake - false: no device may wake itself up at run time
 * (Graft does not handle PME). */
bool pci_dev_run_wake(struct pci_dev *dev)
{
	return false;
}

/* pci_disable_link_state, _locked - -EPERM: Graft leaves ASPM as the
 * firmware set it (Linux's answer when the OS lacks ASPM control); the
 * caller may clear the link control bits itself. */
int pci_disable_link_state(struct pci_dev *dev, int state)
{
	return -EPERM;
}

int pci_disable_link_state_locked(struct pci_dev *dev, int state)
{
	return -EPERM;
}

/* pci_wake_from_d3 - pci_enable_wake for D3hot. */
int pci_wake_from_d3(struct pci_dev *dev, bool enable)
{
	return pci_enable_wake(dev, PCI_D3hot, enable);
}

/* pcix_get_mmrbc - the PCI-X maximum memory read byte count; -EINVAL
 * for a device without the PCI-X capability. */
int pcix_get_mmrbc(struct pci_dev *dev)
{
	int cap = pci_find_capability(dev, PCI_CAP_ID_PCIX);
	u16 cmd;

	if (!cap)
		return -EINVAL;
	pci_read_config_word(dev, cap + PCI_X_CMD, &cmd);
	return 512 << ((cmd & PCI_X_CMD_MAX_READ) >> 2);
}

/* pcix_set_mmrbc - set it to @mmrbc (512..4096, a power of two).  0;
 * -EINVAL (bad value, no PCI-X capability); -E2BIG (above what the
 * device can do). */
int pcix_set_mmrbc(struct pci_dev *dev, int mmrbc)
{
	int cap = pci_find_capability(dev, PCI_CAP_ID_PCIX), v;
	u32 stat;
	u16 cmd;

	if (mmrbc < 512 || mmrbc > 4096 || !is_power_of_2(mmrbc) || !cap)
		return -EINVAL;
	v = ffs(mmrbc) - 10;
	pci_read_config_dword(dev, cap + PCI_X_STATUS, &stat);
	if (v > (stat & PCI_X_STATUS_MAX_READ) >> 21)
		return -E2BIG;
	pci_read_config_word(dev, cap + PCI_X_CMD, &cmd);
	cmd = (cmd & ~PCI_X_CMD_MAX_READ) | v << 2;
	pci_write_config_word(dev, cap + PCI_X_CMD, cmd);
	return 0;
}

/*
 * pci_prepare_to_sleep - put @dev in the state it sleeps in: D3hot with
 * a PM capability (without wake-up: nothing may wake the system), D0
 * without one.  0 or pci_set_power_state's error.
 */
int pci_prepare_to_sleep(struct pci_dev *dev)
{
	return pci_set_power_state(dev, dev->pm_cap ? PCI_D3hot : PCI_D0);
}
