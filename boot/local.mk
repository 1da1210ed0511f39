# SPDX-License-Identifier: GPL-2.0-only
# Booting by hand: make run (QEMU, serial on the terminal), make run-bochs.

QEMU_RUN_FLAGS = -accel tcg -M pc -m 128 -nographic -no-reboot \
	-device isa-debug-exit,iobase=0x501,iosize=1

run: kernel/graft.elf
	@echo "Booting Graft in QEMU (TCG); Ctrl-A X quits."
	$(QEMU) $(QEMU_RUN_FLAGS) -kernel kernel/graft.elf $(if $(APPEND),-append "$(APPEND)")

boot/graft.iso: kernel/graft.elf $(srcdir)/boot/mkiso.sh
	$(AM_V_GEN)$(srcdir)/boot/mkiso.sh $@ kernel/graft.elf "exit=bochs $(APPEND)"

run-bochs: boot/graft.iso $(srcdir)/boot/bochsrc.in
	sed -e 's|@ISO@|boot/graft.iso|' -e 's|@SERIAL_LOG@|boot/bochs-serial.log|' \
		-e 's|@MEGS@|128|' $(srcdir)/boot/bochsrc.in > boot/bochsrc
	echo c > boot/bochs.rc
	@echo "Booting Graft in Bochs; the console is mirrored on the screen and in boot/bochs-serial.log."
	$(BOCHS) -q -f boot/bochsrc -rc boot/bochs.rc

.PHONY: run run-bochs
CLEANFILES += boot/graft.iso boot/bochsrc boot/bochs.rc boot/bochs-serial.log
