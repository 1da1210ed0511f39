/* SPDX-License-Identifier: GPL-2.0-only */
/* A command borrowed for another and given back: scsi_eh_prep_cmnd, scsi_eh_restore_cmnd. */
/*
 * Adapters that fetch sense data themselves (usb-storage's auto-sense
 * after a failed command, libsas) reuse the failed command's struct
 * scsi_cmnd: they save it in a struct scsi_eh_save, send a REQUEST SENSE
 * into its sense buffer (or a command of their own without data) through
 * it, then put everything back.  Linux's scsi_error.c does this for its
 * error handler too; here only adapters call it.
 */
#include <linux/scatterlist.h>
#include <linux/string.h>
#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_eh.h>

/*
 * scsi_eh_prep_cmnd - save @scmd in @ses and make it a REQUEST SENSE of
 * @sense_bytes (at most SCSI_SENSE_BUFFERSIZE) into its own sense buffer
 * or, with @sense_bytes 0, the @cmnd_size bytes of @cmnd (NULL: an empty
 * CDB) without data.  The sense buffer is cleared either way; on a
 * SCSI-2 or older device the LUN goes in CDB byte 1, as Linux does.
 * Undone by scsi_eh_restore_cmnd; @ses must live until then.
 */
void scsi_eh_prep_cmnd(struct scsi_cmnd *scmd, struct scsi_eh_save *ses,
		       unsigned char *cmnd, int cmnd_size,
		       unsigned int sense_bytes)
{
	struct scsi_device *sdev = scmd->device;
	unsigned int len;

	*ses = (struct scsi_eh_save) {
		.result = scmd->result,
		.resid_len = scmd->resid_len,
		.eh_eflags = scmd->eh_eflags,
		.data_direction = scmd->sc_data_direction,
		.underflow = scmd->underflow,
		.cmd_len = scmd->cmd_len,
		.prot_op = scmd->prot_op,
		.sdb = scmd->sdb,
	};
	memcpy(ses->cmnd, scmd->cmnd, sizeof(ses->cmnd));

	memset(scmd->cmnd, 0, sizeof(scmd->cmnd));
	memset(&scmd->sdb, 0, sizeof(scmd->sdb));
	scmd->result = 0;
	scmd->resid_len = 0;
	scmd->underflow = 0;
	scmd->eh_eflags = 0;
	scmd->prot_op = SCSI_PROT_NORMAL;
	if (sense_bytes == 0) {
		scmd->sc_data_direction = DMA_NONE;
		if (cmnd && cmnd_size > 0 &&
		    (size_t)cmnd_size <= sizeof(scmd->cmnd)) {
			memcpy(scmd->cmnd, cmnd, cmnd_size);
			scmd->cmd_len = COMMAND_SIZE(scmd->cmnd[0]);
		}
	} else {
		len = min_t(unsigned int, sense_bytes, SCSI_SENSE_BUFFERSIZE);
		sg_init_one(&ses->sense_sgl, scmd->sense_buffer, len);
		scmd->sdb.table.sgl = &ses->sense_sgl;
		scmd->sdb.table.nents = 1;
		scmd->sdb.table.orig_nents = 1;
		scmd->sdb.length = len;
		scmd->sc_data_direction = DMA_FROM_DEVICE;
		scmd->cmnd[0] = REQUEST_SENSE;
		scmd->cmnd[4] = len;
		scmd->cmd_len = COMMAND_SIZE(REQUEST_SENSE);
	}
	if (sdev->scsi_level != SCSI_UNKNOWN && sdev->scsi_level <= SCSI_2)
		scmd->cmnd[1] = (scmd->cmnd[1] & 0x1f) |
				((sdev->lun << 5) & 0xe0);
	memset(scmd->sense_buffer, 0, SCSI_SENSE_BUFFERSIZE);
}

/* scsi_eh_restore_cmnd - give @scmd back what scsi_eh_prep_cmnd saved
 * in @ses (its sense buffer keeps what the borrowed command put there). */
void scsi_eh_restore_cmnd(struct scsi_cmnd *scmd, struct scsi_eh_save *ses)
{
	scmd->result = ses->result;
	scmd->resid_len = ses->resid_len;
	scmd->eh_eflags = ses->eh_eflags;
	scmd->sc_data_direction = ses->data_direction;
	scmd->underflow = ses->underflow;
	scmd->cmd_len = ses->cmd_len;
	scmd->prot_op = ses->prot_op;
	scmd->sdb = ses->sdb;
	memcpy(scmd->cmnd, ses->cmnd, sizeof(scmd->cmnd));
}
