/* SPDX-License-Identifier: GPL-2.0-only */
/* SCSI transports' bsg queues, which Graft does not have: bsg_setup_queue, bsg_remove_queue, bsg_job_done. */
/*
 * Linux's bsg library gives a transport (FC, SAS, iSCSI) a request queue
 * behind a /dev/bsg file, through which user space sends it management
 * requests.  Graft has no device files and Linux's block layer is not
 * compiled, so no such queue can be made: bsg_setup_queue fails, and
 * the transports go on without one, as they do when Linux fails to make
 * it ("bsg interface failed to initialize").  No queue and so no job
 * ever exists for the other two to be given.
 */
#include <linux/bsg-lib.h>
#include <linux/err.h>
#include <linux/printk.h>

/* bsg_setup_queue - ERR_PTR(-EOPNOTSUPP): no bsg (above). */
struct request_queue *bsg_setup_queue(struct device *dev, const char *name,
				      bsg_job_fn *job_fn,
				      bsg_timeout_fn *timeout, int dd_job_size)
{
	return ERR_PTR(-EOPNOTSUPP);
}

/* bsg_remove_queue - only NULL can come: nothing to remove. */
void bsg_remove_queue(struct request_queue *q)
{
	if (q)
		pr_err("linux-emu: bsg_remove_queue of a queue never made\n");
}

/* bsg_job_done - no job is ever made: named if one comes. */
void bsg_job_done(struct bsg_job *job, int result,
		  unsigned int reply_payload_rcv_len)
{
	pr_err("linux-emu: bsg_job_done of a job never made\n");
}
