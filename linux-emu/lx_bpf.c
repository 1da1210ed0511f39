/* SPDX-License-Identifier: GPL-2.0-only */
/* The BPF state that XDP drivers read: bpf_stats_enabled_key, bpf_master_redirect_enabled_key, bpf_redirect_info. */
/*
 * Graft has no bpf system call, so no program is ever attached: the
 * static keys stay off (no run-time statistics, no bonding master
 * redirecting) and the per-CPU redirect state is never filled.  They
 * are defined because a driver's XDP paths, compiled in, name them.
 */
#include <linux/filter.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>

DEFINE_STATIC_KEY_FALSE(bpf_stats_enabled_key);
DEFINE_STATIC_KEY_FALSE(bpf_master_redirect_enabled_key);
DEFINE_PER_CPU(struct bpf_redirect_info, bpf_redirect_info);
