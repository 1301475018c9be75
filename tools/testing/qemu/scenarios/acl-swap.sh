# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "acl-swap": two client paths that the plain read/write of
# "baseline" does not take.
#
#  acl   NFSv3 POSIX ACLs (the NFSACL side protocol, over the same RDMA
#        connection): the server gives a file and a directory on its
#        export a 60-entry ACL (60 named users; the directory also a
#        60-entry default ACL) and records its own getfacl of them;
#        the client's getfacl over a vers=3 mount must print the same.
#        GETACL's reply lands in pages the client does not allocate
#        beforehand (XDRBUF_SPARSE_PAGES): the transport must.  Then the
#        client sets a 60-entry ACL over the mount (SETACL), reads it back
#        after a remount, and the server checks it on its own disk.
#  swap  a 64 MiB swap file on a vers=4.2 mount: mkswap, swapon (which
#        asks the transport to ->enable_swap), the file in /proc/swaps,
#        48 MiB written to a tmpfs by a process in a memory cgroup held
#        to 16 MiB, so that at least 32 MiB goes out to the swap file and
#        comes back intact, then swapoff.  The cgroup's limit is
#        memory.high, which throttles the writer and reclaims, not
#        memory.max: with a hard limit the cgroup's OOM killer fires
#        whenever 16 reclaim passes find every page still under
#        writeback, i.e. whenever the swap file is slower than the
#        writer, which is a matter of timing, not of the transport.
#        The swap mount's WRITEs must also have sent at least 16 MiB
#        with no error (a failed swap write redirties its page, which
#        then stays in memory and reads back intact).  "swap.swapon"
#        passes only if swapon succeeds; its outcome is also an INFO
#        line.
#  Each phase ends with a check that the kernel log has no BUG, Oops,
#  general protection fault, WARNING or swap I/O error (the console
#  shows only errors; a WARN_ON is only in dmesg).
#
# rr2.args words: phases=acl:swap (default both, in that order; a crash
# in one hides the other), pressure=0 (swapon and swapoff without the
# page-out under memory pressure), swapmib=N (the swap file's size,
# default 64), mountopts=A:B, rdmavers=N,
# server.rdmavers=N / client.rdmavers=N.
#
# Roles:  single  nfsd and the client in one guest
#         server  nfsd with the ACL fixture; waits for the client, then
#                 checks the ACL the client set
#         client  getfacl/setfacl over v3, swap over v4.2

RR2_ACL_DIR=/export/v3/acl
RR2_SWAP_MIB=$(rr2_arg swapmib 64)
RR2_PRESSURE_MIB=48
RR2_CGROUP_HIGH=16M

rr2_phase() {
	case ":$(rr2_arg phases acl:swap):" in *":$1:"*) return 0 ;; esac
	return 1
}

# rr2_acl_spec N: N named-user entries, u:1000 to u:1000+N-1, with
# permissions cycling through all eight combinations.
rr2_acl_spec() {
	local i perms=(rwx r-x rw- r-- -wx --x -w- ---) spec=
	for i in $(seq 0 $(($1 - 1))); do
		spec="$spec${spec:+,}u:$((1000 + i)):${perms[i % 8]}"
	done
	echo "$spec"
}

# The numeric ACL of each file, without the "# file/owner/group" header.
rr2_getfacl() {
	getfacl -n -c "$@"
}

rr2_dmesg_clean() {
	! dmesg | grep -E 'BUG:|Oops|general protection|WARNING:|Kernel panic|INFO: task .* blocked|Write-error on swap|Write error .* on dio swapfile|Read-error on swap'
}

# Server: the fixture, and the server's own view of it for the client.
rr2_acl_server_setup() {
	local spec
	spec=$(rr2_acl_spec 60)
	mkdir -p "$RR2_ACL_DIR/d60" && : > "$RR2_ACL_DIR/f60" &&
		setfacl -m "$spec" "$RR2_ACL_DIR/f60" "$RR2_ACL_DIR/d60" &&
		setfacl -d -m "$spec" "$RR2_ACL_DIR/d60" || return 1
	(cd "$RR2_ACL_DIR" && getfacl -n f60 d60) > /export/v3/acl.expected || return 1
	# 60 named users on each ACL, the default one included
	[ "$(grep -c '^user:[0-9]' /export/v3/acl.expected)" = 120 ] &&
		[ "$(grep -c '^default:user:[0-9]' /export/v3/acl.expected)" = 60 ]
}

