# Sourced by bin/rubis-client, bin/rubis-analysis and bin/rubis-server (POSIX sh): finds a Java new enough for the
# jars the way the build does, then runs the program's jar with it. "New enough" is the release the build compiles
# for, read from the parent pom.xml's maven.compiler.release (the one place that says it; 25 today), called N below.
#
# Where it looks, in order: $JAVA_HOME if it is N+; the java on PATH if it is N+; else the newest JDK N+ (by the
# JAVA_VERSION of its release file) under /usr/lib/jvm, /usr/jdk, /opt/java, ~/.jdks and ~/.sdkman/candidates/java.
# RUBIS_JDK_DIRS, a colon-separated list of directories, replaces that last list (the launcher's tests use it).
# The jar is run with exec: signals reach the JVM and its exit status is the launcher's. Nothing found, or the jar not
# built: one line on stderr and exit status 127 (as a shell's "command not found").

# The feature release of a java executable ("25" for 25.0.1, "1" for 1.8.0), or nothing.
rubis_java_feature() {
    "$1" -version 2>&1 | sed -n 's/^[^"]* version "\([0-9][0-9]*\).*/\1/p' | head -n 1
}

# The release the jars need: the parent pom's maven.compiler.release under the repository root $1.
rubis_java_release() {
    r=$(sed -n 's:.*<maven.compiler.release>\([0-9][0-9]*\)</maven.compiler.release>.*:\1:p' "$1/pom.xml" 2>/dev/null \
        | head -n 1)
    echo "${r:-25}"
}

# Sets RUBIS_JAVA to a java $RUBIS_JAVA_MIN+ and returns 0, or sets RUBIS_JAVA_SEEN to what was found instead and returns 1.
rubis_find_java() {
    : "${RUBIS_JAVA_MIN:=25}"
    RUBIS_JAVA=
    RUBIS_JAVA_SEEN=
    if [ -n "${JAVA_HOME:-}" ]; then
        v=$(rubis_java_feature "$JAVA_HOME/bin/java")
        if [ -n "$v" ] && [ "$v" -ge "$RUBIS_JAVA_MIN" ]; then
            RUBIS_JAVA=$JAVA_HOME/bin/java
            return 0
        fi
        RUBIS_JAVA_SEEN="JAVA_HOME=$JAVA_HOME is ${v:+Java }${v:-not a JDK}; "
    fi
    if command -v java >/dev/null 2>&1; then
        v=$(rubis_java_feature java)
        if [ -n "$v" ] && [ "$v" -ge "$RUBIS_JAVA_MIN" ]; then
            RUBIS_JAVA=$(command -v java)
            return 0
        fi
        RUBIS_JAVA_SEEN="${RUBIS_JAVA_SEEN}java on PATH is Java ${v:-of unknown version}; "
    fi
    dirs=${RUBIS_JDK_DIRS-/usr/lib/jvm:/usr/jdk:/opt/java:$HOME/.jdks:$HOME/.sdkman/candidates/java}
    best_version=0
    saved_ifs=$IFS
    IFS=:
    set -f
    for dir in $dirs; do
        set +f
        IFS=$saved_ifs
        for release in "$dir"/*/release; do
            [ -f "$release" ] || continue
            home=${release%/release}
            [ -x "$home/bin/java" ] || continue
            v=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$release" | head -n 1)
            if [ -n "$v" ] && [ "$v" -ge "$RUBIS_JAVA_MIN" ] && [ "$v" -gt "$best_version" ]; then
                best_version=$v
                RUBIS_JAVA=$home/bin/java
            fi
        done
    done
    set +f
    IFS=$saved_ifs
    if [ -n "$RUBIS_JAVA" ]; then
        return 0
    fi
    RUBIS_JAVA_SEEN="${RUBIS_JAVA_SEEN}no JDK $RUBIS_JAVA_MIN+ under $(printf '%s' "$dirs" | sed 's/:/, /g')"
    return 1
}

# Runs the jar (a path relative to the repository's root, the launcher's parent directory) with the arguments.
rubis_run_jar() {
    rubis_name=$1
    rubis_root=$2
    rubis_jar_name=$3
    rubis_jar=$rubis_root/$3
    shift 3
    RUBIS_JAVA_MIN=$(rubis_java_release "$rubis_root")
    if ! rubis_find_java; then
        echo "$rubis_name: no Java $RUBIS_JAVA_MIN or newer found ($RUBIS_JAVA_SEEN): install one (e.g. Temurin" \
            "$RUBIS_JAVA_MIN: apt-get install -y temurin-$RUBIS_JAVA_MIN-jdk from Adoptium's apt repository, or its" \
            "tarball under /opt/java) or set JAVA_HOME to one" >&2
        exit 127
    fi
    if [ ! -f "$rubis_jar" ]; then
        echo "$rubis_name: $rubis_jar_name is not built: run mvn -B -DskipTests package in $rubis_root" >&2
        exit 127
    fi
    exec "$RUBIS_JAVA" -jar "$rubis_jar" "$@"
}
