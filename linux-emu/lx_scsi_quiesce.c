/* SPDX-License-Identifier: GPL-2.0-only */
/* Quiescing a SCSI device: scsi_device_quiesce, scsi_device_resume (what SPI domain validation brackets its commands with). */
/*
 * As Linux's scsi_lib.c: a quiesced device (SDEV_QUIESCE) runs only
 * power-management requests (RQF_PM: what scsi_execute's callers pass,
 * SPI domain validation's commands); the others wait on its pending list,
 * in order, until scsi_device_resume.  Quiescing waits for the commands
 * already at the adapter to finish, as Linux's queue freeze does (here by
 * polling every 10 ms: it happens at a device's scan, with its queue
 * nearly empty).
 */
#include <linux/bottom_half.h>
#include <linux/delay.h>
#include <linux/sched.h>
#include <scsi/scsi_device.h>

#include <lx_scsi.h>

/*
 * scsi_device_quiesce - let only RQF_PM requests reach @sdev.  0 once its
 * commands at the adapter are done (at once if the calling task quiesced
 * it already); -EINVAL unless it is running.  Thread context; sleeps.
 */
int scsi_device_quiesce(struct scsi_device *sdev)
{
	if (sdev->quiesced_by == current)
		return 0;
	if (sdev->sdev_state != SDEV_RUNNING)
		return -EINVAL;
	sdev->sdev_state = SDEV_QUIESCE;
	sdev->quiesced_by = current;
	while (READ_ONCE(lx_sdev(sdev)->busy))
		msleep(10);
	return 0;
}

/* scsi_device_resume - end what scsi_device_quiesce began: the waiting
 * requests start.  Nothing if @sdev is not quiesced.  Thread context. */
void scsi_device_resume(struct scsi_device *sdev)
{
	if (sdev->sdev_state != SDEV_QUIESCE)
		return;
	sdev->quiesced_by = NULL;
	sdev->sdev_state = SDEV_RUNNING;
	local_bh_disable();
	lx_scsi_run_host(sdev->host);
	local_bh_enable();
}
