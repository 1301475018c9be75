#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build (once) what the QEMU guests boot, under $RR2_GUEST:
#   kernel-$KVER/        Debian's unmodified 6.12 kernel package, unpacked
#   rootfs/              a Debian bookworm root (debootstrap) with the NFS
#                        server and client, rdma-core, perftest, fio, acl
#                        (getfacl/setfacl) and a Kerberos KDC with its
#                        admin and user tools; rebuilt when GUEST_PKGS
#                        changes
#   vmlinuz, base.cpio   the kernel and the root filesystem as an
#                        uncompressed initramfs (only the modules the
#                        scenarios need, docs and caches pruned)
#   disk.img             the same root as an ext4 disk with all of the
#                        kernel's modules, booted by systemd: the
#                        install-and-reboot test (scenario "reboot")
# Each step leaves a stamp; a step reruns only if its stamp is missing or
# its inputs changed.  Run by tools/testing/setup.sh.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

self=$(readlink -f "$0")
KVER=${KVER:-$(rr2_kver)}
[ -n "$KVER" ] || rr2_die "cannot tell the Debian 6.12 kernel version"
mkdir -p "$RR2_GUEST"
cd "$RR2_GUEST"
stage='' dstage=''
trap 'rm -rf "$stage" "$dstage"' EXIT

# Packages the guest root gets on top of debootstrap's minbase.
# systemd and udev boot disk.img (the initramfs guests run /init).
GUEST_PKGS=systemd-sysv,udev,nfs-kernel-server,nfs-common,rpcbind,iproute2,acl,rdma-core,ibverbs-providers,ibverbs-utils,rdmacm-utils,perftest,fio,kmod,procps,psmisc,netbase,krb5-kdc,krb5-admin-server,krb5-user

# The mirror the host's apt uses (never a hard-coded host).
mirror() {
	local m
	m=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
	[ -n "$m" ] || m=$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
	[ -n "$m" ] || rr2_die "no Debian mirror configured for apt"
	echo "$m"
}

# 1. The kernel package, unpacked (not installed on the host).
if [ ! -f "kernel-$KVER/.stamp" ]; then
	rr2_log "guest: fetching linux-image-$KVER"
	rm -rf "kernel-$KVER" debs && mkdir -p debs "kernel-$KVER"
	(cd debs && apt-get download "linux-image-$KVER-unsigned" >/dev/null 2>&1 ||
		apt-get download "linux-image-$KVER")
	dpkg-deb -x debs/linux-image-"$KVER"*.deb "kernel-$KVER"
	touch "kernel-$KVER/.stamp"
fi

# 2. The root filesystem.
stamp="$GUEST_PKGS"
if [ ! -f rootfs/.stamp ] || [ "$(cat rootfs/.stamp)" != "$stamp" ]; then
	rr2_log "guest: debootstrap bookworm (a few minutes)"
	rm -rf rootfs rootfs.tmp
	for try in 1 2; do
		debootstrap --variant=minbase --include="$GUEST_PKGS" \
			bookworm rootfs.tmp "$(mirror)" > debootstrap.log 2>&1 &&
			break
		tail -n 30 debootstrap.log >&2
		[ "$try" = 2 ] && rr2_die "debootstrap failed"
		rm -rf rootfs.tmp
		sleep 10
	done
	mv rootfs.tmp rootfs
	echo "$stamp" > rootfs/.stamp
fi

# 3. The initramfs image: rootfs, pruned, plus the modules we load.
MODULES="virtio_net virtio_pci dummy crc32_generic rdma_rxe rdma_ucm ib_uverbs
	 libcrc32c crc32c_generic
	 ib_umad rdma_cm ib_cm iw_cm ib_core sunrpc rpcrdma nfs nfsv3 nfsv4
	 nfsd lockd auth_rpcgss rpcsec_gss_krb5 cts nfs_acl grace dns_resolver
	 virtio_blk ext4"
inputs="$KVER $(cat rootfs/.stamp) $MODULES $(sha1sum "$self" | cut -c1-12)"
if [ ! -f base.cpio ] || [ "$(cat base.stamp 2>/dev/null)" != "$inputs" ]; then
	rr2_log "guest: packing base.cpio"
	kdir=$RR2_GUEST/kernel-$KVER
	stage=$(mktemp -d "$RR2_GUEST/stage.XXXX")
	rsync -a --exclude=/proc/ --exclude=/sys/ --exclude=/dev/ \
		--exclude=/usr/share/doc/ --exclude=/usr/share/man/ \
		--exclude=/usr/share/locale/ --exclude=/usr/share/info/ \
		--exclude=/var/cache/apt/ --exclude=/var/lib/apt/lists/ \
		--exclude=/lib/modules/ --exclude=/usr/lib/modules/ \
		rootfs/ "$stage/"
	mkdir -p "$stage/proc" "$stage/sys" "$stage/dev" "$stage/lib/modules/$KVER"
	# The module closure, as modprobe resolves it against the package.
	depmod -b "$kdir" "$KVER"
	for m in $MODULES; do
		modprobe -d "$kdir" -S "$KVER" --show-depends "$m" |
			awk '$1 == "insmod" {print $2}'
	done | sort -u | while read -r f; do
		rel=${f#"$kdir"}
		mkdir -p "$stage/$(dirname "$rel")"
		cp "$f" "$stage/$rel"
	done
	cp "$kdir"/lib/modules/"$KVER"/modules.{order,builtin,builtin.modinfo} \
		"$stage/lib/modules/$KVER/" 2>/dev/null || true
	depmod -b "$stage" "$KVER"
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc --quiet) > base.cpio.tmp
	mv base.cpio.tmp base.cpio
	cp "$kdir/boot/vmlinuz-$KVER" vmlinuz
	echo "$KVER" > kver
	echo "$inputs" > base.stamp
	rr2_log "guest: base.cpio is $(du -m base.cpio | cut -f1) MiB"
fi

# 4. The disk of the install-and-reboot test: the root filesystem with
#    every module of the kernel, an fstab, nothing of ours (the
#    scenario's first boot adds that).  Each run boots a copy of it,
#    so the image itself never changes.
dinputs="$KVER $(cat rootfs/.stamp) $(sha1sum "$self" | cut -c1-12)"
if [ ! -f disk.img ] || [ "$(cat disk.stamp 2>/dev/null)" != "$dinputs" ]; then
	rr2_log "guest: making disk.img"
	kdir=$RR2_GUEST/kernel-$KVER
	dstage=$(mktemp -d "$RR2_GUEST/dstage.XXXX")
	rsync -a --exclude=/usr/share/doc/ --exclude=/usr/share/man/ \
		--exclude=/usr/share/locale/ --exclude=/usr/share/info/ \
		--exclude=/var/cache/apt/ --exclude=/var/lib/apt/lists/ \
		rootfs/ "$dstage/"
	mkdir -p "$dstage/lib/modules"
	rsync -a "$kdir/lib/modules/$KVER" "$dstage/lib/modules/"
	depmod -b "$dstage" "$KVER"
	echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" > "$dstage/etc/fstab"
	echo rr2-disk > "$dstage/etc/hostname"
	rm -f disk.img.tmp
	mke2fs -q -t ext4 -L rr2root -d "$dstage" disk.img.tmp 3G
	mv disk.img.tmp disk.img
	echo "$dinputs" > disk.stamp
	rr2_log "guest: disk.img holds $(du -m disk.img | cut -f1) MiB"
fi
