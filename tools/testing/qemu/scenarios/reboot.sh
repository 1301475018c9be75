# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "reboot": install, reboot and uninstall on a Debian 12 machine
# booted by systemd from a disk (run-scenario.sh -d), the way an
# administrator meets rpcrdma2.  The machine's RDMA device is rxe, made
# by a unit early at boot, as a driver's probe would; rdma-core's udev
# rules then load its module list (xprtrdma, svcrdma), nfs-server.service
# starts nfsd with rdma=y from /etc/nfs.conf.d, and nothing in this
# scenario loads a module by hand.  Three boots, one disk:
#   1. stock Debian: the stock rpcrdma is loaded at boot and nfsd listens
#      on rdma 20049; "make install" (packaging/install.sh) runs.
#   2. after the reboot: rpcrdma2 was loaded at boot and the stock
#      module was not, nfsd listens on rdma 20049 through rpcrdma2, and a
#      proto=rdma mount moves data over rpcrdma2; "make uninstall" runs.
#   3. after the reboot: the stock module is back, rpcrdma2 is gone, and
#      NFS over RDMA still works.
# Each boot ends with a power-off (a cold boot, the harder case); the
# runner boots the disk again until the scenario says DONE.
# Role: single.

RR2_REBOOT_STATE=/rr2/boot-phase

# rr2_seed ROOT: run by the initramfs on the disk's first boot, with
# ROOT the disk.  Units and configuration only; nothing is loaded.
rr2_seed() {
	local root=$1 sd=$1/etc/systemd/system

	# The machine's RDMA device, before the network and nfsd.
	cat > "$root/usr/local/sbin/rr2-rdma-dev" <<-'EOF' || return 1
	#!/bin/sh
	modprobe -a virtio_net crc32_generic rdma_rxe || exit 1
	ip link set eth0 up && ip addr add 10.111.0.1/24 dev eth0 &&
		rdma link add rxe0 type rxe netdev eth0
	EOF
	chmod 0755 "$root/usr/local/sbin/rr2-rdma-dev"
	cat > "$sd/rr2-rdma-dev.service" <<-'EOF' || return 1
	[Unit]
	Description=rpcrdma2 test: the RDMA device (rxe on eth0)
	After=systemd-udevd.service systemd-udev-trigger.service
	Before=network.target nfs-server.service
	Wants=network.target

	[Service]
	Type=oneshot
	RemainAfterExit=yes
	ExecStart=/usr/local/sbin/rr2-rdma-dev

	[Install]
	WantedBy=multi-user.target
	EOF
	cat > "$sd/rr2-test.service" <<-'EOF' || return 1
	[Unit]
	Description=rpcrdma2 test: install and reboot cycle
	After=nfs-server.service rr2-rdma-dev.service

	[Service]
	Type=oneshot
	ExecStart=/rr2/disk-run
	StandardOutput=tty
	StandardError=tty
	TTYPath=/dev/ttyS0

	[Install]
	WantedBy=multi-user.target
	EOF
	mkdir -p "$sd/multi-user.target.wants" || return 1
	ln -sf ../rr2-rdma-dev.service "$sd/multi-user.target.wants/" &&
		ln -sf ../rr2-test.service "$sd/multi-user.target.wants/" &&
		ln -sf /dev/null "$sd/serial-getty@ttyS0.service" || return 1
	# nfs-server.service must be enabled by its package, as on any
	# Debian machine with nfs-kernel-server
	[ -e "$sd/multi-user.target.wants/nfs-server.service" ] || return 1

	# nfsd on rdma, as the admin guide says (nfs.conf, not a command)
	mkdir -p "$root/etc/nfs.conf.d" "$root/export" || return 1
	cat > "$root/etc/nfs.conf.d/rr2.conf" <<-'EOF' || return 1
	[nfsd]
	rdma=y
	rdma-port=20049
	grace-time=10
	lease-time=10
	EOF
	chmod 1777 "$root/export"
	echo "/export *(rw,no_root_squash,insecure,no_subtree_check,fsid=1)" \
		> "$root/etc/exports"
	rr2_server_modules "$root" || return 1
	echo 1 > "$root$RR2_REBOOT_STATE"
}

# rr2_server_modules ROOT: a server's module tree, not a laptop's.
# "make install" and "make uninstall" run depmod, which reads every
# module of the kernel; under TCG that is about 17 ms each, 70 s for
# Debian's 4,200.  Drivers for hardware this machine has no use for
# (sound, media, wireless, USB, input, GPUs, industrial I/O...) go, as
# an image builder trims them; the RDMA, NFS, network core, block,
# virtio and crypto modules stay.  Until the first depmod, modules.dep
# still names the removed ones; nothing here loads them.
rr2_server_modules() {
	local km
	km=$1/lib/modules/$(uname -r)/kernel
	[ -d "$km/drivers/infiniband" ] || return 1
	rm -rf "$km/sound" \
		"$km"/drivers/{media,iio,usb,platform,hid,hwmon,input,comedi} \
		"$km"/drivers/{mtd,watchdog,video,gpu,staging,bluetooth,mmc} \
		"$km"/drivers/{leds,nfc,isdn,atm,power,regulator,mfd,spi,w1} \
		"$km"/drivers/{thermal,pinctrl,gnss,fpga,counter,misc} \
		"$km"/drivers/net/{wireless,ethernet,can,usb,wwan,ieee802154} \
		"$km"/net/{bluetooth,wireless,mac80211,can,nfc,ieee802154} \
		"$km"/net/{mac802154,atm,ax25,rose,netrom,batman-adv}
}

