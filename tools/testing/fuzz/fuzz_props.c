// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for rpcrdma2_decode_props() (a CONNPROP body, or one
 * reassembled from a continued sequence).  Checks the verdicts (BAD_XDR
 * for a cut count or rdma_which, V2-ERR-26; BAD_PROPVAL for a bad
 * rdma_data, V2-PROP-03), the all-or-nothing rule (V2-PROP-18) and that
 * HOSTAUTH lies inside the input.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct rpcrdma2_props p;
	int ret;

	if (size > 65536)
		return 0;
	ret = rpcrdma2_decode_props(data, size, &p);
	RR2_CHECK(ret == 0 || ret == RDMA2_ERR_BAD_PROPVAL ||
		  ret == RDMA2_ERR_BAD_XDR);
	RR2_CHECK(size >= 4 || ret == RDMA2_ERR_BAD_XDR);
	if (ret) {
		RR2_CHECK(p.present == 0);
		RR2_CHECK(p.rbsiz == RDMA2_PROP_RBSIZ_DEFAULT);
		return 0;
	}
	RR2_CHECK(p.brs <= RDMA2_RVRSDIR_GENL);
	RR2_CHECK((u64)p.hostauth_offset + p.hostauth_len <= size);
	return 0;
}
