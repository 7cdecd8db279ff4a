#!/usr/bin/env bash
# Builds a Prometheus with the Kubernetes service discovery (kubernetes_sd_configs) from the Go module proxy, for
# KubernetesClusterTest's live view through discovery. Debian's prometheus (2.42.0+ds) is built without it.
#
#   src/test/cluster/build-prometheus.sh     # prints the binary's path; builds it on first use, then reuses it
#
# Only the Kubernetes discovery is compiled in (Prometheus' build tags remove_all_sd + enable_kubernetes_sd, its
# plugins/ folder), and no web UI assets (the test uses the HTTP API only). The build is a scratch module that
# requires github.com/prometheus/prometheus, as local-cluster.sh builds Kubernetes: a main module's replace
# directives would make `go install ...@version` refuse it. The module cache is Go's default one, shared with the
# cluster's build.
#
# Environment:
#   GO                  Go (default /usr/local/go/bin/go, else go on PATH); without one: exit 3, one line why
#   PROMETHEUS_VERSION  the module version (default v0.316.0: Prometheus 3.x is published as v0.3xx.y)
#   OUT_DIR             where the build and its binary are kept (default ${WORK:-/tmp/k8s}/prometheus-<version>)
set -euo pipefail

VERSION=${PROMETHEUS_VERSION:-v0.316.0}
[[ $VERSION =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "build-prometheus.sh: PROMETHEUS_VERSION $VERSION is not vX.Y.Z" >&2; exit 2; }
GO=${GO:-/usr/local/go/bin/go}
[ -x "$GO" ] || GO=$(command -v go || true)
[ -n "$GO" ] && [ -x "$GO" ] || { echo "build-prometheus.sh: no Go (set GO, or install Go 1.26+ at /usr/local/go)" >&2; exit 3; }
DIR=${OUT_DIR:-${WORK:-/tmp/k8s}/prometheus-$VERSION}
BIN=$DIR/prometheus

if [ -x "$BIN" ] && [ "$BIN" -nt "$DIR/go.mod" ]; then echo "$BIN"; exit 0; fi
mkdir -p "$DIR"
cd "$DIR"
cat > go.mod <<EOF
module localprometheus

go 1.26

require github.com/prometheus/prometheus $VERSION
EOF
cat > tools.go <<'EOF'
//go:build tools

package tools

import _ "github.com/prometheus/prometheus/cmd/prometheus"
EOF
rm -f go.sum
t=$(date +%s)
nice -n 19 "$GO" mod tidy >&2
CGO_ENABLED=0 nice -n 19 "$GO" build -p 2 -trimpath -tags remove_all_sd,enable_kubernetes_sd -ldflags "-s -w" \
  -o "$BIN.tmp" github.com/prometheus/prometheus/cmd/prometheus >&2
mv "$BIN.tmp" "$BIN"
echo "build-prometheus.sh: built $BIN in $(( $(date +%s) - t )) s" >&2
echo "$BIN"
