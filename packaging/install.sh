#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install or remove rpcrdma2 for one kernel without DKMS (the Makefile's
# install and uninstall targets; the QEMU "install" scenario runs the
# same script in a guest).
#
#   install.sh install MODULE.ko KVER [ROOT]
#   install.sh uninstall KVER [ROOT]
#   install.sh conf [ROOT]          the modprobe.d file only (DKMS)
#   install.sh unconf [ROOT]        ... removed, unless an rpcrdma2
#                                   is still installed for a kernel
#
# The module goes to ROOT/lib/modules/KVER/updates/, which depmod
# prefers over the kernel's own directories, and
# ROOT/etc/modprobe.d/rpcrdma2.conf makes every name of the
# RPC-over-RDMA transport load it (see that file).
set -eu

here=$(dirname "$0")
conf=etc/modprobe.d/rpcrdma2.conf

die() { echo "install.sh: $*" >&2; exit 1; }

put_conf() {
	mkdir -p "$1/etc/modprobe.d"
	cp "$here/modprobe.d/rpcrdma2.conf" "$1/$conf"
	chmod 0644 "$1/$conf"
}

# The modprobe.d file serves every kernel: it goes with the last
# rpcrdma2 under ROOT/lib/modules (make install's or DKMS's).
drop_conf() {
	local left
	left=$(find "$1/lib/modules" -path '*/updates/*' -name 'rpcrdma2.ko*' 2>/dev/null)
	if [ -n "$left" ]; then
		echo "$1/$conf stays: rpcrdma2 is still installed as $(echo "$left" | tr '\n' ' ')"
	else
		rm -f "$1/$conf"
	fi
}

run_depmod() {
	if [ "$2" = / ]; then
		depmod -a "$1"
	else
		depmod -a -b "$2" "$1"
	fi
}

cmd=${1:-}
case $cmd in
install)
	[ $# -ge 3 ] || die "usage: install.sh install MODULE.ko KVER [ROOT]"
	ko=$2 kver=$3 root=${4:-/}
	[ -f "$ko" ] || die "$ko: no such module; build it first (make)"
	mkdir -p "$root/lib/modules/$kver/updates"
	cp "$ko" "$root/lib/modules/$kver/updates/rpcrdma2.ko"
	chmod 0644 "$root/lib/modules/$kver/updates/rpcrdma2.ko"
	put_conf "$root"
	run_depmod "$kver" "$root"
	echo "rpcrdma2 installed for $kver; unload the stock module (modprobe -r rpcrdma) or reboot to switch"
	;;
uninstall)
	[ $# -ge 2 ] || die "usage: install.sh uninstall KVER [ROOT]"
	kver=$2 root=${3:-/}
	rm -f "$root/lib/modules/$kver/updates/rpcrdma2.ko"
	run_depmod "$kver" "$root"
	echo "rpcrdma2 removed for $kver; the stock rpcrdma module is used from the next load"
	drop_conf "$root"
	;;
conf)
	put_conf "${2:-/}"
	;;
unconf)
	drop_conf "${2:-/}"
	;;
*)
	die "usage: install.sh install|uninstall|conf|unconf ..."
	;;
esac
