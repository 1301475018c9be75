#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The demo: from a fresh Debian 12 machine, set up, build rpcrdma2.ko,
# boot a QEMU guest with soft-RDMA (rxe), load rpcrdma2 in place of the
# stock rpcrdma.ko, run nfsd on rdma 20049, mount with proto=rdma (NFSv3
# and NFSv4.2), write data, read it back after a remount, compare, and
# show the RPC-over-RDMA version both ends settled on.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$RR2_REPO/tools/testing/setup.sh"
make -C "$RR2_REPO" KDIR="/usr/src/linux-headers-$(rr2_kver)" > /dev/null
q=$RR2_REPO/tools/testing/qemu/run-scenario.sh
rc=0
"$q" -g 1 -s ours -a expect=2,server.expect=2 -n demo baseline || rc=1
echo
echo "What the guest saw:"
tr -d '\r' < "$RR2_OUT/demo/single.console" |
	grep -E '^RR2: (INFO v[0-9.]+ (mountstats|rpcrdma2)|INFO server|DMESG .*rpcrdma2: (connected|client))' |
	sed -e 's/^RR2: INFO /  /' -e 's/^RR2: DMESG /  dmesg: /'
exit $rc
