/* SPDX-License-Identifier: GPL-2.0-only */
/* scsi_scan_host: the midlayer's scan of a host adapter's targets. */
/*
 * Linux's scsi_scan.c probes LUN 0 of every target of every channel,
 * then asks a target that answered for its other LUNs (REPORT LUNS, or
 * one by one for old devices), by default asynchronously.  Here the scan
 * is synchronous and stops at LUN 0 of each target: other LUNs are not
 * found (REPORT LUNS is not sent).  Each probe is __scsi_add_device
 * (lx_scsi_device.c): INQUIRY, and a disk for a direct-access device.
 * Hosts that scan themselves (hostt->scan_finished) are not implemented
 * and named on the console.
 */
#include <linux/err.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>

#include <lx_scsi.h>

/*
 * scsi_scan_host - probe LUN 0 of targets 0 to max_id - 1 (but the
 * adapter's own, this_id) on channels 0 to max_channel of @shost, in
 * that order, keeping each device found.  Thread context; sleeps; not
 * while another scan of @shost runs.
 */
void scsi_scan_host(struct Scsi_Host *shost)
{
	struct scsi_device *sdev;

	if (shost->hostt->scan_finished) {
		shost_printk(KERN_ERR, shost,
			     "linux-emu: scsi_scan_host: hosts that scan themselves (scan_finished) are not implemented\n");
		return;
	}
	for (unsigned int channel = 0; channel <= shost->max_channel;
	     channel++) {
		for (unsigned int id = 0; id < shost->max_id; id++) {
			if (id == shost->this_id)
				continue;
			sdev = __scsi_add_device(shost, channel, id, 0, NULL);
			if (!IS_ERR(sdev))
				scsi_device_put(sdev);
		}
	}
}
