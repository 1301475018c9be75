# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "install": packaging/install.sh (what "make install" runs) in
# an unmodified Debian guest, then nothing loaded by hand:
#  - modprobe of every name of the RPC-over-RDMA transport (rpcrdma,
#    rpcrdma6, xprtrdma, svcrdma) loads rpcrdma2, never the stock module;
#  - a proto=rdma mount loads it on its own (the kernel asks for
#    "rpcrdma"), and so does "rpc.nfsd --rdma" (nfsd asks for "svcrdma");
#  - NFS over RDMA then works: data written and read back;
#  - after uninstall the same names load the stock module again.
# Role: single.  (The DKMS build and install for the kernel's headers
# run on the host: tools/testing/install-test.sh.)

rr2_only_ours() {
	lsmod | grep -q '^rpcrdma2 ' && ! lsmod | grep -q '^rpcrdma '
}

# rr2_name_loads NAME: modprobe NAME loads rpcrdma2 and only it
rr2_name_loads() {
	modprobe "$1" || return 1
	rr2_only_ours || { lsmod | grep rpcrdma; return 1; }
	rmmod rpcrdma2
}

# A mount to an address nobody answers still loads the transport.
rr2_mount_autoloads() {
	mkdir -p /mnt/x
	mount -t nfs -o vers=4.2,proto=rdma,port=20049,retry=0 \
		10.111.0.99:/x /mnt/x 2> /dev/null && return 1
	rr2_only_ours && rmmod rpcrdma2
}

rr2_nfsd_autoloads() {
	rr2_start_nfsd 20049 && rr2_only_ours
}

rr2_io() {
	local dir=/mnt/inst
	rr2_mount 4.2 "$dir" /export || return 1
	head -c 3000000 /dev/urandom > /tmp/inst.dat
	cp /tmp/inst.dat "$dir/" && umount "$dir" || return 1
	rr2_mount 4.2 "$dir" /export && cmp /tmp/inst.dat "$dir/inst.dat" &&
		umount "$dir"
}

rr2_main() {
	local kver
	kver=$(uname -r)
	modprobe -a sunrpc rdma_cm ib_core nfs nfsv4 || rr2_fail setup.modules
	rr2_check install.run /rr2/packaging/install.sh install /rr2/rpcrdma2.ko "$kver"
	rr2_check install.modinfo-finds-updates sh -c \
		"modinfo -F filename rpcrdma2 | grep -q /updates/"
	for n in rpcrdma rpcrdma6 xprtrdma svcrdma; do
		rr2_check "install.modprobe-$n-loads-rpcrdma2" rr2_name_loads "$n"
	done
	rr2_check install.mount-autoloads rr2_mount_autoloads
	RR2_SERVER_IP=10.111.0.1
	rr2_check setup.rdma rr2_setup_rdma "$RR2_SERVER_IP" || return
	rr2_check install.nfsd-autoloads rr2_nfsd_autoloads
	rr2_check install.nfs-io rr2_io
	rr2_check install.nfsd-stop rpc.nfsd 0
	rr2_check install.unload sh -c \
		'for i in $(seq 60); do rmmod rpcrdma2 2>/dev/null && exit 0; sleep 0.5; done; exit 1'
	rr2_check install.uninstall /rr2/packaging/install.sh uninstall "$kver"
	rr2_check install.after-uninstall-stock-loads sh -c \
		'modprobe rpcrdma && lsmod | grep -q "^rpcrdma " && ! lsmod | grep -q "^rpcrdma2 "'
}
