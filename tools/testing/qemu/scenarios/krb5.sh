# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario part "krb5": NFS over RPC-over-RDMA with RPCSEC_GSS, Kerberos
# v5 (sec=krb5, krb5i, krb5p), in two guests.  Not a scenario of its
# own: combined.sh sources it, and rr2.args word krb5=1 turns it on
# (the e2e runs of run-tests.sh that have it boot no extra guest).
#
# The server guest is the realm: a KDC (Debian's krb5-kdc) with
# principals nfs/rr2-server and nfs/rr2-client made at boot, the
# server's key in /etc/krb5.keytab for rpc.svcgssd, the client's
# written to the control directory /export/.rr2-krb5, which the client
# reads through an NFSv3/TCP mount (rr2_control_mount), and an export
# /krb5 (its own tmpfs) that takes krb5, krb5i and krb5p only.  The
# client runs rpc.gssd with that key (the machine credential root's
# I/O goes under).  GSS contexts are established over TCP port 2049
# (rpc.gssd does it there even for an rdma mount: V2-SEC-12); every
# RPC of the mounts below then goes over RDMA.
#
# Per flavour: one NFSv4.2 mount over RDMA (rdma6 with ipv6=1, and
# with rr2.args mountopts= as baseline's mounts), fio with
# verification (2 MiB in 1 MiB blocks and 256 KiB in 4 KiB ones,
# O_DIRECT, so every octet goes to the server and comes back; rr2.args
# krb5mib=N sets the first), and the chunk counters of
# both ends around the fio runs:
#
#   - sec=krb5 (authentication only): data items are DDP-eligible, so
#     1 MiB WRITEs and READs move in Read and Write chunks.  This is
#     what makes the checks below able to fail: the counters read are
#     the ones that move when data is reduced;
#   - sec=krb5i and sec=krb5p: nothing is reduced (V2-SEC-13), and
#     GSS material never is (V2-SEC-11): no Read chunk but a
#     Position-Zero one (Special Format) and no Write chunk, while fio
#     moved and verified its data.  Reply chunks and continuation are
#     allowed.
#
# The counters: an rpcrdma2 client's mountstats (the stock column
# layout: Read, Write, Reply chunks after the ten generic fields; its
# Special Format Calls are counted apart, so Read chunks are reduced
# data items only); a stock client's write_chunk_count (its
# read_chunk_count includes its Position-Zero Read chunks: the Read
# chunks are then an rpcrdma2 server's to check); an rpcrdma2 server's rpcrdma2_read_chunks less
# rpcrdma2_nomsg_calls and rpcrdma2_write_chunks, sampled when the
# client asks through the control directory (begin-FLAVOUR, end-FLAVOUR
# files, each acknowledged).
#
# A KDC, rpc.svcgssd or rpc.gssd that does not start fails the checks
# that need it; nothing is skipped, nothing retried.

RR2_KRB5_REALM=RR2.TEST
RR2_KRB5_SERVER=rr2-server
RR2_KRB5_CLIENT=rr2-client
RR2_KRB5_SRV_CTL=/export/.rr2-krb5
RR2_KRB5_CLI_CTL=/mnt/krb5ctl/.rr2-krb5
RR2_KRB5_FLAVOURS="krb5 krb5i krb5p"

rr2_krb5_on() { [ "$(rr2_arg krb5 0)" = 1 ]; }

