#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The Wireshark dissector (tools/wireshark/rpcrdma2.lua) on frames
encoded from the specification's XDR (frames.py): every header type,
every rdma_err arm, every property, the four characteristics
operations, chunk lists, Message Continuation, Sends spanning several
packets, retransmissions, the Version 1 ERR_VERS (V2-FRAME-23), and what must be
flagged as malformed or left alone.

    selftest.py [--dissector FILE] [--keep FILE.pcap]

Prints "PASS wireshark.CASE" or "FAIL wireshark.CASE (why)" per case and
exits non-zero when any failed or tshark could not run.
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True         # nothing built in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import frames as F  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..",
                                    ".."))
FIELDS = ["frame.number", "rpcrdma2.htype", "rpcrdma2.xid",
          "rpcrdma2.flags", "rpcrdma2.cont.seq", "rpcrdma2.cont.end",
          "rpcrdma2.cont.first",
          "rpcrdma2.credit_grant", "rpcrdma2.retransmission",
          "rpcrdma2.send_packet", "rpcrdma2.send_first", "rpcrdma2.err",
          "rpcrdma2.err.vers_low", "rpcrdma2.err.vers_high",
          "rpcrdma2.err.max_chunks", "rpcrdma2.err.max_segments",
          "rpcrdma2.err.chunk_index", "rpcrdma2.err.length_needed",
          "rpcrdma2.prop.id", "rpcrdma2.prop.value", "rpcrdma2.prop.brs",
          "rpcrdma2.prop.hostauth", "rpcrdma2.opaque", "rpcrdma2.xch.id",
          "rpcrdma2.xch.rbsiz", "rpcrdma2.xch.brs", "rpcrdma2.xch.reqreminv",
          "rpcrdma2.xch.subset", "rpcrdma2.xch.pendclr", "rpcrdma2.inv_handle",
          "rpcrdma2.reads", "rpcrdma2.writes", "rpcrdma2.reply",
          "rpcrdma2.segment.position", "rpcrdma2.segment.handle",
          "rpcrdma2.segment.length", "rpcrdma2.segment.offset",
          "rpcrdma2.rpc.xid", "rpcrdma2.payload", "rpcrdma2.v1_err_vers",
          "rpc.xid",
          "rpc.msgtyp", "rpcordma.version", "rpcrdma2.malformed",
          "rpcrdma2.snaplen", "_ws.malformed", "_ws.expert.message"]

# client 10.111.0.2 -> server 10.111.0.1; qp 0x11 each way
C, S = 2, 1
CASES = []


def case(name, payload, want, src=C, **kw):
    """one frame; want: field -> value as tshark prints it ("" = absent);
    malformed is "no" unless want says otherwise"""
    want = dict(want)
    want.setdefault("malformed", "no")
    CASES.append((name, payload, want, src, kw))


P = F.prefix
CL = F.chunk_lists
K = 1 << 20

# ---- CONNPROP: every property of Table 1 and an unknown one --------
case("connprop.all-properties",
     P(0, 5) + F.propset([(1, F.u32(8192)), (2, F.u32(8192)),
                          (3, F.u32(K)), (4, F.u32(16)), (5, F.u32(2)),
                          (6, b"rr2-e2e-key"), (0xffffff10, b"\x01\x02\x03"),
                          (1, b"")]),
     {"rpcrdma2.htype": "0x00000005",
      "rpcrdma2.prop.id": "1,2,3,4,5,6,4294967056,1",
      "rpcrdma2.prop.value": "8192,8192,1048576,16",
      "rpcrdma2.prop.brs": "2",
      "rpcrdma2.prop.hostauth": "7272322d6532652d6b6579",
      "rpcrdma2.opaque": "010203"})
case("connprop.tpmore", P(0, 5, 4) + F.propset([(2, F.u32(4096))]),
     {"rpcrdma2.flags": "0x00000004", "rpcrdma2.prop.value": "4096"},
     src=S)
case("connprop.bad-size", P(0, 5) + F.propset([(1, F.u32(1, 2))]),
     {"malformed": "yes"})
case("connprop.count-past-end", P(0, 5) + F.u32(9) + F.u32(1),
     {"malformed": "yes"})
case("connprop.opaque-past-end", P(0, 5) + F.u32(1, 6, 40) + b"ab",
     {"malformed": "yes"})

