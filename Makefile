# SPDX-License-Identifier: GPL-2.0-only
#
# Out-of-tree build of rpcrdma2.ko, plus the project's command targets.
# Kbuild (not this file) lists the objects; the kernel build reads it.
#
#   make                  build rpcrdma2.ko against KDIR
#   make W=1 C=1          the same with extra warnings and sparse
#   make setup            install packages and prepare caches (idempotent)
#   make check            every test: W=1 build, checkpatch, KUnit, QEMU e2e
#   make kunit            the KUnit suites only (tools/testing/kunit/run.sh)
#   make e2e              setup, the module build and the QEMU scenarios of
#                         the test command, without its other steps
#   make checkpatch       checkpatch.pl --strict on every source file
#   make demo             boot a guest and run the NFS/RDMA demo
#   make bench            print benchmark figures and ratios
#   make fuzz             replay the codec fuzz corpus under ASan/UBSan
#                         (tools/testing/fuzz/fuzz.sh run fuzzes anew)
#   make install          install for KDIR's kernel, with the modprobe.d
#                         file that makes every RPC-over-RDMA name load
#                         rpcrdma2 (uninstall: make uninstall)
#   make dkms-install     the same through DKMS, for every 6.12 kernel
#                         installed now and later (make dkms-uninstall)

KVER_DEFAULT := $(shell ls -d /usr/src/linux-headers-6.12.*-amd64 2>/dev/null | sort -V | tail -n1 | sed 's,.*/linux-headers-,,')
ifneq ($(wildcard /lib/modules/$(shell uname -r)/build/Makefile),)
KDIR ?= /lib/modules/$(shell uname -r)/build
else
KDIR ?= /usr/src/linux-headers-$(KVER_DEFAULT)
endif

T := tools/testing
KVER = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)
VERSION := $(shell cat $(CURDIR)/VERSION)
DKMS_SRC := /usr/src/rpcrdma2-$(VERSION)

.PHONY: all modules clean setup check kunit e2e checkpatch demo bench fuzz \
	install uninstall dkms-install dkms-uninstall

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) CONFIG_RPCRDMA2=m modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

setup:
	$(T)/setup.sh

check:
	$(T)/run-tests.sh

kunit:
	$(T)/kunit/run.sh

# The test command's QEMU scenarios.  setup and build stay: the guests
# load the rpcrdma2.ko that the build step makes for their kernel.
E2E_SKIP := checkpatch coverage crash-verdicts kunit kunit-debug fuzz install

e2e:
	RR2_SKIP="$(E2E_SKIP)" $(T)/run-tests.sh

checkpatch:
	$(T)/checkpatch.sh

demo:
	$(T)/demo.sh

bench:
	$(T)/bench/bench.sh

fuzz:
	$(T)/fuzz/fuzz.sh replay

install: modules
	packaging/install.sh install rpcrdma2.ko $(KVER)

uninstall:
	packaging/install.sh uninstall $(KVER)

# The DKMS source tree: what git tracks (or, outside git, the sources
# without build outputs), with dkms.conf at its top.
dkms-install:
	rm -rf $(DKMS_SRC) && mkdir -p $(DKMS_SRC)
	if git -C $(CURDIR) rev-parse --git-dir > /dev/null 2>&1; then \
		git -C $(CURDIR) ls-files -z Kbuild Kconfig Makefile VERSION \
			include net packaging | \
			xargs -0 cp --parents -t $(DKMS_SRC); \
	else \
		cp -r Kbuild Kconfig Makefile VERSION include net packaging \
			$(DKMS_SRC)/; \
	fi
	sed 's/@VERSION@/$(VERSION)/' packaging/dkms.conf > $(DKMS_SRC)/dkms.conf
	dkms add rpcrdma2/$(VERSION)
	dkms install rpcrdma2/$(VERSION) -k $(KVER)
	packaging/install.sh conf

dkms-uninstall:
	-dkms remove rpcrdma2/$(VERSION) --all
	rm -rf $(DKMS_SRC)
	packaging/install.sh unconf
	depmod -a $(KVER)
