#!/usr/bin/env bash
# Builds the rubis-client image without an image registry, from deploy/container/Dockerfile itself, and writes it
# as an archive that a cluster's container runtime imports:
#
#   mvn -B package -DskipTests                      # the jars (rubis-cli/target, rubis-analysis/target)
#   sudo deploy/container/build-image.sh            # -> target/rubis-client-image.tar (docker-archive)
#   sudo ctr -n k8s.io images import target/rubis-client-image.tar     # containerd (or: kind load image-archive,
#                                                                      #  minikube image load)
#
# The Dockerfile's base (eclipse-temurin:25-jre) would come from a registry. Here the base is made locally, with the
# same layout as Temurin's JRE images: a Debian minbase root file system (debootstrap, from the Debian mirror that
# apt uses on this host) and a runtime linked by jlink from a local JDK at /opt/java/openjdk, JAVA_HOME set and its
# bin/ on PATH. buildah then builds the Dockerfile on it (--build-arg BASE_IMAGE), so that the image has the same
# user, directories, jars, entrypoint and command as one built with docker from a registry. buildah and
# debootstrap are Debian packages (apt-get install buildah debootstrap); both need root.
#
# Environment:
#   JDK     the JDK to link the runtime from (default: $JAVA_HOME, else /usr/lib/jvm/temurin-25-jdk-amd64)
#   TAG     the image's name (default rubis-client:0.1.0, which `image: rubis-client:0.1.0` resolves to as
#           docker.io/library/rubis-client:0.1.0)
#   OUT     the archive (default <repository>/target/rubis-client-image.tar)
#   CACHE   where the base's root file system and runtime are kept between builds (default /var/cache/rubis-image)
#   MIRROR  the Debian mirror for debootstrap (default: the first one in /etc/apt/sources.list(.d))
#   SUITE   the Debian release (default: this host's, from /etc/os-release)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
JDK=${JDK:-${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}}
TAG=${TAG:-rubis-client:0.1.0}
OUT=${OUT:-$ROOT/target/rubis-client-image.tar}
CACHE=${CACHE:-/var/cache/rubis-image}

die() { echo "build-image.sh: $*" >&2; exit 1; }
log() { echo "build-image.sh: $*" >&2; }

for tool in buildah debootstrap; do
  command -v "$tool" >/dev/null || die "$tool not found: apt-get install buildah debootstrap"
done
[ "$(id -u)" = 0 ] || die "run as root (debootstrap and buildah's storage need it)"
[ -x "$JDK/bin/jlink" ] || die "no jlink in $JDK/bin: set JDK to a JDK 21+ (not a JRE)"
for jar in rubis-cli/target/rubis-client.jar rubis-analysis/target/rubis-analysis.jar; do
  [ -f "$ROOT/$jar" ] || die "$jar missing: build the jars first (mvn -B package -DskipTests)"
done

if [ -z "${MIRROR:-}" ]; then
  MIRROR=$(grep -hsE '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
    | grep -v security | sed -E 's/^URIs: *//; s/^deb +(\[[^]]*\] +)?//; s/ .*//' | grep -E '/debian/?$' | head -1 || true)
  [ -n "$MIRROR" ] || die "no Debian mirror in /etc/apt/sources.list(.d): set MIRROR"
fi
SUITE=${SUITE:-$(. /etc/os-release && echo "${VERSION_CODENAME:-}")}
[ -n "$SUITE" ] || die "no VERSION_CODENAME in /etc/os-release: set SUITE (e.g. bookworm)"

# ---- the base: Debian minbase + a jlink'd runtime at /opt/java/openjdk
JDK_VERSION=$("$JDK/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')
[ -n "$JDK_VERSION" ] || die "cannot read the version of $JDK/bin/java"
BASE_DIR=$CACHE/$SUITE-jre-$JDK_VERSION
BASE_IMAGE=localhost/rubis-jre-base:$SUITE-${JDK_VERSION//[^A-Za-z0-9_.-]/_}
rootfs=$BASE_DIR/rootfs
if [ ! -x "$rootfs/opt/java/openjdk/bin/java" ]; then
  rm -rf "$BASE_DIR"; mkdir -p "$BASE_DIR"
  log "debootstrap --variant=minbase $SUITE from $MIRROR"
  debootstrap --variant=minbase "$SUITE" "$rootfs.tmp" "$MIRROR" >"$BASE_DIR/debootstrap.log" 2>&1 \
    || die "debootstrap failed: see $BASE_DIR/debootstrap.log"
  rm -rf "$rootfs.tmp"/var/cache/apt/archives/*.deb "$rootfs.tmp"/var/lib/apt/lists/* \
    "$rootfs.tmp"/usr/share/doc "$rootfs.tmp"/usr/share/man
  # A JRE's modules: the JDK's without the development tools. Named, since a JDK without jmods/ (Temurin 24+, JEP
  # 493) links from its own run-time image only with an explicit list.
  mods=$("$JDK/bin/java" --list-modules | sed 's/@.*//' | grep -vxE \
    'jdk\.(jlink|jpackage|compiler|javadoc|jshell|jdeps|hotspot\.agent|jstatd|internal\.le|internal\.opt|jconsole|editpad|internal\.ed|jartool|jsobject|incubator\..*)' \
    | paste -sd,)
  log "jlink $JDK_VERSION -> /opt/java/openjdk"
  mkdir -p "$rootfs.tmp/opt/java"
  "$JDK/bin/jlink" --add-modules "$mods" --strip-debug --no-man-pages --no-header-files \
    --output "$rootfs.tmp/opt/java/openjdk"
  mv "$rootfs.tmp" "$rootfs"
fi
if ! buildah inspect --type image "$BASE_IMAGE" >/dev/null 2>&1; then
  c=$(buildah from scratch)
  buildah copy "$c" "$rootfs" / >/dev/null
  buildah config --env JAVA_HOME=/opt/java/openjdk \
    --env PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env LANG=C.UTF-8 --cmd '["/bin/bash"]' "$c"
  buildah commit -q "$c" "$BASE_IMAGE" >/dev/null
  buildah rm "$c" >/dev/null
fi

# ---- the image: the Dockerfile, on that base, nothing pulled
log "buildah bud deploy/container/Dockerfile on $BASE_IMAGE -> $TAG"
buildah bud -q --pull=never --isolation chroot \
  --build-arg "BASE_IMAGE=$BASE_IMAGE" \
  --ignorefile "$ROOT/deploy/container/Dockerfile.dockerignore" \
  -f "$ROOT/deploy/container/Dockerfile" -t "$TAG" "$ROOT" >/dev/null
case "$TAG" in */*) NAME=$TAG ;; *) NAME=docker.io/library/$TAG ;; esac
mkdir -p "$(dirname "$OUT")"; rm -f "$OUT"
buildah push -q "$TAG" "docker-archive:$OUT:$NAME"
log "wrote $OUT ($NAME, $(( $(stat -c %s "$OUT") / 1048576 )) MiB)"
