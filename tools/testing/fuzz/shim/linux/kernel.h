/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for the <linux/kernel.h> helpers the codec uses. */
#ifndef RR2_SHIM_LINUX_KERNEL_H
#define RR2_SHIM_LINUX_KERNEL_H

#include <limits.h>
#include <linux/types.h>

#define U32_MAX			((u32)~0U)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define round_up(x, y)		((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))
#define clamp_t(type, val, lo, hi) ({					\
	type __v = (val), __l = (lo), __h = (hi);			\
	__v < __l ? __l : (__v > __h ? __h : __v); })
#define min_t(type, a, b) ({						\
	type __a = (a), __b = (b);					\
	__a < __b ? __a : __b; })
#define max_t(type, a, b) ({						\
	type __a = (a), __b = (b);					\
	__a > __b ? __a : __b; })
#define min(a, b)		min_t(__typeof__((a) + (b)), a, b)
#define max(a, b)		max_t(__typeof__((a) + (b)), a, b)
#define hweight32(w)		((unsigned int)__builtin_popcount(w))
#define WRITE_ONCE(x, val)	((x) = (val))
#define READ_ONCE(x)		(x)
#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), #cond)

#endif
