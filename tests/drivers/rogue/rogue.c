// SPDX-License-Identifier: GPL-2.0-only
/*
 * rogue.c - a driver that tries what a confined driver server must not do
 *
 * An ordinary Linux PCI driver (it builds as a module for Linux 6.1 too)
 * for QEMU's PCI test device (-device pci-testdev), which nothing else
 * drives.  It registers a net device "rogue%d" and, as its parameter
 * rogue.act= says, reaches for what is not its device's:
 *
 *   mmio   at probe, ioremap of the local APIC's registers (another
 *          device's MMIO): printed, then the driver goes on
 *   irq    at probe, request_irq of line 14 (the primary IDE channel's):
 *          printed, then the driver goes on
 *   ports  on the first transmit, inb of port 0x1f0 (the primary IDE
 *          channel's data port)
 *   null   on the first transmit, a write through a NULL pointer
 *   wild   on the first transmit, a write to 0xffffffff80000000 (the
 *          top 2 GiB, where a kernel lives)
 *   spin   on the first transmit, a loop that never ends (a hung driver;
 *          in a driver server only)
 *   missing at probe, a call of a function Graft's Linux emulation does
 *          not have (simple_pin_fs, a pseudo file system's): the world
 *          stops (in a driver server, only the server ends)
 *   warn   at probe, a WARN_ON that fires, then one WARN_ONCE reached
 *          twice: each warning is reported once with its call chain and
 *          the driver goes on
 *   bug    at probe, a BUG(): reported with its file and line, then the
 *          world stops (in a driver server, only the server ends)
 *
 * Without an act, or once an act that returns is done, it is a net
 * device that drops what it is given.  Each act prints one kernel log
 * line before it is tried ("act NAME: ..."), and the refused ones what
 * they got; Graft's server-confine suite reads them.
 */
#include <linux/etherdevice.h>
#include <linux/fs.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/pci.h>

#define ROGUE_VENDOR		0x1b36	/* Red Hat, QEMU's test devices */
#define ROGUE_DEVICE		0x0005	/* pci-testdev */
#define ROGUE_FOREIGN_PHYS	0xfee00000UL	/* the local APIC */
#define ROGUE_FOREIGN_IRQ	14	/* the primary IDE channel's line */
#define ROGUE_FOREIGN_PORT	0x1f0	/* the primary IDE channel's data */
#define ROGUE_KERNEL_ADDR	0xffffffff80000000UL
#define ROGUE_POISON		0x0badc0de

static char rogue_act[16];
module_param_string(act, rogue_act, sizeof(rogue_act), 0444);
MODULE_PARM_DESC(act,
		 "what to try: mmio, irq, ports, null, wild, spin, missing, "
		 "warn, bug");

static const u8 rogue_mac[ETH_ALEN] = { 0x02, 0x00, 0x00, 0x00, 0x0e, 0x01 };

struct rogue {
	struct pci_dev *pdev;
	struct net_device *ndev;
};

static bool act_is(const char *name)
{
	return strcmp(rogue_act, name) == 0;
}

static irqreturn_t rogue_irq(int irq, void *data)
{
	return IRQ_NONE;
}

/* The acts that are tried at probe and answer: each prints its result. */
static void rogue_try_at_probe(struct rogue *rogue)
{
	struct device *dev = &rogue->pdev->dev;
	void __iomem *regs;
	int err, i;

	if (act_is("mmio")) {
		dev_info(dev, "act mmio: ioremap of %#lx\n",
			 ROGUE_FOREIGN_PHYS);
		regs = ioremap(ROGUE_FOREIGN_PHYS, PAGE_SIZE);
		dev_info(dev, "act mmio: %s\n", regs ? "mapped" : "refused");
		if (regs)
			iounmap(regs);
	} else if (act_is("irq")) {
		dev_info(dev, "act irq: request_irq of line %d\n",
			 ROGUE_FOREIGN_IRQ);
		err = request_irq(ROGUE_FOREIGN_IRQ, rogue_irq, 0,
				  KBUILD_MODNAME, rogue);
		dev_info(dev, "act irq: %s (%d)\n", err ? "refused" : "granted",
			 err);
		if (!err)
			free_irq(ROGUE_FOREIGN_IRQ, rogue);
	} else if (act_is("missing")) {
		dev_info(dev, "act missing: simple_pin_fs\n");
		simple_pin_fs(NULL, NULL, NULL);
		dev_info(dev, "act missing: came back\n");
	} else if (act_is("warn")) {
		dev_info(dev, "act warn: WARN_ON\n");
		WARN_ON(act_is("warn"));
		for (i = 0; i < 2; i++)
			WARN_ONCE(act_is("warn"), "rogue: warned once (%d)\n", i);
		dev_info(dev, "act warn: came back\n");
	} else if (act_is("bug")) {
		dev_info(dev, "act bug: BUG\n");
		BUG_ON(act_is("bug"));
		dev_info(dev, "act bug: came back\n");
	}
}

