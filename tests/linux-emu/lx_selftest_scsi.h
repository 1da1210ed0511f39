/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-scsi suite that run in the Linux world (lx_selftest_scsi.c). */
/*
 * Functions returning int give 0 or the line of the first failed check,
 * unless said otherwise.  C types only: tests/kernel/linux_scsi_test.c
 * includes this.
 */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_SCSI_H
#define TESTS_LINUX_EMU_LX_SELFTEST_SCSI_H

struct lx_emul_disk;
struct lx_emul_disk_cmd;

/* The transfer mode libata set on disk hd0's ATA device (Linux's
 * XFER_* value: 0x0c PIO4, 0x22 MWDMA2), or -1 without such a disk. */
int lx_emul_selftest_scsi_xfer_mode(void);

/* dma_map_sg_attrs for a device with a 24-bit mask: an entry below
 * 16 MiB is mapped in place, one above is bounced (counted) and what the
 * device wrote comes back at unmap; nothing is left allocated. */
int lx_emul_selftest_scsi_dma_sg(void);

/* lx_emul_disk_submit_now while this thread holds the Linux world:
 * the result (-EAGAIN expected). */
int lx_emul_selftest_scsi_submit_now_held(struct lx_emul_disk *disk,
					  struct lx_emul_disk_cmd *cmd);

/* lx_scsi_errno over a table of results and sense data (0, -EIO with
 * the sense named on the console, -ENODEV, -ETIMEDOUT). */
int lx_emul_selftest_scsi_errno(void);

/* scsi_eh_prep_cmnd / scsi_eh_restore_cmnd over a failed WRITE(10):
 * REQUEST SENSE into the sense buffer (its size at most, the LUN in the
 * CDB for SCSI-2), a command without data, everything given back. */
int lx_emul_selftest_scsi_eh_save(void);

/*
 * A fake host adapter ("lxscsi": INQUIRY, READ CAPACITY, MODE SENSE
 * with write protect, READ(10) filling a pattern, one opcode it never
 * completes and one it aborts as libata does): allocated, added,
 * scanned (its disk is write protected), read through lx_emul_disk_*,
 * a write refused (-EROFS), a command timing out and an aborted one
 * ending through the EH thread without a strategy handler (DID_TIME_OUT,
 * -ETIMEDOUT for the disk API), the resets it reports marking its
 * device (scsi_report_device_reset, scsi_report_bus_reset), then
 * removed and released.
 */
int lx_emul_selftest_scsi_fake_host(void);

/* scsi_remove_device on hd0's SCSI device, as a hot unplug would;
 * 0, or -1 without hd0. */
int lx_emul_selftest_scsi_remove_hd0(void);

#endif
