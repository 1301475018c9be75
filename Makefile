# SPDX-License-Identifier: GPL-2.0-only
#
# Out-of-tree build of rpcrdma2.ko, plus the project's command targets.
# Kbuild (not this file) lists the objects; the kernel build reads it.
#
#   make                  build rpcrdma2.ko against KDIR
#   make W=1 C=1          the same with extra warnings and sparse
#   make setup            install packages and prepare caches (idempotent)
#   make check            every test: W=1 build, checkpatch, KUnit, QEMU e2e
#   make demo             boot a guest and run the NFS/RDMA demo
#   make bench            print benchmark figures and ratios

KVER_DEFAULT := $(shell ls -d /usr/src/linux-headers-6.12.*-amd64 2>/dev/null | sort -V | tail -n1 | sed 's,.*/linux-headers-,,')
ifneq ($(wildcard /lib/modules/$(shell uname -r)/build/Makefile),)
KDIR ?= /lib/modules/$(shell uname -r)/build
else
KDIR ?= /usr/src/linux-headers-$(KVER_DEFAULT)
endif

T := tools/testing

.PHONY: all modules clean setup check kunit e2e checkpatch demo bench fuzz

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

e2e:
	$(T)/qemu/run-e2e.sh

checkpatch:
	$(T)/checkpatch.sh

demo:
	$(T)/demo.sh

bench:
	$(T)/bench/bench.sh
