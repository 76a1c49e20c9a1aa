#!/bin/sh
# Builds the native plugin with the C compiler every supported host has. Called by Maven (exec-maven-plugin):
#   build.sh <c source dir> <output .so> <JDK home>
# The JDK home supplies jni.h and is compiled in as the last place the shim looks for a JVM.
set -eu
src="$1"
out="$2"
jdk="$3"
cc="${CC:-gcc}"
mkdir -p "$(dirname "$out")"
"$cc" -std=c11 -O2 -g -fPIC -fvisibility=hidden -Wall -Wextra -Werror -Wno-format-truncation \
  -I"$jdk/include" -I"$jdk/include/linux" -DXDLINK_BUILD_JAVA_HOME="\"$jdk\"" \
  -shared -Wl,-z,nodelete -Wl,-z,defs -Wl,--version-script="$src/exports.map" \
  -o "$out" "$src/ccl_tables.c" "$src/ccl_java.c" -ldl -lpthread
