# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "connmem": what one connection costs each end, idle and
# busy, for each transport in rr2.args (stock, ours, tcp), in one boot
# of each of two guests.  The client mounts with nconnect=N (word
# nconnect=N, default 4), so each figure is the change over N
# connections, divided by N.  Prints, on each guest:
#   RR2: MEM <role> <transport> <idle|busy> <KiB per connection> <MRs per connection>
# and for rpcrdma2's client its own view of its MR pools
# (its debugfs files: MRs now, most in use at once, cap):
#   RR2: MRPOOL <transport> <idle|busy> <mrs> <mrs_peak> <mrs_cap>
# Nothing is asserted on the figures.
#
# KiB: unreclaimable slab (kmalloc, large kmallocs included) and
# vmalloc, from /proc/meminfo: what transports allocate, and not the
# page cache, fio's buffers or dentries.  MRs: the RDMA device's MRs
# ("rdma res show"), whoever made them.  Busy: during a fio run of
# 256 KiB random reads and writes, 2 jobs at queue depth 32.
#
# The guests take turns through files in the server's export, reached
# over NFS/TCP (it stays up while the RDMA transports change): the
# client asks for T (.cm-want-T), the server loads it, listens and
# measures itself (.cm-ready-T); after mounting the client measures
# and says so (.cm-idle-T), the server measures (.cm-sidle-T); the same
# for busy (.cm-busy-T, .cm-sbusy-T); then .cm-done-T and the server
# unloads T.

RR2_CTL=/mnt/ctl
RR2_CM_NCONN=4
RR2_CM_FIO=(--name=connmem --directory=/mnt/b --filename=cm.dat --size=128m
	    --ioengine=libaio --direct=1 --rw=randrw --bs=256k --iodepth=32
	    --numjobs=2 --time_based --runtime=20)

# rr2_cm_snap: "KiB MRs" now
rr2_cm_snap() {
	local kib mrs
	sync
	sleep 1
	kib=$(awk '$1 == "SUnreclaim:" || $1 == "VmallocUsed:" { k += $2 }
		   END { print k }' /proc/meminfo)
	# "rdma res show": a summary line per device, "... mr N ..."
	mrs=$(rdma res show 2> /dev/null |
		awk '{ for (i = 1; i < NF; i++) if ($i == "mr") n += $(i + 1) }
		     END { print n + 0 }')
	echo "$kib $mrs"
}

# rr2_cm_print ROLE T STATE BASE NOW: the change per connection
rr2_cm_print() {
	local kib0 mrs0 kib mrs
	read -r kib0 mrs0 <<< "$4"
	read -r kib mrs <<< "$5"
	rr2_info "connmem $1 $2 $3: KiB $kib0 -> $kib, MRs $mrs0 -> $mrs"
	echo "RR2: MEM $1 $2 $3 $(( (kib - kib0) / RR2_CM_NCONN )) $(awk -v a="$mrs" -v b="$mrs0" -v n="$RR2_CM_NCONN" 'BEGIN { printf "%.1f", (a - b) / n }')"
}

# rr2_cm_pool T STATE: rpcrdma2's MR pool figures (its debugfs files:
# MRs now, most in use at once, cap), over the transports of /mnt/b
rr2_cm_pool() {
	[ "$1" = ours ] || return 0
	rr2_mount_rdma2_all /mnt/b | awk -v t="$1" -v s="$2" '{
		for (i = 1; i < NF; i++) {
			if ($i == "mrs") mrs += $(i + 1)
			if ($i == "mrs_peak") peak += $(i + 1)
			if ($i == "mrs_cap") cap += $(i + 1)
		}
	} END { print "RR2: MRPOOL " t " " s " " mrs + 0 " " peak + 0 " " cap + 0 }'
}

rr2_cm_server() {
	local t=$1 base now
	rr2_check "connmem.$t.server-asked" rr2_wait_file "/export/.cm-want-$t" || return 1
	case $t in
	stock|ours)
		RR2_MOD=$t
		rpc.nfsd 0
		rr2_check "connmem.$t.server-load" rr2_load_transport || return 1
		rr2_check "connmem.$t.listen" rpc.nfsd --rdma="$RR2_PORT" 4 || return 1
		;;
	esac
	base=$(rr2_cm_snap)
	touch "/export/.cm-ready-$t"
	rr2_check "connmem.$t.client-idle" rr2_wait_file "/export/.cm-idle-$t" || return 1
	now=$(rr2_cm_snap)
	rr2_cm_print server "$t" idle "$base" "$now"
	touch "/export/.cm-sidle-$t"
	rr2_check "connmem.$t.client-busy" rr2_wait_file "/export/.cm-busy-$t" || return 1
	now=$(rr2_cm_snap)
	rr2_cm_print server "$t" busy "$base" "$now"
	touch "/export/.cm-sbusy-$t"
	rr2_check "connmem.$t.client-done" rr2_wait_file "/export/.cm-done-$t"
	case $t in
	stock|ours)
		rpc.nfsd 0
		if [ "$t" = stock ]; then modprobe -r rpcrdma; else rmmod rpcrdma2; fi
		rpc.nfsd 4
		;;
	esac
}

