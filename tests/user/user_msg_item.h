/* SPDX-License-Identifier: GPL-2.0-only */
/* The typed items of a user-layout message, read as the kernel reads them (for the fuzzers). */
#ifndef TESTS_USER_USER_MSG_ITEM_H
#define TESTS_USER_USER_MSG_ITEM_H

#include <mach/message.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A typed item (kernel/ipc/ipc_kmsg.h): a 4- or 12-byte descriptor at
 * @at, then from @data inline data rounded up to 4 bytes, 4-byte names
 * or an 8-byte address; the next item at @next. */
struct msg_item {
	size_t at, data, next;
	unsigned int name, size, is_inline, port, dealloc;
	uint32_t number;
	uint64_t bytes;		/* of data (out of line: what it points to) */
};

/* msg_item_parse - the item at @off of the message at @b, which ends at
 * @end: 0, or -1 if it is malformed or does not fit. */
__attribute__((unused))
static int msg_item_parse(const uint8_t *b, size_t off, size_t end,
			  struct msg_item *it)
{
	mach_msg_type_long_t tl;
	uint64_t room;

	if (end - off < sizeof(tl.msgtl_header))
		return -1;
	memcpy(&tl, b + off, sizeof(tl.msgtl_header));
	it->at = off;
	it->name = tl.msgtl_header.msgt_name;
	it->size = tl.msgtl_header.msgt_size;
	it->number = tl.msgtl_header.msgt_number;
	it->is_inline = tl.msgtl_header.msgt_inline;
	it->dealloc = tl.msgtl_header.msgt_deallocate;
	it->data = off + sizeof(tl.msgtl_header);
	if (tl.msgtl_header.msgt_longform) {
		if (end - off < sizeof(tl))
			return -1;
		memcpy(&tl, b + off, sizeof(tl));
		it->name = tl.msgtl_name;
		it->size = tl.msgtl_size;
		it->number = tl.msgtl_number;
		it->data = off + sizeof(tl);
	}
	it->port = MACH_MSG_TYPE_PORT_ANY(it->name);
	if (it->port && it->size != 32)
		return -1;
	it->bytes = ((uint64_t)it->number * it->size + 7) / 8;
	room = !it->is_inline ? 8 : it->port ? 4ull * it->number :
					      (it->bytes + 3) & ~3ull;
	if (room > end - it->data)
		return -1;
	it->next = it->data + room;
	return 0;
}

#endif
