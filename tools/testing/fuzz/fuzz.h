/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the rpcrdma2 codec fuzz targets. */
#ifndef RR2_FUZZ_H
#define RR2_FUZZ_H

#include <stdio.h>
#include <stdlib.h>

#include "shared/codec.h"

/* An invariant of the codec was broken: crash so libFuzzer keeps it. */
#define RR2_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "rpcrdma2 codec invariant: %s (%s:%d)\n",\
			#cond, __FILE__, __LINE__);			\
		abort();						\
	}								\
} while (0)

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

#endif
