#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Hook this repository into the cached Debian 6.12 kernel source so that
# kunit.py builds rpcrdma2 in: a symlink net/rpcrdma2 -> repo, one
# "source" line in fs/Kconfig (after SUNRPC's) and one obj- line in
# net/Makefile.  Idempotent; re-points the symlink if the repo moved.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ -f "$RR2_SRC/Makefile" ] || rr2_die "no kernel source in $RR2_SRC: run tools/testing/setup.sh"

ln -sfn "$RR2_REPO" "$RR2_SRC/net/rpcrdma2"
grep -q 'net/rpcrdma2/Kconfig' "$RR2_SRC/fs/Kconfig" ||
	sed -i 's|^source "net/sunrpc/Kconfig"$|&\nsource "net/rpcrdma2/Kconfig"|' "$RR2_SRC/fs/Kconfig"
grep -q 'net/rpcrdma2/Kconfig' "$RR2_SRC/fs/Kconfig" || rr2_die "could not hook fs/Kconfig"
grep -q 'CONFIG_RPCRDMA2' "$RR2_SRC/net/Makefile" ||
	echo 'obj-$(CONFIG_RPCRDMA2)		+= rpcrdma2/' >> "$RR2_SRC/net/Makefile"
