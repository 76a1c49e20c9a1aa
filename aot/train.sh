#!/bin/sh
# Writes the JDK's ahead-of-time cache (JEP 483, 514) from one training run: the program a user starts first,
# on the class path that will use the cache, so the first run starts with those classes loaded and linked. A failed
# or skipped run leaves no cache and does not fail the build: the program then runs without one.
# Called by Maven (exec-maven-plugin) in the package phase of cli (the launcher's cache) and ccl-plugin (the
# plugin's in-process JVM):
#   train.sh <java home> <cache file> <skip: true|false> <jar, or directory whose jars in name order> <main> [args]
# Beside the cache, <cache file>.jdk names the JDK that made it (its JAVA_RUNTIME_VERSION and real path). The
# launcher and the plugin use the cache only with that JDK and only while no jar is newer than the cache.
set -u
home="$1"
cache="$2"
skip="$3"
jars="$4"
shift 4
limit="${XDLINK_AOT_TRAIN_TIMEOUT:-180}"
log="$cache.log"
name="${cache##*/}"

rm -f "$cache" "$cache.jdk" "$cache.tmp" "$cache.tmp.config" "$log"
if [ "$skip" = "true" ]; then
  echo "xdlink: $name: training skipped (xdlink.aot.skip=true); running without an AOT cache"
  exit 0
fi
warn() {
  echo "[WARNING] xdlink: no AOT cache $name: $*; running without one"
  rm -f "$cache" "$cache.jdk" "$cache.tmp" "$cache.tmp.config"
  exit 0
}
[ -x "$home/bin/java" ] || warn "$home/bin/java not found"
version=$(sed -n 's/^JAVA_RUNTIME_VERSION="\([^"]*\)".*/\1/p' "$home/release" 2>/dev/null | head -n 1)
[ -n "$version" ] || warn "$home/release names no JAVA_RUNTIME_VERSION"
[ "${version%%[.+-]*}" -ge 25 ] 2>/dev/null || warn "the JDK running Maven is $version; an AOT cache needs 25 or newer"
real_home=$(cd "$home" && pwd -P)
if [ -d "$jars" ]; then
  # The plugin's shim puts every jar of its directory on the class path in name order; so does this.
  cp=$(LC_ALL=C ls "$jars" | sed -n "s|^\(.*\.jar\)\$|$jars/\1|p" | paste -sd: -)
else
  cp="$jars"
fi
[ -n "$cp" ] && [ -e "$jars" ] || warn "no jars at $jars"

# The cache keeps the classes loaded and linked (JEP 483, 514) but not the training run's method profiles (JEP 515):
# profiles taken over the simulated fabric steered the compiler wrong on the TCP rails two hosts run over. In the
# two-host lab a 64 KiB write_bw after its warm-up ran at 10-13 Gb/s with them and 26-31 without, while the loopback
# quick start moved the same 3.6-4.7 GB/s either way and started 0.2 s later without. A JDK that no longer knows the
# flag ignores it.
no_profiles="-XX:+UnlockDiagnosticVMOptions -XX:+IgnoreUnrecognizedVMOptions -XX:-AOTRecordTraining"
run=""
command -v timeout >/dev/null 2>&1 && run="timeout $limit"
echo "xdlink: $name: training run of $1 (log: $log)"
# --enable-native-access and the collector as the launcher and the shim pass them. Written under a temporary name,
# so an interrupted run leaves nothing the launcher could pick up.
# shellcheck disable=SC2086
if ! $run "$home/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseParallelGC -XX:AOTCacheOutput="$cache.tmp" \
    $no_profiles \
    -cp "$cp" "$@" \
    >"$log" 2>&1; then
  warn "the training run failed (see $log)"
fi
[ -s "$cache.tmp" ] || warn "the training run wrote no cache (see $log)"
mv -f "$cache.tmp" "$cache"
printf '%s\n%s\n' "$version" "$real_home" >"$cache.jdk"
echo "xdlink: $name: $(wc -c <"$cache") bytes, for Java $version"