# Both guests: the names, the realm and the kernel's krb5 mechanism.
rr2_krb5_common() {
	cat > /etc/hosts <<-EOF
	127.0.0.1	localhost
	$RR2_SERVER_IP	$RR2_KRB5_SERVER
	$RR2_CLIENT_IP	$RR2_KRB5_CLIENT
	EOF
	# ipv6=1: the mounts go to the server's IPv6 address (the KDC
	# stays on IPv4)
	[ "$RR2_IPV6" = 0 ] || cat >> /etc/hosts <<-EOF
	$(rr2_ip6 "$RR2_SERVER_IP")	$RR2_KRB5_SERVER
	$(rr2_ip6 "$RR2_CLIENT_IP")	$RR2_KRB5_CLIENT
	EOF
	cat > /etc/krb5.conf <<-EOF
	[libdefaults]
		default_realm = $RR2_KRB5_REALM
		dns_lookup_kdc = false
		dns_lookup_realm = false
		dns_canonicalize_hostname = false
		rdns = false
	[realms]
		$RR2_KRB5_REALM = {
			kdc = $RR2_SERVER_IP
		}
	[domain_realm]
		$RR2_KRB5_SERVER = $RR2_KRB5_REALM
		$RR2_KRB5_CLIENT = $RR2_KRB5_REALM
	EOF
	# cts(cbc(aes)) for every enctype the kernel offers, which
	# rpcsec_gss_krb5 asks the crypto API for only when a context
	# arrives
	modprobe -a auth_rpcgss rpcsec_gss_krb5 cts || return 1
	mkdir -p /run/rpc_pipefs
	mountpoint -q /run/rpc_pipefs ||
		mount -t rpc_pipefs sunrpc /run/rpc_pipefs
}

# rr2_krb5_has_key KEYTAB PRINCIPAL
rr2_krb5_has_key() {
	klist -k "$1" | grep -q " $2@$RR2_KRB5_REALM\$"
}

# The KDC: a new realm, the two service principals, their keys.
rr2_krb5_kdc() {
	local p
	mkdir -p /etc/krb5kdc /var/lib/krb5kdc "$RR2_KRB5_SRV_CTL"
	cat > /etc/krb5kdc/kdc.conf <<-EOF
	[kdcdefaults]
		kdc_ports = 88
		kdc_tcp_ports = 88
	[realms]
		$RR2_KRB5_REALM = {
			database_name = /var/lib/krb5kdc/principal
			key_stash_file = /etc/krb5kdc/stash
			max_life = 10h 0m 0s
			supported_enctypes = aes256-cts-hmac-sha1-96:normal
		}
	[logging]
		kdc = FILE:/tmp/krb5kdc.log
	EOF
	kdb5_util create -s -r "$RR2_KRB5_REALM" \
		-P "$(head -c 18 /dev/urandom | base64)" > /dev/null || return 1
	for p in "nfs/$RR2_KRB5_SERVER" "nfs/$RR2_KRB5_CLIENT"; do
		kadmin.local -q "addprinc -randkey $p" || return 1
	done
	kadmin.local -q "ktadd -k /etc/krb5.keytab nfs/$RR2_KRB5_SERVER" &&
		kadmin.local -q "ktadd -k $RR2_KRB5_SRV_CTL/client.keytab nfs/$RR2_KRB5_CLIENT" ||
		return 1
	# kadmin.local says 0 for a query that failed: look at the keys
	rr2_krb5_has_key /etc/krb5.keytab "nfs/$RR2_KRB5_SERVER" &&
		rr2_krb5_has_key "$RR2_KRB5_SRV_CTL/client.keytab" \
			"nfs/$RR2_KRB5_CLIENT" || return 1
	krb5kdc || return 1
}

# A ticket from the KDC for a key of KEYTAB: the KDC answers on the
# network and the key is the one it knows.  rr2_krb5_kinit KEYTAB PRINC
rr2_krb5_kinit() {
	KRB5CCNAME=FILE:/tmp/krb5cc.check kinit -k -t "$1" "$2" &&
		KRB5CCNAME=FILE:/tmp/krb5cc.check klist &&
		KRB5CCNAME=FILE:/tmp/krb5cc.check kdestroy
}

# rr2_krb5_daemon NAME CMD...: start CMD in the background, logging to
# /tmp/NAME.log; it must still run 0.5 s later
rr2_krb5_daemon() {
	local name=$1
	shift
	"$@" < /dev/null > "/tmp/$name.log" 2>&1 &
	sleep 0.5
	pidof "$name" > /dev/null || { cat "/tmp/$name.log"; return 1; }
}

