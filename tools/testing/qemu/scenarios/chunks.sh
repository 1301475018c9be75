# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "chunks": NFS over RPC-over-RDMA at DEFAULT mount options,
# where data moves by RDMA Read and Write (RFC 8166 chunks, and the
# Version 2 chunks of seed 001), NFSv3 and NFSv4.2:
#
#   - rsize and wsize are what nfsd offers (1 MiB with >= 4.5 GiB RAM);
#   - files of 16 KiB and 2 MiB written, read back after a remount;
#   - a directory whose READDIR reply exceeds the inline threshold
#     (Reply chunk on Version 1);
#   - fio with verification: 1 MiB sequential, 4 KiB random, O_DIRECT;
#   - rr2fsx, a file-system exerciser checking every octet.
#
# rr2.args words: rsize=N (expected rsize and wsize, default 1048576),
# fsxops=N (rr2fsx operations, default 400), fiomib=N (sequential fio
# size, default 32), expect=N / server.expect=N as in baseline.
#
# Roles as in baseline: single, server, client.  baseline's helpers
# (version check, unload after NFS) are reused; its run is replaced.

# shellcheck disable=SC1091
. /rr2/scenarios/baseline.sh

rr2_fio() {
	local name=$1 dir=$2
	shift 2
	fio --name="$name" --directory="$dir" --ioengine=psync --direct=1 \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output-format=terse "$@" > "/tmp/fio-$name.out" 2>&1 ||
		{ cat "/tmp/fio-$name.out"; return 1; }
}

# rr2_readdir_big DIR: 250 entries of 120-character names (READDIR and
# READDIRPLUS replies of 35 to 65 KiB, past the default inline
# thresholds), listed again from the server.
rr2_readdir_big() {
	local d=$1 vers=$2 i name
	mkdir -p "$d" || return 1
	name=$(printf 'n%.0s' $(seq 110))
	for i in $(seq 250); do : > "$d/$name-$i" || return 1; done
	umount "${d%/*}" && rr2_mount "$vers" "${d%/*}" "/export/v$vers" ||
		return 1
	[ "$(ls "$d" | wc -l)" = 250 ] || return 1
	ls -l "$d" > /dev/null || return 1
	rm -rf "$d"
}

rr2_chunks_files() {
	local dir=$1 vers=$2 f
	mkdir -p "$dir/files" "/tmp/c$vers"
	head -c 16384 /dev/urandom > "/tmp/c$vers"/f16k
	head -c 2097152 /dev/urandom > "/tmp/c$vers"/f2m
	head -c 1234567 /dev/urandom > "/tmp/c$vers"/fodd
	(cd "/tmp/c$vers" && sha256sum f16k f2m fodd > SHA256SUMS)
	for f in f16k f2m fodd SHA256SUMS; do
		cp "/tmp/c$vers/$f" "$dir/files/" || return 1
	done
	umount "$dir" && rr2_mount "$vers" "$dir" "/export/v$vers" || return 1
	(cd "$dir/files" && sha256sum -c --quiet SHA256SUMS)
}

rr2_client_run() {
	local vers dir want
	want=$(rr2_arg rsize 1048576)
	for vers in 3 4.2; do
		dir=/mnt/v$vers
		rr2_check "mount.v$vers" rr2_mount "$vers" "$dir" "/export/v$vers" || continue
		rr2_info "v$vers: $(grep " $dir " /proc/mounts)"
		rr2_check "rsize.v$vers.is-$want" \
			grep -q " $dir .*rsize=$want,wsize=$want," /proc/mounts
		rr2_check_rdma_version "$dir" "$vers"
		rr2_check "files.v$vers" rr2_chunks_files "$dir" "$vers"
		rr2_check "readdir-big.v$vers" rr2_readdir_big "$dir/big" "$vers"
		rr2_check "fio-seq-1m.v$vers" rr2_fio seq "$dir" --rw=write \
			--bs=1M --size="$(rr2_arg fiomib 32)M"
		rr2_check "fio-rand-4k.v$vers" rr2_fio rand "$dir" \
			--rw=randwrite --bs=4k --size=2M
		rr2_check "fsx.v$vers" /rr2/bin/rr2fsx -n "$(rr2_arg fsxops 400)" \
			-s "$RANDOM" "$dir/fsx"
		rr2_info "v$vers after I/O: $(rr2_mount_rdma2 "$dir")"
		rr2_check "umount.v$vers" umount "$dir"
	done
}

rr2_main() {
	case $RR2_ROLE in
	single)
		RR2_SERVER_IP=10.111.0.1
		rr2_server_setup || return
		rr2_client_run
		[ "$RR2_MOD" = ours ] && rr2_unload_after_nfs
		;;
	server)
		rr2_server_setup || return
		rr2_info "server ready"
		rr2_server_wait_client
		rr2_info "server: $(dmesg | grep 'rpcrdma2: client .* settled' | tail -n1)"
		;;
	client)
		rr2_client_setup || return
		rr2_client_run
		rr2_client_done
		;;
	esac
}
