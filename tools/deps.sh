#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install and unpack everything Graft builds from; idempotent and quiet.
#
# Usage: tools/deps.sh BUILD_DIR
#
# Debian packages are installed with apt-get when missing.  Into BUILD_DIR go:
#   deps/linux-6.1/   the tree from Debian's linux-source-6.1 (never edited)
#   deps/lwip/        lwIP's C tree from the crates.io crate lwip 0.4.0
#   deps/newlib/      newlib built for x86_64-elf from Debian's newlib-source
#   deps/linux-image/ Debian's linux-image-amd64 kernel of the 6.1 series,
#                     unpacked (boot/vmlinuz-*, lib/modules/*), never
#                     installed: the native-Linux baseline of make bench
#   versions.txt      the exact versions used
# The Linux sources are one pinned version of linux-source-6.1,
# LINUX_VERSION below: linux-emu is written against that tree's
# structures, so another point release is never taken silently.
# Each unpacked tree carries a stamp naming the version it came from, so a
# second run only compares stamps.  Any failure names the package and the
# command, and exits non-zero.
set -eu

BUILD=${1:?usage: tools/deps.sh BUILD_DIR}
mkdir -p "$BUILD/deps"
BUILD=$(cd "$BUILD" && pwd)
DEPS=$BUILD/deps

LWIP_VERSION=0.4.0
LINUX_PKG=linux-source-6.1
# The pin.  To move it: `apt-cache madison linux-source-6.1` lists the
# versions the package servers hold; set one here, `make check`, and fix
# what linux-emu no longer matches (struct layouts change between point
# releases).
LINUX_VERSION=6.1.192-2
LINUX_IMAGE_META=linux-image-amd64

PACKAGES="build-essential autoconf automake python3 curl xz-utils
 qemu-system-x86 bochs bochs-term bochsbios vgabios
 grub-pc-bin grub-common xorriso mtools
 mig-x86-64-gnu gnumach-dev newlib-source
 flex bison bc libelf-dev libssl-dev
 tcpdump iputils-ping iproute2 iperf
 busybox-static python3-matplotlib"

die() {
	echo "deps: $*" >&2
	exit 1
}

# run WHAT CMD...: run CMD quietly; on failure show its output and name WHAT.
run() {
	what=$1
	shift
	log=$DEPS/last-command.log
	if ! "$@" >"$log" 2>&1; then
		tail -n 20 "$log" >&2
		die "$what failed: $*"
	fi
}

installed_version() {
	dpkg-query -W -f='${db:Status-Abbrev}${Version}' "$1" 2>/dev/null |
		sed -n 's/^ii *//p'
}

apt_updated=no
apt_update() {
	[ $apt_updated = yes ] && return 0
	run "apt-get update" apt-get update -q
	apt_updated=yes
}

