/* SPDX-License-Identifier: GPL-2.0-only */
/* noop_llseek, no_seek_end_llseek: file positions of files that cannot seek, or not from their end. */
#include <linux/fs.h>

/* noop_llseek - leave @file's position alone and return it (Linux's
 * fs/read_write.c). */
loff_t noop_llseek(struct file *file, loff_t offset, int whence)
{
	return file->f_pos;
}

/*
 * no_seek_end_llseek - move @file's position to @offset from its start
 * (SEEK_SET) or from where it is (SEEK_CUR): the new position; -EINVAL
 * for SEEK_END (and any other @whence) or a negative position (Linux's
 * fs/read_write.c, for files without an end, such as usbfs's).
 */
loff_t no_seek_end_llseek(struct file *file, loff_t offset, int whence)
{
	loff_t pos;

	switch (whence) {
	case SEEK_SET:
		pos = offset;
		break;
	case SEEK_CUR:
		if (offset == 0)
			return file->f_pos;
		pos = file->f_pos + offset;
		break;
	default:
		return -EINVAL;
	}
	if (pos < 0)
		return -EINVAL;
	if (pos != file->f_pos) {
		file->f_pos = pos;
		file->f_version = 0;
	}
	return pos;
}
