# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario part "fleet": one server, two client guests at once, a mixed
# fleet.  Not a scenario of its own: combined.sh sources it, and
# rr2.args word fleet=1 turns it on in a three-guest run
# (run-scenario.sh -g 3): role "client" is the first client, role
# "client2" the second, on its own link to the server's second NIC
# (10.112.0.0/24, the server's rxe1), with its own module
# (run-scenario.sh -C).  The gate runs an rpcrdma2 server and client at
# Version 2 with the stock client as client2, at Version 1.
#
# The first client runs it before anything else, so that the third
# guest is gone early:
#
#   - both clients mount /export/v4.2 over RDMA (rr2.args mountopts=
#     apply to both) and, once both are ready, run fio rounds with
#     verification (4 MiB in 64 KiB blocks, O_DIRECT, crc32c) at the
#     same time;
#   - client2 drops its connections once (sysfs dstaddr, which makes
#     sunrpc disconnect them), goes on with its rounds over the new
#     ones, says how many connections it made, and then crashes: its
#     guest resets with nothing shut down (sysrq b), which the server
#     sees as a peer gone silent;
#   - the first client's rounds go on until the server has watched
#     client2 go, every round verified, and its connect count (the
#     third number after "rdma" on each stock xprt line of mountstats)
#     does not move: nothing client2 did reached its connections;
#   - the server: client2 stops answering (a TCP connect to a closed
#     port is no longer refused), and 5 s later the server's
#     connections to the first client's address (rdma resource cm_id,
#     dst-addr) are the first client's; with rr2.args fleetdrop=N its
#     connections to client2 must be gone within N seconds of the
#     crash (the gate does not set it: see rr2_fleet_server_watch);
#     at the end, when the first client is done,
#     rpcrdma2_conns_v1 + rpcrdma2_conns_v2 = rpcrdma2_conns_accepted,
#     and rpcrdma2_conns_v1 is exactly client2's connections: client2
#     is the only Version 1 peer, so every connection of the Version 2
#     client was counted under Version 2 alone.
#
# The guests meet in /export/.rr2-fleet, which the clients reach through
# their NFSv3/TCP control mounts.  A guest that does not get its turn
# within the bounds below fails the check that waited; nothing is
# skipped or retried.

RR2_FLEET_SRV_CTL=/export/.rr2-fleet
RR2_FLEET_CTL=/mnt/fleetctl/.rr2-fleet
RR2_FLEET_C1_IP=10.111.0.2
RR2_FLEET_C2_IP=10.112.0.2

rr2_fleet_on() { [ "$(rr2_arg fleet 0)" = 1 ]; }

# rr2_fleet_connects DIR: the connect counts of the mount at DIR's
# transports, summed
rr2_fleet_connects() {
	rr2_mount_xprts "$1" | awk '$2 == "rdma" { s += $5; n++ }
		END { if (!n) exit 1; print s }'
}

# rr2_fleet_rounds DIR STOP-FILE MIN MAX: fio rounds on DIR, each
# verified, one after another: at least MIN seconds, until STOP-FILE
# exists, MAX seconds at most.  The number of rounds goes to
# /tmp/fleet-rounds too.
rr2_fleet_rounds() {
	local dir=$1 stop=$2 min=$3 max=$4 t0=$SECONDS n=0
	while [ $((SECONDS - t0)) -lt "$max" ]; do
		if ! fio --name="fleet-$RR2_ROLE" --directory="$dir" \
			--ioengine=psync --direct=1 --rw=randwrite --bs=64k \
			--size=4M --verify=crc32c --do_verify=1 \
			--verify_fatal=1 --output-format=terse \
			> /tmp/fleet-fio.out 2>&1; then
			echo "round $((n + 1)) failed after $((SECONDS - t0)) s:"
			tail -n 5 /tmp/fleet-fio.out
			return 1
		fi
		n=$((n + 1))
		[ $((SECONDS - t0)) -lt "$min" ] || [ ! -e "$stop" ] || break
	done
	echo "$n rounds in $((SECONDS - t0)) s" | tee "/tmp/fleet-rounds"
	[ -e "$stop" ] || { echo "no $stop after $max s"; return 1; }
}

