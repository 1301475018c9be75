/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Bounded XDR reader and writer used inside the codec (codec.c and
 * xchar.c) only.  Every read checks the octets left first; a writer
 * that runs out of room records the overflow and the encoder returns 0.
 */
#ifndef RPCRDMA2_XDR_H
#define RPCRDMA2_XDR_H

#include <linux/types.h>
#include <linux/unaligned.h>

struct rr2_rd {
	const u8	*base;
	u32		len;
	u32		pos;		/* invariant: pos <= len */
};

static inline bool rd_u32(struct rr2_rd *r, u32 *v)
{
	if (r->len - r->pos < 4)
		return false;
	*v = get_unaligned_be32(r->base + r->pos);
	r->pos += 4;
	return true;
}

static inline bool rd_skip(struct rr2_rd *r, u32 n)
{
	if (r->len - r->pos < n)
		return false;
	r->pos += n;
	return true;
}

static inline u32 rd_left(const struct rr2_rd *r)
{
	return r->len - r->pos;
}

/* An opaque<>: its length, then data padded to 4; @data points at it. */
static inline bool rd_opaque(struct rr2_rd *r, const u8 **data, u32 *dlen)
{
	u32 pad;

	if (!rd_u32(r, dlen) || *dlen > rd_left(r))
		return false;
	*data = r->base + r->pos;
	pad = (4 - (*dlen & 3)) & 3;
	return rd_skip(r, *dlen) && rd_skip(r, pad);
}

struct rr2_wr {
	u8	*base;
	u32	size;
	u32	pos;
	bool	overflow;
};

static inline void wr_u32(struct rr2_wr *w, u32 v)
{
	if (w->size - w->pos < 4) {
		w->overflow = true;
		return;
	}
	put_unaligned_be32(v, w->base + w->pos);
	w->pos += 4;
}

static inline u32 wr_done(const struct rr2_wr *w)
{
	return w->overflow ? 0 : w->pos;
}

#endif /* RPCRDMA2_XDR_H */