# ---- the characteristics exchange (rpcrdma2's experimental types) ---
case("xch.initxch",
     P(0xffffff01, 0xffffff01) +
     F.u32(3) + F.u32(1) + F.opaque(F.u32(8192)) + F.u32(3) +
     F.opaque(F.u32(1)) + F.u32(2) + F.opaque(F.u32(1)) + F.u32(1, 6),
     {"rpcrdma2.htype": "0xffffff01", "rpcrdma2.xch.id": "0x00000001,"
      "0x00000003,0x00000002", "rpcrdma2.xch.rbsiz": "8192",
      "rpcrdma2.xch.brs": "1", "rpcrdma2.xch.reqreminv": "1",
      "rpcrdma2.xch.subset": "0x00000006"})
case("xch.reqxch", P(0x55, 0xffffff02) + F.u32(1, 1) +
     F.opaque(F.u32(2048)),
     {"rpcrdma2.htype": "0xffffff02", "rpcrdma2.xch.rbsiz": "2048"})
case("xch.respxch", P(0x55, 0xffffff03, 1) + F.u32(1, 1, 0, 1, 0),
     {"rpcrdma2.htype": "0xffffff03",
      "rpcrdma2.xch.subset": "0x00000001,0x00000000"},
     src=S)
case("xch.updxch", P(0xffffff04, 0xffffff04) + F.u32(1) +
     F.opaque(F.u32(8192)) + F.u32(0),
     {"rpcrdma2.htype": "0xffffff04", "rpcrdma2.xch.rbsiz": "8192",
      "rpcrdma2.xch.pendclr": "0"}, src=S)
case("xch.bad-bool", P(0xffffff04, 0xffffff04) + F.u32(1) +
     F.opaque(F.u32(8192)) + F.u32(7), {"malformed": "yes"}, src=S)

# ---- RDMA2_MSG and RDMA2_NOMSG with every chunk list -----------------
case("msg.call-read-write-reply",
     P(0x101, 0) + CL(reads=[(0, (0x1234, 4000, 0x7f0000001000)),
                             (0, (0x1235, 96, 0x7f0000002000))],
                      writes=[[(0x2000, 8192, 0x10000),
                               (0x2001, 8192, 0x20000)]],
                      reply=[(0x3000, 4096, 0x30000)]) +
     F.rpc_call(0x101),
     {"rpcrdma2.htype": "0x00000000", "rpcrdma2.reads": "2",
      "rpcrdma2.writes": "1", "rpcrdma2.reply": "1",
      "rpcrdma2.segment.position": "0,0",
      "rpcrdma2.segment.handle": "0x00001234,0x00001235,0x00002000,"
      "0x00002001,0x00003000",
      "rpcrdma2.segment.length": "4000,96,8192,8192,4096",
      "rpcrdma2.segment.offset": "0x00007f0000001000,0x00007f0000002000,"
      "0x0000000000010000,0x0000000000020000,0x0000000000030000",
      "rpc.xid": "", "rpcrdma2.rpc.xid": "0x00000101",
      "rpcrdma2.cont.seq": "1"})
case("msg.call-write-reply-chunks",
     P(0x102, 0) + CL(writes=[[(0x2002, 8192, 0x10000)]],
                      reply=[(0x3001, 4096, 0x30000)]) +
     F.rpc_call(0x102),
     {"rpcrdma2.reads": "0", "rpcrdma2.writes": "1", "rpcrdma2.reply": "1",
      "rpc.xid": "0x00000102", "rpc.msgtyp": "0"})
case("msg.reply-write-list-send-inv",
     P(0x101, 0, 1) + CL(inv=0x2000, writes=[[(0x2000, 5000, 0x10000)]]) +
     F.rpc_reply(0x101),
     {"rpcrdma2.inv_handle": "0x00002000", "rpcrdma2.writes": "1",
      "rpc.xid": "", "rpcrdma2.rpc.xid": "0x00000101",
      "rpcrdma2.flags": "0x00000001"},
     src=S, opcode=F.SEND_ONLY_INV, ieth=0x2000)
case("msg.reply-inline", P(0x102, 0, 1) + CL() + F.rpc_reply(0x102),
     {"rpc.xid": "0x00000102", "rpc.msgtyp": "1"}, src=S)
case("nomsg.credit-grant", P(0, 1, 0, 64) + CL(),
     {"rpcrdma2.credit_grant": "1", "rpcrdma2.htype": "0x00000001"}, src=S)
case("nomsg.special-call",
     P(0x202, 1) + CL(reads=[(0, (0x44, 9000, 0x9000))],
                      reply=[(0x45, 9000, 0xa000)]),
     {"rpcrdma2.credit_grant": "", "rpcrdma2.reads": "1",
      "rpcrdma2.reply": "1"})
