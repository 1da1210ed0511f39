/* SPDX-License-Identifier: GPL-2.0-only */
/* The emulated midlayer's error handling: timeouts to the host's EH thread, scsi_schedule_eh, scsi_eh_finish_cmd/flush_done_q, scsi_check_sense, sense building. */
/*
 * As in Linux, each host has an error handler thread ("scsi_eh_N").  It
 * runs when commands failed (host_failed, from the timeout path) or EH
 * was scheduled without a command (host_eh_scheduled), once every
 * command still at the adapter has failed too (busy == host_failed): the
 * transport's eh_strategy_handler (libata's ata_scsi_error) does the
 * work; commands go back through scsi_eh_finish_cmd and
 * scsi_eh_flush_done_q (retry while allowed, else finish); then the host
 * runs again.  A host without a strategy handler has no recovery here
 * (Linux's scsi_unjam_host is not emulated): its failed commands finish
 * with DID_TIME_OUT and a console line.  While the host is in recovery
 * no new command starts.
 */
#include <linux/bottom_half.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <scsi/scsi.h>
#include <scsi/scsi_common.h>
#include <scsi/scsi_dbg.h>
#include <scsi/scsi_eh.h>
#include <scsi/scsi_transport.h>

#include <lx_scsi.h>
#include <lx_world.h>

/* EH has work and every command at the adapter has failed. */
static bool eh_due(struct Scsi_Host *host)
{
	return (host->host_failed || host->host_eh_scheduled) &&
	       lx_shost(host)->busy == host->host_failed;
}

/* lx_scsi_eh_wakeup - start EH if it is due (any context). */
void lx_scsi_eh_wakeup(struct Scsi_Host *host)
{
	struct lx_shost *lh = lx_shost(host);

	if (eh_due(host) && lh->eh_task)
		wake_up_process(lh->eh_task);
}

static void enter_recovery(struct Scsi_Host *host)
{
	if (host->shost_state == SHOST_RUNNING)
		host->shost_state = SHOST_RECOVERY;
	else if (host->shost_state == SHOST_DEL)
		host->shost_state = SHOST_DEL_RECOVERY;
	else if (host->shost_state == SHOST_CANCEL)
		host->shost_state = SHOST_CANCEL_RECOVERY;
}

void lx_scsi_eh_scmd_add(struct scsi_cmnd *cmd)
{
	struct Scsi_Host *host = cmd->device->host;
	unsigned long flags;

	local_irq_save(flags);
	enter_recovery(host);
	list_add_tail(&cmd->eh_entry, &host->eh_cmd_q);
	host->host_failed++;
	lx_scsi_eh_wakeup(host);
	local_irq_restore(flags);
}

/* lx_scsi_timed_out - Linux's scsi_timeout for @cmd (softirq). */
void lx_scsi_timed_out(struct scsi_cmnd *cmd)
{
	struct Scsi_Host *host = cmd->device->host;
	struct lx_scsi_slot *slot = lx_scsi_slot(cmd);
	enum blk_eh_timer_return rtn = BLK_EH_DONE;

	if (host->hostt->eh_timed_out)
		rtn = host->hostt->eh_timed_out(cmd);
	if (rtn == BLK_EH_RESET_TIMER) {
		slot->aborting = false;
		mod_timer(&slot->timer, jiffies + slot->rq.timeout);
		return;
	}
	if (test_and_set_bit(SCMD_STATE_COMPLETE, &cmd->state))
		return;
	set_host_byte(cmd, DID_TIME_OUT);
	lx_scsi_eh_scmd_add(cmd);
}

/* scsi_schedule_eh - run @host's error handler without a failed
 * command (libata: port probing and recovery). */
void scsi_schedule_eh(struct Scsi_Host *host)
{
	unsigned long flags;

	local_irq_save(flags);
	enter_recovery(host);
	host->host_eh_scheduled++;
	lx_scsi_eh_wakeup(host);
	local_irq_restore(flags);
}

/* scsi_eh_finish_cmd - @cmd is done with EH: onto @done_q. */
void scsi_eh_finish_cmd(struct scsi_cmnd *cmd, struct list_head *done_q)
{
	list_move_tail(&cmd->eh_entry, done_q);
}

/*
 * scsi_eh_flush_done_q - for each command on @done_q: retry it if its
 * device is online and retries remain (++retries <= allowed), else
 * finish it with its result (DID_TIME_OUT if it has none).  EH thread.
 */
void scsi_eh_flush_done_q(struct list_head *done_q)
{
	struct scsi_cmnd *cmd, *next;
	LIST_HEAD(retry);

	local_bh_disable();
	list_for_each_entry_safe(cmd, next, done_q, eh_entry) {
		struct lx_scsi_slot *slot = lx_scsi_slot(cmd);

		list_del_init(&cmd->eh_entry);
		if (scsi_device_online(cmd->device) &&
		    ++cmd->retries <= cmd->allowed) {
			lx_scsi_requeue(slot, &retry);
			continue;
		}
		if (!cmd->result)
			cmd->result = DID_TIME_OUT << 16;
		lx_scsi_finish_later(slot);
	}
	lx_scsi_requeue_splice(&retry);
	local_bh_enable();
}

