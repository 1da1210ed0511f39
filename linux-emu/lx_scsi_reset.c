/* SPDX-License-Identifier: GPL-2.0-only */
/* Resets an adapter did itself, reported to the midlayer: scsi_report_bus_reset, scsi_report_device_reset. */
/*
 * As Linux's: the devices behind the reset are marked (was_reset, and
 * expecting_cc_ua: a UNIT ATTENTION is expected from them next).  Here
 * UNIT ATTENTION is retried whatever the marks (scsi_check_sense in
 * lx_scsi_error.c), so they are only read by the adapters themselves.
 * Callers are adapters (usb-storage after a port reset), any context.
 */
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>

/* Mark every device of @shost on @channel, and with @target unless it
 * is -1. */
static void mark_reset(struct Scsi_Host *shost, int channel, int target)
{
	struct scsi_device *sdev;

	list_for_each_entry(sdev, &shost->__devices, siblings) {
		if (sdev->channel != channel ||
		    (target >= 0 && sdev->id != (unsigned int)target))
			continue;
		sdev->was_reset = 1;
		sdev->expecting_cc_ua = 1;
	}
}

/* scsi_report_bus_reset - @shost reset its bus @channel. */
void scsi_report_bus_reset(struct Scsi_Host *shost, int channel)
{
	mark_reset(shost, channel, -1);
}

/* scsi_report_device_reset - @shost reset target @target of @channel. */
void scsi_report_device_reset(struct Scsi_Host *shost, int channel,
			      int target)
{
	mark_reset(shost, channel, target);
}
