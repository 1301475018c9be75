#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# An administrator's session with rpcrdma2 at both ends of one NFSv4.2
# mount on two hosts (two QEMU guests): the scenario "operator" prints
# the mount, nfsiostat and mountstats --xprt, rpcrdma2's view of the
# mount and the server's view of its connection, and the trace of one
# RPC on each host; then the same RPC's frames in the capture of the
# server's NIC, decoded by tools/wireshark/rpcrdma2.lua.  Not a test:
# it fails only when a view is missing.
#
#   tools/testing/qemu/operator.sh
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

out=$RR2_OUT/operator
rc=0
"$(dirname "$0")/run-scenario.sh" -g 2 -s ours -c ours -p 256 \
	-a expect=2,server.expect=2 -n operator operator || rc=1
for g in client server; do
	echo "== $g"
	tr -d '\r' < "$out/$g.console" | sed -n 's/^RR2: OP //p'
done
xid=$(tr -d '\r' < "$out/client.console" | sed -n 's/^RR2: INFO op xid 0x//p')
[ -n "$xid" ] || rr2_die "no RPC traced: see $out/client.console"
echo "== capture of the server's NIC, XID 0x$xid"
tshark -n -r "$out/server.pcap" \
	-X "lua_script:$RR2_REPO/tools/wireshark/rpcrdma2.lua" \
	-Y "rpcrdma2.xid == 0x$xid" -O rpcrdma2
exit $rc
