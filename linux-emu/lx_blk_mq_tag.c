/* SPDX-License-Identifier: GPL-2.0-only */
/* Tag sets: their requests per hardware queue, tags taken and given back, the CPU-to-queue maps, iteration over started requests, blk_mq_unique_tag. */
/*
 * Each hardware queue of a set has its own tags (Linux's default: no
 * BLK_MQ_F_TAG_HCTX_SHARED), queue_depth requests made once, each
 * followed by the driver's cmd_size bytes and init_request run with
 * its hardware queue's index; the first reserved_tags of them are only
 * given to BLK_MQ_REQ_RESERVED allocations.  tags->rqs[tag] always
 * points at the tag's request (blk_mq_tag_to_rq).  There is one CPU:
 * the maps send CPU 0 to each map's first queue.  The free lists change
 * with interrupts off.  The emulated SCSI midlayer has its own command
 * slots (lx_scsi_cmd.c): its requests have no hardware context.
 */
#include <linux/blk-mq.h>
#include <linux/blk-mq-pci.h>
#include <linux/blk-mq-virtio.h>
#include <linux/delay.h>
#include <linux/slab.h>

#include <lx_blk.h>

static void tags_free(struct blk_mq_tag_set *set, struct lx_blk_tags *tags,
		      unsigned int hctx_idx)
{
	if (!tags)
		return;
	for (unsigned int i = 0; i < tags->tags.nr_tags; i++) {
		struct request *rq = tags->tags.static_rqs[i];

		if (!rq)
			continue;
		if (set->ops->exit_request)
			set->ops->exit_request(set, rq, hctx_idx);
		kfree(lx_blk_slot(rq));
	}
	kfree(tags->tags.rqs);
	kfree(tags->tags.static_rqs);
	kfree(tags);
}

static struct lx_blk_tags *tags_alloc(struct blk_mq_tag_set *set,
				      unsigned int hctx_idx, int *err)
{
	size_t size = sizeof(struct lx_blk_rq) + set->cmd_size;
	unsigned int depth = set->queue_depth;
	struct lx_blk_tags *tags = kzalloc(sizeof(*tags), GFP_KERNEL);

	*err = -ENOMEM;
	if (!tags)
		return NULL;
	INIT_LIST_HEAD(&tags->free);
	INIT_LIST_HEAD(&tags->free_reserved);
	init_waitqueue_head(&tags->wait);
	tags->tags.nr_reserved_tags = set->reserved_tags;
	tags->tags.rqs = kcalloc(depth, sizeof(*tags->tags.rqs), GFP_KERNEL);
	tags->tags.static_rqs = kcalloc(depth, sizeof(*tags->tags.rqs),
					GFP_KERNEL);
	if (!tags->tags.rqs || !tags->tags.static_rqs)
		goto err;
	for (unsigned int i = 0; i < depth; i++) {
		struct lx_blk_rq *slot = kzalloc(size, GFP_KERNEL);

		if (!slot)
			goto err;
		slot->rq.tag = i;
		slot->rq.internal_tag = -1;	/* no scheduler tags */
		if (set->ops->init_request) {
			*err = set->ops->init_request(set, &slot->rq, hctx_idx,
						      NUMA_NO_NODE);
			if (*err) {
				kfree(slot);
				goto err;
			}
		}
		tags->tags.static_rqs[i] = &slot->rq;
		tags->tags.rqs[i] = &slot->rq;
		tags->tags.nr_tags = i + 1;
		list_add_tail(&slot->link, i < set->reserved_tags ?
			      &tags->free_reserved : &tags->free);
	}
	*err = 0;
	return tags;
err:
	tags_free(set, tags, hctx_idx);
	return NULL;
}

static void maps_free(struct blk_mq_tag_set *set)
{
	for (unsigned int i = 0; i < HCTX_MAX_TYPES; i++) {
		kfree(set->map[i].mq_map);
		set->map[i].mq_map = NULL;
	}
}

/*
 * blk_mq_alloc_tag_set - @set's requests (queue_depth per hardware
 * queue, init_request run on each) and its CPU maps (the driver's
 * map_queues, or CPU 0 to queue 0).  0; -EINVAL (no queue_rq, no depth,
 * no hardware queue, more reserved tags than the depth, more maps than
 * HCTX_MAX_TYPES); -ENOMEM; init_request's error.
 */
int blk_mq_alloc_tag_set(struct blk_mq_tag_set *set)
{
	int err = -ENOMEM;

	if (!set->ops || !set->ops->queue_rq || !set->queue_depth ||
	    !set->nr_hw_queues || set->reserved_tags >= set->queue_depth ||
	    set->nr_maps > HCTX_MAX_TYPES)
		return -EINVAL;
	if (!set->nr_maps)
		set->nr_maps = 1;
	INIT_LIST_HEAD(&set->tag_list);
	mutex_init(&set->tag_list_lock);
	for (unsigned int i = 0; i < set->nr_maps; i++) {
		set->map[i].mq_map = kcalloc(nr_cpu_ids, sizeof(unsigned int),
					     GFP_KERNEL);
		if (!set->map[i].mq_map)
			goto err_maps;
		set->map[i].nr_queues = set->nr_hw_queues;
	}
	set->tags = kcalloc(set->nr_hw_queues, sizeof(*set->tags), GFP_KERNEL);
	if (!set->tags)
		goto err_maps;
	for (unsigned int i = 0; i < set->nr_hw_queues; i++) {
		struct lx_blk_tags *tags = tags_alloc(set, i, &err);

		if (!tags)
			goto err_tags;
		set->tags[i] = &tags->tags;
	}
	if (set->ops->map_queues)
		set->ops->map_queues(set);
	else
		blk_mq_map_queues(&set->map[HCTX_TYPE_DEFAULT]);
	return 0;

err_tags:
	for (unsigned int i = 0; i < set->nr_hw_queues; i++)
		if (set->tags[i])
			tags_free(set, lx_blk_tags(set->tags[i]), i);
	kfree(set->tags);
	set->tags = NULL;
err_maps:
	maps_free(set);
	return err;
}

