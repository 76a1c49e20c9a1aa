#!/bin/sh
# Lays out the plugin directory: the library under both names a collective library looks for, beside every jar the
# JVM it starts needs (the dependencies are copied there by maven-dependency-plugin).
#   layout.sh <built .so> <module jar> <plugin dir>
set -eu
so="$1"
jar="$2"
dir="$3"
mkdir -p "$dir"
cp -f "$so" "$dir/libnccl-net-xdlink.so"
cp -f "$so" "$dir/librccl-net-xdlink.so"
cp -f "$jar" "$dir/"
