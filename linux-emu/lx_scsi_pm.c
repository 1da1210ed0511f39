/* SPDX-License-Identifier: GPL-2.0-only */
/* scsi_autopm_get_device, scsi_autopm_put_device: runtime PM usage references on a SCSI device (never suspended here). */
#include <linux/pm_runtime.h>
#include <scsi/scsi_device.h>

/*
 * scsi_autopm_get_device - a runtime PM usage reference on @sdev, the
 * device resumed (lx_pm_runtime.c: it never is suspended).  0, also when
 * runtime PM is disabled for it (-EACCES, as Linux); another negative
 * errno with no reference taken.
 */
int scsi_autopm_get_device(struct scsi_device *sdev)
{
	int err = pm_runtime_get_sync(&sdev->sdev_gendev);

	if (err >= 0 || err == -EACCES)
		return 0;
	pm_runtime_put_sync(&sdev->sdev_gendev);
	return err;
}

/* scsi_autopm_put_device - drop what scsi_autopm_get_device took. */
void scsi_autopm_put_device(struct scsi_device *sdev)
{
	pm_runtime_put_sync(&sdev->sdev_gendev);
}
