/* SPDX-License-Identifier: GPL-2.0-only */
/* The "rd0" device: a RAM disk on a multiboot module, used in place. */
/*
 * The module's pages stay out of the page allocator (vm_page_init), so
 * the disk is the module itself, reached through the direct map: reads
 * copy from it into the reply's pages, writes copy from the message's
 * pages into it (io_req_put/get: no buffer in between).  Every transfer
 * is synchronous.  Records are RAMDISK_RECORD_SIZE bytes; a transfer
 * must start at a record inside the disk (D_INVALID_RECNUM) and end
 * inside it (D_INVALID_SIZE); the dispatcher already refused sizes that
 * are not whole records (but for inband transfers, which may cover the
 * start of a record).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/dev_module.h"
#include "device/dev_ramdisk.h"
#include "device/device.h"
#include "device/io_req.h"
#include "kern/bootinfo.h"
#include "kern/cmdline.h"
#include "kern/kprintf.h"
#include "kern/string.h"

static uint8_t *disk;
static uint64_t records;

uint64_t dev_ramdisk_records(void)
{
	return records;
}

/* Does @cmdline name @word (cmdline.h) after its first word, the file? */
static bool has_word_after_file(const char *cmdline, const char *word)
{
	while (*cmdline != '\0' && *cmdline != ' ')
		cmdline++;
	return cmdline_find(cmdline, word, NULL, NULL);
}

void dev_ramdisk_init(void)
{
	for (size_t i = 0; i < bootinfo.nmodules; i++) {
		const struct boot_module *m = &bootinfo.modules[i];
		const uint8_t *data = bootinfo_module_data(m);
		uint64_t size = m->end - m->start;

		if (!has_word_after_file(m->cmdline, "rd0") ||
		    (size >= 4 && memcmp(data, "\177ELF", 4) == 0))
			continue;
		disk = (uint8_t *)data;
		records = size / RAMDISK_RECORD_SIZE;
		kprintf("device: rd0 is module %zu, %llu records of %u bytes\n",
			i, (unsigned long long)records, RAMDISK_RECORD_SIZE);
		return;
	}
}

static bool ramdisk_match(const char *name)
{
	return disk != NULL && strcmp(name, "rd0") == 0;
}

static io_return_t ramdisk_open(struct device *dev, dev_mode_t mode)
{
	(void)mode;
	dev->record_size = RAMDISK_RECORD_SIZE;
	return D_SUCCESS;
}

/* Where @req's transfer starts in the disk, once it is checked to fit. */
static io_return_t check(const struct io_req *req, uint8_t **where)
{
	if (req->recnum > records ||
	    (req->recnum == records && req->count > 0))
		return D_INVALID_RECNUM;
	if ((req->count + RAMDISK_RECORD_SIZE - 1) / RAMDISK_RECORD_SIZE >
	    records - req->recnum)
		return D_INVALID_SIZE;
	*where = disk + req->recnum * RAMDISK_RECORD_SIZE;
	return D_SUCCESS;
}

static io_return_t ramdisk_read(struct device *dev, struct io_req *req)
{
	uint8_t *where;
	io_return_t rc = check(req, &where);

	(void)dev;
	if (rc != D_SUCCESS)
		return rc;
	io_req_put(req, 0, where, req->count);
	req->done = req->count;
	return D_SUCCESS;
}

static io_return_t ramdisk_write(struct device *dev, struct io_req *req)
{
	uint8_t *where;
	io_return_t rc = check(req, &where);

	(void)dev;
	if (rc != D_SUCCESS)
		return rc;
	io_req_get(req, 0, where, req->count);
	req->done = req->count;
	return D_SUCCESS;
}

static io_return_t ramdisk_get_status(struct device *dev,
				      struct dev_call *call,
				      dev_flavor_t flavor, int *status,
				      mach_msg_type_number_t *count)
{
	(void)dev;
	(void)call;
	if (flavor != DEV_GET_SIZE && flavor != DEV_GET_RECORDS)
		return D_INVALID_OPERATION;
	if (*count < 2)
		return D_INVALID_SIZE;
	if (flavor == DEV_GET_SIZE)
		status[DEV_GET_SIZE_DEVICE_SIZE] =
			(int)(records * RAMDISK_RECORD_SIZE);
	else
		status[DEV_GET_RECORDS_DEVICE_RECORDS] = (int)records;
	status[1] = RAMDISK_RECORD_SIZE;	/* _RECORD_SIZE in both */
	*count = 2;
	return D_SUCCESS;
}

static const struct dev_ops ramdisk_ops = {
	.open = ramdisk_open,
	.read = ramdisk_read,
	.write = ramdisk_write,
	.get_status = ramdisk_get_status,
	.read_into = true,	/* a read is one io_req_put */
	/* No settable flavours and no packet filter: the dispatcher answers
	 * D_INVALID_OPERATION for set_status and set_filter. */
};

const struct dev_module dev_ramdisk_module = {
	.name = "rd0",
	.match = ramdisk_match,
	.ops = &ramdisk_ops,
};
