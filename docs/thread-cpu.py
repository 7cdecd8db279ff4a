#!/usr/bin/env python3
"""CPU per thread of a running process over a window: python3 docs/thread-cpu.py PID SECONDS.
Sums utime + stime from /proc/PID/task/*/stat per thread name (digits folded to #). Used for docs/BENCHMARKS.md (issue 14)."""
import os,sys,time
pid=sys.argv[1]; secs=float(sys.argv[2])
def snap():
    d={}
    for t in os.listdir(f'/proc/{pid}/task'):
        try:
            s=open(f'/proc/{pid}/task/{t}/stat').read()
            name=s[s.index('(')+1:s.rindex(')')]
            f=s[s.rindex(')')+2:].split()
            d[t]=(name,int(f[11])+int(f[12]))
        except Exception: pass
    return d
def proc():
    f=open(f'/proc/{pid}/stat').read(); f=f[f.rindex(')')+2:].split(); return int(f[11])+int(f[12])
a=snap(); pa=proc(); t0=time.time(); time.sleep(secs); b=snap(); pb=proc(); dt=time.time()-t0
hz=os.sysconf('SC_CLK_TCK')
print(f"process: {(pb-pa)/hz:.3f} s CPU in {dt:.1f} s = {(pb-pa)/hz/dt:.4f} cores")
agg={}
for t,(n,c) in b.items():
    c0=a.get(t,(n,0))[1]; 
    import re; key=re.sub(r'\d+','#',n)
    agg.setdefault(key,[0,0]); agg[key][0]+=c-c0; agg[key][1]+=1
for k,(c,n) in sorted(agg.items(), key=lambda x:-x[1][0]):
    if c>0: print(f"  {k:30s} x{n:4d} {c/hz:.3f} s")
