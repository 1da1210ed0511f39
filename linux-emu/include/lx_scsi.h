/* SPDX-License-Identifier: GPL-2.0-only */
/* Between the lx_scsi_*.c files: the emulated SCSI midlayer's hosts, devices, requests and command slots (Linux types; never included by Graft code). */
#ifndef LX_SCSI_H
#define LX_SCSI_H

#include <linux/blk-mq.h>
#include <linux/list.h>
#include <linux/scatterlist.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>

#include <lx_emul_disk.h>

/*
 * A request of the emulation: one SCSI command to run on @sdev, waiting
 * on the device's pending list until a command slot is free, then at the
 * adapter.  @complete runs once, in BLOCK_SOFTIRQ, with the command's
 * result (Linux's scmd->result) and its sense buffer (NULL if it never
 * started).
 */
struct lx_scsi_req {
	struct list_head link;		/* on the device's pending list */
	struct scsi_device *sdev;
	unsigned char cdb[16];
	unsigned short cdb_len;
	enum dma_data_direction dir;
	unsigned int bytes;
	sector_t sector;		/* 512-byte units (blk_rq_pos) */
	/* data: either segments (phys, len) or one kernel buffer */
	const struct lx_emul_disk_seg *segs;
	unsigned int nsegs;
	void *buf;
	int timeout;			/* jiffies */
	int retries, allowed;
	int result;			/* of a request refused unstarted */
	blk_opf_t opf;			/* REQ_OP_READ/WRITE or DRV_IN/OUT */
	req_flags_t rq_flags;		/* RQF_PM: runs on a quiesced device */
	void (*complete)(struct lx_scsi_req *req, int result,
			 const unsigned char *sense);
	void *owner;
};

/* A command slot of a host: the request block Linux's blk-mq would
 * allocate (struct request, then scsi_cmnd, then the LLD's cmd_size). */
struct lx_scsi_slot {
	struct list_head link;		/* free list / done list */
	struct lx_scsi_req *req;
	struct timer_list timer;
	struct scatterlist *sgl;	/* sg_tablesize entries */
	unsigned char *sense;
	bool aborting;
	struct request rq;		/* last: scsi_cmnd follows */
};

struct lx_shost {
	struct list_head link;		/* all hosts */
	struct list_head slots_free;
	struct lx_scsi_slot **slots;	/* by tag */
	unsigned int busy;		/* slots at the adapter */
	bool dispatching, again, stopping;
	struct timer_list retry_timer;
	struct task_struct *eh_task;
	struct Scsi_Host host;		/* last: hostdata follows */
};

struct lx_sdev {
	struct list_head pending;	/* lx_scsi_req, in order */
	unsigned int busy;
	struct request_queue queue;
	struct lx_emul_disk *disk;	/* when it is a disk, else NULL */
	unsigned long long blocks;
	bool read_only;
	struct scsi_device sdev;	/* last: transport data follows */
};

static inline struct lx_shost *lx_shost(struct Scsi_Host *host)
{
	return container_of(host, struct lx_shost, host);
}

static inline struct lx_sdev *lx_sdev(struct scsi_device *sdev)
{
	return container_of(sdev, struct lx_sdev, sdev);
}

static inline struct lx_scsi_slot *lx_scsi_slot(struct scsi_cmnd *cmd)
{
	return container_of(scsi_cmd_to_rq(cmd), struct lx_scsi_slot, rq);
}

static inline struct scsi_cmnd *lx_slot_cmd(struct lx_scsi_slot *slot)
{
	return blk_mq_rq_to_pdu(&slot->rq);
}

/* lx_scsi_cmd.c */
/* lx_scsi_queue - append @req to its device's pending list and start
 * what can start.  Thread (bottom halves off inside) or softirq. */
void lx_scsi_queue(struct lx_scsi_req *req);
/* lx_scsi_run_host - start pending requests of @host's devices while
 * slots, queue depth and the host state allow. */
void lx_scsi_run_host(struct Scsi_Host *host);
/* lx_scsi_finish - the command in @slot is over with @result: give the
 * request its result and the slot back, then run the host. */
void lx_scsi_finish(struct lx_scsi_slot *slot, int result);
/* lx_scsi_finish_later - lx_scsi_finish with the command's result, from
 * BLOCK_SOFTIRQ (raised here; any context). */
void lx_scsi_finish_later(struct lx_scsi_slot *slot);
/* lx_scsi_requeue - free @slot; its request goes to the end of @retry,
 * which lx_scsi_requeue_splice then puts back at the head of each
 * request's device list, in @retry's order. */
void lx_scsi_requeue(struct lx_scsi_slot *slot, struct list_head *retry);
void lx_scsi_requeue_splice(struct list_head *retry);
/* lx_scsi_fail_pending - complete every pending request of @sdev with
 * @result (device gone), from BLOCK_SOFTIRQ. */
void lx_scsi_fail_pending(struct scsi_device *sdev, int result);
int lx_scsi_slots_alloc(struct Scsi_Host *host);
void lx_scsi_slots_free(struct Scsi_Host *host);
void lx_scsi_softirq_init(void);
void lx_scsi_retry_timer_init(struct Scsi_Host *host);
/* lx_scsi_req_defaults - Linux sd's timeout and retries for @req. */
void lx_scsi_req_defaults(struct lx_scsi_req *req);

/* lx_scsi_error.c */
void lx_scsi_eh_scmd_add(struct scsi_cmnd *cmd);
void lx_scsi_eh_wakeup(struct Scsi_Host *host);
void lx_scsi_timed_out(struct scsi_cmnd *cmd);
int lx_scsi_eh_start(struct Scsi_Host *host);
void lx_scsi_eh_stop(struct Scsi_Host *host);

/* lx_scsi_target.c: lx_scsi_target_get - @host's target @id on
 * @channel with a reap reference (lx_scsi_target_put drops it), found or
 * allocated; ERR_PTR on failure.  lx_scsi_target_add - make it visible
 * with its first device (0 or -errno).  Thread context. */
struct scsi_target *lx_scsi_target_get(struct Scsi_Host *host, uint channel,
				       uint id);
int lx_scsi_target_add(struct scsi_target *starget);
void lx_scsi_target_put(struct scsi_target *starget);

/* lx_scsi_disk.c */
/* lx_scsi_disk_attach - read @sdev's capacity and write protection and
 * list it for the host; 0 or -errno. */
int lx_scsi_disk_attach(struct scsi_device *sdev);
void lx_scsi_disk_detach(struct scsi_device *sdev);
/* The errno the host sees for a finished command (sense named on the
 * console). */
int lx_scsi_errno(struct scsi_device *sdev, int result,
		  const unsigned char *sense);

extern struct list_head lx_scsi_hosts;
extern struct class lx_scsi_class;

#endif
