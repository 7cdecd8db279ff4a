#!/usr/bin/env python3
"""Compare rubis-analysis' wire.csv with tshark on the same capture (docs/WIRE.md, "Agreement with tshark").

usage: python3 docs/wire-vs-tshark.py RUN_DIR [PCAP]

tshark finds the HTTP requests and responses itself (http.request, http.response, http.time); the last
response packet is the last non-retransmitted server payload packet of the stream before the next request,
from tshark's per-packet fields. Requests are paired by client port and order on that port, then every
instant is compared (ns).
"""
import csv, subprocess, sys
from collections import defaultdict
from decimal import Decimal

run = sys.argv[1]
pcap = sys.argv[2] if len(sys.argv) > 2 else run + "/capture.pcap"
NO_REASSEMBLY = ["-o", "tcp.desegment_tcp_streams:FALSE"]

def tshark(filt, *fields):
    cmd = ["tshark", "-r", pcap, *NO_REASSEMBLY, "-Y", filt, "-T", "fields", "-E", "separator=\t"]
    for f in fields:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]

def ns(epoch):  # "1795324588.588813000" -> int ns, exactly
    return int(Decimal(epoch) * 1_000_000_000)

reqs = tshark("http.request", "tcp.stream", "frame.time_epoch", "tcp.srcport", "tcp.dstport", "http.request.uri")
resps = tshark("http.response", "tcp.stream", "frame.time_epoch", "http.time", "http.response.code")
data = tshark("tcp.len > 0 && !tcp.analysis.retransmission", "tcp.stream", "frame.time_epoch", "tcp.srcport")

by_stream = defaultdict(list)
for s, t, cport, sport, uri in reqs:
    by_stream[s].append({"req": ns(t), "port": cport, "sport": sport, "uri": uri})
resp_by_stream = defaultdict(list)
for s, t, dt, code in resps:
    resp_by_stream[s].append((ns(t), code))
pkts = defaultdict(list)
for s, t, sport in data:
    pkts[s].append((ns(t), sport))
ts = []
for s, rs in by_stream.items():
    rs.sort(key=lambda r: r["req"])
    for i, r in enumerate(rs):
        nxt = rs[i + 1]["req"] if i + 1 < len(rs) else None
        first = [t for t, code in resp_by_stream[s] if t >= r["req"] and (nxt is None or t < nxt)]
        codes = [code for t, code in resp_by_stream[s] if t >= r["req"] and (nxt is None or t < nxt)]
        last = [t for t, sp in pkts[s] if sp == r["sport"] and t >= r["req"] and (nxt is None or t < nxt)]
        r["first"] = first[0] if first else None
        r["status"] = codes[0] if codes else "0"
        r["last"] = last[-1] if last else None
        ts.append(r)

wire = [row for row in csv.DictReader(open(run + "/wire.csv")) if row["match"] != "client-only"]
def key_order(rows, port, t):
    seen = defaultdict(int)
    out = {}
    for r in sorted(rows, key=t):
        p = port(r)
        out[(p, seen[p])] = r
        seen[p] += 1
    return out
T = key_order(ts, lambda r: r["port"], lambda r: r["req"])
W = key_order(wire, lambda r: r["connection_id"].rsplit(":", 1)[1], lambda r: int(r["wire_request_epoch_ns"]))
print(f"requests: tshark {len(ts)}, rubis-analysis {len(wire)}, paired {len(set(T) & set(W))}")
worst = {"request": 0, "first byte": 0, "last byte": 0}
status_mismatch = path_mismatch = 0
for k in set(T) & set(W):
    t, w = T[k], W[k]
    worst["request"] = max(worst["request"], abs(t["req"] - int(w["wire_request_epoch_ns"])))
    if t["first"] is not None and w["wire_first_byte_epoch_ns"]:
        worst["first byte"] = max(worst["first byte"], abs(t["first"] - int(w["wire_first_byte_epoch_ns"])))
    if t["last"] is not None and w["wire_last_byte_epoch_ns"]:
        worst["last byte"] = max(worst["last byte"], abs(t["last"] - int(w["wire_last_byte_epoch_ns"])))
    status_mismatch += t["status"] != w["status"]
    path_mismatch += not t["uri"].startswith(w["path"])
print("largest difference per instant (ns): " + ", ".join(f"{k} {v}" for k, v in worst.items()))
print(f"status mismatches {status_mismatch}, path mismatches {path_mismatch}")
