#!/bin/bash
# Builds NCCL's own socket transport, from an NCCL source tree, as an external net plugin
# (libnccl-net-socket.so, exporting ncclNetPlugin_v12), so that the plugin harness's netbench can drive it exactly as
# it drives xdlink's plugin, beside the same plain socket:
#
#   bench/nccl-socket/build.sh NCCL_SOURCE_DIR [OUT_DIR]
#   NETBENCH_PLUGIN=OUT_DIR/libnccl-net-socket.so tests/src/test/c/netbench-lab.sh
#
# No CUDA is needed: NCCL's headers that pull CUDA in are replaced by the stand-ins in include/ and stand-ins.cc
# (parameters from NCCL_* variables, the debug log, the interface list); every CUDA call the transport could reach
# fails with "not supported". Tried with NCCL 2.30.7. OUT_DIR defaults to bench/target/nccl-socket.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 NCCL_SOURCE_DIR [OUT_DIR]" >&2; exit 2; }
for tool in g++ nm; do
  command -v "$tool" > /dev/null || { echo "build.sh: needs $tool (Debian: g++ and binutils)" >&2; exit 2; }
done
src=$(cd "$1" 2>/dev/null && pwd) || { echo "build.sh: no directory $1" >&2; exit 2; }
for f in src/transport/net_socket.cc src/misc/socket.cc src/os/linux.cc src/nccl.h.in src/include/plugin/nccl_net.h \
         makefiles/version.mk; do
  [ -f "$src/$f" ] || { echo "build.sh: $src is not an NCCL source tree: no $f" >&2; exit 2; }
done
grep -q 'typedef ncclNet_v12_t ncclNet_t;' "$src/src/include/plugin/nccl_net.h" || {
  echo "build.sh: this NCCL's internal net table is not v12 (src/include/plugin/nccl_net.h); the harness drives v12" >&2
  exit 2; }
# NCCL_MAJOR := 2 and the like; each part a number of at most four digits, or the tree is refused.
version() {
  local v
  v=$(awk -v k="$1" '$1 == k && $2 == ":=" && NF == 3 { print $3; exit }' "$src/makefiles/version.mk")
  case $v in ''|*[!0-9]*|?????*) echo "build.sh: makefiles/version.mk gives no $1 (a number)" >&2; return 1;; esac
  echo "$((10#$v))"
}
major=$(version NCCL_MAJOR) && minor=$(version NCCL_MINOR) && patch=$(version NCCL_PATCH) || exit 2
out=${2:-$here/../target/nccl-socket}
mkdir -p "$out" && out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/nccl-socket-XXXXXX)
trap 'rm -rf "$work"' EXIT
# NCCL's headers include each other by quoted name, found beside the including header first: the stand-ins replace
# files in a copy of the tree rather than coming first on the include path.
cp -r "$src/src/include" "$work/include"
cp "$here"/include/*.h "$work/include/"
sed -e "s/\${nccl:Major}/$major/g" -e "s/\${nccl:Minor}/$minor/g" -e "s/\${nccl:Patch}/$patch/g" \
    -e "s/\${nccl:Suffix}//g" -e "s/\${nccl:Version}/$((major * 10000 + minor * 100 + patch))/g" \
    "$src/src/nccl.h.in" > "$work/include/nccl.h"
flags=(-std=c++17 -O2 -fPIC -DNCCL_OS_LINUX -I"$work/include" -I"$work/include/plugin")
for f in "$src/src/transport/net_socket.cc" "$src/src/misc/socket.cc" "$src/src/os/linux.cc" "$here/stand-ins.cc" \
         "$here/plugin.cc"; do
  g++ "${flags[@]}" -c "$f" -o "$work/$(basename "$f" .cc).o"
done
g++ -shared -o "$out/libnccl-net-socket.so" "$work"/*.o -lpthread
# Every symbol must resolve now, not when the harness loads it.
undefined=$(nm -D --undefined-only "$out/libnccl-net-socket.so" | awk '$1 == "U" && $2 !~ /@/ { print $2 }')
[ -z "$undefined" ] || { echo "build.sh: unresolved in the plugin: $undefined" >&2; exit 1; }
nm -D --defined-only "$out/libnccl-net-socket.so" | grep -q ' ncclNetPlugin_v12$' || {
  echo "build.sh: the plugin exports no ncclNetPlugin_v12" >&2; exit 1; }
echo "build.sh: NCCL $major.$minor.$patch's socket transport as $out/libnccl-net-socket.so (ncclNetPlugin_v12)"
