/* SPDX-License-Identifier: GPL-2.0-only */
/* lwIP httpd's built-in file list: empty, every page is netd's (status.c). */
#ifndef NETD_FSDATA_H
#define NETD_FSDATA_H

#define FS_ROOT		NULL
#define FS_NUMFILES	0

#endif
