/* SPDX-License-Identifier: GPL-2.0-only */
/* Firmware files, of which Graft has none: request_firmware, request_firmware_direct, firmware_request_nowarn, release_firmware. */
/*
 * Linux looks for the file under /lib/firmware and, without the user
 * helper fallback, fails with -ENOENT when it is not there.  The Linux
 * world has no file system to look in, so every file is absent: the
 * requests fail that way (a driver that can run without its file goes
 * on; one that cannot fails its probe), printed as Linux prints it.
 */
#include <linux/device.h>
#include <linux/firmware.h>

static int absent(const struct firmware **fw, const char *name,
		  struct device *dev, bool warn)
{
	if (!fw)
		return -EINVAL;
	*fw = NULL;
	if (!name || !name[0])
		return -EINVAL;
	if (warn)
		dev_warn(dev, "Direct firmware load for %s failed with error %d\n",
			 name, -ENOENT);
	return -ENOENT;
}

/* request_firmware - *@fw NULL; -ENOENT (no file), -EINVAL (no @fw, no
 * @name). */
int request_firmware(const struct firmware **fw, const char *name,
		     struct device *device)
{
	return absent(fw, name, device, true);
}

/* request_firmware_direct, firmware_request_nowarn - the same, quietly. */
int request_firmware_direct(const struct firmware **fw, const char *name,
			    struct device *device)
{
	return absent(fw, name, device, false);
}

int firmware_request_nowarn(const struct firmware **fw, const char *name,
			    struct device *device)
{
	return absent(fw, name, device, false);
}

/* release_firmware - only NULL is ever handed out: nothing to free. */
void release_firmware(const struct firmware *fw)
{
	if (fw)
		pr_err("linux-emu: release_firmware of a file never loaded\n");
}
