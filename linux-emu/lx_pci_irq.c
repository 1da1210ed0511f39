/* SPDX-License-Identifier: GPL-2.0-only */
/* pci_request_irq, pci_free_irq: a PCI function's interrupt vector by number (Linux's drivers/pci/irq.c). */
/*
 * Without CONFIG_PCI_MSI a function has one vector, its INTx line
 * (pci_irq_vector(dev, 0) is dev->irq; others are -EINVAL).
 */
#include <linux/interrupt.h>
#include <linux/pci.h>
#include <linux/slab.h>

/*
 * pci_request_irq - @handler (and @thread_fn) for vector @nr of @dev,
 * shared, named by @fmt; with no @handler the line stays masked until
 * @thread_fn ran (IRQF_ONESHOT).  0; -EINVAL (no such vector); -ENOMEM;
 * request_threaded_irq's error.
 */
int pci_request_irq(struct pci_dev *dev, unsigned int nr, irq_handler_t handler,
		    irq_handler_t thread_fn, void *dev_id, const char *fmt, ...)
{
	unsigned long irqflags = IRQF_SHARED;
	int irq = pci_irq_vector(dev, nr);
	char *devname;
	va_list ap;
	int err;

	if (irq < 0)
		return irq;
	if (!handler)
		irqflags |= IRQF_ONESHOT;
	va_start(ap, fmt);
	devname = kvasprintf(GFP_KERNEL, fmt, ap);
	va_end(ap);
	if (!devname)
		return -ENOMEM;
	err = request_threaded_irq(irq, handler, thread_fn, irqflags, devname,
				   dev_id);
	if (err)
		kfree(devname);
	return err;
}

/* pci_free_irq - free what pci_request_irq(@dev, @nr, ..., @dev_id)
 * requested, its name with it. */
void pci_free_irq(struct pci_dev *dev, unsigned int nr, void *dev_id)
{
	int irq = pci_irq_vector(dev, nr);

	if (irq < 0)
		return;
	kfree(free_irq(irq, dev_id));
}
