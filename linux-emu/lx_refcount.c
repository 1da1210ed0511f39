/* SPDX-License-Identifier: GPL-2.0-only */
/* refcount_warn_saturate: what an overflowing or underflowing refcount_t says (Linux's lib/refcount.c). */
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/refcount.h>

/* refcount_warn_saturate - @r went wrong in way @t: it stays saturated
 * (never freed again) and a warning names the case. */
void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t)
{
	static const char *const what[] = {
		[REFCOUNT_ADD_NOT_ZERO_OVF] = "saturated; leaking memory",
		[REFCOUNT_ADD_OVF] = "saturated; leaking memory",
		[REFCOUNT_ADD_UAF] = "addition on 0; use-after-free",
		[REFCOUNT_SUB_UAF] = "underflow; use-after-free",
		[REFCOUNT_DEC_LEAK] = "decrement hit 0; leaking memory",
	};

	refcount_set(r, REFCOUNT_SATURATED);
	WARN_ONCE(1, "refcount_t: %s.\n",
		  t < ARRAY_SIZE(what) && what[t] ? what[t] : "?");
}
