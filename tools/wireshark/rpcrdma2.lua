-- SPDX-License-Identifier: GPL-2.0-only
--
-- Wireshark dissector for RPC-over-RDMA Version 2 (seed 001,
-- draft-ietf-nfsv4-rpcrdma-version-two-01, as repaired in
-- Documentation/spec/rpcrdma2.x and its errata), with the seed 004
-- characteristics exchange on rpcrdma2's experimental header types.
--
-- Load it with "tshark -X lua_script:tools/wireshark/rpcrdma2.lua" or
-- copy it into Wireshark's personal Lua plugins folder.  It registers a
-- heuristic on "infiniband.payload", the table Wireshark's InfiniBand
-- and RoCE dissector offers every packet payload to, beside the built-in
-- Version 1 dissector (rpcordma), which keeps Version 1.
--
-- What is claimed.  An RC Send that starts a message (Send First or
-- Send Only, with or without Immediate or Invalidate) whose second word
-- (rdma_vers) is 2, whose header type is one this file knows (or whose
-- reserved flag bits are clear), and that holds at least the 20-octet
-- prefix.  The Middle and Last packets of a Send whose First was
-- claimed are claimed as continuation packets and never parsed as
-- headers.  RDMA Write and Read payloads are never claimed.  A frame
-- the capture cut short is reached through a postdissector instead
-- (at the end of this file).
--
-- What is decoded: the prefix (xid, version, both credit halves, header
-- type, flags), RDMA2_MSG and RDMA2_NOMSG chunk lists (rdma_inv_handle,
-- Read list with Positions, Write list, Reply chunk, each segment's
-- handle, length and offset), RDMA2_ERROR with every rdma_err arm,
-- RDMA2_CONNPROP with each property ID (unknown ones as opaque), the
-- four characteristics operations (0xFFFFFF01-04), and the Version 1
-- ERR_VERS a Version 1 peer answers a Version 2 message with (V2-FRAME-23).
-- An RPC message that starts and ends in one Send Only, all of it
-- captured and none of it moved into chunks (no Read segment in a
-- Call, no Write chunk in a Reply), is handed to Wireshark's "rpc"
-- dissector.  Any other is summarised (RPC xid and direction) with a
-- note: the first piece of a continued message (F_MORE, or a Send
-- spanning several packets) is not reassembled, and a reduced one lacks
-- what its chunks carry, which the RPC and NFS dissectors would take for
-- a malformed message.
--
-- Message Continuation (V2-CONT-04, V2-CONT-05) is followed per
-- direction and QP: each message gets its position in its sequence
-- (rpcrdma2.cont.seq, 1 for a message on its own) and the frame of the
-- sequence's first message.  A credit grant (RDMA2_NOMSG, xid 0) may come between the
-- messages of a sequence: it carries no Payload stream (V2-CONT-03).
-- A Send First/Only whose PSN came with one of the last 1024 messages
-- on its QP is marked a retransmission and changes no state.  State is
-- built on the first pass over the capture and read back on later ones
-- (pinfo.visited).
--
-- Errors.  A header that runs past the end of its packet, a bad XDR
-- discriminator, a count larger than the octets left, a broken
-- sequence, chunks in a message with F_MORE set, F_MORE on a header
-- type other than MSG and CONNPROP, reserved flag bits, a grant of 0
-- credits, or octets after a header that carries no payload are flagged
-- with the expert info rpcrdma2.malformed (group Malformed).  A header
-- cut by the capture's snapshot length is a note (rpcrdma2.snaplen),
-- not an error.  No input raises a Lua error: the decoder checks every
-- length before it reads, and anything unexpected is caught and
-- flagged as malformed.

local p = Proto.new("rpcrdma2", "RPC-over-RDMA Version 2")

local RDMA2_MSG, RDMA2_NOMSG, RDMA2_ERROR, RDMA2_CONNPROP = 0, 1, 4, 5
local XCH_INIT, XCH_REQ, XCH_RESP, XCH_UPD =
	0xffffff01, 0xffffff02, 0xffffff03, 0xffffff04
local F_RESPONSE, F_MORE, F_TPMORE = 1, 2, 4
local F_RESERVED = 0xfffffff8
local PREFIX = 20
-- a Send whose PSN came with one of the last this many messages on its
-- QP is a retransmission
local RETRANS_WINDOW = 1024

