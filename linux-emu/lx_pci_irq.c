/* SPDX-License-Identifier: GPL-2.0-only */
/* A PCI function's interrupt by vector number: pci_request_irq, pci_free_irq. */
/*
 * Without CONFIG_PCI_MSI a function has one vector, 0, its INTx line
 * (pci_irq_vector: dev->irq), which it may share with others.
 */
#include <linux/interrupt.h>
#include <linux/pci.h>
#include <linux/slab.h>

/*
 * pci_request_irq - request vector @nr of @dev for @handler and/or
 * @thread_fn (one of them; IRQF_ONESHOT when only the thread), named by
 * @fmt (kept until pci_free_irq).  0; -EINVAL (a vector beyond 0, or
 * neither handler); -ENOMEM; request_threaded_irq's error.
 */
int pci_request_irq(struct pci_dev *dev, unsigned int nr,
		    irq_handler_t handler, irq_handler_t thread_fn,
		    void *dev_id, const char *fmt, ...)
{
	unsigned long irqflags = IRQF_SHARED;
	char *devname;
	va_list ap;
	int irq, err;

	if (!handler && !thread_fn)
		return -EINVAL;
	irq = pci_irq_vector(dev, nr);
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

/* pci_free_irq - free what pci_request_irq(@dev, @nr, ..., @dev_id, ...)
 * requested, and its name. */
void pci_free_irq(struct pci_dev *dev, unsigned int nr, void *dev_id)
{
	kfree(free_irq(pci_irq_vector(dev, nr), dev_id));
}
