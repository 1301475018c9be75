/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rpcrdma2 internal interfaces shared by the client half, the server
 * half and the module core.
 *
 * Prefixes tell the room a symbol lives in: rpcrdma2_* is shared,
 * rpcrdma2_clnt_* is the client half (net/client), rpcrdma2_svc_* is the
 * server half (net/server).
 */
#ifndef RPCRDMA2_H
#define RPCRDMA2_H

#include <linux/types.h>

/* net/shared/main.c: the highest protocol version this host offers */
unsigned int rpcrdma2_max_version(void);

/* net/client/transport.c */
int rpcrdma2_clnt_register(void);
void rpcrdma2_clnt_unregister(void);

/* net/server/transport.c */
int rpcrdma2_svc_register(void);
void rpcrdma2_svc_unregister(void);

#endif /* RPCRDMA2_H */