local htypes = {
	[RDMA2_MSG] = "RDMA2_MSG", [RDMA2_NOMSG] = "RDMA2_NOMSG",
	[RDMA2_ERROR] = "RDMA2_ERROR", [RDMA2_CONNPROP] = "RDMA2_CONNPROP",
	[XCH_INIT] = "INITXCH", [XCH_REQ] = "REQXCH",
	[XCH_RESP] = "RESPXCH", [XCH_UPD] = "UPDXCH",
}
local errcodes = {
	[1] = "RDMA2_ERR_VERS", [2] = "RDMA2_ERR_BAD_XDR",
	[3] = "RDMA2_ERR_BAD_PROPVAL", [4] = "RDMA2_ERR_INVAL_HTYPE",
	[5] = "RDMA2_ERR_INVAL_CONT", [6] = "RDMA2_ERR_READ_CHUNKS",
	[7] = "RDMA2_ERR_WRITE_CHUNKS", [8] = "RDMA2_ERR_SEGMENTS",
	[9] = "RDMA2_ERR_WRITE_RESOURCE", [10] = "RDMA2_ERR_REPLY_RESOURCE",
	[100] = "RDMA2_ERR_SYSTEM",
}
local propids = {
	[1] = "SBSIZ (Maximum Send Size)",
	[2] = "RBSIZ (Receive Buffer Size)",
	[3] = "RSSIZ (Maximum RDMA Segment Size)",
	[4] = "RCSIZ (Maximum RDMA Segment Count)",
	[5] = "BRS (Reverse-Direction Support)",
	[6] = "HOSTAUTH (Host Authentication Message)",
}
local rvrsdir = {
	[0] = "RDMA2_RVRSDIR_NONE", [1] = "RDMA2_RVRSDIR_SIMPLE",
	[2] = "RDMA2_RVRSDIR_CONT", [3] = "RDMA2_RVRSDIR_GENL",
}
local xcharids = {
	[1] = "XCHAR_RBSIZ", [2] = "XCHAR_REQREMINV", [3] = "XCHAR_BRS",
}
local bkreqsup = {
	[0] = "BKREQSUP_NONE", [1] = "BKREQSUP_INLINE", [2] = "BKREQSUP_GENL",
}
local packets = { "Only", "First", "Middle", "Last" }

local hf = {
	xid = ProtoField.uint32("rpcrdma2.xid", "XID", base.HEX),
	vers = ProtoField.uint32("rpcrdma2.vers", "Version", base.DEC),
	credit = ProtoField.uint32("rpcrdma2.credit", "Credit", base.HEX),
	granted = ProtoField.uint32("rpcrdma2.credit.granted",
		"Credits granted", base.DEC, nil, 0x0000ffff),
	outstanding = ProtoField.uint32("rpcrdma2.credit.max",
		"Maximum outstanding at the sender", base.DEC, nil, 0xffff0000),
	htype = ProtoField.uint32("rpcrdma2.htype", "Header type", base.HEX,
		htypes),
	flags = ProtoField.uint32("rpcrdma2.flags", "Flags", base.HEX),
	f_response = ProtoField.bool("rpcrdma2.flags.response", "RESPONSE", 32,
		nil, F_RESPONSE),
	f_more = ProtoField.bool("rpcrdma2.flags.more", "MORE", 32, nil,
		F_MORE),
	f_tpmore = ProtoField.bool("rpcrdma2.flags.tpmore", "TPMORE", 32, nil,
		F_TPMORE),
	f_reserved = ProtoField.uint32("rpcrdma2.flags.reserved",
		"Reserved", base.HEX, nil, F_RESERVED),
	inv = ProtoField.uint32("rpcrdma2.inv_handle", "Invalidate handle",
		base.HEX),
	reads = ProtoField.uint32("rpcrdma2.reads", "Read list: segments",
		base.DEC),
	writes = ProtoField.uint32("rpcrdma2.writes", "Write list: chunks",
		base.DEC),
	reply = ProtoField.uint32("rpcrdma2.reply", "Reply chunk: segments",
		base.DEC),
	nsegs = ProtoField.uint32("rpcrdma2.chunk.nsegs", "Segments", base.DEC),
	position = ProtoField.uint32("rpcrdma2.segment.position", "Position",
		base.DEC),
	handle = ProtoField.uint32("rpcrdma2.segment.handle", "Handle",
		base.HEX),
	length = ProtoField.uint32("rpcrdma2.segment.length", "Length",
		base.DEC),
	offset = ProtoField.uint64("rpcrdma2.segment.offset", "Offset",
		base.HEX),
	err = ProtoField.uint32("rpcrdma2.err", "Error", base.DEC, errcodes),
	vers_low = ProtoField.uint32("rpcrdma2.err.vers_low", "Lowest version",
		base.DEC),
	vers_high = ProtoField.uint32("rpcrdma2.err.vers_high",
		"Highest version", base.DEC),
	max_chunks = ProtoField.uint32("rpcrdma2.err.max_chunks",
		"Maximum chunks", base.DEC),
	max_segments = ProtoField.uint32("rpcrdma2.err.max_segments",
		"Maximum segments", base.DEC),
	chunk_index = ProtoField.uint32("rpcrdma2.err.chunk_index",
		"Chunk index", base.DEC),
	length_needed = ProtoField.uint32("rpcrdma2.err.length_needed",
		"Length needed", base.DEC),
	nprops = ProtoField.uint32("rpcrdma2.props", "Properties", base.DEC),
	propid = ProtoField.uint32("rpcrdma2.prop.id", "Property", base.DEC,
		propids),
	proplen = ProtoField.uint32("rpcrdma2.prop.len", "Length", base.DEC),
	propval = ProtoField.uint32("rpcrdma2.prop.value", "Value", base.DEC),
	brs = ProtoField.uint32("rpcrdma2.prop.brs", "BRS", base.DEC, rvrsdir),
	hostauth = ProtoField.bytes("rpcrdma2.prop.hostauth", "Host auth"),
	opaque = ProtoField.bytes("rpcrdma2.opaque", "Opaque data"),
	nxchars = ProtoField.uint32("rpcrdma2.xch.count", "Characteristics",
		base.DEC),
	xcharid = ProtoField.uint32("rpcrdma2.xch.id", "Characteristic",
		base.HEX, xcharids),
	xcharlen = ProtoField.uint32("rpcrdma2.xch.len", "Length", base.DEC),
	xrbsiz = ProtoField.uint32("rpcrdma2.xch.rbsiz", "Receive buffer size",
		base.DEC),
	xreqrem = ProtoField.uint32("rpcrdma2.xch.reqreminv",
		"Requester remote invalidation", base.DEC, { [0] = "FALSE",
		[1] = "TRUE" }),
	xbrs = ProtoField.uint32("rpcrdma2.xch.brs", "Backward request support",
		base.DEC, bkreqsup),
	subset = ProtoField.uint32("rpcrdma2.xch.subset", "Subset word",
		base.HEX),
	pendclr = ProtoField.uint32("rpcrdma2.xch.pendclr", "Pending cleared",
		base.DEC, { [0] = "FALSE", [1] = "TRUE" }),
	payload = ProtoField.uint32("rpcrdma2.payload", "Payload octets",
		base.DEC),
	rpc_xid = ProtoField.uint32("rpcrdma2.rpc.xid", "RPC XID", base.HEX),
	rpc_type = ProtoField.uint32("rpcrdma2.rpc.msgtype", "RPC message type",
		base.DEC, { [0] = "Call", [1] = "Reply" }),
	seq = ProtoField.uint32("rpcrdma2.cont.seq", "Message in sequence",
		base.DEC),
	seq_first = ProtoField.framenum("rpcrdma2.cont.first",
		"Sequence starts in frame"),
	seq_end = ProtoField.bool("rpcrdma2.cont.end", "Ends a continued sequence"),
	grant = ProtoField.bool("rpcrdma2.credit_grant", "Credit grant only"),
	packet = ProtoField.string("rpcrdma2.send_packet", "Send packet"),
	send_first = ProtoField.framenum("rpcrdma2.send_first",
		"Send starts in frame"),
	retrans = ProtoField.framenum("rpcrdma2.retransmission",
		"Retransmission of frame"),
	v1_errvers = ProtoField.bool("rpcrdma2.v1_err_vers",
		"Version 1 ERR_VERS (E-13)"),
}
p.fields = hf