case("msg.position-not-aligned",
     P(0x103, 0) + CL(reads=[(6, (1, 8, 0))]) + F.rpc_call(0x103),
     {"malformed": "yes"})
case("msg.bad-discriminator", P(0x104, 0) + F.u32(0, 7) + F.rpc_call(0x104),
     {"malformed": "yes"})
case("msg.segment-count-past-end", P(0x105, 0) + F.u32(0, 0, 1, 1000),
     {"malformed": "yes"})
case("msg.reserved-flag", P(0x106, 0, 0x100) + CL() + F.rpc_call(0x106),
     {"malformed": "yes"})
case("msg.zero-credits", P(0x107, 0, 0, 0) + CL() + F.rpc_call(0x107),
     {"malformed": "yes"})
case("nomsg.trailing-octets", P(0, 1, 0) + CL() + F.u32(5),
     {"malformed": "yes"}, src=S)
case("msg.header-past-end", P(0x108, 0) + F.u32(0), {"malformed": "yes"})

# ---- RDMA2_ERROR: every arm ------------------------------------------
for code, body, want in [
        (1, F.u32(1, 2), {"rpcrdma2.err.vers_low": "1",
                          "rpcrdma2.err.vers_high": "2"}),
        (2, b"", {}), (3, b"", {}), (4, b"", {}), (5, b"", {}),
        (6, F.u32(2), {"rpcrdma2.err.max_chunks": "2"}),
        (7, F.u32(3), {"rpcrdma2.err.max_chunks": "3"}),
        (8, F.u32(32), {"rpcrdma2.err.max_segments": "32"}),
        (9, F.u32(1, 70000), {"rpcrdma2.err.chunk_index": "1",
                              "rpcrdma2.err.length_needed": "70000"}),
        (10, F.u32(9000), {"rpcrdma2.err.length_needed": "9000"}),
        (100, b"", {}), (77, b"", {})]:
    w = {"rpcrdma2.err": str(code)}
    w.update(want)
    case("error.%d" % code, P(0x300 + code, 4, 1) + F.u32(code) + body, w,
         src=S)
case("error.body-past-end", P(0x3ff, 4, 1) + F.u32(9, 1),
     {"malformed": "yes"}, src=S)
case("error.more-flag", P(0x3fe, 4, 3) + F.u32(2), {"malformed": "yes"},
     src=S)
# V2-FRAME-23 (E-13): a Version 1 server's ERR_VERS to our Version 2 first message
case("error.v1-err-vers-e13", F.u32(0x401, 2, 32, 4, 1, 1, 1),
     {"rpcrdma2.v1_err_vers": "1", "rpcrdma2.htype": "0x00000004",
      "rpcrdma2.err.vers_low": "1", "rpcrdma2.err.vers_high": "1"}, src=S)

# ---- unknown header type: shown, not malformed ------------------------
case("htype.unknown", P(0x500, 2) + F.u32(0, 0, 0, 0),
     {"rpcrdma2.htype": "0x00000002"})

# ---- Message Continuation, a grant in between (V2-CONT-03) ----------
case("cont.first", P(0x600, 0, 2) + CL() + F.rpc_call(0x600) + b"x" * 64,
     {"rpcrdma2.cont.seq": "1", "rpc.xid": "",
      "rpcrdma2.rpc.xid": "0x00000600"})
case("cont.grant-between", P(0, 1) + CL(), {"rpcrdma2.cont.seq": "",
                                            "rpcrdma2.credit_grant": "1"})
case("cont.second", P(0x600, 0, 2) + CL() + b"y" * 64,
     {"rpcrdma2.cont.seq": "2", "rpcrdma2.cont.end": "",
      "rpcrdma2.cont.first": "SELF-2"})
case("cont.last-with-chunks",
     P(0x600, 0) + CL(writes=[[(7, 100, 0)]]) + b"z" * 64,
     {"rpcrdma2.cont.seq": "3", "rpcrdma2.cont.end": "1",
      "rpcrdma2.cont.first": "SELF-3",
      "rpcrdma2.writes": "1", "rpc.xid": ""})
case("cont.chunks-with-more",
     P(0x601, 0, 2) + CL(writes=[[(7, 100, 0)]]) + b"z" * 64,
     {"malformed": "yes"})
case("cont.interrupted", P(0x602, 0) + CL() + F.rpc_call(0x602),
     {"malformed": "yes"})

# ---- a Send in several packets; RDMA Write payload left alone ---------
case("send.first", P(0x700, 0) + CL() + F.rpc_call(0x700) + b"a" * 200,
     {"rpcrdma2.send_packet": "First", "rpcrdma2.rpc.xid": "0x00000700",
      "rpc.xid": ""}, opcode=F.SEND_FIRST)
