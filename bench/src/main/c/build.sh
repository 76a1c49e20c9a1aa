#!/bin/sh
# Builds the benchmarks' C host loop with the C compiler every supported host has. Called by Maven
# (exec-maven-plugin):  build.sh <pingpong.c> <output .so>
set -eu
src="$1"
out="$2"
cc="${CC:-gcc}"
mkdir -p "$(dirname "$out")"
"$cc" -std=c11 -O2 -g -fPIC -fvisibility=hidden -Wall -Wextra -Werror -shared -Wl,-z,defs -o "$out" "$src" -lpthread