local ei = {
	malformed = ProtoExpert.new("rpcrdma2.malformed",
		"Malformed RPC-over-RDMA Version 2 message",
		expert.group.MALFORMED, expert.severity.ERROR),
	snaplen = ProtoExpert.new("rpcrdma2.snaplen",
		"Header continues beyond the captured octets",
		expert.group.UNDECODED, expert.severity.NOTE),
	unreassembled = ProtoExpert.new("rpcrdma2.unreassembled",
		"RPC message continues after this packet: not reassembled",
		expert.group.REASSEMBLE, expert.severity.NOTE),
	reduced = ProtoExpert.new("rpcrdma2.reduced",
		"RPC message reduced: its data moves by RDMA, in chunks",
		expert.group.UNDECODED, expert.severity.NOTE),
	continuation = ProtoExpert.new("rpcrdma2.continuation",
		"Continuation packet of a Send", expert.group.SEQUENCE,
		expert.severity.CHAT),
	retrans = ProtoExpert.new("rpcrdma2.retrans",
		"Retransmitted Send", expert.group.SEQUENCE,
		expert.severity.NOTE),
	unknown = ProtoExpert.new("rpcrdma2.unknown",
		"Unknown value", expert.group.PROTOCOL, expert.severity.WARN),
}
p.experts = ei

local f_opcode = Field.new("infiniband.bth.opcode")
local f_destqp = Field.new("infiniband.bth.destqp")
local f_psn = Field.new("infiniband.bth.psn")

local rpc = Dissector.get("rpc")
local band = bit32.band

-- RC Send opcodes (IBA Table 38): what each packet of a Send is
local send_ops = {
	[0x00] = "First", [0x01] = "Middle", [0x02] = "Last",
	[0x03] = "Last", [0x04] = "Only", [0x05] = "Only",
	[0x16] = "Last", [0x17] = "Only",
}

-- Per frame, what the first pass decided; per stream (direction + QP),
-- the state the first pass carries from frame to frame.
local frames = {}
local streams = {}

function p.init()
	frames = {}
	streams = {}
end

-- A cursor over the header: every read is checked first.  need() says
-- whether n more octets are there; when not, it flags why (the packet
-- ends: malformed; the capture was cut: a note) once and stops.
local Cur = {}
Cur.__index = Cur

-- tvb holds the captured octets of the payload, rep its length as sent
local function cursor(tvb, rep, tree, first_packet)
	return setmetatable({ tvb = tvb, rep = rep, tree = tree, off = 0,
		bad = false, cut = false, first = first_packet }, Cur)