# The server side, after rr2_server_setup: realm, rpc.svcgssd, the
# export; then "ready" (or "failed") in the control directory.
rr2_krb5_server_setup() {
	local t0=$SECONDS ok=1
	mkdir -p "$RR2_KRB5_SRV_CTL"
	rr2_check setup.common rr2_krb5_common &&
	rr2_check setup.kdc rr2_krb5_kdc &&
	rr2_check setup.kdc-answers rr2_krb5_kinit /etc/krb5.keytab \
		"nfs/$RR2_KRB5_SERVER" &&
	rr2_check setup.svcgssd rr2_krb5_daemon rpc.svcgssd rpc.svcgssd -f -vvv &&
	rr2_check setup.export rr2_krb5_export || ok=0
	rr2_info "time krb5.server-setup $((SECONDS - t0)) s"
	if [ "$ok" = 1 ]; then
		touch "$RR2_KRB5_SRV_CTL/ready"
	else
		touch "$RR2_KRB5_SRV_CTL/failed"
	fi
}

# /krb5: its own tmpfs, exported for the three Kerberos flavours only
# (added alone: the exports in use are not flushed)
rr2_krb5_export() {
	mkdir -p /krb5 && mount -t tmpfs -o size=256m tmpfs /krb5 &&
		chmod 1777 /krb5 &&
		exportfs -i -o rw,sec=krb5:krb5i:krb5p,no_root_squash,insecure,no_subtree_check,fsid=2 \
			"*:/krb5" &&
		exportfs -v | grep -A1 '^/krb5' | grep -q 'sec=krb5:krb5i:krb5p'
}

# rpcrdma2 server: Read chunks that reduced a data item (all Read
# chunks less the Special Format Calls' Position-Zero ones), Write
# chunks filled, Replies in a Reply chunk
rr2_krb5_srv_counters() {
	local d=/proc/sys/sunrpc/svc_rdma
	echo "$(($(cat $d/rpcrdma2_read_chunks) - $(cat $d/rpcrdma2_nomsg_calls)))" \
		"$(cat $d/rpcrdma2_write_chunks)" "$(cat $d/rpcrdma2_reply_chunks)"
}

# rr2_krb5_nums N...: six counter values, all numbers (two samples of
# three; an empty sample would make every difference 0)
rr2_krb5_nums() {
	local v
	[ $# = 6 ] || { echo "samples: $*"; return 1; }
	for v; do
		case $v in ''|*[!0-9-]*) echo "samples: $*"; return 1 ;; esac
	done
}

# rr2_krb5_verdict NAME FLAVOUR DREAD DWRITE: sec=krb5 moved data in
# Read and Write chunks; krb5i and krb5p in neither (V2-SEC-11,
# V2-SEC-13)
rr2_krb5_verdict() {
	local name=$1 flav=$2 dr=$3 dw=$4
	if [ "$flav" = krb5 ]; then
		# the counters below are the ones that move with chunks
		rr2_check "$name.chunks-used" test "$dr" -gt 0 -a "$dw" -gt 0
	else
		# V2-SEC-11, V2-SEC-13: nothing reduced under krb5i, krb5p
		rr2_check "$name.no-chunks" test "$dr" = 0 -a "$dw" = 0
	fi
}