# ---- the first client ----

rr2_fleet_client_run() {
	local dir=/mnt/fleet ctl=$RR2_FLEET_CTL before after
	rr2_control_mount /mnt/fleetctl || return 1
	mkdir -p "$ctl"
	rr2_check fleet.mount rr2_mount 4.2 "$dir" /export/v4.2 || {
		touch "$ctl/c1-done"
		umount /mnt/fleetctl
		return 1
	}
	mkdir -p "$dir/fleet-c1"
	before=$(rr2_fleet_connects "$dir")
	rr2_mount_xprts "$dir" | wc -l > "$ctl/c1-xprts"
	touch "$ctl/go"
	rr2_check fleet.client2-ready rr2_wait_file "$ctl/c2-ready" 600
	rr2_check fleet.fio-through-client2-crash rr2_fleet_rounds \
		"$dir/fleet-c1" "$ctl/watched" 20 600
	rr2_info "fleet: client $(tail -n 1 /tmp/fleet-rounds)"
	after=$(rr2_fleet_connects "$dir")
	rr2_info "fleet: client connect count $before before, $after after"
	rr2_check fleet.no-reconnect test -n "$before" -a "$before" = "$after"
	rm -rf "$dir/fleet-c1"
	rr2_check fleet.umount umount "$dir"
	touch "$ctl/c1-done"
	umount /mnt/fleetctl
}

# ---- client2 ----

rr2_fleet_client2() {
	local dir=/mnt/fleet ctl=$RR2_FLEET_CTL before after
	rr2_check setup.rdma rr2_setup_rdma "$RR2_CLIENT_IP" || return 1
	rr2_check setup.transport rr2_load_transport || return 1
	rr2_control_mount /mnt/fleetctl || return 1
	rr2_check fleet.go rr2_wait_file "$ctl/go" 900 || return 1
	rr2_check fleet.mount rr2_mount 4.2 "$dir" /export/v4.2 || return 1
	mkdir -p "$dir/fleet-c2"
	before=$(rr2_fleet_connects "$dir")
	touch "$ctl/c2-ready"
	# rounds for a set time: a stop file that is there at once
	rr2_check fleet.fio rr2_fleet_rounds "$dir/fleet-c2" / 8 8
	rr2_check fleet.drop rr2_client_drop
	rr2_check fleet.fio-after-reconnect rr2_fleet_rounds "$dir/fleet-c2" \
		/ 6 6
	after=$(rr2_fleet_connects "$dir")
	rr2_info "fleet: client2 connect count $before before, $after after"
	rr2_check fleet.reconnected test -n "$before" -a "${after:-0}" -gt "${before:-0}"
	echo "$after" > "$ctl/c2-connects"
	touch "$ctl/c2-stopping"
	# /init resets the guest after its closing checks: a crash, for
	# the server and the other client
	# shellcheck disable=SC2034 # read by /init
	RR2_STOP=b
}

# ---- the server ----

# rr2_fleet_conns [ADDR]: the server's RDMA connections (cm_ids that
# are not listeners), to ADDR only when given
rr2_fleet_conns() {
	local r
	r=$(rdma resource show cm_id) || { echo "rdma failed"; return 1; }
	printf '%s\n' "$r" | grep -v 'state LISTEN' |
		grep -c "dst-addr ${1:-}" || true
}

# rr2_fleet_alive ADDR: a host answers at ADDR (a TCP connect to a
# closed port is refused at once; a host gone does not answer)
rr2_fleet_alive() {
	timeout 3 bash -c "exec 3<>/dev/tcp/$1/9" 2>&1 | grep -q refused
}