end

function Cur:malformed(item, why)
	(item or self.tree):add_proto_expert_info(ei.malformed, why)
	self.bad = true
end

function Cur:need(n, item, what)
	if self.bad or self.cut then
		return false
	end
	local want = self.off + n
	if want > self.rep then
		if self.first then
			-- a Send First: the header would go on in the next packet
			(item or self.tree):add_proto_expert_info(ei.snaplen,
				what .. " continues in the next packet of the Send")
			self.cut = true
		else
			self:malformed(item, what .. ": the message ends after " ..
				self.rep .. " octets")
		end
		return false
	end
	if want > self.tvb:len() then
		(item or self.tree):add_proto_expert_info(ei.snaplen,
			what .. " (captured " .. self.tvb:len() .. " of " ..
			self.rep .. " octets)")
		self.cut = true
		return false
	end
	return true
end

-- read a uint32 into tree t as field f; returns the value or nil
function Cur:u32(t, f, what)
	if not self:need(4, t, what) then
		return nil
	end
	local r = self.tvb:range(self.off, 4)
	self.off = self.off + 4
	if f then
		t:add(f, r)
	end
	return r:uint()
end

-- an XDR bool (list discriminator): 0 or 1, anything else is malformed
function Cur:bool(t, what)
	local v = self:u32(t, nil, what)
	if v ~= nil and v > 1 then
		self:malformed(t, what .. ": XDR discriminator " .. v ..
			" is neither 0 nor 1")
		return nil
	end
	return v
end

-- a count of items of at least min octets each, checked against what
-- the message holds before anything is read
function Cur:count(t, f, min, what)
	if not self:need(4, t, what) then
		return nil
	end
	local n = self.tvb:range(self.off, 4):uint()
	local left = self.rep - self.off - 4
	local item = t:add(f, self.tvb:range(self.off, 4))
	self.off = self.off + 4
	if n * min > left and not self.first then
		self:malformed(item, what .. ": " .. n ..
			" items cannot fit the " .. left .. " octets left")
		return nil
	end
	return n
end

-- rpcrdma2_segment: handle, length, offset (16 octets)
function Cur:segment(t, position)
	local size = position and 20 or 16
	if not self:need(size, t, "segment") then
		return false
	end
	local st = t:add(p, self.tvb:range(self.off, size), "Segment")
	if position then
		st:add(hf.position, self.tvb:range(self.off, 4))
		local pos = self.tvb:range(self.off, 4):uint()
		if pos % 4 ~= 0 then
			self:malformed(st, "Read segment Position " .. pos ..
				" is not a multiple of 4")
		end
		self.off = self.off + 4
	end
	st:add(hf.handle, self.tvb:range(self.off, 4))
	st:add(hf.length, self.tvb:range(self.off + 4, 4))
	st:add(hf.offset, self.tvb:range(self.off + 8, 8))
	st:set_text(string.format("Segment: %s0x%08x:%u@0x%s",
		position and ("pos " .. self.tvb:range(self.off - 4, 4):uint() ..
		" ") or "",
		self.tvb:range(self.off, 4):uint(),
		self.tvb:range(self.off + 4, 4):uint(),
		self.tvb:range(self.off + 8, 8):uint64():tohex()))
	self.off = self.off + 16
	return true
end

-- a Write chunk or the Reply chunk: counted array of segments
function Cur:chunk(t, label)
	local start = self.off
	local ct = t:add(p, self.tvb:range(self.off, 0), label)
	local n = self:count(ct, hf.nsegs, 16, label)
	if n == nil then
		return nil
	end
	for _ = 1, n do
		if not self:segment(ct, false) then
			return nil
		end
	end
	ct:set_len(self.off - start)
	ct:append_text(": " .. n .. " segment" .. (n == 1 and "" or "s"))
	return n
end

-- rpcrdma2_chunk_lists; returns the Read segments, the Write chunks
-- and the Reply chunk's segments (or -1 for none)
function Cur:chunk_lists(t)
	local ct = t:add(p, self.tvb:range(self.off, 0), "Chunk lists")
	local start = self.off
	local nreply = -1
	if self:u32(ct, hf.inv, "rdma_inv_handle") == nil then
		return nil
	end
	-- Read list
	local lt = ct:add(p, self.tvb:range(self.off, 0), "Read list")
	local ls, nr = self.off, 0
	while true do
		local more = self:bool(lt, "Read list")
		if more == nil then
			return nil
		end
		if more == 0 then
			break
		end
		if not self:segment(lt, true) then
			return nil
		end
		nr = nr + 1
	end
	lt:set_len(self.off - ls)
	lt:append_text(": " .. nr .. " segment" .. (nr == 1 and "" or "s"))
	lt:add(hf.reads, nr):set_generated()
	-- Write list
	lt = ct:add(p, self.tvb:range(self.off, 0), "Write list")
	ls = self.off
	local nw = 0
	while true do
		local more = self:bool(lt, "Write list")
		if more == nil then
			return nil
		end
		if more == 0 then
			break
		end
		nw = nw + 1
		if self:chunk(lt, "Write chunk " .. nw) == nil then
			return nil
		end
	end
	lt:set_len(self.off - ls)
	lt:append_text(": " .. nw .. " chunk" .. (nw == 1 and "" or "s"))
	lt:add(hf.writes, nw):set_generated()
	-- Reply chunk
	local more = self:bool(ct, "Reply chunk")
	if more == nil then
		return nil
	end
	if more == 1 then
		local n = self:chunk(ct, "Reply chunk")
		if n == nil then
			return nil
		end
		ct:add(hf.reply, n):set_generated()
		nreply = n
	end
	ct:set_len(self.off - start)
	return nr, nw, nreply