# The server, while the client runs its krb5 pass: answers begin-F and
# end-F requests with begun-F and ended-F; an rpcrdma2 server checks
# its chunk counters between the two.  Ends when the client says
# "finished" or has finished everything (.rr2-done), 15 minutes at most.
rr2_krb5_serve() {
	local c=$RR2_KRB5_SRV_CTL f flav a b
	for _ in $(seq 4500); do
		[ -e "$c/finished" ] || [ -e /export/.rr2-done ] && break
		for f in "$c"/begin-*; do
			[ -e "$f" ] || continue
			flav=${f##*/begin-}
			[ "$RR2_MOD" = ours ] && rr2_krb5_srv_counters > "$c/srv-$flav"
			rm -f "$f"
			touch "$c/begun-$flav"
		done
		for f in "$c"/end-*; do
			[ -e "$f" ] || continue
			flav=${f##*/end-}
			rm -f "$f"
			if [ "$RR2_MOD" = ours ]; then
				read -r -a a < "$c/srv-$flav"
				read -r -a b <<< "$(rr2_krb5_srv_counters)"
				RR2_PREFIX=krb5. rr2_check "server.v4.2.$flav.counters" \
					rr2_krb5_nums "${a[@]}" "${b[@]}"
				rr2_info "krb5 server v4.2 $flav: reduced Read chunks $((b[0] - a[0])), Write chunks $((b[1] - a[1])), Reply chunks $((b[2] - a[2]))"
				RR2_PREFIX=krb5. rr2_krb5_verdict "server.v4.2.$flav" \
					"$flav" $((b[0] - a[0])) $((b[1] - a[1]))
			fi
			touch "$c/ended-$flav"
		done
		sleep 0.2
	done
	RR2_PREFIX=krb5. rr2_check server.client-finished test -e "$c/finished"
	# the client saw a failure: what the daemons said
	[ -e "$c/trouble" ] || return 0
	tail -n 25 /tmp/rpc.svcgssd.log /tmp/krb5kdc.log 2>&1 |
		sed 's/^/RR2: INFO krb5 server log: /'
}

# ---- client ----

# FAILs so far in this guest
rr2_krb5_nfails() {
	if [ -e /tmp/rr2.fails ]; then wc -l < /tmp/rr2.fails; else echo 0; fi
}

# rr2_krb5_ask begin|end FLAVOUR: the server's acknowledgment (begun-,
# ended-FLAVOUR) within 60 s
rr2_krb5_ask() {
	local c=$RR2_KRB5_CLI_CTL ack=begun
	[ "$1" = begin ] || ack=ended
	touch "$c/$1-$2" || return 1
	for _ in $(seq 300); do
		[ -e "$c/$ack-$2" ] && return 0
		sleep 0.2
	done
	echo "no answer from the server to $1-$2"
	return 1
}

# The client's key from the server, rpc.gssd with it.
rr2_krb5_client_setup() {
	local c=$RR2_KRB5_CLI_CTL
	rr2_check setup.common rr2_krb5_common || return 1
	rr2_control_mount /mnt/krb5ctl || return 1
	rr2_check setup.server-ready rr2_krb5_server_ready || return 1
	rr2_check setup.keytab install -m 600 "$c/client.keytab" /etc/krb5.keytab ||
		return 1
	rr2_check setup.kdc-answers rr2_krb5_kinit /etc/krb5.keytab \
		"nfs/$RR2_KRB5_CLIENT" || return 1
	rr2_check setup.gssd rr2_krb5_daemon rpc.gssd rpc.gssd -f -vvv
}

# The server's krb5 setup finished well within 120 s.
rr2_krb5_server_ready() {
	local c=$RR2_KRB5_CLI_CTL
	for _ in $(seq 120); do
		[ -e "$c/ready" ] && return 0
		[ -e "$c/failed" ] && { echo "the server's krb5 setup failed"; return 1; }
		sleep 1
	done
	echo "the server's krb5 setup did not finish"
	return 1
}

# rr2_krb5_cli_counters DIR: the mount's Read, Write and Reply chunk
# columns (the stock layout: after "xprt: rdma" and the ten generic
# fields), summed over its connections (nconnect=N makes N lines)
rr2_krb5_cli_counters() {
	rr2_mount_xprts "$1" | awk '$2 == "rdma" { r += $13; w += $14; p += $15; n++ }
		END { if (n) print r, w, p }'
}

# rr2_krb5_fio DIR: as chunks.sh's rr2_fio (O_DIRECT, every block
# read back and checked), two jobs in one fio: 1 MiB sequential
# (krb5mib=N MiB, default 2: DDP-eligible WRITEs and READs) and 4 KiB
# random (256 KiB)
rr2_krb5_fio() {
	fio --directory="$1" --ioengine=psync --direct=1 --verify=crc32c \
		--do_verify=1 --verify_fatal=1 --output-format=terse \
		--name=seq --rw=write --bs=1M --size="$(rr2_arg krb5mib 2)M" \
		--name=rand --stonewall --rw=randwrite --bs=4k --size=256k \
		> /tmp/fio-krb5.out 2>&1 || { cat /tmp/fio-krb5.out; return 1; }
}

# rr2_krb5_io DIR FLAVOUR: fio between the server's two counter samples
rr2_krb5_io() {
	local dir=$1 flav=$2 rc=0
	rr2_krb5_ask begin "$flav" || return 1
	rr2_krb5_fio "$dir" || rc=1
	rr2_krb5_ask end "$flav" || rc=1
	return $rc
}

# rr2_krb5_mount FLAVOUR DIR: by the server's name (rpc.gssd asks for
# a ticket to nfs/NAME), over rdma6 with ipv6=1, with mountopts=
rr2_krb5_mount() {
	local flav=$1 dir=$2
	mkdir -p "$dir"
	mount -t nfs -o "vers=4.2,proto=$(rr2_rdma_proto),port=$RR2_PORT,sec=$flav${RR2_MOUNTOPTS:+,$RR2_MOUNTOPTS}" \
		"$RR2_KRB5_SERVER:/krb5" "$dir" || {
		tail -n 20 /tmp/rpc.gssd.log
		return 1
	}
	touch /tmp/rr2-rdma-mounted
	grep " $dir .*sec=$flav," /proc/mounts
}

# One mount per flavour: fio verified, and no chunks under krb5i and
# krb5p on the client's side (rpcrdma2: Read and Write chunks; stock:
# Write chunks)
rr2_krb5_client_run() {
	local t0=$SECONDS flav dir a b dr nf
	# the realm's names are the two guests'
	[ "$RR2_ROLE" = client ] || { rr2_fail needs-two-guests; return; }
	nf=$(rr2_krb5_nfails)
	rr2_krb5_client_setup || {
		touch "$RR2_KRB5_CLI_CTL/trouble" "$RR2_KRB5_CLI_CTL/finished"
		return
	}
	for flav in $RR2_KRB5_FLAVOURS; do
		dir=/mnt/krb5-$flav
		rr2_check "mount.v4.2.$flav" rr2_krb5_mount "$flav" "$dir" ||
			continue
		rr2_check "mountstats.v4.2.$flav.xprt-rdma" \
			test "$(rr2_mount_xprt "$dir")" = rdma
		read -r -a a <<< "$(rr2_krb5_cli_counters "$dir")"
		rr2_check "fio.v4.2.$flav" rr2_krb5_io "$dir" "$flav"
		read -r -a b <<< "$(rr2_krb5_cli_counters "$dir")"
		# ipv6=1, mountopts=nconnect:N as in baseline
		rr2_check_transport "$dir" "4.2.$flav"
		rr2_check "counters.v4.2.$flav" rr2_krb5_nums "${a[@]}" "${b[@]}"
		rr2_info "krb5 client v4.2 $flav: Read chunks $((b[0] - a[0])), Write chunks $((b[1] - a[1])), Reply chunks $((b[2] - a[2]))"
		dr=$((b[0] - a[0]))
		# the stock client's Read chunks include its Position-Zero
		# ones (Special Format, allowed): only its Write chunks are
		# checked under krb5i and krb5p, the rpcrdma2 server checks
		# the Read chunks it pulled
		[ "$RR2_MOD" = ours ] || [ "$flav" = krb5 ] || dr=0
		rr2_krb5_verdict "client.v4.2.$flav" "$flav" "$dr" $((b[1] - a[1]))
		rr2_check "umount.v4.2.$flav" umount "$dir"
	done
	# the server prints its daemons' logs when this pass failed
	[ "$(rr2_krb5_nfails)" = "$nf" ] ||
		touch "$RR2_KRB5_CLI_CTL/trouble"
	touch "$RR2_KRB5_CLI_CTL/finished"
	umount /mnt/krb5ctl
	rr2_info "time krb5.client-pass $((SECONDS - t0)) s"
}

# Hooks for a scenario that runs baseline's rr2_main (combined.sh): the
# server sets the realm up after nfsd and serves the client's counter
# requests before it waits for the client's end.
eval "rr2_krb5_base_server_setup() $(declare -f rr2_server_setup | tail -n +2)"
eval "rr2_krb5_base_server_wait_client() $(declare -f rr2_server_wait_client | tail -n +2)"

rr2_server_setup() {
	rr2_krb5_base_server_setup || return
	rr2_krb5_on && [ "$RR2_ROLE" = server ] || return 0
	RR2_PREFIX=krb5. rr2_krb5_server_setup
}

rr2_server_wait_client() {
	rr2_krb5_on && [ "$RR2_ROLE" = server ] && rr2_krb5_serve
	rr2_krb5_base_server_wait_client
}
