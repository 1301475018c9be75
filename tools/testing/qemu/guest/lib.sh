# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Helpers for guest scenarios: result lines, soft-RDMA, NFS server and
# client setup.  Sourced by /init inside the guest.

RR2_SERVER_IP=10.111.0.1
RR2_CLIENT_IP=10.111.0.2
# A three-guest run's second client (role client2) has its own link to
# the server's second NIC: 10.112.0.2 to 10.112.0.1.
RR2_SERVER2_IP=10.112.0.1
RR2_CLIENT2_RE='(10\.112\.0\.2|fd00:112::2)'
if [ "${RR2_ROLE:-}" = client2 ]; then
	RR2_SERVER_IP=$RR2_SERVER2_IP
	RR2_CLIENT_IP=10.112.0.2
fi
RR2_PORT=20049
RR2_MOUNTOPTS=
# rr2.args ipv6=1: the NFS over RDMA mounts go to the server's IPv6
# address (netid rdma6); the NFSv3/TCP control mount stays on IPv4.
# Every guest has both addresses: fd00:111::N beside 10.111.0.N (and
# fd00:112::N beside 10.112.0.N).
RR2_IPV6=0
# the RDMA device: rxe0 (RoCE), or siw0 (iWARP) with rr2.args dev=siw
RR2_IBDEV=rxe0
for _w in $RR2_ARGS; do
	case $_w in
	mountopts=*) RR2_MOUNTOPTS=${_w#mountopts=}; RR2_MOUNTOPTS=${RR2_MOUNTOPTS//:/,} ;;
	dev=siw) RR2_IBDEV=siw0 ;;
	ipv6=1) RR2_IPV6=1 ;;
	dev=*) RR2_IBDEV=unknown-${_w#dev=} ;;
	esac
done
unset _w

# shellcheck disable=SC1091
. /rr2/kernel-log.sh

# RR2_PREFIX, when set, goes before every result name (a scenario
# that runs another's checks a second time in the same boot).
rr2_pass() { echo "RR2: PASS ${RR2_PREFIX:-}$*"; }
# every FAIL is counted in a file too (subshells included): /init's
# "RR2: DONE fails=N" lets the host see a FAIL line the console mangled
rr2_fail() { echo "RR2: FAIL ${RR2_PREFIX:-}$*"; echo "${RR2_PREFIX:-}$*" >> /tmp/rr2.fails; }
rr2_info() { echo "RR2: INFO $*"; }

# rr2_arg NAME DEFAULT: the value of rr2.args word NAME=VALUE.
rr2_arg() {
	local w
	for w in $RR2_ARGS; do
		case $w in "$1"=*) echo "${w#*=}"; return ;; esac
	done
	echo "$2"
}

# rr2_check NAME CMD...: run CMD, report NAME as passed if it exits 0.
# A check that took 2 s or more says so ("RR2: INFO time NAME N s"):
# where a run's minutes go.
rr2_check() {
	local name=$1 out t0=$SECONDS rc=0
	shift
	out=$("$@" 2>&1) || rc=1
	[ $((SECONDS - t0)) -lt 2 ] || rr2_info "time ${RR2_PREFIX:-}$name $((SECONDS - t0)) s"
	if [ "$rc" = 0 ]; then
		rr2_pass "$name"
		return 0
	fi
	rr2_fail "$name"
	printf '%s\n' "$out" | tail -n 20 | sed 's/^/    /'
	return 1
}

# Load the RPC-over-RDMA transport the run asked for.  rr2.args words
# rdmavers=N, xchar=N, rvrsdir=N and devclamp=NAME (test only), or
# server.rdmavers=N /
# client.xchar=N and so on for one role, and hostauth=TEXT (both) set
# rpcrdma2's module parameters.
rr2_load_transport() {
	local w vers= xchar= rvrsdir= hostauth= devclamp=
	for w in $RR2_ARGS; do
		case $w in
		rdmavers=*) vers=${w#*=} ;;
		"$RR2_ROLE".rdmavers=*) vers=${w#*=} ;;
		xchar=*) xchar=${w#*=} ;;
		"$RR2_ROLE".xchar=*) xchar=${w#*=} ;;
		rvrsdir=*) rvrsdir=${w#*=} ;;
		"$RR2_ROLE".rvrsdir=*) rvrsdir=${w#*=} ;;
		hostauth=*) hostauth=${w#*=} ;;
		# test only: a real NIC's device limits (admin-guide.rst)
		devclamp=*) devclamp=${w#*=} ;;
		"$RR2_ROLE".devclamp=*) devclamp=${w#*=} ;;
		esac
	done
	case $RR2_MOD in
	ours)
		modprobe -a sunrpc rdma_cm ib_core &&
			insmod /rr2/rpcrdma2.ko ${vers:+rdmavers=$vers} \
				${xchar:+xchar=$xchar} ${rvrsdir:+rvrsdir=$rvrsdir} \
				${hostauth:+hostauth=$hostauth} \
				${devclamp:+devclamp=$devclamp}
		;;
	*)
		modprobe rpcrdma
		;;
	esac
}