case("send.middle", P(0x9999, 4) + F.u32(8) + b"b" * 200,
     {"rpcrdma2.send_packet": "Middle", "rpcrdma2.htype": "",
      "rpcrdma2.send_first": "SELF-1"}, opcode=F.SEND_MIDDLE)
case("send.last", P(0x9999, 4) + F.u32(8) + b"c" * 20,
     {"rpcrdma2.send_packet": "Last", "rpcrdma2.htype": "",
      "rpcrdma2.send_first": "SELF-2"}, opcode=F.SEND_LAST)
case("rdma-write.not-claimed", P(0x701, 0) + CL() + b"d" * 64,
     {"rpcrdma2.htype": "", "rpcrdma2.send_packet": ""},
     opcode=F.RDMA_WRITE_ONLY)
case("v1.left-to-rpcordma",
     F.u32(0x702, 1, 32, 0, 0, 0, 0) + F.rpc_call(0x702),
     {"rpcrdma2.htype": "", "rpcordma.version": "1"})

# ---- retransmission, snapshot length -----------------------------------
case("psn.original", P(0x800, 0) + CL() + F.rpc_call(0x800),
     {"rpcrdma2.cont.seq": "1"}, psn=5000)
case("psn.retransmitted", P(0x800, 0) + CL() + F.rpc_call(0x800),
     {"rpcrdma2.retransmission": "SELF-1", "rpcrdma2.cont.seq": ""},
     psn=5000)
case("snaplen.header-cut",
     P(0x900, 0) + CL(writes=[[(i, 4096, i << 12) for i in range(12)]]) +
     F.rpc_call(0x900),
     {"rpcrdma2.snaplen": "1", "rpcrdma2.htype": "0x00000000"}, snap=120)
case("snaplen.icrc-cut", P(0x901, 0) + CL() + F.rpc_call(0x901),
     {"rpcrdma2.htype": "0x00000000", "rpcrdma2.xid": "0x00000901",
      "rpcrdma2.cont.seq": "1", "rpcrdma2.payload": "40"},
     snap=54 + 36 + 40 + 2)


def run(dissector, keep):
    pcap = F.Pcap()
    for _, payload, _, src, kw in CASES:
        pcap.roce(payload, src=src, dst=S if src == C else C,
                  qp=0x11 if src == C else 0x12, **kw)
    with tempfile.TemporaryDirectory() as tmp:
        path = keep or os.path.join(tmp, "selftest.pcap")
        pcap.write(path)
        cmd = ["tshark", "-n", "-r", path, "-X", "lua_script:" + dissector,
               "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=,",
               "-E", "separator=/t"]
        for f in FIELDS:
            cmd += ["-e", f]
        r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or "Lua" in r.stderr:
        print("FAIL wireshark.tshark (exit %d: %s)" %
              (r.returncode, r.stderr.strip()[:300]))
        return 1
    rows = [line.split("\t") for line in r.stdout.splitlines()]
    failed = 0
    if len(rows) != len(CASES):
        print("FAIL wireshark.frames (%d frames decoded, %d written)" %
              (len(rows), len(CASES)))
        return 1
    for n, ((name, _, want, _, _), row) in enumerate(zip(CASES, rows), 1):
        got = dict(zip(FIELDS, row))
        bad = []
        msgs = got["_ws.expert.message"]
        if "Lua Error" in msgs or "dissector error" in msgs:
            bad.append("Lua error: " + msgs)
        malformed = "yes" if got["_ws.malformed"] else "no"
        if malformed != want["malformed"]:
            bad.append("malformed %s, want %s (%s)" %
                       (malformed, want["malformed"], msgs))
        for field, value in want.items():
            if field == "malformed":
                continue
            if value.startswith("SELF-"):
                value = str(n - int(value[5:]))
            if got.get(field, "") != value:
                bad.append("%s=%r, want %r" % (field, got.get(field, ""),
                                               value))
        if bad:
            failed += 1
            print("FAIL wireshark.%s (frame %d: %s)" % (name, n,
                                                       "; ".join(bad)))
        else:
            print("PASS wireshark.%s" % name)
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dissector",
                    default=os.path.join(REPO, "tools", "wireshark",
                                         "rpcrdma2.lua"))
    ap.add_argument("--keep", help="write the frames to this pcap file")
    args = ap.parse_args()
    return run(args.dissector, args.keep)


if __name__ == "__main__":
    sys.exit(main())
