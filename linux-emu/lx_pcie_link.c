/* SPDX-License-Identifier: GPL-2.0-only */
/* PCI Express link speed and width: pcie_get_speed_cap, pcie_get_width_cap, pcie_bandwidth_available, pcie_print_link_status. */
/*
 * Read from the link capability and status registers of the device and
 * of each bridge above it (lx_pcie_cap.c), as Linux's drivers/pci/pci.c
 * does.  A device that is not PCI Express reads as zeroes there, so its
 * speed is unknown and its bandwidth 0.  Bandwidths are in Mb/s after
 * the line encoding (8b/10b up to 5 GT/s, 128b/130b above).
 */
#include <linux/pci.h>

/* Each link speed code of LNKSTA (or LNKCAP's SLS, or the bit of
 * LNKCAP2's vector): the speed, the Mb/s one lane carries once encoded,
 * its name.  Code 0 and codes past the table are unknown. */
static const struct {
	enum pci_bus_speed speed;
	u32 lane_mbps;
	const char *name;
} link_speeds[] = {
	{ PCI_SPEED_UNKNOWN, 0, "Unknown" },
	{ PCIE_SPEED_2_5GT, 2500 * 8 / 10, "2.5 GT/s PCIe" },
	{ PCIE_SPEED_5_0GT, 5000 * 8 / 10, "5.0 GT/s PCIe" },
	{ PCIE_SPEED_8_0GT, 8000 * 128 / 130, "8.0 GT/s PCIe" },
	{ PCIE_SPEED_16_0GT, 16000 * 128 / 130, "16.0 GT/s PCIe" },
	{ PCIE_SPEED_32_0GT, 32000 * 128 / 130, "32.0 GT/s PCIe" },
	{ PCIE_SPEED_64_0GT, 64000 * 128 / 130, "64.0 GT/s PCIe" },
};

static enum pci_bus_speed speed_of_code(unsigned int code)
{
	return code < ARRAY_SIZE(link_speeds) ? link_speeds[code].speed :
	       PCI_SPEED_UNKNOWN;
}

/* @speed's row of link_speeds (the unknown one if it has none). */
static unsigned int speed_row(enum pci_bus_speed speed)
{
	for (unsigned int i = 1; i < ARRAY_SIZE(link_speeds); i++)
		if (link_speeds[i].speed == speed)
			return i;
	return 0;
}

static u32 lane_mbps(enum pci_bus_speed speed)
{
	return link_speeds[speed_row(speed)].lane_mbps;
}

static const char *speed_name(enum pci_bus_speed speed)
{
	return link_speeds[speed_row(speed)].name;
}

/* pcie_get_speed_cap - the fastest link speed @dev supports: the highest
 * bit of LNKCAP2's vector, else LNKCAP's code; PCI_SPEED_UNKNOWN for a
 * device without a PCI Express capability. */
enum pci_bus_speed pcie_get_speed_cap(struct pci_dev *dev)
{
	u32 cap2, cap;
	int bit;

	pcie_capability_read_dword(dev, PCI_EXP_LNKCAP2, &cap2);
	cap2 &= PCI_EXP_LNKCAP2_SLS_2_5GB | PCI_EXP_LNKCAP2_SLS_5_0GB |
		PCI_EXP_LNKCAP2_SLS_8_0GB | PCI_EXP_LNKCAP2_SLS_16_0GB |
		PCI_EXP_LNKCAP2_SLS_32_0GB | PCI_EXP_LNKCAP2_SLS_64_0GB;
	if (cap2) {
		/* Vector bit n (from 1) is the speed of code n. */
		bit = fls(cap2) - 1;
		return speed_of_code(bit);
	}
	pcie_capability_read_dword(dev, PCI_EXP_LNKCAP, &cap);
	return speed_of_code(cap & PCI_EXP_LNKCAP_SLS);
}

/* pcie_get_width_cap - @dev's maximum link width (LNKCAP);
 * PCIE_LNK_WIDTH_UNKNOWN when the register reads 0. */
enum pcie_link_width pcie_get_width_cap(struct pci_dev *dev)
{
	u32 cap;

	pcie_capability_read_dword(dev, PCI_EXP_LNKCAP, &cap);
	if (!cap)
		return PCIE_LNK_WIDTH_UNKNOWN;
	return (cap & PCI_EXP_LNKCAP_MLW) >> 4;
}

/* The bandwidth (Mb/s) @dev's link could carry at its fastest speed and
 * widest width, which go to *@speed and *@width. */
static u32 bandwidth_capable(struct pci_dev *dev, enum pci_bus_speed *speed,
			     enum pcie_link_width *width)
{
	*speed = pcie_get_speed_cap(dev);
	*width = pcie_get_width_cap(dev);
	return *width * lane_mbps(*speed);
}

/*
 * pcie_bandwidth_available - the bandwidth (Mb/s) @dev gets: the least
 * of its own link's and each upstream bridge's, as trained (LNKSTA).
 * The device whose link limits it (the nearest to the root of equals)
 * goes to *@limiting_dev, its speed and width to *@speed and *@width;
 * each pointer may be NULL.  0, speed and width unknown, when no link
 * on the way reads as trained.
 */
u32 pcie_bandwidth_available(struct pci_dev *dev,
			     struct pci_dev **limiting_dev,
			     enum pci_bus_speed *speed,
			     enum pcie_link_width *width)
{
	enum pci_bus_speed s;
	enum pcie_link_width w;
	u32 bw = 0, here;
	u16 sta;

	if (speed)
		*speed = PCI_SPEED_UNKNOWN;
	if (width)
		*width = PCIE_LNK_WIDTH_UNKNOWN;
	for (; dev; dev = pci_upstream_bridge(dev)) {
		pcie_capability_read_word(dev, PCI_EXP_LNKSTA, &sta);
		s = speed_of_code(sta & PCI_EXP_LNKSTA_CLS);
		w = (sta & PCI_EXP_LNKSTA_NLW) >> PCI_EXP_LNKSTA_NLW_SHIFT;
		here = w * lane_mbps(s);
		if (bw && here > bw)
			continue;
		bw = here;
		if (limiting_dev)
			*limiting_dev = dev;
		if (speed)
			*speed = s;
		if (width)
			*width = w;
	}
	return bw;
}

/*
 * pcie_print_link_status - print the bandwidth @dev's link offers, and
 * when a slower link on the way to the root limits it, which one and
 * what it could have been.
 */
void pcie_print_link_status(struct pci_dev *dev)
{
	enum pcie_link_width width, width_cap;
	enum pci_bus_speed speed, speed_cap;
	struct pci_dev *limit = NULL;
	u32 avail, cap;

	cap = bandwidth_capable(dev, &speed_cap, &width_cap);
	avail = pcie_bandwidth_available(dev, &limit, &speed, &width);
	if (avail >= cap)
		pci_info(dev, "%u.%03u Gb/s available PCIe bandwidth (%s x%d link)\n",
			 cap / 1000, cap % 1000, speed_name(speed_cap),
			 width_cap);
	else
		pci_info(dev, "%u.%03u Gb/s available PCIe bandwidth, limited by %s x%d link at %s (capable of %u.%03u Gb/s with %s x%d link)\n",
			 avail / 1000, avail % 1000, speed_name(speed),
			 width, limit ? pci_name(limit) : "<unknown>",
			 cap / 1000, cap % 1000, speed_name(speed_cap),
			 width_cap);
}
