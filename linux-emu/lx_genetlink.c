/* SPDX-License-Identifier: GPL-2.0-only */
/* Generic netlink families: genl_register_family, genl_unregister_family. */
/*
 * Linux keeps each family under a number user space looks up by name,
 * and its multicast groups under numbers of their own.  Graft has no
 * netlink sockets, so no request reaches a family and nothing it
 * multicasts is delivered; the registration itself is kept as Linux
 * keeps it: names unique, operations checked, the family's number from
 * GENL_START_ALLOC up (pmcraid's and VFS_DQUOT's reserved ones for
 * them), its groups numbered after the groups before.
 */
#include <linux/string.h>
#include <net/genetlink.h>

#define LX_GENL_FAMILIES	16

static struct genl_family *families[LX_GENL_FAMILIES];
static unsigned int next_mcgrp = 3;	/* Linux's first free group id */
static DEFINE_MUTEX(genl_mutex);

/* Every operation does something, and no command comes twice. */
static int ops_valid(const struct genl_family *family)
{
	unsigned int i, j, n = family->n_ops + family->n_small_ops;
	u8 cmd[256 + 256];

	for (i = 0; i < n; i++) {
		bool small = i >= family->n_ops;
		const struct genl_small_ops *so =
			small ? &family->small_ops[i - family->n_ops] : NULL;
		const struct genl_ops *o = small ? NULL : &family->ops[i];

		if (small ? !so->doit && !so->dumpit : !o->doit && !o->dumpit)
			return -EINVAL;
		cmd[i] = small ? so->cmd : o->cmd;
		for (j = 0; j < i; j++)
			if (cmd[j] == cmd[i])
				return -EINVAL;
	}
	for (i = 0; i < family->n_mcgrps; i++)
		if (!family->mcgrps[i].name[0])
			return -EINVAL;
	return 0;
}

/* The family number @family gets, or -ENOSPC.  genl_mutex held. */
static int number(const struct genl_family *family)
{
	int id, start = GENL_START_ALLOC, end = GENL_MAX_ID, i;
	bool taken;

	if (!strcmp(family->name, "pmcraid"))
		start = end = GENL_ID_PMCRAID;
	else if (!strcmp(family->name, "VFS_DQUOT"))
		start = end = GENL_ID_VFS_DQUOT;
	for (id = start; id <= end; id++) {
		taken = false;
		for (i = 0; i < LX_GENL_FAMILIES; i++)
			if (families[i] && families[i]->id == id)
				taken = true;
		if (!taken)
			return id;
	}
	return -ENOSPC;
}

/*
 * genl_register_family - keep @family under a number of its own (in
 * ->id) and number its multicast groups (->mcgrp_offset).  0; -EINVAL
 * (an operation without doit or dumpit, a command twice, a group
 * without a name); -EEXIST (the name is taken); -ENOSPC (no number, or
 * LX_GENL_FAMILIES families already).
 */
int genl_register_family(struct genl_family *family)
{
	int err, i, slot = -1;

	err = ops_valid(family);
	if (err)
		return err;
	mutex_lock(&genl_mutex);
	for (i = 0; i < LX_GENL_FAMILIES; i++) {
		if (!families[i]) {
			if (slot < 0)
				slot = i;
		} else if (!strcmp(families[i]->name, family->name)) {
			err = -EEXIST;
			goto out;
		}
	}
	err = slot < 0 ? -ENOSPC : number(family);
	if (err < 0)
		goto out;
	family->id = err;
	family->mcgrp_offset = family->n_mcgrps ? next_mcgrp : 0;
	next_mcgrp += family->n_mcgrps;
	families[slot] = family;
	err = 0;
out:
	mutex_unlock(&genl_mutex);
	return err;
}

/* genl_unregister_family - forget @family.  0; -ENOENT if not kept. */
int genl_unregister_family(const struct genl_family *family)
{
	int i, err = -ENOENT;

	mutex_lock(&genl_mutex);
	for (i = 0; i < LX_GENL_FAMILIES; i++)
		if (families[i] == family) {
			families[i] = NULL;
			err = 0;
		}
	mutex_unlock(&genl_mutex);
	return err;
}