end

-- an XDR opaque<>: length, data, pad to 4
function Cur:opaque(t, flen, what)
	local len = self:count(t, flen, 1, what)
	if len == nil then
		return nil
	end
	local padded = len + (4 - len % 4) % 4
	if not self:need(padded, t, what) then
		return nil
	end
	local r = self.tvb:range(self.off, len)
	self.off = self.off + padded
	return r, len
end

-- rpcrdma2_propset (CONNPROP)
function Cur:propset(t)
	local n = self:count(t, hf.nprops, 8, "property set")
	if n == nil then
		return
	end
	for _ = 1, n do
		local start = self.off
		if not self:need(8, t, "property") then
			return
		end
		local id = self.tvb:range(self.off, 4):uint()
		local pt = t:add(p, self.tvb:range(self.off, 8),
			"Property: " .. (propids[id] or string.format("0x%08x", id)))
		pt:add(hf.propid, self.tvb:range(self.off, 4))
		self.off = self.off + 4
		local r, len = self:opaque(pt, hf.proplen, "property value")
		if r == nil then
			return
		end
		pt:set_len(self.off - start)
		if len == 0 then
			pt:append_text(" (default)")
		elseif id == 6 then
			pt:add(hf.hostauth, r)
		elseif propids[id] then
			if len ~= 4 then
				self:malformed(pt, "property " .. id .. " is " ..
					len .. " octets, not a uint32")
			elseif id == 5 then
				pt:add(hf.brs, r)
				pt:append_text(": " .. (rvrsdir[r:uint()] or r:uint()))
			else
				pt:add(hf.propval, r)
				pt:append_text(": " .. r:uint())
			end
		else
			pt:add(hf.opaque, r)
		end
	end
end

-- xcharval (seed 004): id, opaque data in the type of Table 1
function Cur:xcharval(t)
	local start = self.off
	if not self:need(8, t, "characteristic") then
		return false
	end
	local id = self.tvb:range(self.off, 4):uint()
	local xt = t:add(p, self.tvb:range(self.off, 8), "Characteristic: " ..
		(xcharids[id] or string.format("0x%08x", id)))
	xt:add(hf.xcharid, self.tvb:range(self.off, 4))
	self.off = self.off + 4
	local r, len = self:opaque(xt, hf.xcharlen, "characteristic value")
	if r == nil then
		return false
	end
	xt:set_len(self.off - start)
	local f = ({ hf.xrbsiz, hf.xreqrem, hf.xbrs })[id]
	if f and len == 4 then
		xt:add(f, r)
	elseif f then
		self:malformed(xt, "characteristic " .. id .. " is " .. len ..
			" octets, not 4")
	elseif len > 0 then
		xt:add(hf.opaque, r)
	end
	return true
end

function Cur:xcharspec(t, label)
	local st = t:add(p, self.tvb:range(self.off, 0), label)
	local start = self.off
	local n = self:count(st, hf.nxchars, 8, label)
	if n == nil then
		return false
	end
	for _ = 1, n do
		if not self:xcharval(st) then
			return false
		end
	end
	st:set_len(self.off - start)
	return true
end

function Cur:subset(t, label)
	local st = t:add(p, self.tvb:range(self.off, 0), label)
	local start = self.off
	local n = self:count(st, hf.nxchars, 4, label)
	if n == nil then
		return false
	end
	for _ = 1, n do
		if self:u32(st, hf.subset, label) == nil then
			return false
		end
	end
	st:set_len(self.off - start)
	return true
end

-- the seed 004 operations' bodies
function Cur:xch(t, htype)
	if htype == XCH_INIT then
		return self:xcharspec(t, "optixch_start") and
			self:subset(t, "optixch_nochg")
	elseif htype == XCH_REQ then
		return self:xcharspec(t, "optreqxch_want")
	elseif htype == XCH_RESP then
		return self:subset(t, "optrespxch_done") and
			self:subset(t, "optrespxch_rej") and
			self:subset(t, "optrespxch_pend")
	end
	if not self:xcharval(t) then
		return false
	end
	local v = self:u32(t, hf.pendclr, "optupdxch_pendclr")
	if v ~= nil and v > 1 then
		self:malformed(t, "optupdxch_pendclr " .. v .. " is no XDR bool")
	end
	return v ~= nil
end

