#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build a GRUB rescue ISO that boots Graft with multiboot.
#
# Usage: boot/mkiso.sh OUT.iso KERNEL "CMDLINE" [MODULE "ARGS"]...
#
# The kernel is /boot/graft.elf on the ISO, modules /boot/mod0, /boot/mod1...
# in the order given, each loaded with its ARGS on its command line.  Each
# word of ARGS is single-quoted in grub.cfg so that GRUB passes boot-script
# variables such as ${host-port} to the kernel unexpanded; ARGS may not
# contain a single quote.
set -euf

[ $# -ge 3 ] && [ $(($# % 2)) -eq 1 ] ||
	{ echo "usage: $0 OUT.iso KERNEL \"CMDLINE\" [MODULE \"ARGS\"]..." >&2; exit 2; }
out=$1 kernel=$2 cmdline=$3
shift 3
[ -f "$kernel" ] || { echo "mkiso: no kernel file $kernel" >&2; exit 1; }

# The ISO's tree and grub-mkrescue's log live apart: a log inside the tree
# would change while xorriso reads it ("Size of file ... has changed").
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/iso
log=$work/log
mkdir -p "$stage/boot/grub"
cp "$kernel" "$stage/boot/graft.elf"
{
	echo "set timeout=0"
	echo "set default=0"
	echo "serial --unit=0 --speed=115200"
	echo "terminal_output console serial"
	echo "menuentry 'Graft' {"
	echo "	multiboot /boot/graft.elf $cmdline"
	n=0
	while [ $# -gt 0 ]; do
		[ -f "$1" ] || { echo "mkiso: no module file $1" >&2; exit 1; }
		case $2 in *"'"*)
			echo "mkiso: module arguments may not contain ': $2" >&2
			exit 1
		esac
		cp "$1" "$stage/boot/mod$n"
		printf '\tmodule /boot/mod%s' "$n"
		for word in $2; do
			printf " '%s'" "$word"
		done
		printf '\n'
		n=$((n + 1))
		shift 2
	done
	echo "}"
} >"$stage/boot/grub/grub.cfg"

if ! grub-mkrescue -o "$out" "$stage" >"$log" 2>&1; then
	cat "$log" >&2
	echo "mkiso: grub-mkrescue failed" >&2
	exit 1
fi
