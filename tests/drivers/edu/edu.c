// SPDX-License-Identifier: GPL-2.0-only
/*
 * edu.c - driver for QEMU's educational PCI device (-device edu)
 *
 * An ordinary Linux PCI driver (it builds as a module for Linux 6.1 too):
 * at probe it checks the device's identification and liveness registers,
 * has the device compute 10!, raises an interrupt and handles it through
 * a shared INTx handler, and copies a buffer to the device and back by
 * DMA within the device's 28-bit DMA mask.  Each result is one kernel
 * log line, which Graft's linux-oot suite reads.
 */
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include "edu.h"

#define EDU_POLL_MS		2000	/* longest wait for the device */
#define EDU_DMA_LEN		256	/* bytes sent and brought back */
#define EDU_FACT_N		10
#define EDU_IRQ_VALUE		0x5a	/* raised through EDU_IRQ_RAISE */

struct edu {
	struct pci_dev *pdev;
	void __iomem *regs;
	void *buf;			/* two EDU_DMA_LEN halves */
	dma_addr_t buf_dma;
	wait_queue_head_t wait;
	unsigned int irq_count;
	u32 irq_status;			/* bits acknowledged so far */
};

static u32 edu_read(struct edu *edu, unsigned int reg)
{
	return ioread32(edu->regs + reg);
}

static void edu_write(struct edu *edu, unsigned int reg, u32 val)
{
	iowrite32(val, edu->regs + reg);
}

/* Wait until (register @reg & @bit) is clear: 0 or -ETIMEDOUT. */
static int edu_wait_clear(struct edu *edu, unsigned int reg, u32 bit)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(EDU_POLL_MS);

	for (;;) {
		if (!(edu_read(edu, reg) & bit))
			return 0;
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
		msleep(20);
	}
}

static irqreturn_t edu_irq(int irq, void *data)
{
	struct edu *edu = data;
	u32 status = edu_read(edu, EDU_IRQ_STATUS);

	if (!status)
		return IRQ_NONE;	/* another device on the line */
	edu_write(edu, EDU_IRQ_ACK, status);
	edu->irq_status |= status;
	edu->irq_count++;
	wake_up(&edu->wait);
	return IRQ_HANDLED;
}

static int edu_check_id(struct edu *edu)
{
	struct device *dev = &edu->pdev->dev;
	u32 id = edu_read(edu, EDU_ID);
	u32 live;

	if ((id & 0xff) != EDU_ID_LOW) {
		dev_err(dev, "not an edu device: id 0x%08x\n", id);
		return -ENODEV;
	}
	edu_write(edu, EDU_LIVENESS, 0x12345678);
	live = edu_read(edu, EDU_LIVENESS);
	if (live != ~0x12345678u) {
		dev_err(dev, "liveness: wrote 0x12345678, read 0x%08x\n", live);
		return -EIO;
	}
	dev_info(dev, "id 0x%08x, version %u.%u, alive\n", id, id >> 24,
		 (id >> 16) & 0xff);
	return 0;
}

static int edu_factorial(struct edu *edu)
{
	int err;

	edu_write(edu, EDU_FACTORIAL, EDU_FACT_N);
	err = edu_wait_clear(edu, EDU_STATUS, EDU_STATUS_COMPUTING);
	if (err) {
		dev_err(&edu->pdev->dev, "factorial: device still busy\n");
		return err;
	}
	dev_info(&edu->pdev->dev, "factorial: %u! = %u\n", EDU_FACT_N,
		 edu_read(edu, EDU_FACTORIAL));
	return 0;
}

static int edu_interrupt(struct edu *edu)
{
	struct device *dev = &edu->pdev->dev;

	edu_write(edu, EDU_IRQ_RAISE, EDU_IRQ_VALUE);
	if (!wait_event_timeout(edu->wait, edu->irq_count > 0,
				msecs_to_jiffies(EDU_POLL_MS))) {
		dev_err(dev, "interrupt: none within %u ms\n", EDU_POLL_MS);
		return -ETIMEDOUT;
	}
	dev_info(dev, "interrupt: handled %u, status 0x%x\n",
		 edu->irq_count, edu->irq_status);
	return 0;
}

/* One transfer of @len bytes between @from and @to (bus addresses). */
static int edu_dma(struct edu *edu, u32 from, u32 to, u32 len, u32 cmd)
{
	edu_write(edu, EDU_DMA_SRC, from);
	edu_write(edu, EDU_DMA_DST, to);
	edu_write(edu, EDU_DMA_COUNT, len);
	edu_write(edu, EDU_DMA_CMD, cmd | EDU_DMA_START);
	return edu_wait_clear(edu, EDU_DMA_CMD, EDU_DMA_START);
}

