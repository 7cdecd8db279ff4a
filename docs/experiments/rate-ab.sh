#!/bin/bash
# One 15 s run of the netty client at the highest rate against bench rate's lighttpd (started by hand on core 1:
#   taskset -c 1 lighttpd -D -f RATE_DIR/lighttpd.conf &), pinned to core 0; prints its run-phase CPU per request.
# For A/B comparisons of two jars, alternate them: for i in 1 2 3; do rate-ab.sh old OLD.jar; rate-ab.sh new NEW.jar; done
# usage: LIGHTTPD_CONF=RATE_DIR/lighttpd.conf rate-ab.sh label jar [extra java options]
P=$(grep server.port "${LIGHTTPD_CONF:?set LIGHTTPD_CONF}" | grep -o '[0-9]*')
J=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
label=$1; jar=$2; shift 2
out=/tmp/ab-$label-$RANDOM
taskset -c 0 $J "$@" -Xmx512m -jar $jar run --target http://127.0.0.1:$P --backend netty --users 64 --think-scale 0 --ramp-up 5s --duration 15s --ramp-down 0 --seed 1 --no-progress --out $out > $out.out 2>&1
python3 - $out $label <<'PY'
import json,sys
d=json.load(open(sys.argv[1]+'/summary.json'))
h=d['client_health']
bt=h.get('run_cpu_us_per_request_by_thread',{})
print(sys.argv[2], 'rps %.0f'%d.get('throughput_rps',0), 'cpu/req', h.get('run_request_cpu_us'), 'sys', h.get('run_system_cpu_us_per_request'), {k:round(v,2) for k,v in bt.items()})
PY
