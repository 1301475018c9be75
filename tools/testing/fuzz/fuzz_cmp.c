// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for rpcrdma2_cmp_decode() (RFC 8797 CM private data).
 * Decoded sizes always lie in [1 KiB, 256 KiB], and a decoded record
 * encodes back to one that decodes the same.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct rpcrdma2_cm_pdata pd, again;
	u8 out[RPCRDMA2_CMP_SIZE];
	bool found;

	if (size > 1024)
		return 0;
	found = rpcrdma2_cmp_decode(data, size, &pd);
	RR2_CHECK(pd.send_size >= RPCRDMA2_CMP_MIN_BUF &&
		  pd.send_size <= RPCRDMA2_CMP_MAX_BUF);
	RR2_CHECK(pd.recv_size >= RPCRDMA2_CMP_MIN_BUF &&
		  pd.recv_size <= RPCRDMA2_CMP_MAX_BUF);
	if (!found) {
		RR2_CHECK(!pd.remote_inv && pd.send_size == 1024 &&
			  pd.recv_size == 1024);
		return 0;
	}
	rpcrdma2_cmp_encode(out, &pd);
	RR2_CHECK(rpcrdma2_cmp_decode(out, sizeof(out), &again));
	RR2_CHECK(again.remote_inv == pd.remote_inv &&
		  again.send_size == pd.send_size &&
		  again.recv_size == pd.recv_size);
	return 0;
}
