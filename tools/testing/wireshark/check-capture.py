#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check a QEMU run's capture of the server's NIC with the Wireshark
dissector (tools/wireshark/rpcrdma2.lua).

    check-capture.py [--dissector FILE] [--expect KIND,...] NAME

NAME is a run of tools/testing/qemu/run-scenario.sh made with -p (the
capture, $RR2_OUT/NAME/server.pcap) and rr2.args svcstats=1 (the server
guest's "RR2: INFO svcstats ..." line in $RR2_OUT/NAME/server.console,
printed once the server half has been quiet).  One tshark pass reads
every frame; the checks, each a "PASS e2e.NAME.capture.CHECK" or "FAIL
..." line:

  decoded        every RC Send First or Only whose payload carries
                 rdma_vers 2 (found from the UDP payload's octets, not by
                 the dissector) is a frame the dissector decoded, and
                 nothing else is; at least one
  no-malformed   no frame has a Malformed expert info, from this
                 dissector or from the RPC and NFS dissectors it hands
                 payloads to
  no-lua-error   tshark printed no Lua error and no frame carries one
  KIND           for each KIND of --expect, at least one message of
                 that kind (see KINDS)
  counter.NAME   what the capture shows the client sent, or the server
                 sent, equals the server half's counter NAME (COUNTERS)

Retransmitted Sends (a PSN already seen on that QP) count once.  INFO
lines give each figure and how long tshark took.
"""

import argparse
import os
import re
import struct
import subprocess
import sys
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..",
                                    ".."))
OUT = os.path.join(os.environ.get("RPCRDMA2_CACHE", "/var/cache/rpcrdma2"),
                   "out")
SERVER = {"10.111.0.1", "fd00:111::1", "10.112.0.1", "fd00:112::1"}
FIELDS = ["frame.number", "ip.src", "ipv6.src", "infiniband.bth.opcode",
          "udp.payload", "rpcrdma2.htype", "rpcrdma2.xid", "rpcrdma2.flags",
          "rpcrdma2.cont.seq", "rpcrdma2.credit_grant",
          "rpcrdma2.retransmission", "rpcrdma2.reads", "rpcrdma2.writes",
          "rpcrdma2.reply", "rpcrdma2.err", "rpcrdma2.snaplen",
          "rpcrdma2.v1_err_vers", "_ws.malformed", "_ws.expert.message"]

# RC Send opcodes that start a message; those that carry an ImmDt or IETH
SEND_START = {0x00: 0, 0x04: 0, 0x05: 4, 0x17: 4}

# kind: (description, test on a decoded message)
KINDS = {
    "call": ("forward Call (MSG or NOMSG, client to server)",
             lambda m: m["c2s"] and m["htype"] in (0, 1) and
             not m["resp"] and m["xid"] != 0),
    "reply": ("forward Reply (MSG, server to client)",
              lambda m: not m["c2s"] and m["htype"] == 0 and m["resp"]),
    "reverse-call": ("reverse-direction Call (server to client)",
                     lambda m: not m["c2s"] and m["htype"] == 0 and
                     not m["resp"]),
    "reverse-reply": ("reverse-direction Reply (client to server)",
                      lambda m: m["c2s"] and m["htype"] == 0 and m["resp"]),
    "connprop-c2s": ("CONNPROP from the client",
                     lambda m: m["c2s"] and m["htype"] == 5),
    "connprop-s2c": ("CONNPROP from the server",
                     lambda m: not m["c2s"] and m["htype"] == 5),
    "grant": ("credit grant (NOMSG, xid 0, from the server)",
              lambda m: not m["c2s"] and m["grant"]),
    "initxch-c2s": ("INITXCH from the client",
                    lambda m: m["c2s"] and m["htype"] == 0xffffff01),
    "initxch-s2c": ("INITXCH from the server",
                    lambda m: not m["c2s"] and m["htype"] == 0xffffff01),
    "cont-c2s": ("continued Call (a sequence's second message or later)",
                 lambda m: m["c2s"] and m["seq"] > 1),
    "cont-s2c": ("continued Reply (a sequence's second message or later)",
                 lambda m: not m["c2s"] and m["seq"] > 1),
    "read-chunk": ("Read list with segments",
                   lambda m: m["reads"] > 0),
    "write-chunk": ("Write list with chunks", lambda m: m["writes"] > 0),
    "reply-chunk": ("Reply chunk", lambda m: m["reply"] > 0),
    "error": ("RDMA2_ERROR", lambda m: m["htype"] == 4),
}

# counter: (server counter, description, test on a decoded message)
COUNTERS = [
    ("rdma_stat_recv", "Calls the client sent (MSG or NOMSG, xid not 0, "
     "the last message of a sequence)",
     lambda m: m["c2s"] and m["htype"] in (0, 1) and not m["resp"] and
     m["xid"] != 0 and not m["more"]),
    ("rpcrdma2_cont_recv", "continued messages the client sent (last "
     "message of a sequence of two or more)",
     lambda m: m["c2s"] and m["htype"] == 0 and not m["more"] and
     m["seq"] > 1),
    ("rpcrdma2_cont_sent", "continued Replies the server sent",
     lambda m: not m["c2s"] and m["htype"] == 0 and m["resp"] and
     not m["more"] and m["seq"] > 1),
    ("rpcrdma2_grants_sent", "credit grants the server sent",
     lambda m: not m["c2s"] and m["grant"]),
    ("rpcrdma2_conns_v2", "connections that settled Version 2 (the "
     "client's CONNPROP, TPMORE clear, opens each)",
     lambda m: m["c2s"] and m["htype"] == 5 and not m["tpmore"]),
]


def svcstats(console):
    """the server's last svcstats line as a dict, or None"""
    found = None
    with open(console, errors="replace") as f:
        for line in f:
            line = line.replace("\r", "").rstrip("\n")
            if line.startswith("RR2: INFO svcstats "):
                found = line
    if found is None:
        return None
    out = {}
    for word in found.split()[3:]:
        k, _, v = word.partition("=")
        if v.isdigit():
            out[k] = int(v)
    return out


