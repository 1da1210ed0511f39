/* SPDX-License-Identifier: GPL-2.0-only */
/* sg_alloc_table_chained, sg_free_table_chained: scatterlists that start in the caller's own entries and continue in chunks. */
/*
 * Linux's lib/sg_pool.c takes the chunks from mempools its initcall
 * creates (library initcalls do not run here: lx_initcall.c).  The same
 * chaining is done by lib/scatterlist.c's __sg_alloc_table, with chunks
 * of SG_CHUNK_SIZE entries from kmalloc (atomically, as Linux asks its
 * pools).
 */
#include <linux/scatterlist.h>
#include <linux/slab.h>

static struct scatterlist *chunk_alloc(unsigned int nents, gfp_t gfp)
{
	return kmalloc_array(nents, sizeof(struct scatterlist), gfp);
}

static void chunk_free(struct scatterlist *sgl, unsigned int nents)
{
	kfree(sgl);
}

/* sg_free_table_chained - free what sg_alloc_table_chained added to
 * @table beyond its first @nents_first_chunk entries. */
void sg_free_table_chained(struct sg_table *table,
			   unsigned int nents_first_chunk)
{
	if (table->orig_nents <= nents_first_chunk)
		return;
	if (nents_first_chunk == 1)
		nents_first_chunk = 0;
	__sg_free_table(table, SG_CHUNK_SIZE, nents_first_chunk, chunk_free,
			table->orig_nents);
}

/*
 * sg_alloc_table_chained - @table with @nents entries: in
 * @first_chunk's @nents_first_chunk entries if they suffice, else those
 * (unless there is only one) chained to allocated chunks.  0; -ENOMEM
 * (nothing left allocated).
 */
int sg_alloc_table_chained(struct sg_table *table, int nents,
			   struct scatterlist *first_chunk,
			   unsigned int nents_first_chunk)
{
	int err;

	BUG_ON(!nents);
	if (first_chunk && nents_first_chunk && nents <= nents_first_chunk) {
		table->nents = table->orig_nents = nents;
		sg_init_table(table->sgl, nents);
		return 0;
	}
	if (nents_first_chunk <= 1) {
		first_chunk = NULL;
		nents_first_chunk = 0;
	}
	err = __sg_alloc_table(table, nents, SG_CHUNK_SIZE, first_chunk,
			       nents_first_chunk, GFP_ATOMIC, chunk_alloc);
	if (err)
		sg_free_table_chained(table, nents_first_chunk);
	return err;
}
