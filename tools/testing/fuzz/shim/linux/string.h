/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/string.h>. */
#ifndef RR2_SHIM_LINUX_STRING_H
#define RR2_SHIM_LINUX_STRING_H

#include <string.h>

#endif