rr2_cm_client() {
	local t=$1 opts base now fio
	touch "$RR2_CTL/.cm-want-$t"
	rr2_check "connmem.$t.server-ready" rr2_wait_file "$RR2_CTL/.cm-ready-$t" || return 1
	case $t in
	tcp)
		opts=vers=4.2,proto=tcp ;;
	stock|ours)
		RR2_MOD=$t
		rr2_check "connmem.$t.load" rr2_load_transport || return 1
		opts=vers=4.2,proto=rdma,port=$RR2_PORT ;;
	esac
	base=$(rr2_cm_snap)
	mkdir -p /mnt/b
	if rr2_check "connmem.$t.mount" mount -t nfs \
			-o "$opts,nconnect=$RR2_CM_NCONN" \
			"$RR2_SERVER_IP:/export/connmem" /mnt/b; then
		# touch every connection: nconnect spreads RPCs round-robin
		for _ in $(seq $((4 * RR2_CM_NCONN))); do stat /mnt/b > /dev/null; done
		now=$(rr2_cm_snap)
		rr2_cm_print client "$t" idle "$base" "$now"
		rr2_cm_pool "$t" idle
		touch "$RR2_CTL/.cm-idle-$t"
		rr2_check "connmem.$t.server-idle" rr2_wait_file "$RR2_CTL/.cm-sidle-$t"
		fio "${RR2_CM_FIO[@]}" > /tmp/cm-fio.out 2>&1 &
		fio=$!
		sleep 10
		now=$(rr2_cm_snap)
		rr2_cm_print client "$t" busy "$base" "$now"
		rr2_cm_pool "$t" busy
		touch "$RR2_CTL/.cm-busy-$t"
		rr2_check "connmem.$t.server-busy" rr2_wait_file "$RR2_CTL/.cm-sbusy-$t"
		if wait "$fio"; then
			rr2_pass "connmem.$t.fio"
		else
			rr2_fail "connmem.$t.fio"
			tail -n 5 /tmp/cm-fio.out | sed 's/^/    /'
		fi
		rm -f /mnt/b/cm.dat
		rr2_check "connmem.$t.umount" umount /mnt/b
	fi
	case $t in
	stock) modprobe -r rpcrdma ;;
	ours) rmmod rpcrdma2 ;;
	esac
	touch "$RR2_CTL/.cm-done-$t"
}

rr2_main() {
	local w t transports=''
	for w in $RR2_ARGS; do
		case $w in
		nconnect=*) RR2_CM_NCONN=${w#*=} ;;
		tcp|stock|ours) transports="$transports $w" ;;
		esac
	done
	transports=${transports:-stock ours tcp}
	case $RR2_ROLE in
	server)
		rr2_check setup.rdma rr2_setup_rdma "$RR2_SERVER_IP" || return
		rr2_check setup.nfsd rr2_start_nfsd || return
		mkdir -p /export/connmem
		for t in $transports; do
			rr2_cm_server "$t" || break
		done
		;;
	client)
		rr2_check setup.rdma rr2_setup_rdma "$RR2_CLIENT_IP" || return
		modprobe -a sunrpc nfs nfsv4 || return
		rr2_control_mount "$RR2_CTL" || return
		for t in $transports; do
			rr2_cm_client "$t"
		done
		umount "$RR2_CTL"
		;;
	esac
}
