/* SPDX-License-Identifier: GPL-2.0-only */
/* xen_domain_type: which kind of Xen domain Linux code runs in. */
/*
 * CONFIG_XEN is on only because CONFIG_PARAVIRT's pv_ops come with it
 * (lx_paravirt.c); the world never runs under Xen, so it is native and
 * xen_domain() is false (the virtio rings then use physical addresses
 * unless the device asks for the DMA API, VIRTIO_F_ACCESS_PLATFORM).
 */
#include <xen/xen.h>

enum xen_domain_type xen_domain_type = XEN_NATIVE;