# rr2_rxe_active [TRIES]: wait (TRIES x 0.2 s, default 50) for $RR2_IBDEV's
# port to be ACTIVE.
rr2_rxe_active() {
	for _ in $(seq "${1:-50}"); do
		rdma link show "$RR2_IBDEV/1" 2>/dev/null | grep -q 'state ACTIVE' && return 0
		sleep 0.2
	done
	return 1
}

# rr2_wait_file FILE [SECONDS]: wait (default 600 s) for FILE to exist.
rr2_wait_file() {
	local f=$1
	for _ in $(seq "${2:-600}"); do
		[ -e "$f" ] && return 0
		sleep 1
	done
	return 1
}

# rr2_control_mount DIR: the server's /export over NFSv3/TCP, which
# stays up while RDMA transports change and faults are made (6 min).
# No attribute or lookup cache: the guests take turns through files
# that appear on the server, and a cached "no such file" would hide
# one for up to acdirmax (30 s).
rr2_control_mount() {
	for _ in $(seq 180); do
		rr2_control_mount_once "$1" 2> /dev/null && break
		sleep 2
	done
	rr2_check setup.control-mount mountpoint -q "$1"
}

# rr2_control_mount_once DIR: one try, unchecked, for a guest that
# finds the server up already
rr2_control_mount_once() {
	mkdir -p "$1"
	mountpoint -q "$1" ||
		mount -t nfs -o vers=3,proto=tcp,nolock,lookupcache=none,actimeo=0 \
			"$RR2_SERVER_IP:/export" "$1"
}

# rxe on the NIC, with this guest's address.
rr2_setup_rdma() {
	local ip=$1
	modprobe -a virtio_net crc32_generic ib_uverbs rdma_ucm || return 1
	case $RR2_IBDEV in
	siw0) modprobe -a crc32c_generic libcrc32c && insmod /rr2/siw.ko || return 1 ;;
	*) modprobe rdma_rxe || return 1 ;;
	esac
	ip link set eth0 up || return 1
	ip addr add "$ip/24" dev eth0 || return 1
	ip -6 addr add "$(rr2_ip6 "$ip")/64" dev eth0 nodad || return 1
	rdma link add "$RR2_IBDEV" type "${RR2_IBDEV%0}" netdev eth0 || return 1
	rr2_rxe_active
}

# rr2_start_nfsd [RDMA_PORT]: nfsd exporting a tmpfs at /export, on TCP
# and, with RDMA_PORT, on rdma too.
rr2_start_nfsd() {
	local rdma=${1:+--rdma=$1}
	modprobe nfsd || return 1
	mkdir -p /export /var/lib/nfs/rpc_pipefs /run/rpcbind /var/lib/nfs/v4recovery
	mount -t tmpfs -o size=3g tmpfs /export || return 1
	chmod 1777 /export
	echo "/export *(rw,no_root_squash,insecure,no_subtree_check,fsid=1)" > /etc/exports
	mount -t nfsd nfsd /proc/fs/nfsd || return 1
	rpcbind -w || return 1
	exportfs -ra || return 1
	rpc.mountd || return 1
	# shellcheck disable=SC2086
	rpc.nfsd --grace-time 10 --lease-time 10 $rdma 4 || return 1
	[ -z "$1" ] || grep -q "rdma $1" /proc/fs/nfsd/portlist
}