static int edu_dma_round_trip(struct edu *edu)
{
	struct device *dev = &edu->pdev->dev;
	u8 *out = edu->buf, *back = out + EDU_DMA_LEN;
	unsigned int i, wrong = 0;
	int err;

	if (edu->buf_dma + 2 * EDU_DMA_LEN - 1 > DMA_BIT_MASK(EDU_DMA_BITS)) {
		dev_err(dev, "dma: buffer at %pad is beyond the mask\n",
			&edu->buf_dma);
		return -EIO;
	}
	for (i = 0; i < EDU_DMA_LEN; i++) {
		out[i] = i * 7 + 3;
		back[i] = 0;
	}
	err = edu_dma(edu, edu->buf_dma, EDU_DMA_BUF, EDU_DMA_LEN, 0);
	if (!err)
		err = edu_dma(edu, EDU_DMA_BUF, edu->buf_dma + EDU_DMA_LEN,
			      EDU_DMA_LEN, EDU_DMA_TO_RAM);
	if (err) {
		dev_err(dev, "dma: transfer did not finish\n");
		return err;
	}
	for (i = 0; i < EDU_DMA_LEN; i++)
		if (back[i] != out[i])
			wrong++;
	dev_info(dev, "dma: %u bytes to the device and back, %u differ\n",
		 EDU_DMA_LEN, wrong);
	return wrong ? -EIO : 0;
}

static int edu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct edu *edu;
	int err;

	edu = kzalloc(sizeof(*edu), GFP_KERNEL);
	if (!edu)
		return -ENOMEM;
	edu->pdev = pdev;
	init_waitqueue_head(&edu->wait);

	err = pci_enable_device(pdev);
	if (err)
		goto err_free;
	err = pci_request_regions(pdev, KBUILD_MODNAME);
	if (err)
		goto err_disable;
	edu->regs = pci_iomap(pdev, 0, 0);
	if (!edu->regs) {
		err = -ENOMEM;
		goto err_release;
	}
	err = dma_set_mask_and_coherent(&pdev->dev,
					DMA_BIT_MASK(EDU_DMA_BITS));
	if (err)
		goto err_unmap;
	pci_set_master(pdev);
	edu->buf = dma_alloc_coherent(&pdev->dev, 2 * EDU_DMA_LEN,
				      &edu->buf_dma, GFP_KERNEL);
	if (!edu->buf) {
		err = -ENOMEM;
		goto err_unmap;
	}
	err = request_irq(pdev->irq, edu_irq, IRQF_SHARED, KBUILD_MODNAME,
			  edu);
	if (err)
		goto err_dma;
	pci_set_drvdata(pdev, edu);

	err = edu_check_id(edu);
	if (!err)
		err = edu_factorial(edu);
	if (!err)
		err = edu_interrupt(edu);
	if (!err)
		err = edu_dma_round_trip(edu);
	if (err)
		goto err_irq;
	dev_info(&pdev->dev, "probed, irq %d\n", pdev->irq);
	return 0;

err_irq:
	free_irq(pdev->irq, edu);
err_dma:
	dma_free_coherent(&pdev->dev, 2 * EDU_DMA_LEN, edu->buf, edu->buf_dma);
err_unmap:
	pci_iounmap(pdev, edu->regs);
err_release:
	pci_release_regions(pdev);
err_disable:
	pci_disable_device(pdev);
err_free:
	kfree(edu);
	return err;
}

static void edu_remove(struct pci_dev *pdev)
{
	struct edu *edu = pci_get_drvdata(pdev);

	free_irq(pdev->irq, edu);
	dma_free_coherent(&pdev->dev, 2 * EDU_DMA_LEN, edu->buf, edu->buf_dma);
	pci_iounmap(pdev, edu->regs);
	pci_release_regions(pdev);
	pci_disable_device(pdev);
	kfree(edu);
	dev_info(&pdev->dev, "removed\n");
}

static const struct pci_device_id edu_ids[] = {
	{ PCI_DEVICE(EDU_VENDOR, EDU_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, edu_ids);

static struct pci_driver edu_driver = {
	.name = KBUILD_MODNAME,
	.id_table = edu_ids,
	.probe = edu_probe,
	.remove = edu_remove,
};
module_pci_driver(edu_driver);

MODULE_DESCRIPTION("QEMU educational PCI device");
MODULE_LICENSE("GPL");
