/* SPDX-License-Identifier: GPL-2.0-only */
/* Scanning a SCSI host's bus: scsi_scan_host, scsi_add_device. */
/*
 * As Linux's synchronous scan (no CONFIG_SCSI_SCAN_ASYNC): every channel
 * up to max_channel, every target id below max_id but the host's own
 * (this_id), LUN 0 of each through __scsi_add_device (lx_scsi_device.c:
 * INQUIRY, which an absent target fails by selection timeout; disks
 * attached).  Only LUN 0: neither REPORT LUNS nor a sequential LUN scan
 * is emulated.  A host whose template has scan_finished is scanned the
 * same way, without its scan_start/scan_finished (no driver of Graft's
 * has them).
 */
#include <linux/err.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>

/* scsi_scan_host - find the devices on @host's bus (LUN 0 of each
 * target).  Thread context; sleeps. */
void scsi_scan_host(struct Scsi_Host *host)
{
	struct scsi_device *sdev;

	for (uint channel = 0; channel <= host->max_channel; channel++) {
		for (uint id = 0; id < host->max_id; id++) {
			if (id == host->this_id)
				continue;
			sdev = __scsi_add_device(host, channel, id, 0, NULL);
			if (!IS_ERR(sdev))
				scsi_device_put(sdev);
		}
	}
}

/* scsi_add_device - scan LUN @lun of target @target on @channel of
 * @host: 0 or __scsi_add_device's error. */
int scsi_add_device(struct Scsi_Host *host, uint channel, uint target,
		    u64 lun)
{
	struct scsi_device *sdev = __scsi_add_device(host, channel, target,
						     lun, NULL);

	if (IS_ERR(sdev))
		return PTR_ERR(sdev);
	scsi_device_put(sdev);
	return 0;
}