# rr2_ip6 10.S.0.N: the guest's IPv6 address, fd00:S::N
rr2_ip6() {
	local s=${1#*.}
	echo "fd00:${s%%.*}::${1##*.}"
}

# The netid of the NFS over RDMA mounts: rdma6 with ipv6=1, else rdma.
rr2_rdma_proto() {
	if [ "$RR2_IPV6" = 1 ]; then echo rdma6; else echo rdma; fi
}

# rr2_mount VERS DIR [PATH]: NFS over RDMA from the server's PATH
# (default /export), with rr2.args word mountopts=A:B added as A,B;
# with ipv6=1 over netid rdma6 to the server's IPv6 address.
rr2_mount() {
	local vers=$1 dir=$2 path=${3:-/export} opts host=$RR2_SERVER_IP
	[ "$RR2_IPV6" = 0 ] || host="[$(rr2_ip6 "$RR2_SERVER_IP")]"
	opts="vers=$vers,proto=$(rr2_rdma_proto),port=$RR2_PORT${RR2_MOUNTOPTS:+,$RR2_MOUNTOPTS}"
	[ "$vers" = 3 ] && opts="$opts,nolock"
	mkdir -p "$dir"
	mount -t nfs -o "$opts" "$host:$path" "$dir" &&
		touch /tmp/rr2-rdma-mounted
}

# rr2_xprt_drop XPRT: writing a transport's server address back to its
# sysfs "dstaddr" (/sys/kernel/sunrpc/xprt-switches/switch-*/xprt-*)
# makes sunrpc disconnect that transport alone.  IPv4 only: 6.12 parses
# the address into a struct sockaddr, too small for IPv6.
rr2_xprt_drop() {
	local a
	a=$(cat "$1/dstaddr") && echo "$a" > "$1/dstaddr"
}

# All of the client's own transports dropped (the control mount's TCP
# connection goes too, and comes back); at least one
rr2_client_drop() {
	local x n=0
	for x in /sys/kernel/sunrpc/xprt-switches/switch-*/xprt-*; do
		[ -e "$x/dstaddr" ] || continue
		rr2_xprt_drop "$x" && n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}

# The transport of the NFS mount at DIR, from /proc/self/mountstats.
rr2_mount_xprt() {
	awk -v d="$1" '$1 == "device" { m = ($5 == d) }
		m && $1 == "xprt:" { print $2; exit }' /proc/self/mountstats
}

# The debugfs directories (/sys/kernel/debug/sunrpc/rpc_xprt/ID) of the
# transports of the NFS mount at DIR, one a line, the main one first
# (nconnect=N: N of them).  The mount's superblock (/proc/self/mountinfo)
# names its directory in /sys/fs/nfs, whose nfs_client link names its
# RPC client (clnt-N), whose debugfs directory (N in hex) links the
# client's transports as xprt, xprt1 and so on.
rr2_mount_xprt_dirs() {
	local dev clnt l
	dev=$(awk -v d="$1" '$5 == d { s = $3 } END { print s }' /proc/self/mountinfo)
	[ -n "$dev" ] || return 1
	clnt=$(readlink "/sys/fs/nfs/$dev/nfs_client") || return 1
	for l in "/sys/kernel/debug/sunrpc/rpc_clnt/$(printf %x "${clnt##*clnt-}")"/xprt*; do
		[ -e "$l" ] && readlink -f "$l"
	done
}

# rpcrdma2's own figures for the mount at DIR: the "name value" lines of
# the rpcrdma2 file of its first transport's debugfs directory, joined
# on one line (" peer ADDR connected 1 vers N inline S/R ...").  Nothing
# when DIR is not an rpcrdma2 mount.  rr2_mount_rdma2_all: one such line
# per transport.
rr2_mount_rdma2() {
	rr2_mount_rdma2_all "$1" | head -n1
}

rr2_mount_rdma2_all() {
	local d
	for d in $(rr2_mount_xprt_dirs "$1"); do
		[ -f "$d/rpcrdma2" ] || continue
		printf ' %s\n' "$(tr '\n' ' ' < "$d/rpcrdma2")"
	done
}

# rr2_mount_field DIR NAME: one of rpcrdma2's figures for the mount
rr2_mount_field() {
	rr2_mount_rdma2 "$1" | awk -v n="$2" '{ for (i = 1; i < NF; i++)
		if ($i == n) print $(i + 1) }'
}

# The server's second NIC, in a three-guest run (MAC 52:54:00:72:32:11,
# run-scenario.sh): rxe1 on it, with the server's address on client2's
# link.
rr2_setup_rdma2() {
	local n
	n=$(grep -lx 52:54:00:72:32:11 /sys/class/net/*/address) || return 1
	n=$(basename "$(dirname "$n")")
	ip link set "$n" up || return 1
	ip addr add "$RR2_SERVER2_IP/24" dev "$n" || return 1
	ip -6 addr add "$(rr2_ip6 "$RR2_SERVER2_IP")/64" dev "$n" nodad || return 1
	rdma link add rxe1 type rxe netdev "$n" || return 1
	RR2_IBDEV=rxe1 rr2_rxe_active
}

# The server side of a two-guest scenario: rxe, the transport, nfsd on
# rdma, and one export directory per NFS version the client uses.
rr2_server_setup() {
	rr2_check setup.rdma rr2_setup_rdma "$RR2_SERVER_IP" || return 1
	if grep -qx 52:54:00:72:32:11 /sys/class/net/*/address; then
		rr2_check setup.rdma2 rr2_setup_rdma2 || return 1
	fi
	rr2_check setup.transport rr2_load_transport || return 1
	rr2_check setup.nfsd rr2_start_nfsd "$RR2_PORT" || return 1
	mkdir -p /export/v3 /export/v4.2
	[ "$RR2_ROLE" != server ] || rr2_recall_responder &
}

# Wait (15 minutes at most) for the client to say it has finished.
rr2_server_wait_client() {
	for _ in $(seq 900); do
		[ -e /export/.rr2-done ] && break
		sleep 1
	done
	rr2_check server.client-finished test -e /export/.rr2-done
}

# In the background of a server guest, whatever else it waits for
# (fleet.sh, krb5.sh): make the writes that recall a client's
# delegations when it asks (baseline.sh's rr2_recall_at_server), until
# the client has finished or for an hour.  A request is
# /export/.rr2-recall-req, "EXPORT NAME"; the answer .rr2-recall-ack,
# rr2_recall_here's "HELD LATE".
rr2_recall_responder() {
	local req
	for _ in $(seq 3600); do
		[ -e /export/.rr2-done ] && break
		if [ -s /export/.rr2-recall-req ]; then
			req=$(cat /export/.rr2-recall-req)
			rm -f /export/.rr2-recall-req
			# shellcheck disable=SC2086 # "EXPORT NAME"
			rr2_recall_here $req > /export/.rr2-recall-ack.new
			mv /export/.rr2-recall-ack.new /export/.rr2-recall-ack
			rr2_info "recall $req: $(cat /export/.rr2-recall-ack)"
		fi
		sleep 1
	done
}

# rr2_nfsd_delegs NAME: how many delegations nfsd holds on files named
# NAME (/proc/fs/nfsd/clients/*/states, where a delegation's file shows
# as "DIR/NAME")
rr2_nfsd_delegs() {
	cat /proc/fs/nfsd/clients/*/states 2>/dev/null |
		grep -c "type: deleg.*filename: \"[^\"]*/$1\""
}

# rr2_recall_here EXPORT NAME: on the server, "HELD LATE": the
# delegations nfsd holds on EXPORT/data/NAME, and, when it holds one,
# whether a write to the file here failed to finish within 5 s (1) or
# did (0: the client returned the delegation in time)
rr2_recall_here() {
	local held late=1
	held=$(rr2_nfsd_delegs "$2")
	if [ "$held" -ge 1 ]; then
		timeout 5 sh -c "echo two >> '$1/data/$2'" && late=0
	fi
	echo "$held $late"
}

# rr2_svc_counters: rpcrdma2's server counters, once the server half has
# been quiet (every counter unchanged) for 3 s, at most 60 s after the
# call, on one line for the host: "RR2: INFO svcstats NAME=N ...".
# Nothing when rpcrdma2 is not the server.  With the client done and
# unmounted this is the end of the traffic, so a capture of the
# server's NIC (run-scenario.sh -p) covers the same messages.
rr2_svc_counters() {
	local d=/proc/sys/sunrpc/svc_rdma f line prev= quiet=0
	[ -e "$d"/rpcrdma2_conns_v2 ] || return 0
	for _ in $(seq 60); do
		line=
		for f in "$d"/rdma_stat_* "$d"/rpcrdma2_*; do
			line="$line ${f##*/}=$(cat "$f")"
		done
		if [ "$line" = "$prev" ]; then
			quiet=$((quiet + 1))
			[ $quiet -lt 3 ] || break
		else
			quiet=0
		fi
		prev=$line
		sleep 1
	done
	rr2_info "svcstats$line"
}

# The client side: rxe, the transport, and the server answering.
rr2_client_setup() {
	rr2_check setup.rdma rr2_setup_rdma "$RR2_CLIENT_IP" || return 1
	rr2_check setup.transport rr2_load_transport || return 1
	rr2_wait_server
}

# Tell the server the client has finished.
rr2_client_done() {
	rr2_mount 3 /mnt/done && touch /mnt/done/.rr2-done && umount /mnt/done
}

rr2_wait_server() {
	local i
	for i in $(seq 180); do
		if rr2_mount 3 /mnt 2>/dev/null; then
			umount /mnt
			rr2_pass "client.server-reachable"
			return 0
		fi
		sleep 2
	done
	rr2_fail "client.server-reachable"
	return 1
}

# rr2_kernel_log_clean: no report in the whole kernel log (kernel-log.sh),
# but the named emulator artefacts of kernel-log-allow.txt
rr2_kernel_log_clean() {
	local k r
	k=$(dmesg) && [ -n "$k" ] || { echo "dmesg failed"; return 1; }
	r=$(printf '%s\n' "$k" | rr2_kernel_reports /rr2/kernel-log-allow.txt)
	[ -z "$r" ] && return 0
	printf '%s\n' "$r" | head -n 40
	return 1
}

# rr2_settled_versions: with rpcrdma2 loaded, every connection it logged
# settled the version rr2.args says: expect=N for the client half,
# server.expect=N for the server half.  A run whose rpcrdma2 connected
# without saying which version to expect fails: the version is checked
# in every run, never skipped.  rpcrdma2 logs a settled connection once
# per peer and outcome, so a connection that settled another version
# (a fallback after a flap) adds a line.
rr2_settled_versions() {
	[ "$RR2_MOD" = ours ] || return 0
	# this boot had rpcrdma2 loaded at some point (a disk boot may not)
	[ -d /sys/module/rpcrdma2 ] || dmesg | grep -q rpcrdma2 || return 0
	case $RR2_ROLE in
	single|client)
		rr2_settled_check client expect 'rpcrdma2: connected to .*, RPC-over-RDMA version [0-9]*,' ;;
	esac
	case $RR2_ROLE in
	single|server)
		rr2_settled_check server server.expect 'rpcrdma2: client .* settled RPC-over-RDMA version [0-9]*,' "$RR2_CLIENT2_RE" ;;
	esac
	# a three-guest run's second client (role client2), by its
	# addresses: client2.expect=N
	[ "$RR2_ROLE" != server ] ||
		! dmesg | grep -qE "rpcrdma2: client $RR2_CLIENT2_RE settled" ||
		rr2_settled_check client2 client2.expect "rpcrdma2: client $RR2_CLIENT2_RE settled RPC-over-RDMA version [0-9]*,"
}

