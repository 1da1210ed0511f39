/* SPDX-License-Identifier: GPL-2.0-only */
/* noop_llseek: the file position answer of files that cannot seek. */
#include <linux/fs.h>

/* noop_llseek - leave @file's position alone and return it (Linux's
 * fs/read_write.c). */
loff_t noop_llseek(struct file *file, loff_t offset, int whence)
{
	return file->f_pos;
}