# rr2_loaded_at_boot MOD OTHER: MOD is loaded (by the boot, waited for
# up to 60 s) and OTHER is not.
rr2_loaded_at_boot() {
	for _ in $(seq 60); do
		lsmod | grep -q "^$1 " && break
		sleep 1
	done
	if lsmod | grep -q "^$1 " && ! lsmod | grep -q "^$2 "; then
		return 0
	fi
	lsmod | grep -E 'rpcrdma|rdma_cm'
	return 1
}

rr2_nfsd_on_rdma() {
	for _ in $(seq 60); do
		grep -q "rdma 20049" /proc/fs/nfsd/portlist 2>/dev/null && return 0
		sleep 1
	done
	cat /proc/fs/nfsd/portlist
	systemctl status nfs-server.service --no-pager
	return 1
}

# rr2_reboot_io MOD: a proto=rdma mount of this machine's export moves
# 3 MB out and back (after a remount), on transport module MOD.
rr2_reboot_io() {
	local dir=/mnt/rdma f=reboot-$RANDOM.dat
	head -c 3000000 /dev/urandom > "/tmp/$f"
	rr2_mount 4.2 "$dir" /export || return 1
	[ "$(rr2_mount_xprt "$dir")" = rdma ] || { umount "$dir"; return 1; }
	if [ "$1" = rpcrdma2 ]; then
		rr2_mount_rdma2 "$dir" | grep -q ' vers [12] ' ||
			{ umount "$dir"; return 1; }
	else
		[ -z "$(rr2_mount_rdma2 "$dir")" ] || { umount "$dir"; return 1; }
	fi
	cp "/tmp/$f" "$dir/" || { umount "$dir"; return 1; }
	umount "$dir" || return 1
	rr2_mount 4.2 "$dir" /export || return 1
	cmp "/tmp/$f" "$dir/$f" || { umount "$dir"; return 1; }
	umount "$dir"
}

# rr2_rdma_up: the RDMA device is there: rxe0 ACTIVE.  Whether
# rdma-core's udev rule ran its module list (rdma-load-modules@rdma) is
# said in an INFO line, not checked: in this guest it stays inactive,
# and the transport is loaded by nfsd's request for "svcrdma" and the
# mount's for "rpcrdma" (the names the modprobe.d file maps).
rr2_rdma_up() {
	rr2_rxe_active 150 && return 0
	rdma link show
	systemctl status rr2-rdma-dev.service --no-pager
	return 1
}

rr2_rpcrdma2_gone() {
	! modinfo rpcrdma2 > /dev/null 2>&1 &&
		[ ! -e /etc/modprobe.d/rpcrdma2.conf ]
}

# rr2_next_boot PHASE: a clean power-off through systemd (its
# SIGRTMIN+4 starts poweroff.target; "systemctl poweroff" from this
# unit failed with "Failed to connect to bus").
rr2_next_boot() {
	# every boot: the versions rpcrdma2 settled on, a clean kernel log
	rr2_settled_versions
	rr2_check "reboot.$(cat "$RR2_REBOOT_STATE" 2>/dev/null).kernel-log.clean" \
		rr2_kernel_log_clean
	[ "$1" != finished ] || echo "RR2: DONE"
	echo "$1" > "$RR2_REBOOT_STATE"
	sync
	kill -s SIGRTMIN+4 1
	sleep 600
}

rr2_main() {
	local kver phase
	kver=$(uname -r)
	phase=$(cat "$RR2_REBOOT_STATE" 2>/dev/null)
	rr2_info "boot $phase"
	rr2_info "rdma-load-modules@rdma.service:" \
		"$(systemctl is-active rdma-load-modules@rdma.service)"
	case $phase in
	1)
		rr2_check reboot.1.rdma-device rr2_rdma_up
		rr2_check reboot.1.stock-loaded-at-boot \
			rr2_loaded_at_boot rpcrdma rpcrdma2
		rr2_check reboot.1.nfsd-on-rdma rr2_nfsd_on_rdma
		rr2_check reboot.1.install \
			/rr2/packaging/install.sh install /rr2/rpcrdma2.ko "$kver"
		rr2_next_boot 2
		;;
	2)
		rr2_check reboot.2.rdma-device rr2_rdma_up
		rr2_check reboot.2.rpcrdma2-loaded-at-boot \
			rr2_loaded_at_boot rpcrdma2 rpcrdma
		rr2_check reboot.2.nfsd-on-rdma rr2_nfsd_on_rdma
		rr2_check reboot.2.nfs-io rr2_reboot_io rpcrdma2
		rr2_check reboot.2.uninstall \
			/rr2/packaging/install.sh uninstall "$kver"
		rr2_next_boot 3
		;;
	3)
		rr2_check reboot.3.rdma-device rr2_rdma_up
		rr2_check reboot.3.stock-loaded-at-boot \
			rr2_loaded_at_boot rpcrdma rpcrdma2
		rr2_check reboot.3.rpcrdma2-gone rr2_rpcrdma2_gone
		rr2_check reboot.3.nfsd-on-rdma rr2_nfsd_on_rdma
		rr2_check reboot.3.nfs-io rr2_reboot_io stock
		rr2_next_boot finished
		;;
	*)
		rr2_fail "reboot.unexpected-boot"
		rr2_next_boot "$phase"
		;;
	esac
}