# rr2_settled_check HALF ARG LINE-RE [OTHERS-RE]: the lines matching
# LINE-RE, less those of the clients OTHERS-RE names
rr2_settled_check() {
	local half=$1 want lines
	want=$(rr2_arg "$2" "")
	lines=$(dmesg | grep -oE "$3")
	[ -z "${4:-}" ] ||
		lines=$(printf '%s\n' "$lines" | grep -vE "rpcrdma2: client $4 ")
	if [ -z "$lines" ]; then
		# a proto=rdma mount was made here, so this half connected
		# (a single guest's, or the client's) and must have said so
		[ -z "$want" ] || [ ! -e /tmp/rr2-rdma-mounted ] ||
			[ "$RR2_ROLE.$half" = server.server ] || {
			rr2_fail "version.$half.none-logged (a mount was made, no settled connection was logged)"
			return 1
		}
		return 0
	fi
	if [ -z "$want" ]; then
		rr2_fail "version.$half.expected (rpcrdma2 connected, and rr2.args has no $2=N)"
		printf '%s\n' "$lines" | head -n 5 | sed 's/^/    /'
		return 1
	fi
	rr2_info "version.$half: $(printf '%s\n' "$lines" |
		sed 's/.*version \([0-9]*\),/\1/' | sort | uniq -c |
		awk '{ printf "v%s x%s ", $2, $1 }')"
	rr2_check "version.$half.all-$want" rr2_versions_all "$want" "$lines"
}

# rr2_versions_all N LINES: every line says "version N,"
rr2_versions_all() {
	! printf '%s\n' "$2" | grep -v "version $1,\$"
}