def v2_send_start(opcode, payload_hex):
    """from the octets alone: an RC Send First/Only carrying rdma_vers 2"""
    if opcode not in SEND_START:
        return False
    raw = bytes.fromhex(payload_hex.replace(":", ""))
    off = 12 + SEND_START[opcode]       # BTH, then ImmDt or IETH
    return len(raw) >= off + 8 and raw[off + 4:off + 8] == b"\0\0\0\2"


def v1_call(opcode, payload_hex):
    """from the octets alone: an RC Send First/Only carrying a Version 1
    Call (RDMA_NOMSG, or RDMA_MSG with a chunk or an RPC CALL inline)"""
    if opcode not in SEND_START:
        return False
    raw = bytes.fromhex(payload_hex.replace(":", ""))
    h = raw[12 + SEND_START[opcode]:]
    if len(h) < 16:
        return False
    xid, vers, _, proc = struct.unpack(">4I", h[:16])
    if vers != 1 or xid == 0:
        return False
    if proc == 1:                       # RDMA_NOMSG: a Call's body read
        return True
    if proc != 0 or len(h) < 36:
        return False
    # a Read list, a Write list or a Reply chunk: only Calls have them
    if any(struct.unpack(">3I", h[16:28])):
        return True
    return struct.unpack(">I", h[32:36])[0] == 0        # msg_type CALL


