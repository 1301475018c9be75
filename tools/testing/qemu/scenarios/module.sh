# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "module": rpcrdma2.ko in the unmodified Debian kernel.
#  - it loads, owns the server class "rdma" (/proc/sys/sunrpc/transports)
#    and the client transport for proto=rdma (a mount with no RDMA device
#    fails fast through our connect path, and no other module is loaded
#    for it), and unloads cleanly;
#  - rdmavers= accepts 1 and 2 and refuses anything else;
#  - with the stock rpcrdma.ko loaded it refuses to load, says why, and
#    leaves the stock module working.
# Role: single.

rr2_transports_has_rdma() {
	grep -q '^rdma ' /proc/sys/sunrpc/transports
}

rr2_mount_refused() {
	local out
	mkdir -p /mnt/x
	# NFSv4 goes straight to the kernel (no mountd, no rpcbind)
	out=$(mount -t nfs -o vers=4.2,proto=rdma,port=20049,retry=0 \
		127.0.0.1:/x /mnt/x 2>&1) && return 1
	echo "$out"
	dmesg | grep -q 'rpcrdma2: cannot connect to 127.0.0.1' &&
		! lsmod | grep -q '^rpcrdma '
}

rr2_param_refused() {
	! insmod /rr2/rpcrdma2.ko "$1" 2>/dev/null && ! lsmod | grep -q '^rpcrdma2 '
}

# rr2_module_checks: the scenario's checks (scenario "install" runs them
# too, first, in its boot); they leave nfsd's filesystem mounted and no
# transport module loaded
rr2_module_checks() {
	modprobe -a sunrpc rdma_cm ib_core nfs nfsv4 nfsd || rr2_fail setup.modules
	mount -t nfsd nfsd /proc/fs/nfsd

	rr2_check module.load insmod /rr2/rpcrdma2.ko
	rr2_check module.svc-class-registered rr2_transports_has_rdma
	rr2_check module.rdmavers-default-2 \
		grep -qx 2 /sys/module/rpcrdma2/parameters/rdmavers
	rr2_check module.client-class-owns-proto-rdma rr2_mount_refused
	rr2_check module.unload rmmod rpcrdma2
	rr2_check module.svc-class-gone sh -c '! grep -q "^rdma " /proc/sys/sunrpc/transports'

	rr2_check module.rdmavers-1-accepted sh -c \
		'insmod /rr2/rpcrdma2.ko rdmavers=1 && grep -qx 1 /sys/module/rpcrdma2/parameters/rdmavers && rmmod rpcrdma2'
	rr2_check module.rdmavers-0-refused rr2_param_refused rdmavers=0
	rr2_check module.rdmavers-3-refused rr2_param_refused rdmavers=3

	rr2_check module.stock-loads modprobe rpcrdma
	rr2_check module.conflict-refused sh -c '! insmod /rr2/rpcrdma2.ko'
	rr2_check module.conflict-message sh -c \
		'dmesg | grep -q "rpcrdma2: another RPC-over-RDMA transport"'
	rr2_check module.conflict-no-leftover sh -c '! lsmod | grep -q "^rpcrdma2 "'
	rr2_check module.stock-still-registered rr2_transports_has_rdma
	rr2_check module.stock-unloads modprobe -r rpcrdma
}

rr2_main() {
	rr2_module_checks
}
