#!/usr/bin/env bash
# xdlink beside a plain TCP socket in the two-host lab, as a user runs it: `./xdlink bench` as server in one network
# namespace and client in the other, over veth "cables" (unshaped by default, so the processors are the limit, as on
# a 20-40 Gb/s USB4 link), each size once cold (--no-perform_warm_up: the first table a user sees) and once warm,
# every run with --baseline raw (or --baseline poll: a socket whose ends poll, as xdlink's do) so both figures come
# from the same two processes. Prints a markdown table of xdlink's and the socket's figures and their ratio, the
# share of processor time the hypervisor took during each run (the bench's Host line; a run with much of it says
# little alone), and the load average before and after. Needs
# root. With --repeat N each row runs N times, one after the other, and a last row per size gives the median of its
# figures and ratios: this machine has spells of seconds to minutes in which a 64 KiB transfer between the namespaces
# takes two to three times as long (a C ping-pong shows them too; see docs/benchmarks.md), and one run lands in
# whichever spell it meets.
#
#   bench/lab-ratios.sh [--cables N] [--rate MBIT|none] [--addr p2p|s24|ll|v6] [--bw "4K 64K 1M 8M"]
#                       [--lat "2 4K 64K"] [--iters N] [--repeat N] [--tag T] [--baseline raw|poll]
#                       [-- extra bench options...]
#
# --addr numbers the cables as two-hosts.sh does (a /30 each by default; ll puts every cable in 169.254/16).
#
# The lab comes from shared/lab/two-hosts.sh beside the repository; it is taken down at the end.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lab="$here/../shared/lab/two-hosts.sh"
cables=1 rate=none addr=p2p bw="4K 64K 1M 8M" lat="2 4K 64K" iters="" repeat=1 tag=xr baseline=raw extra=()
while [ $# -gt 0 ]; do case $1 in
  --cables) cables=$2; shift 2;; --rate) rate=$2; shift 2;; --addr) addr=$2; shift 2;;
  --bw) bw=$2; shift 2;; --lat) lat=$2; shift 2;;
  --iters) iters=$2; shift 2;; --repeat) repeat=$2; shift 2;; --tag) tag=$2; shift 2;;
  --baseline) baseline=$2; shift 2;;
  --) shift; extra=("$@"); break;;
  *) echo "lab-ratios.sh: unknown option $1" >&2; exit 2;; esac; done
case $baseline in raw|poll) ;; *) echo "lab-ratios.sh: --baseline is raw or poll, got '$baseline'" >&2; exit 2;; esac
case $repeat in ''|*[!0-9]*|0) echo "lab-ratios.sh: --repeat takes a whole number of runs, 1 or more, got '$repeat'" >&2
  exit 2;; esac
[ "$(id -u)" = 0 ] || { echo "lab-ratios.sh: needs root (network namespaces)" >&2; exit 1; }
[ -x "$lab" ] || { echo "lab-ratios.sh: $lab not found" >&2; exit 1; }
# The client's server address: host a's end of cable 0, as the lab prints it.
peer=$("$lab" up --tag "$tag" --cables "$cables" --rate "$rate" --addr "$addr" | awk '/^client:/ { print $NF }')
trap '"$lab" down --tag "$tag"' EXIT
root=/tmp/two-hosts-$tag
out=$(mktemp -d)