def v1_calls(pcap):
    """Version 1 Calls in @pcap (client2's link), each Send once"""
    cmd = ["tshark", "-n", "-r", pcap, "-Y", "infiniband.bth.opcode in "
           "{%s}" % ",".join(str(op) for op in sorted(SEND_START)),
           "-T", "fields", "-E", "separator=/t", "-e", "ip.src",
           "-e", "infiniband.bth.destqp", "-e", "infiniband.bth.psn",
           "-e", "infiniband.bth.opcode", "-e", "udp.payload"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None
    seen = set()
    for line in r.stdout.splitlines():
        src, qp, psn, op, payload = (line.split("\t") + [""] * 5)[:5]
        if src in SERVER or not op or not payload or \
           not v1_call(int(op), payload):
            continue
        seen.add((src, qp, psn))
    return len(seen)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dissector",
                    default=os.path.join(REPO, "tools", "wireshark",
                                         "rpcrdma2.lua"))
    ap.add_argument("--expect", default="call,reply")
    ap.add_argument("name")
    args = ap.parse_args()
    name = "e2e.%s.capture" % args.name
    run = os.path.join(OUT, args.name)
    pcap = os.path.join(run, "server.pcap")
    console = os.path.join(run, "server.console")
    failed = 0

    def result(ok, check, why=""):
        nonlocal failed
        if ok:
            print("PASS %s.%s" % (name, check))
        else:
            failed += 1
            print("FAIL %s.%s%s" % (name, check, " (%s)" % why if why
                                    else ""))

    if not os.path.isfile(pcap):
        result(False, "tshark", "no capture " + pcap)
        return 1
    # every frame is dissected; printed are those that start a Send and
    # those with a Malformed, a Lua error or any warning or error
    cmd = ["tshark", "-n", "-r", pcap, "-X", "lua_script:" + args.dissector,
           "-Y", "infiniband.bth.opcode in {%s} || _ws.malformed || "
           "_ws.expert.severity >= 0x00600000" %
           ",".join(str(op) for op in sorted(SEND_START)),
           "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=,",
           "-E", "separator=/t"]
    for f in FIELDS:
        cmd += ["-e", f]
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.time() - t0
    print("INFO capture %s: %d octets" % (args.name, os.path.getsize(pcap)),
          file=sys.stderr)
    print("INFO time %s.tshark %d s" % (name, secs), file=sys.stderr)
    lua_err = [x for x in r.stderr.splitlines() if "Lua" in x]
    if r.returncode != 0:
        result(False, "tshark", "exit %d: %s" % (r.returncode,
                                                r.stderr.strip()[:200]))
        return 1

    msgs, oracle, decoded, malformed, lua_frames = [], set(), set(), [], []
    cut = retrans = 0
    for line in r.stdout.splitlines():
        row = dict(zip(FIELDS, line.split("\t")))
        n = int(row["frame.number"])
        if row["_ws.malformed"]:
            malformed.append(n)
        expert = row["_ws.expert.message"]
        if "Lua Error" in expert or "dissector error" in expert:
            lua_frames.append(n)
        if row["infiniband.bth.opcode"] and row["udp.payload"] and \
           v2_send_start(int(row["infiniband.bth.opcode"]),
                         row["udp.payload"]):
            oracle.add(n)
        if not row["rpcrdma2.htype"]:
            continue
        decoded.add(n)
        if row["rpcrdma2.snaplen"]:
            cut += 1
        if row["rpcrdma2.retransmission"]:
            retrans += 1
        if row["rpcrdma2.v1_err_vers"] or row["rpcrdma2.retransmission"]:
            continue
        src = row["ip.src"] or row["ipv6.src"]
        flags = int(row["rpcrdma2.flags"] or "0", 16)

        def num(field):
            return int(row[field].split(",")[0] or 0) if row[field] else 0
        msgs.append({
            "frame": n, "c2s": src not in SERVER,
            "htype": int(row["rpcrdma2.htype"], 16),
            "xid": int(row["rpcrdma2.xid"], 16),
            "resp": bool(flags & 1), "more": bool(flags & 2),
            "tpmore": bool(flags & 4),
            "seq": num("rpcrdma2.cont.seq"),
            "grant": bool(row["rpcrdma2.credit_grant"]),
            "reads": num("rpcrdma2.reads"),
            "writes": num("rpcrdma2.writes"),
            "reply": num("rpcrdma2.reply"),
        })

    print("INFO capture %s: %d Version 2 messages decoded, %d of them "
          "retransmitted, %d headers cut by the snapshot length" %
          (args.name, len(msgs) + retrans, retrans, cut), file=sys.stderr)
    missed = sorted(oracle - decoded)
    extra = sorted(decoded - oracle)
    result(oracle and not missed and not extra, "decoded",
           "%d Version 2 Sends, %d decoded; not decoded: frames %s; "
           "decoded but no Version 2 Send: frames %s" %
           (len(oracle), len(decoded), missed[:5], extra[:5]))
    result(not malformed, "no-malformed", "%d frames, first %s" %
           (len(malformed), malformed[:5]))
    result(not lua_err and not lua_frames, "no-lua-error",
           "%s frames %s" % ("; ".join(lua_err[:2]), lua_frames[:5]))

    for kind in [k for k in args.expect.split(",") if k]:
        if kind not in KINDS:
            result(False, "kind." + kind, "unknown kind")
            continue
        what, test = KINDS[kind]
        n = sum(1 for m in msgs if test(m))
        print("INFO capture %s: %d %s" % (args.name, n, what),
              file=sys.stderr)
        result(n > 0, "kind." + kind, "none: " + what)

    stats = svcstats(console) if os.path.isfile(console) else None
    if stats is None:
        result(False, "counters", "no svcstats line in " + console)
        return 1
    # a three-guest run: client2 (Version 1, the server's second NIC,
    # server2.pcap) sends Calls the server counts too
    pcap2 = os.path.join(run, "server2.pcap")
    v1 = 0
    if os.path.isfile(pcap2):
        v1 = v1_calls(pcap2)
        result(v1 is not None, "tshark2", "tshark failed on " + pcap2)
        print("INFO capture %s: %s Version 1 Calls on the second link" %
              (args.name, v1), file=sys.stderr)
    for counter, what, test in COUNTERS:
        n = sum(1 for m in msgs if test(m))
        if counter == "rdma_stat_recv":
            n += v1 or 0
        print("INFO capture %s: %s %d, counter %s %s" %
              (args.name, what, n, counter, stats.get(counter)),
              file=sys.stderr)
        result(stats.get(counter) == n, "counter." + counter,
               "capture %d, %s %s" % (n, counter, stats.get(counter)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
