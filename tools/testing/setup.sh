#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Take a fresh Debian 12 machine to ready for building and testing
# rpcrdma2.  Idempotent: a second run only checks, and rebuilds a cached
# piece only when its inputs changed.  Needs root (apt, debootstrap).
#
# Installs: build tools, Debian's linux-headers-6.12-amd64 and
# linux-source-6.12, QEMU, debootstrap, clang (fuzzing), sparse, dkms,
# tshark (the Wireshark dissector's checks).
# Prepares under $RPCRDMA2_CACHE (default /var/cache/rpcrdma2):
#   the unpacked kernel source (for kunit.py and checkpatch), and the
#   QEMU guest kernel and root filesystem (tools/testing/qemu/mkroot.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || rr2_die "run as root (apt-get, debootstrap)"

PKGS="build-essential bc bison flex libelf-dev libssl-dev dwarves sparse
      kmod cpio rsync xz-utils zstd python3 perl git dkms
      linux-source-6.12 linux-headers-6.12-amd64
      qemu-system-x86 qemu-system-data debootstrap busybox-static
      clang llvm libclang-rt-14-dev tshark"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	rr2_log "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	# a mirror hiccup should not fail a fresh machine: try three times
	for try in 1 2 3; do
		# shellcheck disable=SC2086
		apt-get update -q > /dev/null &&
			apt-get install -y -q --no-install-recommends $missing > /dev/null &&
			break
		[ "$try" = 3 ] && rr2_die "apt-get failed three times"
		rr2_log "apt-get failed, retrying"
		sleep 10
	done
fi

mkdir -p "$RR2_CACHE" "$RR2_OUT"

# Debian's kernel source, unpacked once per package version.
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
if [ "$(cat "$RR2_SRC/.rr2-version" 2>/dev/null)" != "$srcver" ]; then
	rr2_log "unpacking linux-source-6.12 $srcver"
	rm -rf "$RR2_SRC" "$RR2_KUNIT_BUILD" "$RR2_KUNIT_DEBUG_BUILD"
	tar -C "$RR2_CACHE" -xf /usr/src/linux-source-6.12.tar.xz
	echo "$srcver" > "$RR2_SRC/.rr2-version"
fi
# under kunit/run.sh's lock: a KUnit run of another checkout may be
# building from the tree this points at
(flock 9 && "$(dirname "$0")/kunit/prepare-tree.sh") 9> "$RR2_CACHE/.kunit.lock" ||
	rr2_die "prepare-tree.sh failed"

KVER=$(rr2_kver)
[ -d "/usr/src/linux-headers-$KVER" ] || rr2_die "headers for $KVER missing"
KVER=$KVER "$(dirname "$0")/qemu/mkroot.sh"

# siw, soft iWARP, which Debian's kernel does not build: from the same
# source release, against the kernel's headers, for the guests' iWARP
# runs (run-scenario.sh -a dev=siw).  About 15 s, once per release.
siw=$RR2_CACHE/siw/$KVER
if [ "$(cat "$siw/.rr2-version" 2>/dev/null)" != "$srcver" ]; then
	rr2_log "building siw.ko for $KVER"
	rm -rf "$siw" && mkdir -p "$siw"
	cp "$RR2_SRC"/drivers/infiniband/sw/siw/* "$siw/"
	make -s -C "/usr/src/linux-headers-$KVER" M="$siw" CONFIG_RDMA_SIW=m \
		modules > "$siw/build.log" 2>&1 ||
		rr2_die "siw.ko did not build (see $siw/build.log)"
	echo "$srcver" > "$siw/.rr2-version"
fi
rr2_log "ready: kernel $KVER, cache $RR2_CACHE"