static void restart(struct Scsi_Host *host)
{
	unsigned long flags;

	local_irq_save(flags);
	if (host->shost_state == SHOST_RECOVERY)
		host->shost_state = SHOST_RUNNING;
	else if (host->shost_state == SHOST_DEL_RECOVERY)
		host->shost_state = SHOST_DEL;
	else if (host->shost_state == SHOST_CANCEL_RECOVERY)
		host->shost_state = SHOST_CANCEL;
	local_irq_restore(flags);
	wake_up(&host->host_wait);
	local_bh_disable();
	lx_scsi_run_host(host);
	/* EH asked for again meanwhile: recover once the started commands
	 * are done (the last one to end wakes the thread), as Linux does */
	local_irq_save(flags);
	if (host->host_eh_scheduled)
		enter_recovery(host);
	local_irq_restore(flags);
	local_bh_enable();
}

static void no_strategy(struct Scsi_Host *host)
{
	struct scsi_cmnd *cmd, *next;
	LIST_HEAD(done_q);

	shost_printk(KERN_ERR, host, "no eh_strategy_handler: linux-emu does not emulate scsi_unjam_host; failing %u command(s)\n",
		     host->host_failed);
	list_for_each_entry_safe(cmd, next, &host->eh_cmd_q, eh_entry) {
		cmd->allowed = 0;
		scsi_eh_finish_cmd(cmd, &done_q);
	}
	host->host_eh_scheduled = 0;
	scsi_eh_flush_done_q(&done_q);
}

static void eh_thread(void *arg)
{
	struct Scsi_Host *host = arg;
	struct lx_shost *lh = lx_shost(host);

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (lh->stopping)
			break;
		if (!eh_due(host)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		if (host->transportt && host->transportt->eh_strategy_handler)
			host->transportt->eh_strategy_handler(host);
		else
			no_strategy(host);
		host->host_failed = 0;
		restart(host);
	}
	/* the host was released (lx_scsi_eh_stop): its memory is ours */
	__set_current_state(TASK_RUNNING);
	kfree(lh);
}

/* lx_scsi_eh_start - start @host's EH thread.  0 or -ENOMEM. */
int lx_scsi_eh_start(struct Scsi_Host *host)
{
	struct lx_shost *lh = lx_shost(host);
	char name[16];

	snprintf(name, sizeof(name), "scsi_eh_%u", host->host_no);
	lh->eh_task = lx_thread_start(name, eh_thread, host);
	return lh->eh_task ? 0 : -ENOMEM;
}

/* lx_scsi_eh_stop - at @host's release: end its EH thread, which then
 * frees the host's memory (Linux stops it at release too); without a
 * thread, free it now. */
void lx_scsi_eh_stop(struct Scsi_Host *host)
{
	struct lx_shost *lh = lx_shost(host);

	if (!lh->eh_task) {
		kfree(lh);
		return;
	}
	lh->stopping = true;
	wake_up_process(lh->eh_task);
}

/*
 * scsi_check_sense - what to do with @cmd given its sense data (graft's
 * own table, after Linux's): FAILED without valid sense; SUCCESS (done,
 * the error reaches the owner) for no sense, recovered errors and the
 * errors of the medium, hardware, request or protection; NEEDS_RETRY for
 * UNIT ATTENTION, ABORTED COMMAND and a unit becoming ready.
 */
enum scsi_disposition scsi_check_sense(struct scsi_cmnd *cmd)
{
	struct scsi_sense_hdr sshdr;

	if (!scsi_normalize_sense(cmd->sense_buffer, SCSI_SENSE_BUFFERSIZE,
				  &sshdr))
		return FAILED;
	switch (sshdr.sense_key) {
	case UNIT_ATTENTION:
	case ABORTED_COMMAND:
		return NEEDS_RETRY;
	case NOT_READY:
		if (sshdr.asc == 0x04 && sshdr.ascq == 0x01)
			return NEEDS_RETRY;
		return SUCCESS;
	default:
		return SUCCESS;
	}
}

/* scsi_build_sense - fixed or descriptor (@desc) sense in @cmd's
 * buffer, and CHECK CONDITION as its result. */
void scsi_build_sense(struct scsi_cmnd *cmd, int desc, u8 key, u8 asc,
		      u8 ascq)
{
	scsi_build_sense_buffer(desc, cmd->sense_buffer, key, asc, ascq);
	cmd->result = SAM_STAT_CHECK_CONDITION;
}

/* __scsi_format_command - the CDB @cdb (@cdb_len bytes) in hex into
 * @buf; the length written. */
size_t __scsi_format_command(char *buf, size_t buf_len,
			     const unsigned char *cdb, size_t cdb_len)
{
	return scnprintf(buf, buf_len, "%*ph", (int)min_t(size_t, cdb_len, 32),
			 cdb);
}
