# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "install": packaging/install.sh (what "make install" runs) in
# an unmodified Debian guest, then nothing loaded by hand:
#  - modprobe of every name of the RPC-over-RDMA transport (rpcrdma,
#    rpcrdma6, xprtrdma, svcrdma) loads rpcrdma2, never the stock module;
#  - a proto=rdma mount loads it on its own (the kernel asks for
#    "rpcrdma"), and so does "rpc.nfsd --rdma" (nfsd asks for "svcrdma");
#  - modprobe -r of each name unloads it;
#  - when rpcrdma2 is installed but refuses to load, the stock module
#    loads instead and the kernel log says why;
#  - NFS over RDMA then works: data written and read back, and the
#    server's counters reset on a write, as the stock module's do;
#  - with the modprobe.d file but no rpcrdma2 for the running kernel (a
#    kernel DKMS skipped, or "make install" for another kernel), each
#    name loads the stock module, says so in the kernel log, and
#    modprobe -r of the name unloads it;
#  - after uninstall the same names load the stock module again.
# First, in the same boot, scenario "module"'s checks (module.sh; their
# results keep its "module." names): a boot of its own cost 26 s.
# Role: single.  (The DKMS build and install for the kernel's headers
# run on the host: tools/testing/install-test.sh.)

. /rr2/scenarios/module.sh

rr2_only_ours() {
	lsmod | grep -q '^rpcrdma2 ' && ! lsmod | grep -q '^rpcrdma '
}

# rr2_name_loads NAME: modprobe NAME loads rpcrdma2 and only it, and
# modprobe -r NAME unloads it
rr2_name_loads() {
	modprobe "$1" || return 1
	rr2_only_ours || { lsmod | grep rpcrdma; return 1; }
	modprobe -r "$1" && ! lsmod | grep -q '^rpcrdma2 '
}

# rr2_name_falls_back NAME: the modprobe.d file is there but rpcrdma2 is
# not installed for this kernel: modprobe NAME loads the stock module,
# says why in the kernel log, and modprobe -r NAME unloads it.
rr2_name_falls_back() {
	local said n
	said="rpcrdma2: not installed for kernel $(uname -r): loading the stock rpcrdma module"
	n=$(dmesg | grep -c "$said")
	modprobe "$1" || return 1
	if ! lsmod | grep -q '^rpcrdma ' || lsmod | grep -q '^rpcrdma2 '; then
		lsmod | grep rpcrdma
		return 1
	fi
	[ "$(dmesg | grep -c "$said")" -gt "$n" ] || return 1
	modprobe -r "$1" && ! lsmod | grep -q '^rpcrdma '
}

# rr2_load_fails_falls_back: rpcrdma2 is installed but its load fails
# (an option it refuses stands in for an unsigned module under Secure
# Boot): modprobe rpcrdma loads the stock module and says why in the
# kernel log, and modprobe -r unloads it.
rr2_load_fails_falls_back() {
	local said="rpcrdma2: failed to load on kernel $(uname -r)" n rc=0
	n=$(dmesg | grep -c "$said")
	echo "options rpcrdma2 rdmavers=7" > /etc/modprobe.d/zz-rr2-bad.conf
	modprobe rpcrdma || rc=1
	rm -f /etc/modprobe.d/zz-rr2-bad.conf
	[ "$rc" = 0 ] || return 1
	lsmod | grep rpcrdma
	lsmod | grep -q '^rpcrdma ' && ! lsmod | grep -q '^rpcrdma2 ' &&
		[ "$(dmesg | grep -c "$said")" -gt "$n" ] &&
		modprobe -r rpcrdma && ! lsmod | grep -q '^rpcrdma '
}

# The server's counters (nfsd stopped: nothing moves them) reset on a
# write of any value, as the stock module's; the five that never move
# take 0 and refuse anything else.
rr2_counters_reset() {
	local d=/proc/sys/sunrpc/svc_rdma
	grep . $d/rdma_stat_* $d/rpcrdma2_conns_v*
	[ "$(stat -c %a $d/rdma_stat_recv)" = 644 ] &&
		[ "$(stat -c %a $d/rpcrdma2_conns_v2)" = 644 ] &&
		[ "$(stat -c %a $d/rdma_stat_rq_poll)" = 644 ] || return 1
	[ "$(cat $d/rdma_stat_recv)" -gt 0 ] &&
		[ "$(cat $d/rpcrdma2_conns_v2)" -gt 0 ] || return 1
	echo 0 > $d/rdma_stat_recv && echo 5 > $d/rpcrdma2_conns_v2 &&
		[ "$(cat $d/rdma_stat_recv)" = 0 ] &&
		[ "$(cat $d/rpcrdma2_conns_v2)" = 0 ] || return 1
	echo 0 > $d/rdma_stat_rq_poll && ! echo 1 2> /dev/null > $d/rdma_stat_rq_poll
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
	rr2_module_checks
	# as a boot of its own would have it: nfsd's filesystem is
	# rr2_start_nfsd's to mount
	umount /proc/fs/nfsd || rr2_fail setup.umount-nfsd
	modprobe -a sunrpc rdma_cm ib_core nfs nfsv4 || rr2_fail setup.modules
	rr2_check install.run /rr2/packaging/install.sh install /rr2/rpcrdma2.ko "$kver"
	rr2_check install.modinfo-finds-updates sh -c \
		"modinfo -F filename rpcrdma2 | grep -q /updates/"
	for n in rpcrdma rpcrdma6 xprtrdma svcrdma; do
		rr2_check "install.modprobe-$n-loads-rpcrdma2" rr2_name_loads "$n"
	done
	rr2_check install.load-failure-loads-stock rr2_load_fails_falls_back
	rr2_check install.mount-autoloads rr2_mount_autoloads
	RR2_SERVER_IP=10.111.0.1
	rr2_check setup.rdma rr2_setup_rdma "$RR2_SERVER_IP" || return
	rr2_check install.nfsd-autoloads rr2_nfsd_autoloads
	rr2_check install.nfs-io rr2_io
	rr2_check install.nfsd-stop rpc.nfsd 0
	rr2_check install.counters-reset rr2_counters_reset
	rr2_check install.unload sh -c \
		'for i in $(seq 60); do rmmod rpcrdma2 2>/dev/null && exit 0; sleep 0.5; done; exit 1'
	rr2_check install.uninstall /rr2/packaging/install.sh uninstall "$kver"
	# the modprobe.d file again, without the module: a kernel rpcrdma2
	# was not built or installed for
	rr2_check install.conf-only /rr2/packaging/install.sh conf
	for n in rpcrdma rpcrdma6 xprtrdma svcrdma; do
		rr2_check "install.no-module-$n-loads-stock" rr2_name_falls_back "$n"
	done
	rr2_check install.unconf /rr2/packaging/install.sh unconf
	rr2_check install.after-uninstall-stock-loads sh -c \
		'modprobe rpcrdma && lsmod | grep -q "^rpcrdma " && ! lsmod | grep -q "^rpcrdma2 "'
}
