#!/bin/bash
# The plugin between two hosts as NCCL's proxy drives it, beside a plain socket between the same two processes:
# builds plugin_harness, brings up the two-host lab (two network namespaces, one unshaped veth cable, a sysfs copy
# per host) under its own tag, runs `plugin_harness netbench` as rank 0 in one namespace and rank 1 in the other,
# prints rank 0's table (Gb/s at each size, 8-byte round trip median and p99, and the ratios, also block by block:
# the streams and the round trips run in blocks taken in turns with the socket's), rank 1's count of
# isends answered "not yet" and the share of processor time the hypervisor took meanwhile (steal in /proc/stat), and
# takes the lab down. Needs root, gcc and a built plugin
# (./mvnw -pl ccl-plugin -am package -DskipTests).
#
#   netbench-lab.sh [--tag T] [--lab DIR/two-hosts.sh] [--cables N] [--addr p2p|s24|ll|v6] [-- netbench options:
#                   --bytes N --iterations N --rounds N --sizes S,... --plugin-only --socket-cc NAME]
# The plain socket takes the rails' congestion control (cubic; --socket-cc '' leaves the host's default).
# --addr numbers the cables as two-hosts.sh does; with p2p (the default) rank 1 names rank 0's session address
# (tcp_peer_address), otherwise the hosts find each other by themselves, as users' hosts do.
#   XDLINK_PARAMS_EXTRA='ccl_idle_spins=100' netbench-lab.sh      adds plugin parameters on both hosts
#   NETBENCH_PLUGIN=/path/libnccl-net-xdlink.so netbench-lab.sh    another build of the plugin
#   XDLINK_JAVA_OPTIONS='-XX:+PreserveFramePointer' netbench-lab.sh  options for both hosts' plugin JVMs (a profile)
#   NETBENCH_KEEP=DIR netbench-lab.sh               keeps both ranks' whole output (rank0.log, rank1.log) in DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd); repo=$(cd "$here/../../../.." && pwd)
tag=nb; lab=$repo/../shared/lab/two-hosts.sh; port=47719; cables=1; addr=p2p
while [ $# -gt 0 ]; do case $1 in
  --tag) tag=$2; shift 2;; --lab) lab=$2; shift 2;; --cables) cables=$2; shift 2;; --addr) addr=$2; shift 2;;
  --) shift; break;;
  *) echo "netbench-lab.sh: unknown option $1" >&2; exit 2;; esac; done
case $cables in ''|*[!0-9]*|0) echo "netbench-lab.sh: --cables takes a whole number, 1 or more, got '$cables'" >&2
  exit 2;; esac
so=${NETBENCH_PLUGIN:-$repo/ccl-plugin/target/xdlink-plugin/libnccl-net-xdlink.so}
[ -f "$so" ] || { echo "netbench-lab.sh: no plugin at $so; build it first" >&2; exit 1; }
java_home=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
work=$(mktemp -d /tmp/netbench-XXXXXX)
trap '"$lab" down --tag "$tag"; rm -rf "$work"' EXIT
gcc -std=c11 -O2 -g -Wall -Wextra -Werror -I"$repo/ccl-plugin/src/main/c" -o "$work/plugin_harness" \
  "$here/plugin_harness.c" -ldl -lpthread
"$lab" up --tag "$tag" --cables "$cables" --addr "$addr" > "$work/lab.log"
hosts=/tmp/two-hosts-$tag
run() { # namespace rank params...
  local ns=$1 rank=$2 params=$3; shift 3
  ip netns exec "$ns" env -i PATH=/usr/bin:/bin JAVA_HOME="$java_home" NCCL_NET_PLUGIN="$so" \
    XDLINK_JAVA_OPTIONS="${XDLINK_JAVA_OPTIONS:-}" XDLINK_PARAMS="$params ${XDLINK_PARAMS_EXTRA:-}" \
    timeout 600 "$work/plugin_harness" netbench --rank "$rank" --handle "$work/h" "$@" > "$work/rank$rank.log" 2>&1
}
# The cpu line of /proc/stat: all ticks (user..steal, guest being inside user) and the hypervisor's (steal).
ticks() { awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9, ($9 == "" ? -1 : $9); exit }' /proc/stat; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
read -r total0 steal0 < <(ticks)
run "$tag-a" 0 "host_root=$hosts/a tcp_control_port=$port" "$@" & r0=$!
# The plain socket's peer: host a's address on cable 0, as the lab prints it for a bench client.
peer=$(awk '/^client:/ { print $NF }' "$work/lab.log")
named=$([ "$addr" = p2p ] && echo "tcp_peer_address=$peer:$port" || true)
run "$tag-b" 1 "host_root=$hosts/b tcp_control_port=$port $named" --peer "$peer" "$@" || true
wait $r0 || true
grep -h -e '^netbench' -e '^FAIL' -e '^harness' -e 'WARN' "$work/rank0.log" "$work/rank1.log"
# Each host's TCP counters over the run (its namespace's, so the rails and the plain socket together): a receive
# window advertised shut, and segments sent again, are where a stream's long gaps show at the sockets.
if command -v nstat > /dev/null; then
  for h in a b; do
    ip netns exec "$tag-$h" nstat -asz 2>/dev/null | awk -v h="$h" '
      { v[$1] = $2 }
      END { printf "tcp: host %s (%s): receive window advertised shut %d times, ", h,
                   h == "a" ? "rank 0, receives the streams" : "rank 1, sends them", v["TcpExtTCPToZeroWindowAdv"]
            printf "%d segments sent again (%d loss probes, %d timeouts)\n", v["TcpRetransSegs"],
                   v["TcpExtTCPLossProbes"], v["TcpExtTCPTimeouts"] }'
  done
fi
if [ -n "${NETBENCH_KEEP:-}" ]; then mkdir -p "$NETBENCH_KEEP" && cp "$work/rank0.log" "$work/rank1.log" "$NETBENCH_KEEP/"; fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
read -r total1 steal1 < <(ticks)
awk -v t="$((total1 - total0))" -v s0="$steal0" -v s1="$steal1" 'BEGIN { if (t > 0 && s0 >= 0 && s1 >= s0)
  printf "steal: the hypervisor took %.1f%% of the processors'"'"' time during the run\n", 100 * (s1 - s0) / t }'
grep -q '^harness: .* 0 failed' "$work/rank0.log" && grep -q '^harness: .* 0 failed' "$work/rank1.log"
