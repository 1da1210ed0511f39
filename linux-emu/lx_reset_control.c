/* SPDX-License-Identifier: GPL-2.0-only */
/* Reset controllers, of which Graft has none: __reset_control_get, __devm_reset_control_get, reset_control_assert/_deassert/_reset, reset_control_put. */
/*
 * Linux finds a device's reset line through its device tree node or a
 * lookup table the board registers; a PC under Graft has neither, so
 * every lookup ends as Linux's does when nothing matches: NULL for an
 * optional line (which the other calls take as "no reset line": 0) and
 * -ENOENT for a required one.  No reset_control is ever handed out.
 */
#include <linux/err.h>
#include <linux/printk.h>
#include <linux/reset.h>

/* __reset_control_get - NULL if @optional, else ERR_PTR(-ENOENT);
 * ERR_PTR(-EINVAL) for a line both @shared and @acquired. */
struct reset_control *__reset_control_get(struct device *dev, const char *id,
					  int index, bool shared,
					  bool optional, bool acquired)
{
	if (shared && acquired)
		return ERR_PTR(-EINVAL);
	return optional ? NULL : ERR_PTR(-ENOENT);
}

/* __devm_reset_control_get - __reset_control_get; nothing is handed out,
 * so there is nothing for @dev's release to put (xhci-pci's optional
 * line). */
struct reset_control *__devm_reset_control_get(struct device *dev,
					       const char *id, int index,
					       bool shared, bool optional,
					       bool acquired)
{
	return __reset_control_get(dev, id, index, shared, optional,
				   acquired);
}

/* No line (NULL): 0; an error pointer: -EINVAL, as Linux. */
static int no_line(struct reset_control *rstc, const char *what)
{
	if (!rstc)
		return 0;
	pr_err("linux-emu: %s of %s\n", what, IS_ERR(rstc) ?
	       "an error pointer" : "a reset control never handed out");
	return -EINVAL;
}

int reset_control_assert(struct reset_control *rstc)
{
	return no_line(rstc, __func__);
}

int reset_control_deassert(struct reset_control *rstc)
{
	return no_line(rstc, __func__);
}

int reset_control_reset(struct reset_control *rstc)
{
	return no_line(rstc, __func__);
}

/* reset_control_put - nothing to give back (NULL or an error pointer). */
void reset_control_put(struct reset_control *rstc)
{
	if (!IS_ERR_OR_NULL(rstc))
		no_line(rstc, __func__);
}
