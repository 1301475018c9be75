# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Common settings for the rpcrdma2 test tools.  Sourced, not run.
#
# Everything that is large or slow to make lives under RPCRDMA2_CACHE
# (default /var/cache/rpcrdma2), never in the repository:
#   linux-source-6.12/   Debian's kernel source, with a symlink to this repo
#   kunit-build/         the KUnit kernel build (incremental)
#   kunit-build-debug/   the same with lockdep and KASAN (run.sh --debug)
#   guest/               Debian kernel image + modules, root filesystem,
#                        and its initramfs for the QEMU guests
#   out/                 consoles and logs of the last runs

RR2_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RR2_CACHE=${RPCRDMA2_CACHE:-/var/cache/rpcrdma2}
RR2_SRC=$RR2_CACHE/linux-source-6.12
RR2_KUNIT_BUILD=$RR2_CACHE/kunit-build
RR2_KUNIT_DEBUG_BUILD=$RR2_CACHE/kunit-build-debug
RR2_GUEST=$RR2_CACHE/guest
RR2_OUT=$RR2_CACHE/out

# The Debian 6.12 kernel flavour: the one whose headers are installed
# (newest first), else what the linux-headers-6.12-amd64 metapackage
# points at.
rr2_kver() {
	local d
	d=$(ls -d /usr/src/linux-headers-6.12.*-amd64 2>/dev/null | sort -V | tail -n1)
	if [ -n "$d" ]; then
		echo "${d#/usr/src/linux-headers-}"
		return
	fi
	apt-cache depends linux-headers-6.12-amd64 2>/dev/null |
		sed -n 's/.*Depends: linux-headers-\(6\.12\.[^ ]*-amd64\)$/\1/p' | head -n1
}

rr2_log() { printf '[rpcrdma2] %s\n' "$*" >&2; }
rr2_die() { rr2_log "error: $*"; exit 1; }

# Result lines.  Every test tool prints "PASS name" / "FAIL name" lines
# through these, and run-tests.sh counts them.
rr2_pass() { printf 'PASS %s\n' "$*"; }
rr2_fail() { printf 'FAIL %s\n' "$*"; }