-- rpcrdma2_error
function Cur:error_body(t)
	local code = self:u32(t, hf.err, "rdma_err")
	if code == nil then
		return nil
	end
	if code == 1 then
		self:u32(t, hf.vers_low, "rdma_vers_low")
		self:u32(t, hf.vers_high, "rdma_vers_high")
	elseif code == 6 or code == 7 then
		self:u32(t, hf.max_chunks, "rdma_max_chunks")
	elseif code == 8 then
		self:u32(t, hf.max_segments, "rdma_max_segments")
	elseif code == 9 then
		self:u32(t, hf.chunk_index, "rdma_chunk_index")
		self:u32(t, hf.length_needed, "rdma_length_needed")
	elseif code == 10 then
		self:u32(t, hf.length_needed, "rdma_length_needed")
	elseif not errcodes[code] then
		t:add_proto_expert_info(ei.unknown, "unknown rdma_err " .. code)
	end
	return code
end

local function stream_key(pinfo)
	local qp = f_destqp()
	return tostring(pinfo.net_src) .. ">" .. tostring(pinfo.net_dst) ..
		":" .. (qp and qp.value or "?")
end

-- first pass: the state of a message that starts a Send.  Returns the
-- frame's record: seq, first, ends, retrans, and why it broke a sequence
local function track_message(pinfo, key, xid, htype, flags, grant)
	local s = streams[key]
	if s == nil then
		s = { psns = {}, n = 0 }
		streams[key] = s
	end
	local rec = { seq = 1, first = pinfo.number }
	local psn = f_psn()
	psn = psn and psn.value
	-- a PSN seen among the last messages: a QP number used again by
	-- a later connection starts a PSN space of its own
	local seen = psn ~= nil and s.psns[psn]
	if seen and s.n - seen.n < RETRANS_WINDOW then
		rec.retrans = seen.frame
		return rec
	end
	s.n = s.n + 1
	if psn ~= nil then
		s.psns[psn] = { frame = pinfo.number, n = s.n }
	end
	local more = band(flags, F_MORE) ~= 0
	if grant and s.open then
		-- not part of the sequence, and no Payload stream (V2-CONT-03)
		rec.seq = 0
		return rec
	end
	if s.open then
		if s.open.xid ~= xid or s.open.htype ~= htype then
			rec.broken = string.format("sequence from frame %u " ..
				"(xid 0x%08x, type 0x%x) interrupted by xid 0x%08x, " ..
				"type 0x%x (V2-CONT-06)", s.open.first, s.open.xid,
				s.open.htype, xid, htype)
			s.open = nil
		else
			s.open.n = s.open.n + 1
			rec.seq = s.open.n
			rec.first = s.open.first
			if not more then
				rec.ends = true
				s.open = nil
			end
			return rec
		end
	end
	if more then
		s.open = { xid = xid, htype = htype, first = pinfo.number, n = 1 }
	end
	return rec
end

-- the RPC message that starts in this payload: to "rpc" when all of it
-- is here (one Send Only, no F_MORE, not cut by the capture), else
-- summarised
local function payload(c, pinfo, tree, root, whole, reduced)
	local left = c.rep - c.off
	tree:add(hf.payload, left):set_generated()
	if left <= 0 then
		return
	end
	local ptvb = c.tvb:range(c.off):tvb()
	if whole and not reduced and c.rep == c.tvb:len() then
		-- RoCEv2's UDP source port differs per direction: one port
		-- both ways lets "rpc" match a Reply to its Call
		pinfo.src_port = 4791
		pinfo.dst_port = 4791
		if not pcall(function() rpc:call(ptvb, pinfo, root) end) then
			tree:add_proto_expert_info(ei.malformed,
				"the rpc dissector could not decode the payload")
		end
		return
	end
	if ptvb:len() >= 8 then
		tree:add(hf.rpc_xid, ptvb:range(0, 4))
		tree:add(hf.rpc_type, ptvb:range(4, 4))
	end
	if not whole then
		tree:add_proto_expert_info(ei.unreassembled)
	elseif reduced then
		tree:add_proto_expert_info(ei.reduced)
	end
end

