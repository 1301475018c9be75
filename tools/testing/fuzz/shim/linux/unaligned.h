/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/unaligned.h> (big-endian accessors). */
#ifndef RR2_SHIM_LINUX_UNALIGNED_H
#define RR2_SHIM_LINUX_UNALIGNED_H

#include <string.h>
#include <linux/types.h>

static inline u32 get_unaligned_be32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return __builtin_bswap32(v);
}

static inline u64 get_unaligned_be64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return __builtin_bswap64(v);
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	v = __builtin_bswap32(v);
	memcpy(p, &v, sizeof(v));
}

#endif