# Watch client2 go: it was up when it said it was stopping, and then
# stops answering within 60 s (its crash); the server's connections to
# the first client are still its own 5 s after that, the first
# client's I/O going on meanwhile.  With rr2.args fleetdrop=N the
# server must also have dropped its connections to client2 within N
# seconds of its crash.  Without it they are counted only: the server
# has no way to notice a Version 1 peer gone silent but sunrpc's
# closing of idle transports, minutes later at the soonest (see
# admin-guide.rst, "Several clients").
rr2_fleet_server_watch() {
	local srv=$RR2_FLEET_SRV_CTL drop t0 n
	drop=$(rr2_arg fleetdrop "")
	mkdir -p "$srv"
	for _ in $(seq 1200); do
		[ -e "$srv/c2-stopping" ] || [ -e "$srv/c1-done" ] && break
		sleep 1
	done
	rr2_check fleet.client2-stopping test -e "$srv/c2-stopping" || {
		touch "$srv/watched"
		return 1
	}
	rr2_info "fleet: server connections to client2 while it ran: $(rr2_fleet_conns "$RR2_FLEET_C2_IP:")"
	t0=$SECONDS
	while [ $((SECONDS - t0)) -lt 60 ] && rr2_fleet_alive "$RR2_FLEET_C2_IP"; do
		sleep 1
	done
	rr2_check fleet.client2-crashed rr2_fleet_not_alive "$RR2_FLEET_C2_IP"
	t0=$SECONDS
	if [ -n "$drop" ]; then
		while [ $((SECONDS - t0)) -lt "$drop" ]; do
			n=$(rr2_fleet_conns "$RR2_FLEET_C2_IP:")
			[ "$n" = 0 ] && break
			sleep 5
		done
	fi
	sleep $((5 - (SECONDS - t0) > 0 ? 5 - (SECONDS - t0) : 0))
	rr2_info "fleet: server connections to client2 $(rr2_fleet_conns "$RR2_FLEET_C2_IP:") $((SECONDS - t0)) s after its crash"
	rdma resource show cm_id | sed 's/^/    /'
	[ -z "$drop" ] || rr2_check fleet.server-dropped-client2 \
		test "$(rr2_fleet_conns "$RR2_FLEET_C2_IP:")" = 0
	rr2_check fleet.server-holds-client \
		test "$(rr2_fleet_conns "$RR2_FLEET_C1_IP:")" = "$(cat "$srv/c1-xprts")"
	touch "$srv/watched"
}

rr2_fleet_not_alive() { ! rr2_fleet_alive "$1"; }

# rr2_fleet_stat NAME: an rpcrdma2 server counter
rr2_fleet_stat() {
	cat "/proc/sys/sunrpc/svc_rdma/rpcrdma2_$1"
}

# The server's per-version counts, once the first client is done.
rr2_fleet_server_counts() {
	local v1 v2 acc c2
	v1=$(rr2_fleet_stat conns_v1) v2=$(rr2_fleet_stat conns_v2)
	acc=$(rr2_fleet_stat conns_accepted)
	c2=$(cat "$RR2_FLEET_SRV_CTL/c2-connects" 2>/dev/null)
	rr2_info "fleet: server conns_v1 $v1, conns_v2 $v2, conns_accepted $acc; client2 made ${c2:-?}"
	rr2_check fleet.server-versions-add-up test "$((v1 + v2))" = "$acc"
	rr2_check fleet.server-v1-is-client2 test -n "$c2" -a "$v1" = "$c2"
	rr2_check fleet.server-v2-seen test "$v2" -gt 0
}

# Hooks for a scenario that runs baseline's rr2_main (combined.sh):
# client2's role, the server's second NIC comes up in
# rr2_server_setup (lib.sh), and the server watches client2 go before
# it waits for the first client's end.
eval "rr2_fleet_base_server_wait_client() $(declare -f rr2_server_wait_client | tail -n +2)"
eval "rr2_fleet_base_main() $(declare -f rr2_main | tail -n +2)"

rr2_server_wait_client() {
	if rr2_fleet_on && [ "$RR2_ROLE" = server ]; then
		rr2_fleet_server_watch
	fi
	rr2_fleet_base_server_wait_client
	if rr2_fleet_on && [ "$RR2_ROLE" = server ]; then
		rr2_fleet_server_counts
	fi
}

rr2_main() {
	case $RR2_ROLE in
	client2) rr2_fleet_client2 ;;
	*) rr2_fleet_base_main ;;
	esac
}