local function dissect_header(tvb, rep, pinfo, root, kind, rec)
	local tree = root:add(p, tvb:range(0, PREFIX))
	local c = cursor(tvb, rep, tree, kind == "First")
	tree:add(hf.packet, kind):set_generated()
	local xid = c:u32(tree, hf.xid, "prefix")
	tree:add(hf.vers, tvb:range(4, 4))
	local cr = tree:add(hf.credit, tvb:range(8, 4))
	cr:add(hf.granted, tvb:range(8, 4))
	cr:add(hf.outstanding, tvb:range(8, 4))
	local granted = band(tvb:range(8, 4):uint(), 0xffff)
	local htype = tvb:range(12, 4):uint()
	tree:add(hf.htype, tvb:range(12, 4))
	local flags = tvb:range(16, 4):uint()
	local ft = tree:add(hf.flags, tvb:range(16, 4))
	ft:add(hf.f_response, tvb:range(16, 4))
	ft:add(hf.f_more, tvb:range(16, 4))
	ft:add(hf.f_tpmore, tvb:range(16, 4))
	ft:add(hf.f_reserved, tvb:range(16, 4))
	c.off = PREFIX
	local name = htypes[htype] or string.format("type 0x%08x", htype)
	tree:append_text(", " .. name .. string.format(", xid 0x%08x", xid))
	if rec.retrans then
		tree:add(hf.retrans, rec.retrans):set_generated()
		tree:add_proto_expert_info(ei.retrans)
	elseif rec.seq > 0 then
		local st = tree:add(hf.seq, rec.seq):set_generated()
		if rec.seq > 1 or band(flags, F_MORE) ~= 0 then
			tree:add(hf.seq_first, rec.first):set_generated()
			tree:append_text(", sequence message " .. rec.seq)
		end
		if rec.ends then
			tree:add(hf.seq_end, true):set_generated()
		end
		if rec.broken then
			c:malformed(st, rec.broken)
			c.bad = false
		end
	end
	if band(flags, F_RESERVED) ~= 0 then
		c:malformed(ft, "reserved flag bits set (senders MUST send 0)")
		c.bad = false
	end
	if band(flags, F_MORE) ~= 0 and htype ~= RDMA2_MSG and
	   htype ~= RDMA2_CONNPROP then
		c:malformed(ft, "F_MORE on " .. name .. " (V2-CONT-07)")
		c.bad = false
	end
	if granted == 0 then
		c:malformed(cr, "0 credits granted (E-14)")
		c.bad = false
	end
	local info = name
	local has_payload = false
	-- a message whose RPC data went into chunks is not whole inline
	local reduced = false
	if htype == RDMA2_MSG or htype == RDMA2_NOMSG then
		local nr, nw, nreply = c:chunk_lists(tree)
		local empty = nr == 0 and nw == 0 and nreply == -1
		if nr ~= nil and not empty and band(flags, F_MORE) ~= 0 then
			c:malformed(tree, "chunks in a message with F_MORE set " ..
				"(V2-CONT-08)")
		end
		if htype == RDMA2_NOMSG and empty and xid == 0 then
			tree:add(hf.grant, true):set_generated()
			info = "credit grant"
		end
		has_payload = htype == RDMA2_MSG
		if band(flags, F_RESPONSE) ~= 0 then
			reduced = (nw or 0) > 0
		else
			reduced = (nr or 0) > 0
		end
	elseif htype == RDMA2_ERROR then
		local code = c:error_body(tree)
		if code then
			info = info .. " " .. (errcodes[code] or code)
		end
	elseif htype == RDMA2_CONNPROP then
		c:propset(tree)
	elseif htype >= XCH_INIT and htype <= XCH_UPD then
		c:xch(tree, htype)
	else
		tree:add_proto_expert_info(ei.unknown, "unknown header type " ..
			string.format("0x%08x", htype))
		c.cut = true
	end
	tree:set_len(math.min(c.off, tvb:len()))
	if htype == RDMA2_MSG then
		info = info .. (band(flags, F_RESPONSE) ~= 0 and " Reply" or
			" Call")
	end
	if rec.seq > 1 then
		info = info .. " (continued " .. rec.seq .. ")"
	elseif band(flags, F_MORE) ~= 0 then
		info = info .. " (more)"
	end
	if rec.retrans then
		info = info .. " [retransmission]"
	end
	pinfo.cols.info:append(string.format(" RPCoRDMA2 %s xid 0x%08x;",
		info, xid))
	if c.bad or c.cut then
		return
	end
	if has_payload then
		if rec.seq > 1 then
			tree:add(hf.payload, rep - c.off):set_generated()
			return
		end
		payload(c, pinfo, tree, root, kind == "Only" and
			band(flags, F_MORE) == 0, reduced)
	elseif kind == "Only" and c.off < rep then
		c:malformed(tree, (rep - c.off) ..
			" octets after a header that carries no payload")
	end
end

-- V2-FRAME-23 (E-13): a Version 1 peer answers our first Version 2 message with a
-- 28-octet Version 1 ERR_VERS that echoes rdma_vers 2
local function is_v1_errvers(tvb, rep)
	return rep == 28 and tvb:len() >= 28 and
		tvb:range(12, 4):uint() == RDMA2_ERROR and
		tvb:range(16, 4):uint() == 1 and tvb:range(20, 4):uint() == 1
end

local function dissect_v1_errvers(tvb, pinfo, root)
	local tree = root:add(p, tvb:range(0, 28),
		"RPC-over-RDMA Version 1 ERR_VERS answering Version 2")
	tree:add(hf.v1_errvers, true):set_generated()
	tree:add(hf.xid, tvb:range(0, 4))
	tree:add(hf.vers, tvb:range(4, 4))
	tree:add(hf.credit, tvb:range(8, 4))
	tree:add(hf.htype, tvb:range(12, 4))
	tree:add(hf.err, tvb:range(16, 4))
	tree:add(hf.vers_low, tvb:range(20, 4))
	tree:add(hf.vers_high, tvb:range(24, 4))
	pinfo.cols.info:append(" RPCoRDMA v1 ERR_VERS;")
end