# run TEST SIZE WARM: prints "xdlink raw" figures (bandwidth average in Gb/s, or latency t_typical and 99% in us)
# and the share of the processors' time the hypervisor took during the client's run ("-" when /proc has no steal)
run() {
  local test=$1 size=$2 warm=$3 n=()
  [ -n "$iters" ] && n=(-n "$iters")
  local args=(bench "$test" --report_gbits -s "$size" "${n[@]}" --baseline "$baseline" "$warm" "${extra[@]}")
  ip netns exec "$tag-a" "$here/xdlink" "${args[@]}" -P "host_root=$root/a" >"$out/server" 2>&1 &
  local server=$!
  # A cold JVM on a busy host can take seconds to listen; up to a minute before the client tries.
  for _ in $(seq 1200); do grep -q "Waiting for client" "$out/server" 2>/dev/null && break; sleep 0.05; done
  ip netns exec "$tag-b" "$here/xdlink" "${args[@]}" -P "host_root=$root/b" "$peer" >"$out/client" 2>&1 || {
    cat "$out/client" >&2; echo "server:" >&2; cat "$out/server" >&2; kill "$server" 2>/dev/null; wait "$server" || true; return 1; }
  wait "$server"
  # The first row under a table header is xdlink's, the second the socket's.
  awk -v lat="$([ "${test#*_}" = lat ] && echo 1)" '
    /#bytes/ { getline; rows[++n] = $0 }
    /^ Host .*taken by the hypervisor/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "taken") steal = $i }
    END { split(rows[1], x); split(rows[2], r); if (steal == "") steal = "-"
          if (lat) printf "%s %s %s %s %s\n", x[5], r[5], x[8], r[8], steal
          else printf "%s %s %s\n", x[4], r[4], steal }' "$out/client"
}

echo "lab: $cables cable(s), rate $rate, addressing $addr, baseline $baseline; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| size | cold xdlink Gb/s | cold raw Gb/s | cold ratio | warm xdlink Gb/s | warm raw Gb/s | warm ratio | steal cold / warm |"
echo "|---|---|---|---|---|---|---|---|"
# median: the median of each column of numbers on stdin (the mean of the middle two for an even count)
median() {
  awk '{ for (i = 1; i <= NF; i++) v[i, NR] = $i; if (NF > nf) nf = NF }
    END { for (i = 1; i <= nf; i++) { n = 0; for (r = 1; r <= NR; r++) a[++n] = v[i, r] + 0
            for (x = 2; x <= n; x++) { y = a[x]; for (z = x - 1; z >= 1 && a[z] > y; z--) a[z + 1] = a[z]; a[z + 1] = y }
            m = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2; printf "%s%.2f", (i > 1 ? " " : ""), m }
          print "" }'
}
# label SIZE K: a row's first column, numbered when rows repeat
label() { if [ "$repeat" -gt 1 ]; then echo "$1 #$2"; else echo "$1"; fi; }
# median_row SIZE: after repeated runs, the row of medians of the figures each run added to $out/rows
median_row() {
  [ "$repeat" -gt 1 ] || return 0
  echo "| $1 median | $(median <"$out/rows" | sed 's/ / | /g') | |"
}
for s in $bw; do
  : >"$out/rows"
  for k in $(seq "$repeat"); do
    read -r cx cr cs < <(run write_bw "$s" --no-perform_warm_up)
    read -r wx wr ws < <(run write_bw "$s" --perform_warm_up)
    awk -v s="$(label "$s" "$k")" -v cx="$cx" -v cr="$cr" -v wx="$wx" -v wr="$wr" -v cs="$cs" -v ws="$ws" \
      -v rows="$out/rows" 'BEGIN {
        printf "| %s | %s | %s | %.2f | %s | %s | %.2f | %s / %s |\n", s, cx, cr, cx / cr, wx, wr, wx / wr, cs, ws
        print cx, cr, cx / cr, wx, wr, wx / wr >>rows }'
  done
  median_row "$s"
done
echo
echo "| size | xdlink t_typical us | raw t_typical us | ratio | xdlink 99% us | raw 99% us | ratio | steal |"
echo "|---|---|---|---|---|---|---|---|"
for s in $lat; do
  : >"$out/rows"
  for k in $(seq "$repeat"); do
    read -r xt rt x99 r99 st < <(run write_lat "$s" --perform_warm_up)
    awk -v s="$(label "$s" "$k")" -v xt="$xt" -v rt="$rt" -v x99="$x99" -v r99="$r99" -v st="$st" \
      -v rows="$out/rows" 'BEGIN {
        printf "| %s | %s | %s | %.2f | %s | %s | %.2f | %s |\n", s, xt, rt, xt / rt, x99, r99, x99 / r99, st
        print xt, rt, xt / rt, x99, r99, x99 / r99 >>rows }'
  done
  median_row "$s"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$out"
