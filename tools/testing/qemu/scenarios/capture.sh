# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "capture": record the RPC-over-RDMA headers the stock Linux
# client and server put on the wire (two guests, both rr2.mod=stock), as
# "RR2: CAP <src-ip> <opcode> <octets> <hex>" lines, for the codec's
# golden Version 1 vectors (rr2_stock_vectors in net/tests/codec_vectors.h;
# Documentation/testing.rst, "Golden Version 1 vectors from the stock
# module", gives the two commands).  The test command does not run it.
# Both guests capture what arrives on their NIC (rxe's own transmissions
# do not pass the packet taps), while the client mounts with NFSv3 and
# NFSv4.2 and writes and reads one small and one 64 KiB file.

rr2_capture_io() {
	local vers dir
	for vers in 3 4.2; do
		dir=/mnt/c$vers
		rr2_check "capture.mount.v$vers" rr2_mount "$vers" "$dir" "/export/v$vers" || continue
		head -c 200 /dev/urandom > "$dir/small"
		head -c 65536 /dev/urandom > "$dir/big"
		umount "$dir" && rr2_mount "$vers" "$dir" "/export/v$vers"
		cat "$dir/small" "$dir/big" > /dev/null
		rr2_check "capture.umount.v$vers" umount "$dir"
	done
}

rr2_capture_start() {
	/rr2/bin/rr2cap eth0 900 > /tmp/cap &
	RR2_CAP_PID=$!
	sleep 1
}

rr2_capture_stop() {
	kill "$RR2_CAP_PID" 2> /dev/null
	wait "$RR2_CAP_PID"
	sed 's/^RR2CAP /RR2: CAP /' /tmp/cap
	rr2_check capture.saw-traffic grep -q . /tmp/cap
}

rr2_main() {
	case $RR2_ROLE in
	server)
		rr2_server_setup || return
		rr2_capture_start
		rr2_server_wait_client
		rr2_capture_stop
		;;
	client)
		rr2_client_setup || return
		rr2_capture_start
		rr2_capture_io
		rr2_capture_stop
		rr2_client_done
		;;
	esac
}