/* blk_mq_free_tag_set - free what blk_mq_alloc_tag_set made
 * (exit_request on each request); every request must have ended. */
void blk_mq_free_tag_set(struct blk_mq_tag_set *set)
{
	if (!set->tags)
		return;
	for (unsigned int i = 0; i < set->nr_hw_queues; i++)
		tags_free(set, lx_blk_tags(set->tags[i]), i);
	kfree(set->tags);
	set->tags = NULL;
	maps_free(set);
}

struct lx_blk_rq *lx_blk_tag_get(struct lx_blk_tags *tags, bool reserved)
{
	struct list_head *list = reserved ? &tags->free_reserved : &tags->free;
	struct lx_blk_rq *slot = NULL;
	unsigned long flags;

	local_irq_save(flags);
	if (!list_empty(list)) {
		slot = list_first_entry(list, struct lx_blk_rq, link);
		list_del_init(&slot->link);
	}
	local_irq_restore(flags);
	return slot;
}

void lx_blk_tag_put(struct blk_mq_tag_set *set, struct lx_blk_tags *tags,
		    struct lx_blk_rq *slot)
{
	struct request_queue *q;
	unsigned long flags;

	local_irq_save(flags);
	list_add(&slot->link, slot->rq.tag < tags->tags.nr_reserved_tags ?
		 &tags->free_reserved : &tags->free);
	list_for_each_entry(q, &set->tag_list, tag_set_list) {
		struct lx_blk_disk *bd = lx_blk_disk(q);

		if ((!list_empty(&bd->pending) ||
		     !list_empty(&bd->dispatch)) && !bd->dead)
			lx_blk_run_async(bd, 0);
	}
	local_irq_restore(flags);
	wake_up(&tags->wait);
}

unsigned int lx_blk_hctx_for(struct blk_mq_tag_set *set, blk_opf_t opf)
{
	enum hctx_type type = HCTX_TYPE_DEFAULT;

	if ((opf & REQ_OP_MASK) == REQ_OP_READ &&
	    set->nr_maps > HCTX_TYPE_READ && set->map[HCTX_TYPE_READ].nr_queues)
		type = HCTX_TYPE_READ;
	return set->map[type].mq_map[0];
}

/* blk_mq_map_queues - CPUs to @qmap's queues, in turn from its
 * queue_offset (one CPU: to the first). */
void blk_mq_map_queues(struct blk_mq_queue_map *qmap)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		qmap->mq_map[cpu] = qmap->queue_offset +
				    cpu % max(qmap->nr_queues, 1u);
}

/* blk_mq_pci_map_queues - as blk_mq_map_queues: without MSI there is
 * no per-vector affinity to follow (Linux's fallback). */
void blk_mq_pci_map_queues(struct blk_mq_queue_map *qmap,
			   struct pci_dev *pdev, int offset)
{
	blk_mq_map_queues(qmap);
}

/* blk_mq_virtio_map_queues - as blk_mq_map_queues: the transport's
 * vectors have no affinity here (one INTx line). */
void blk_mq_virtio_map_queues(struct blk_mq_queue_map *qmap,
			      struct virtio_device *vdev, int first_vec)
{
	blk_mq_map_queues(qmap);
}

/*
 * blk_mq_tagset_busy_iter - @fn(rq, @priv) for each started request
 * (not idle) of @set, hardware queue by hardware queue, tag by tag,
 * until @fn says false.  Thread or softirq context.
 */
void blk_mq_tagset_busy_iter(struct blk_mq_tag_set *set, busy_tag_iter_fn *fn,
			     void *priv)
{
	for (unsigned int i = 0; set->tags && i < set->nr_hw_queues; i++) {
		struct blk_mq_tags *tags = set->tags[i];

		for (unsigned int t = 0; t < tags->nr_tags; t++) {
			struct request *rq = tags->static_rqs[t];

			if (blk_mq_request_started(rq) && !fn(rq, priv))
				return;
		}
	}
}

static bool completed_one(struct request *rq, void *data)
{
	unsigned int *count = data;

	if (blk_mq_request_completed(rq))
		(*count)++;
	return true;
}

/* blk_mq_tagset_wait_completed_request - wait until no request of @set
 * is completed but not yet ended.  Thread context (sleeps). */
void blk_mq_tagset_wait_completed_request(struct blk_mq_tag_set *tagset)
{
	for (;;) {
		unsigned int count = 0;

		blk_mq_tagset_busy_iter(tagset, completed_one, &count);
		if (!count)
			return;
		msleep(5);
	}
}

/* blk_mq_unique_tag - @rq's tag, its hardware queue in the high bits,
 * as blk_mq_unique_tag_to_hwq() and _to_tag() take it apart (0 for a
 * request of the SCSI midlayer, which has no hardware context). */
u32 blk_mq_unique_tag(struct request *rq)
{
	u32 hwq = rq->mq_hctx ? rq->mq_hctx->queue_num : 0;

	return (hwq << BLK_MQ_UNIQUE_TAG_BITS) |
	       (rq->tag & BLK_MQ_UNIQUE_TAG_MASK);
}