local function continuation_packet(tvb, pinfo, root, kind, first)
	local tree = root:add(p, tvb:range(0, 0), "RPC-over-RDMA Version 2, " ..
		"Send continuation (" .. kind .. ")")
	tree:add(hf.packet, kind):set_generated()
	tree:add(hf.send_first, first):set_generated()
	tree:add_proto_expert_info(ei.continuation)
	pinfo.cols.info:append(" RPCoRDMA2 Send continuation;")
end

-- does this payload look like a Version 2 header (heuristic)?
local function looks_v2(tvb)
	if tvb:len() < PREFIX or tvb:range(4, 4):uint() ~= 2 then
		return false
	end
	local htype = tvb:range(12, 4):uint()
	return htypes[htype] ~= nil or
		band(tvb:range(16, 4):uint(), F_RESERVED) == 0
end

-- first pass: decide what this packet is, and remember it
local function classify(tvb, rep, pinfo, kind)
	local key = stream_key(pinfo)
	local s = streams[key]
	if kind == "Middle" or kind == "Last" then
		if s == nil or s.send_first == nil then
			return nil
		end
		local rec = { cont = s.send_first }
		if kind == "Last" then
			s.send_first = nil
		end
		return rec
	end
	if is_v1_errvers(tvb, rep) then
		return { v1 = true }
	end
	if not looks_v2(tvb) then
		-- someone else's Send: its Middle and Last are not ours
		if s then
			s.send_first = nil
		end
		return nil
	end
	local xid = tvb:range(0, 4):uint()
	local htype = tvb:range(12, 4):uint()
	local grant = htype == RDMA2_NOMSG and xid == 0 and
		tvb:len() >= 36 and tvb:range(24, 4):uint() == 0 and
		tvb:range(28, 4):uint() == 0 and tvb:range(32, 4):uint() == 0
	local rec = track_message(pinfo, key, xid, htype,
		tvb:range(16, 4):uint(), grant)
	streams[key].send_first = kind == "First" and pinfo.number or nil
	return rec
end

-- tvb: the captured octets of one RC Send packet's payload; rep: its
-- length as sent; via: which of the two entries below calls (were a
-- frame to reach both, only the first would decode it).
-- Returns true when the packet is ours.
local function dissect_payload(tvb, rep, pinfo, root, kind, via)
	local rec = frames[pinfo.number]
	if not pinfo.visited and rec == nil then
		rec = classify(tvb, rep, pinfo, kind)
		if rec == nil then
			return false
		end
		rec.via = via
		frames[pinfo.number] = rec
	end
	if rec == nil or rec.via ~= via then
		return false
	end
	pinfo.cols.protocol = "RPCoRDMA2"
	local ok, err = pcall(function()
		if rec.cont then
			continuation_packet(tvb, pinfo, root, kind, rec.cont)
		elseif rec.v1 then
			dissect_v1_errvers(tvb, pinfo, root)
		else
			dissect_header(tvb, rep, pinfo, root, kind, rec)
		end
	end)
	if not ok then
		root:add_proto_expert_info(ei.malformed,
			"dissector error: " .. tostring(err))
	end
	return true
end

-- what the InfiniBand dissector hands its heuristic table: whole packets
local function heuristic(tvb, pinfo, root)
	local op = f_opcode()
	local kind = op and send_ops[op.value]
	if kind == nil then
		return false
	end
	return dissect_payload(tvb, tvb:reported_len(), pinfo, root, kind,
		"heuristic")
end

-- The InfiniBand dissector offers no payload of a frame the capture cut
-- short ("Invalid Packet Length from LRH!").  For those, this
-- postdissector finds the payload after the BTH (and its ImmDt or IETH)
-- itself: its length as sent is the frame's less the ICRC and the pad.
local post = Proto.new("rpcrdma2.cut", "RPC-over-RDMA Version 2 " ..
	"(frames cut by the capture)")

function post.dissector(tvb, pinfo, root)
	if pinfo.caplen >= pinfo.len then
		return
	end
	local op = f_opcode()
	local kind = op and send_ops[op.value]
	if kind == nil or op.offset == nil then
		return
	end
	local bth = op.offset
	local ext = (op.value == 0x03 or op.value == 0x05 or
		op.value == 0x16 or op.value == 0x17) and 4 or 0
	local off = bth + 12 + ext
	if off + 1 > tvb:len() then
		return
	end
	local pad = bit32.rshift(band(tvb:range(bth + 1, 1):uint(), 0x30), 4)
	local rep = pinfo.len - off - 4 - pad
	if rep <= 0 then
		return
	end
	if not dissect_payload(tvb:range(off):tvb(), rep, pinfo, root, kind,
			"post") then
		return
	end
	-- the InfiniBand dissector's summary of a cut frame says
	-- "Malformed": say what the frame is instead
	local qp = f_destqp()
	local info = tostring(pinfo.cols.info):gsub("^Invalid Packet Length " ..
		"from LRH! %[Malformed Packet%]", string.format("RC Send %s " ..
		"QP=0x%06x [cut by the capture] ", kind, qp and qp.value or 0))
	pinfo.cols.info:clear_fence()
	pinfo.cols.info:set(info)
end

p:register_heuristic("infiniband.payload", heuristic)
register_postdissector(post)
