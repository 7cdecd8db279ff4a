#!/usr/bin/env python3
"""Compare rubis-analysis' wire.csv with tshark on the same capture (docs/WIRE.md, "Agreement with tshark").

usage: python3 docs/wire-vs-tshark.py RUN_DIR [PCAP]

tshark dissects the capture (TCP streams, retransmission analysis, payload bytes); this script applies
the method of docs/WIRE.md on tshark's fields: a request is a client payload packet that starts with an
HTTP method (retransmissions excluded), its response runs from the next server payload packet to the last
one before the next request. Requests are paired by client port and order on that port, and every instant
is compared in ns. It also prints tshark's own HTTP dissector count (http.request), which misses requests
whose headers the snap length cut.
"""
import csv, subprocess, sys
from collections import defaultdict
from decimal import Decimal

run = sys.argv[1]
pcap = sys.argv[2] if len(sys.argv) > 2 else run + "/capture.pcap"
METHODS = tuple(m.encode() for m in ("GET ", "POST ", "HEAD ", "PUT ", "DELETE ", "OPTIONS ", "PATCH "))

def tshark(filt, *fields):
    cmd = ["tshark", "-r", pcap, "-o", "tcp.desegment_tcp_streams:FALSE", "-Y", filt, "-T", "fields", "-E", "separator=\t"]
    for f in fields:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]

def ns(epoch):  # "1795324588.588813000" -> int ns, exactly
    return int(Decimal(epoch) * 1_000_000_000)

http_requests = len(tshark("http.request", "frame.number"))
streams = defaultdict(list)
for s, t, sport, dport, payload in tshark("tcp.len > 0 && !tcp.analysis.retransmission", "tcp.stream", "frame.time_epoch",
                                           "tcp.srcport", "tcp.dstport", "tcp.payload"):
    streams[s].append((ns(t), sport, dport, bytes.fromhex(payload.replace(":", ""))))
ts = []
for s, pkts in streams.items():
    current, client = None, None
    for t, sport, dport, data in pkts:
        if client is None and data.startswith(METHODS):
            client = sport
        if client is None:
            continue
        if sport == client:
            if data.startswith(METHODS) and (current is None or current["first"] is not None):
                line = data.split(b"\r\n", 1)[0].decode("latin-1").split(" ")
                current = {"port": client, "req": t, "first": None, "last": None, "status": "0", "uri": line[1] if len(line) > 1 else ""}
                ts.append(current)
        elif current is not None:
            if current["first"] is None:
                current["first"] = t
                current["status"] = data[9:12].decode("latin-1") if data.startswith(b"HTTP/") else "0"
            current["last"] = t

wire = [row for row in csv.DictReader(open(run + "/wire.csv")) if row["match"] != "client-only"]
def key_order(rows, port, t):
    seen, out = defaultdict(int), {}
    for r in sorted(rows, key=t):
        p = port(r)
        out[(p, seen[p])] = r
        seen[p] += 1
    return out
T = key_order(ts, lambda r: r["port"], lambda r: r["req"])
W = key_order(wire, lambda r: r["connection_id"].rsplit(":", 1)[1], lambda r: int(r["wire_request_epoch_ns"]))
paired = set(T) & set(W)
print(f"requests: tshark {len(ts)} (its HTTP dissector: {http_requests}), rubis-analysis {len(wire)}, paired {len(paired)}")
worst = {"request": 0, "first byte": 0, "last byte": 0}
status_mismatch = path_mismatch = 0
for k in paired:
    t, w = T[k], W[k]
    worst["request"] = max(worst["request"], abs(t["req"] - int(w["wire_request_epoch_ns"])))
    if t["first"] is not None and w["wire_first_byte_epoch_ns"]:
        worst["first byte"] = max(worst["first byte"], abs(t["first"] - int(w["wire_first_byte_epoch_ns"])))
        worst["last byte"] = max(worst["last byte"], abs(t["last"] - int(w["wire_last_byte_epoch_ns"])))
    status_mismatch += t["status"] != w["status"]
    path_mismatch += t["uri"] != w["path"]
print("largest difference per instant (ns): " + ", ".join(f"{k} {v}" for k, v in worst.items()))
print(f"status mismatches {status_mismatch}, path mismatches {path_mismatch}")
