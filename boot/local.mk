# SPDX-License-Identifier: GPL-2.0-only
# Booting by hand: make run (QEMU, serial on the terminal), make run-bochs.
#
# Both boot with the Linux drivers (`linux`), an IDE disk (boot/disk.img,
# hd0 with one partition) and servers/netd, which takes its address from
# the emulator's user network by DHCP; the emulator forwards
# localhost:RUN_HTTP_PORT on the host to netd's HTTP server.

QEMU_RUN_FLAGS = -accel tcg -M pc -m 128 -nographic -no-reboot \
	-device isa-debug-exit,iobase=0x501,iosize=1
RUN_HTTP_PORT = 8080
RUN_NETD = servers/netd/netd.elf netd ip=dhcp device=\$${device-port}

boot/disk.img: $(srcdir)/boot/mkdisk.py
	@mkdir -p boot
	$(AM_V_GEN)$(PYTHON3) $(srcdir)/boot/mkdisk.py $@ 32

run: kernel/graft.elf servers/netd/netd.elf boot/disk.img
	@echo "Booting Graft in QEMU (TCG); Ctrl-A X quits."
	@echo "Once netd says it is ready, open http://localhost:$(RUN_HTTP_PORT)/ on this machine"
	@echo "(e.g. curl http://localhost:$(RUN_HTTP_PORT)/): netd's live status page."
	$(QEMU) $(QEMU_RUN_FLAGS) -kernel kernel/graft.elf \
		-append "linux $(APPEND)" -initrd "$(RUN_NETD)" \
		-nic user,model=e1000,hostfwd=tcp:127.0.0.1:$(RUN_HTTP_PORT)-:80 \
		-drive file=boot/disk.img,if=ide,index=0,format=raw

boot/graft.iso: kernel/graft.elf servers/netd/netd.elf $(srcdir)/boot/mkiso.sh
	@mkdir -p boot
	$(AM_V_GEN)$(srcdir)/boot/mkiso.sh $@ kernel/graft.elf \
		"exit=bochs linux $(APPEND)" servers/netd/netd.elf \
		"netd ip=dhcp device=\$${device-port}"

# Bochs' slirp back end answers DHCP and forwards the HTTP port
# (boot/bochs-slirp.conf).
run-bochs: boot/graft.iso boot/disk.img $(srcdir)/boot/bochsrc.in
	sed -e 's|@ISO@|boot/graft.iso|' -e 's|@SERIAL_LOG@|boot/bochs-serial.log|' \
		-e 's|@MEGS@|128|' -e '/^ata0-master: type=cdrom/d' \
		$(srcdir)/boot/bochsrc.in > boot/bochsrc
	printf '%s\n' "ata0-master: type=disk, path=boot/disk.img, mode=flat" \
		"ata1: enabled=1, ioaddr1=0x170, ioaddr2=0x370, irq=15" \
		"ata1-master: type=cdrom, path=boot/graft.iso, status=inserted" \
		"pci: enabled=1, chipset=i440fx, slot1=e1000" \
		"e1000: enabled=1, mac=52:54:00:12:34:56, ethmod=slirp, script=boot/bochs-slirp.conf" \
		>> boot/bochsrc
	printf '# slirp config\nhostfwd = tcp::%s-:80\n' $(RUN_HTTP_PORT) > boot/bochs-slirp.conf
	echo c > boot/bochs.rc
	@# A Bochs killed outright leaves its image lock behind.
	rm -f boot/disk.img.lock
	@echo "Booting Graft in Bochs; the console is mirrored on the screen and in boot/bochs-serial.log."
	@echo "Once netd says it is ready, open http://localhost:$(RUN_HTTP_PORT)/ on this machine."
	$(BOCHS) -q -f boot/bochsrc -rc boot/bochs.rc

.PHONY: run run-bochs
CLEANFILES += boot/graft.iso boot/bochsrc boot/bochs.rc boot/bochs-serial.log \
	boot/disk.img boot/bochs-slirp.conf
