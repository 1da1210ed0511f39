/* SPDX-License-Identifier: GPL-2.0-only */
/* Registers of QEMU's educational PCI device (QEMU's docs/specs/edu.rst). */
#ifndef EDU_H
#define EDU_H

#define EDU_VENDOR		0x1234
#define EDU_DEVICE		0x11e8

/* BAR 0 (MMIO) */
#define EDU_ID			0x00	/* 0xRRrr00ed: major, minor, 00, ed */
#define EDU_LIVENESS		0x04	/* reads back the inverse of a write */
#define EDU_FACTORIAL		0x08	/* write n, read n! when done */
#define EDU_STATUS		0x20
#define   EDU_STATUS_COMPUTING	0x01
#define   EDU_STATUS_IRQFACT	0x80	/* interrupt when n! is done */
#define EDU_IRQ_STATUS		0x24
#define EDU_IRQ_RAISE		0x60	/* ORs the value into IRQ_STATUS */
#define EDU_IRQ_ACK		0x64	/* clears the value's bits */
#define EDU_DMA_SRC		0x80
#define EDU_DMA_DST		0x88
#define EDU_DMA_COUNT		0x90
#define EDU_DMA_CMD		0x98
#define   EDU_DMA_START		0x01	/* cleared by the device when done */
#define   EDU_DMA_TO_RAM	0x02	/* else RAM to the device */
#define   EDU_DMA_IRQ		0x04	/* interrupt 0x100 when done */

#define EDU_ID_LOW		0xed	/* the low byte of EDU_ID */
#define EDU_DMA_BUF		0x40000	/* the device's buffer, in DMA space */
#define EDU_DMA_BUF_SIZE	4096
#define EDU_DMA_BITS		28	/* the device's default dma_mask */

#endif