# --- Debian packages ----------------------------------------------------
missing=
for p in $PACKAGES; do
	[ -n "$(installed_version "$p")" ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "deps: installing Debian packages:$missing"
	[ "$(id -u)" = 0 ] || die "need root to install:$missing"
	apt_update
	# One transaction; if it fails, retry one by one to name the culprit.
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $missing >"$DEPS/last-command.log" 2>&1; then
		for p in $missing; do
			DEBIAN_FRONTEND=noninteractive run "package $p" \
				apt-get install -y -q --no-install-recommends "$p"
		done
	fi
fi
if ! command -v cargo >/dev/null 2>&1; then
	echo "deps: installing Debian package cargo"
	apt_update
	DEBIAN_FRONTEND=noninteractive run "package cargo" \
		apt-get install -y -q --no-install-recommends cargo
fi

# --- Linux 6.1 sources --------------------------------------------------
# linux_offered: whether apt knows $LINUX_PKG=$LINUX_VERSION.
linux_offered() {
	apt-cache madison "$LINUX_PKG" 2>/dev/null |
		awk -F'|' '{gsub(/ /, "", $2); print $2}' |
		grep -qx "$LINUX_VERSION"
}
linux_version=$LINUX_VERSION
if [ "$(cat "$DEPS/linux-6.1/.graft-version" 2>/dev/null)" != "$linux_version" ] &&
	! linux_offered; then
	apt_update
	linux_offered || die "$LINUX_PKG $LINUX_VERSION, the version Graft is pinned to, is not on the package servers (apt-cache madison $LINUX_PKG lists what is); move the pin: LINUX_VERSION in tools/deps.sh"
fi
if [ "$(cat "$DEPS/linux-6.1/.graft-version" 2>/dev/null)" != "$linux_version" ]; then
	echo "deps: unpacking $LINUX_PKG $linux_version"
	rm -rf "$DEPS/linux-6.1" "$DEPS/linux-deb"
	mkdir -p "$DEPS/linux-deb"
	(cd "$DEPS/linux-deb" &&
		run "package $LINUX_PKG" apt-get download "$LINUX_PKG=$linux_version") ||
		exit 1
	deb=$(ls "$DEPS"/linux-deb/*.deb)
	mkdir -p "$DEPS/linux-6.1"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO ./usr/src/linux-source-6.1.tar.xz |
		tar -xJ -C "$DEPS/linux-6.1" --strip-components=1 ||
		die "unpacking $deb failed (dpkg-deb --fsys-tarfile | tar)"
	# Keep the pristine tarball: the byte-identity checks compare against it.
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO ./usr/src/linux-source-6.1.tar.xz >"$DEPS/linux-source-6.1.tar.xz"
	rm -rf "$DEPS/linux-deb"
	echo "$linux_version" >"$DEPS/linux-6.1/.graft-version"
fi

# --- Linux 6.1 kernel image (the native baseline) -------------------------
# linux-image-amd64 is a meta package; the image it depends on is fetched
# with apt-get download and unpacked, so /boot and dpkg stay untouched.
image_pkg=$(apt-cache depends "$LINUX_IMAGE_META" 2>/dev/null |
	sed -n 's/^ *Depends: *\(linux-image-6\.1[^ ]*\).*/\1/p' | head -n 1)
[ -n "$image_pkg" ] ||
	die "package $LINUX_IMAGE_META depends on no linux-image-6.1 (apt-cache depends $LINUX_IMAGE_META)"
image_version=$(apt-cache policy "$image_pkg" | sed -n 's/^ *Candidate: *//p')
image_stamp="$image_pkg $image_version"
if [ "$(cat "$DEPS/linux-image/.graft-version" 2>/dev/null)" != "$image_stamp" ]; then
	echo "deps: unpacking $image_pkg $image_version"
	rm -rf "$DEPS/linux-image" "$DEPS/linux-image-deb"
	mkdir -p "$DEPS/linux-image-deb" "$DEPS/linux-image"
	(cd "$DEPS/linux-image-deb" &&
		run "package $image_pkg" apt-get download "$image_pkg=$image_version") ||
		exit 1
	deb=$(ls "$DEPS"/linux-image-deb/*.deb)
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$DEPS/linux-image" ./boot ./lib/modules ||
		die "unpacking $deb failed (dpkg-deb --fsys-tarfile | tar)"
	rm -rf "$DEPS/linux-image-deb"
	echo "$image_stamp" >"$DEPS/linux-image/.graft-version"
fi

# --- lwIP from the crates.io crate --------------------------------------
if [ "$(cat "$DEPS/lwip/.graft-version" 2>/dev/null)" != "$LWIP_VERSION" ]; then
	echo "deps: fetching crate lwip $LWIP_VERSION"
	fetch=$DEPS/lwip-fetch
	rm -rf "$fetch" "$DEPS/lwip"
	mkdir -p "$fetch/src"
	printf '[package]\nname = "graft-lwip-fetch"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\nlwip = "=%s"\n' \
		"$LWIP_VERSION" >"$fetch/Cargo.toml"
	: >"$fetch/src/lib.rs"
	CARGO_HOME=$fetch/home run "crate lwip $LWIP_VERSION" \
		cargo fetch --manifest-path "$fetch/Cargo.toml"
	src=$(ls -d "$fetch"/home/registry/src/*/lwip-$LWIP_VERSION 2>/dev/null | head -n 1)
	[ -d "$src/src/core" ] || die "crate lwip $LWIP_VERSION has no src/core"
	mkdir -p "$DEPS/lwip"
	cp -r "$src/src" "$DEPS/lwip/"
	cp "$src/Cargo.toml" "$DEPS/lwip/"
	rm -rf "$fetch"
	echo "$LWIP_VERSION" >"$DEPS/lwip/.graft-version"
fi

# --- newlib for x86_64-elf ----------------------------------------------
newlib_version=$(installed_version newlib-source)
if [ "$(cat "$DEPS/newlib/.graft-version" 2>/dev/null)" != "$newlib_version" ]; then
	echo "deps: building newlib $newlib_version for x86_64-elf (about 35 s)"
	tarball=$(ls /usr/src/newlib/newlib-*.tar.* 2>/dev/null | head -n 1)
	[ -n "$tarball" ] || die "newlib-source has no tarball in /usr/src/newlib"
	rm -rf "$DEPS/newlib" "$DEPS/newlib-src" "$DEPS/newlib-build"
	mkdir -p "$DEPS/newlib-src" "$DEPS/newlib-build"
	tar -xf "$tarball" -C "$DEPS/newlib-src" --strip-components=1 ||
		die "unpacking $tarball failed"
	(
		cd "$DEPS/newlib-build"
		run "newlib configure" ../newlib-src/configure \
			--target=x86_64-elf --prefix="$DEPS/newlib" \
			--disable-multilib --disable-newlib-supplied-syscalls \
			CC_FOR_TARGET="gcc -ffreestanding -fno-stack-protector -mno-red-zone" \
			AR_FOR_TARGET=ar AS_FOR_TARGET=as LD_FOR_TARGET=ld \
			NM_FOR_TARGET=nm RANLIB_FOR_TARGET=ranlib
		run "newlib build" make -j"$(nproc)" all-target-newlib
		run "newlib install" make install-target-newlib
	) || exit 1
	[ -f "$DEPS/newlib/x86_64-elf/lib/libc.a" ] ||
		die "newlib build produced no x86_64-elf/lib/libc.a"
	rm -rf "$DEPS/newlib-src" "$DEPS/newlib-build"
	echo "$newlib_version" >"$DEPS/newlib/.graft-version"
fi

# --- record versions ----------------------------------------------------
{
	echo "# Versions used by this build directory (tools/deps.sh)."
	for p in $PACKAGES cargo; do
		v=$(installed_version "$p")
		[ -n "$v" ] && printf '%s\t%s\n' "$p" "$v"
	done
	printf '%s\t%s\n' "$LINUX_PKG" "$linux_version"
	printf '%s\t%s\n' "$image_pkg" "$image_version"
	printf 'crate:lwip\t%s\n' "$LWIP_VERSION"
	printf 'cargo\t%s\n' "$(cargo --version 2>/dev/null)"
	printf 'gcc\t%s\n' "$(gcc -dumpfullversion)"
} >"$BUILD/versions.txt.new"
mv "$BUILD/versions.txt.new" "$BUILD/versions.txt"