# Server, after the client: the ACL it set over NFS, on the server's disk.
rr2_acl_server_verify() {
	local want
	[ -e /export/v3/acl/c60 ] || return 1
	: > /tmp/acl-ref && setfacl -m "$(rr2_acl_spec 60)" /tmp/acl-ref || return 1
	want=$(rr2_getfacl /tmp/acl-ref) || return 1
	[ "$(rr2_getfacl "$RR2_ACL_DIR/c60")" = "$want" ]
}

rr2_acl_client() {
	local dir=/mnt/v3 spec
	spec=$(rr2_acl_spec 60)
	rr2_check acl.mount.v3 rr2_mount 3 "$dir" /export/v3 || return
	rr2_check acl.v3.xprt-rdma test "$(rr2_mount_xprt "$dir")" = rdma
	rr2_info "acl: getfacl of a 60-entry ACL over v3 (NFSACL GETACL)"
	rr2_check acl.v3.getfacl sh -c "cd $dir/acl && getfacl -n f60 d60 > /tmp/acl.got"
	rr2_check acl.v3.getfacl-matches-server cmp /tmp/acl.got "$dir/acl.expected"
	rr2_check acl.v3.getfacl-60-entries test \
		"$(grep -c '^user:[0-9]' /tmp/acl.got)" = 120
	rr2_check acl.v3.setfacl sh -c ": > $dir/acl/c60 && setfacl -m '$spec' $dir/acl/c60"
	# and back from the server, not from the client's ACL cache
	umount "$dir" && rr2_mount 3 "$dir" /export/v3 || rr2_fail acl.v3.remount
	: > /tmp/acl-ref && setfacl -m "$spec" /tmp/acl-ref
	rr2_check acl.v3.setfacl-readback sh -c \
		"[ \"\$(getfacl -n -c $dir/acl/c60)\" = \"\$(getfacl -n -c /tmp/acl-ref)\" ]"
	rr2_check acl.v3.umount umount "$dir"
	rr2_check acl.dmesg-clean rr2_dmesg_clean
}

# Page out: a process in a memory cgroup held to RR2_CGROUP_HIGH fills
# a tmpfs with random data, so its pages must go to swap, and reads it
# back intact.  The swap mount's WRITE calls must have sent at least
# 16 MiB with no error: a swap write that fails only redirties its
# page, which then stays in memory and reads back intact.  Whatever
# happened, the cgroup's processes are gone before the tmpfs is
# unmounted, so that a failure here does not keep the swap file busy.
rr2_swap_pressure() {
	local cg=/sys/fs/cgroup/rr2-swap t=/run/rr2-pressure before delta rc
	before=$(rr2_swap_ops | tr '\n' ';')
	mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup || return 1
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control || return 1
	mkdir -p "$cg" "$t" || return 1
	echo "$RR2_CGROUP_HIGH" > "$cg/memory.high" || return 1
	mount -t tmpfs -o size=$((RR2_PRESSURE_MIB + 16))m tmpfs "$t" || return 1
	# shellcheck disable=SC2016
	timeout 300 sh -c 'echo $$ > "$1/cgroup.procs" &&
		head -c "$2" /dev/urandom > "$3/data" &&
		sha256sum < "$3/data" > "$3/sum" &&
		echo "swap in use by the cgroup: $(cat "$1/memory.swap.current") octets" &&
		[ "$(cat "$1/memory.swap.current")" -gt $((16 << 20)) ] &&
		sha256sum < "$3/data" | cmp - "$3/sum"' \
		sh "$cg" $((RR2_PRESSURE_MIB << 20)) "$t"
	rc=$?
	delta=$(rr2_swap_delta "$before")
	rr2_swap_stats "$cg" "$delta" > /tmp/rr2-swap-stats
	if ! awk '$1 == "WRITE:" && $5 >= 16 * 1048576 && $6 == 0 { ok = 1 }
		END { exit !ok }' <<< "$delta"; then
		echo "swap WRITEs (calls, rtt ms, exe ms, octets, errors):" \
			"$(grep WRITE: <<< "$delta")"
		rc=1
	fi
	echo 1 > "$cg/cgroup.kill"
	for _ in $(seq 50); do
		grep -q '^populated 0' "$cg/cgroup.events" && break
		sleep 0.1
	done
	umount "$t" || rc=1
	rmdir "$cg" || rc=1
	return $rc
}

