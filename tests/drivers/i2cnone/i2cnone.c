// SPDX-License-Identifier: GPL-2.0-only
/* An I2C client driver that registers, unregisters and registers again, printing what came of each step. */
/*
 * Built in, its module init is all that runs: it shows that an I2C
 * driver's registration goes through on a bus without adapters (so
 * without clients to probe), that i2c_del_driver takes it off the bus
 * (registering it again would be refused otherwise) and that nothing
 * was probed.
 */
#include <linux/i2c.h>
#include <linux/module.h>

static int probes;

static int i2cnone_probe(struct i2c_client *client)
{
	probes++;
	return 0;
}

static const struct i2c_device_id i2cnone_ids[] = {
	{ "i2cnone", 0 },
	{ }
};

static struct i2c_driver i2cnone_driver = {
	.driver = { .name = "i2cnone" },
	.probe_new = i2cnone_probe,
	.id_table = i2cnone_ids,
};

static int __init i2cnone_init(void)
{
	int first, again;

	first = i2c_add_driver(&i2cnone_driver);
	if (!first)
		i2c_del_driver(&i2cnone_driver);
	again = i2c_add_driver(&i2cnone_driver);
	pr_info("i2cnone: registered %d, unregistered, registered again %d, "
		"probes %d\n", first, again, probes);
	return again;
}
module_init(i2cnone_init);

static void __exit i2cnone_exit(void)
{
	i2c_del_driver(&i2cnone_driver);
}
module_exit(i2cnone_exit);

MODULE_DESCRIPTION("An I2C client driver with no adapter to bind");
MODULE_LICENSE("GPL");
