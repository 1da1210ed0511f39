/* SPDX-License-Identifier: GPL-2.0-only */
/* Classes made at run time: __class_create, class_destroy. */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/slab.h>

static void class_create_release(struct class *cls)
{
	kfree(cls);
}

/* __class_create - a new class named @name, registered.  The class;
 * ERR_PTR(-ENOMEM), or __class_register's error. */
struct class *__class_create(struct module *owner, const char *name,
			     struct lock_class_key *key)
{
	struct class *cls = kzalloc(sizeof(*cls), GFP_KERNEL);
	int err;

	if (!cls)
		return ERR_PTR(-ENOMEM);
	cls->name = name;
	cls->class_release = class_create_release;
	err = __class_register(cls, key);
	if (err) {
		kfree(cls);
		return ERR_PTR(err);
	}
	return cls;
}

/* class_destroy - unregister and free a class of __class_create
 * (NULL or an error pointer: nothing). */
void class_destroy(struct class *cls)
{
	if (IS_ERR_OR_NULL(cls))
		return;
	class_unregister(cls);
	cls->class_release(cls);
}
