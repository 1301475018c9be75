/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/errno.h>. */
#ifndef RR2_SHIM_LINUX_ERRNO_H
#define RR2_SHIM_LINUX_ERRNO_H

/* the libc errno.h takes its codes from this name: give them */
#include <asm/errno.h>
#include <errno.h>

#endif