/* The acts that are tried on a transmit: a confined driver does not
 * come back from them. */
static void rogue_try_at_xmit(struct rogue *rogue)
{
	struct device *dev = &rogue->pdev->dev;
	unsigned long target;

	if (act_is("ports")) {
		dev_info(dev, "act ports: inb of port %#x\n",
			 ROGUE_FOREIGN_PORT);
		dev_info(dev, "act ports: read %#x\n",
			 inb(ROGUE_FOREIGN_PORT));
		return;
	}
	if (act_is("spin")) {
		dev_info(dev, "act spin: looping\n");
		for (;;)
			cpu_relax();
	}
	if (act_is("null"))
		target = 0;
	else if (act_is("wild"))
		target = ROGUE_KERNEL_ADDR;
	else
		return;
	dev_info(dev, "act %s: write to %#lx\n", rogue_act, target);
	WRITE_ONCE(*(u32 *)target, ROGUE_POISON);
	dev_info(dev, "act %s: written\n", rogue_act);
}

static netdev_tx_t rogue_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct rogue *rogue = netdev_priv(ndev);

	rogue_try_at_xmit(rogue);
	ndev->stats.tx_packets++;
	ndev->stats.tx_bytes += skb->len;
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static int rogue_open(struct net_device *ndev)
{
	netif_carrier_on(ndev);
	netif_start_queue(ndev);
	return 0;
}

static int rogue_stop(struct net_device *ndev)
{
	netif_stop_queue(ndev);
	netif_carrier_off(ndev);
	return 0;
}

static const struct net_device_ops rogue_ops = {
	.ndo_open = rogue_open,
	.ndo_stop = rogue_stop,
	.ndo_start_xmit = rogue_xmit,
};

static int rogue_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct net_device *ndev;
	struct rogue *rogue;
	int err;

	err = pci_enable_device(pdev);
	if (err)
		return err;
	pci_set_master(pdev);
	ndev = alloc_netdev(sizeof(*rogue), "rogue%d", NET_NAME_UNKNOWN,
			    ether_setup);
	if (!ndev) {
		err = -ENOMEM;
		goto err_disable;
	}
	SET_NETDEV_DEV(ndev, &pdev->dev);
	ndev->netdev_ops = &rogue_ops;
	eth_hw_addr_set(ndev, rogue_mac);
	rogue = netdev_priv(ndev);
	rogue->pdev = pdev;
	rogue->ndev = ndev;
	pci_set_drvdata(pdev, rogue);
	rogue_try_at_probe(rogue);
	err = register_netdev(ndev);
	if (err)
		goto err_free;
	dev_info(&pdev->dev, "%s registered, act \"%s\"\n", ndev->name,
		 rogue_act);
	return 0;

err_free:
	free_netdev(ndev);
err_disable:
	pci_disable_device(pdev);
	return err;
}

static void rogue_remove(struct pci_dev *pdev)
{
	struct rogue *rogue = pci_get_drvdata(pdev);

	unregister_netdev(rogue->ndev);
	free_netdev(rogue->ndev);
	pci_disable_device(pdev);
}

static const struct pci_device_id rogue_ids[] = {
	{ PCI_DEVICE(ROGUE_VENDOR, ROGUE_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, rogue_ids);

static struct pci_driver rogue_driver = {
	.name = KBUILD_MODNAME,
	.id_table = rogue_ids,
	.probe = rogue_probe,
	.remove = rogue_remove,
};
module_pci_driver(rogue_driver);

MODULE_DESCRIPTION("Tries what a confined driver server must not do");
MODULE_LICENSE("GPL");
