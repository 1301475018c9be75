#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The DKMS install cycle on this machine, for Debian's 6.12 headers:
# "make dkms-install" builds and installs rpcrdma2 through DKMS with the
# modprobe.d file; every name of the RPC-over-RDMA transport must then
# resolve to it (modprobe --show-depends, nothing is loaded: the host
# may run another kernel); "make dkms-uninstall" must give the names
# back to the stock module.  While installed, DKMS must skip a kernel
# that is not 6.12 (BUILD_EXCLUSIVE_KERNEL: exit status 77, nothing
# built) rather than fail its build, and each name's install command
# must fall back to the stock module.  The QEMU scenario "install" loads
# them for real in a guest, with and without rpcrdma2 for the kernel.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

kver=$(rr2_kver)
kdir=/usr/src/linux-headers-$kver
log=$RR2_OUT/install.log
mkdir -p "$RR2_OUT"

check() {
	local name=$1
	shift
	if "$@" >> "$log" 2>&1; then rr2_pass "install.$name"; else rr2_fail "install.$name (see $log)"; fi
}

# the name resolves to rpcrdma2 (directly or through the install line)
resolves_to_ours() {
	modprobe -S "$kver" --show-depends "$1" | tail -n1 |
		grep -E 'rpcrdma2(\.ko|$| )'
}

# ... and to the stock module when modprobe does not find rpcrdma2 for
# the running kernel or it fails to load (the command itself runs in
# the guest scenario)
falls_back_to_stock() {
	modprobe -S "$kver" --show-depends "$1" | tail -n1 | tr -s '[:space:]' ' ' |
		grep -E '^install if ! /sbin/modprobe -n -q --ignore-install rpcrdma2; then .*/sbin/modprobe --ignore-install rpcrdma .*elif ! /sbin/modprobe --ignore-install rpcrdma2 .*; then .*/sbin/modprobe --ignore-install rpcrdma '
}

# dkms build and install for a kernel that is not 6.12 end with
# BUILD_EXCLUSIVE's exit status, 77, and leave nothing for it
other_kernel_skipped() {
	local other=6.1.0-99-amd64 v rc op
	v=$(cat "$RR2_REPO/VERSION")
	for op in build install; do
		dkms "$op" "rpcrdma2/$v" -k "$other"
		rc=$?
		echo "dkms $op -k $other: exit status $rc"
		[ "$rc" = 77 ] || return 1
	done
	! dkms status rpcrdma2 | grep -q "$other" &&
		[ ! -e "/lib/modules/$other" ]
}

# rpcrdma2 claims none of the stock module's names itself: modprobe
# loads every module an alias names, so without the modprobe.d file
# (or before it routes them) a name would load both modules
claims_no_stock_name() {
	local a
	a=$(modinfo -k "$kver" -F alias rpcrdma2) || return 1
	! echo "$a" | grep -xE 'rpcrdma|rpcrdma6|xprtrdma|svcrdma'
}

# make install for two kernels under a scratch root, then make
# uninstall for each: the modprobe.d file stays while either kernel
# still has rpcrdma2, and goes with the last one
uninstall_keeps_conf() {
	local root rc=1 sh=$RR2_REPO/packaging/install.sh
	local conf=etc/modprobe.d/rpcrdma2.conf
	root=$(mktemp -d) || return 1
	sh "$sh" install "$RR2_REPO/rpcrdma2.ko" 6.12.0-98-amd64 "$root" &&
		sh "$sh" install "$RR2_REPO/rpcrdma2.ko" 6.12.0-99-amd64 "$root" &&
		sh "$sh" uninstall 6.12.0-98-amd64 "$root" &&
		[ -f "$root/$conf" ] &&
		sh "$sh" uninstall 6.12.0-99-amd64 "$root" &&
		[ ! -e "$root/$conf" ] && rc=0
	rm -rf "$root"
	return $rc
}

resolves_to_stock() {
	modprobe -S "$kver" --show-depends "$1" | tail -n1 |
		grep '/xprtrdma/rpcrdma\.ko'
}

: > "$log"
trap 'make -C "$RR2_REPO" KDIR="$kdir" dkms-uninstall >> "$log" 2>&1' EXIT
make -C "$RR2_REPO" KDIR="$kdir" dkms-uninstall >> "$log" 2>&1
check dkms-install make -C "$RR2_REPO" KDIR="$kdir" dkms-install
check dkms-status sh -c "dkms status rpcrdma2 | grep -q '$kver.*installed'"
check module-in-updates sh -c "modinfo -k '$kver' -F filename rpcrdma2 | grep -q /updates/dkms/"
check module-version sh -c "modinfo -k '$kver' -F version rpcrdma2 | grep -qx '$(cat "$RR2_REPO/VERSION")'"
for n in rpcrdma rpcrdma6 xprtrdma svcrdma; do
	check "$n-loads-rpcrdma2" resolves_to_ours "$n"
	check "$n-falls-back-to-stock" falls_back_to_stock "$n"
done
check dkms-other-kernel-skipped other_kernel_skipped
check module-claims-no-stock-name claims_no_stock_name
check uninstall-keeps-conf-for-other-kernels uninstall_keeps_conf
check dkms-uninstall make -C "$RR2_REPO" KDIR="$kdir" dkms-uninstall
trap - EXIT
check module-gone sh -c "! modinfo -k '$kver' rpcrdma2"
for n in rpcrdma svcrdma; do
	check "$n-back-to-stock" resolves_to_stock "$n"
done
exit 0