# The swap mount's WRITE and READ calls so far, one line each:
# "OP: calls rtt exe sent errors" (from mountstats: milliseconds
# summed, octets sent, calls that ended in an error).
rr2_swap_ops() {
	awk -v d=/mnt/v4.2 '$1 == "device" { m = ($5 == d) }
		m && ($1 == "WRITE:" || $1 == "READ:") {
			print $1, $2, $8, $9, $5, $10
		}' /proc/self/mountstats
}

# rr2_swap_delta BEFORE: rr2_swap_ops now, less BEFORE (rr2_swap_ops
# output taken earlier, its lines joined with ";")
rr2_swap_delta() {
	rr2_swap_ops | awk -v before="$1" '
		BEGIN {
			n = split(before, b, ";")
			for (i = 1; i <= n; i++) {
				k = split(b[i], f, " ")
				for (j = 2; j <= k; j++) v[f[1], j] = f[j]
			}
		}
		{
			printf "%s", $1
			for (j = 2; j <= NF; j++) printf " %.0f", $j - v[$1, j]
			print ""
		}'
}

# rr2_swap_stats CGROUP DELTA: how the page-out went: the cgroup's
# memory peaks and events, and the swap I/O of DELTA (rr2_swap_delta):
# calls, mean round trip and execution times, MiB sent, errors.
rr2_swap_stats() {
	echo "cgroup peaks: memory $(cat "$1/memory.peak")," \
		"swap $(cat "$1/memory.swap.peak") octets;" \
		"events: $(tr '\n' ' ' < "$1/memory.events")"
	echo "calls: $(awk '$2 > 0 {
		printf "%s %d, rtt %.1f ms, exe %.1f ms, %.1f MiB sent, %d errors; ",
			$1, $2, $3 / $2, $4 / $2, $5 / 1048576, $6
	}' <<< "$2")"
}

rr2_swap_client() {
	local dir=/mnt/v4.2 file out rc
	file=$dir/swapfile
	rr2_check swap.mount.v4.2 rr2_mount 4.2 "$dir" /export/v4.2 || return
	rr2_check swap.v4.2.xprt-rdma test "$(rr2_mount_xprt "$dir")" = rdma
	rr2_check swap.mkswap sh -c "dd if=/dev/zero of=$file bs=1M count=$RR2_SWAP_MIB status=none &&
		chmod 600 $file && mkswap $file" || return
	rr2_info "swap: swapon of a ${RR2_SWAP_MIB} MiB file on a v4.2 rdma mount"
	out=$(swapon "$file" 2>&1)
	rc=$?
	if [ $rc = 0 ]; then
		rr2_info "swap: swapon succeeded"
		rr2_pass swap.swapon
		rr2_check swap.in-proc-swaps grep -q "^$file " /proc/swaps
		if [ "$(rr2_arg pressure 1)" = 1 ]; then
			rm -f /tmp/rr2-swap-stats
			rr2_check swap.page-out-and-in rr2_swap_pressure
			[ ! -f /tmp/rr2-swap-stats ] ||
				while read -r out; do
					rr2_info "swap: $out"
				done < /tmp/rr2-swap-stats
		else
			rr2_info "swap: page-out under memory pressure not run (rr2.args pressure=0)"
		fi
		rr2_info "swap: $(grep "^$file " /proc/swaps)"
		rr2_check swap.swapoff swapoff "$file"
	else
		rr2_info "swap: swapon failed (exit $rc): $out"
		rr2_fail swap.swapon
	fi
	rr2_check swap.not-in-proc-swaps sh -c "! grep -q '^$file ' /proc/swaps"
	rm -f "$file"
	rr2_check swap.umount umount "$dir"
	rr2_check swap.dmesg-clean rr2_dmesg_clean
}

rr2_client_run() {
	if rr2_phase acl; then rr2_acl_client; fi
	if rr2_phase swap; then rr2_swap_client; fi
}

rr2_server_prepare() {
	rr2_server_setup || return 1
	if rr2_phase acl; then
		rr2_check acl.server.fixture rr2_acl_server_setup
	fi
}

rr2_server_check() {
	if rr2_phase acl; then
		rr2_check acl.server.setfacl-on-disk rr2_acl_server_verify
	fi
}

rr2_main() {
	case $RR2_ROLE in
	single)
		rr2_server_prepare || return
		rr2_client_run
		rr2_server_check
		;;
	server)
		rr2_server_prepare || return
		rr2_info "server ready"
		rr2_server_wait_client
		rr2_server_check
		rr2_check server.dmesg-clean rr2_dmesg_clean
		;;
	client)
		rr2_client_setup || return
		rr2_client_run
		rr2_client_done
		;;
	esac
}
