#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The demo: from a fresh Debian 12 machine, set up, build rpcrdma2.ko,
# boot a QEMU guest with soft-RDMA (rxe), run nfsd on rdma 20049, mount
# with proto=rdma, write data and read it back, and show the transport.
#
# Until the rpcrdma2 transport lands (it refuses mounts with
# EPROTONOSUPPORT today), the NFS part runs on the stock rpcrdma.ko and
# the rpcrdma2 part shows the module loading, owning the transport and
# unloading in the same Debian kernel.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$RR2_REPO/tools/testing/setup.sh"
make -C "$RR2_REPO" KDIR="/usr/src/linux-headers-$(rr2_kver)" > /dev/null
q=$RR2_REPO/tools/testing/qemu/run-scenario.sh
rc=0
"$q" -g 1 -s ours module || rc=1
"$q" -g 1 -s stock baseline || rc=1
tr -d '\r' < "$RR2_OUT/baseline-1g-stock/single.console" |
	grep -E '^RR2: INFO v[0-9.]+ mountstats' | sed 's/^RR2: INFO /  /'
exit $rc
