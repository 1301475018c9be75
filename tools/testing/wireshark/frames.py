# SPDX-License-Identifier: GPL-2.0-only
"""RoCEv2 frames for the dissector's self-test, built from the XDR.

Every frame is Ethernet, IPv4, UDP to port 4791, a BTH, an IETH for
Send With Invalidate, the payload and a 4-octet ICRC (not computed:
Wireshark does not check it).  The headers are encoded here from
Documentation/spec/rpcrdma2.x and xcharext.x, not from the module's
codec, so the dissector is checked against the specification.
"""

import struct

SEND_FIRST, SEND_MIDDLE, SEND_LAST, SEND_ONLY = 0x00, 0x01, 0x02, 0x04
SEND_ONLY_INV = 0x17
RDMA_WRITE_ONLY = 0x0a


def u32(*vals):
    return b"".join(struct.pack(">I", v & 0xffffffff) for v in vals)


def u64(v):
    return struct.pack(">Q", v)


def prefix(xid, htype, flags=0, credit=(32 << 16) | 32, vers=2):
    return u32(xid, vers, credit, htype, flags)


def segment(handle, length, offset):
    return u32(handle, length) + u64(offset)


def chunk_lists(inv=0, reads=(), writes=(), reply=None):
    out = u32(inv)
    for pos, seg in reads:
        out += u32(1, pos) + segment(*seg)
    out += u32(0)
    for chunk in writes:
        out += u32(1, len(chunk)) + b"".join(segment(*s) for s in chunk)
    out += u32(0)
    if reply is None:
        out += u32(0)
    else:
        out += u32(1, len(reply)) + b"".join(segment(*s) for s in reply)
    return out


def opaque(data):
    return u32(len(data)) + data + b"\0" * (-len(data) % 4)


def propset(props):
    return u32(len(props)) + b"".join(u32(i) + opaque(d) for i, d in props)


def rpc_call(xid, prog=100003, vers=3, proc=0):
    # RPC Call with AUTH_NONE credential and verifier
    return u32(xid, 0, 2, prog, vers, proc, 0, 0, 0, 0)


def rpc_reply(xid):
    # accepted, AUTH_NONE verifier, SUCCESS
    return u32(xid, 1, 0, 0, 0, 0)


class Pcap:
    """A classic pcap file of Ethernet frames between two hosts."""

    def __init__(self):
        self.frames = []
        self.psn = {}

    def roce(self, payload, src=1, dst=2, qp=0x11, opcode=SEND_ONLY,
             psn=None, ieth=None, snap=None):
        if psn is None:
            psn = self.psn.get((src, qp), 0)
            self.psn[(src, qp)] = psn + 1
        bth = struct.pack(">BBHI", opcode, 0x40, 0xffff, qp & 0xffffff)
        bth += struct.pack(">I", psn & 0xffffff)
        ext = u32(ieth) if ieth is not None else b""
        udp_payload = bth + ext + payload + b"\0\0\0\0"
        udp = struct.pack(">HHHH", 49152 + src, 4791, 8 + len(udp_payload),
                          0) + udp_payload
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0x4000,
                         64, 17, 0, bytes([10, 111, 0, src]),
                         bytes([10, 111, 0, dst])) + udp
        eth = (bytes([0x52, 0x54, 0, 0x72, 0x32, dst]) +
               bytes([0x52, 0x54, 0, 0x72, 0x32, src]) + b"\x08\x00" + ip)
        self.frames.append(eth if snap is None else (eth, snap))

    def write(self, path):
        with open(path, "wb") as f:
            f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535,
                                1))
            for i, fr in enumerate(self.frames):
                data, orig = (fr[0][:fr[1]], len(fr[0])) \
                    if isinstance(fr, tuple) else (fr, len(fr))
                f.write(struct.pack("<IIII", 1000 + i, 0, len(data), orig))
                f.write(data)
