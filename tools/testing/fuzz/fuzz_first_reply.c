// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for rpcrdma2_classify_first_reply() (V2-FRAME-23): whatever the
 * bytes, the classifier reads inside them and a Version 1 ERR_VERS is
 * only ever a 28-octet message.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	enum rpcrdma2_first_reply c;
	u32 low = 0, high = 0;

	if (size > 65536)
		return 0;
	c = rpcrdma2_classify_first_reply(data, size, &low, &high);
	RR2_CHECK(c <= RPCRDMA2_FIRST_GARBAGE);
	if (c == RPCRDMA2_FIRST_V1_ERR_VERS)
		RR2_CHECK(size == RPCRDMA1_HDRLEN_ERR_VERS && low == 1);
	return 0;
}
