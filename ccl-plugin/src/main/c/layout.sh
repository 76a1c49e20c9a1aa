#!/bin/sh
# Lays out the plugin directory: the library under both names a collective library looks for, beside every jar the
# JVM it starts needs (maven-dependency-plugin stages those in a directory of their own first).
#   layout.sh <built .so> <module jar> <staged jars dir> <plugin dir>
# A file that changed is written beside its place and renamed onto it, never rewritten in place: a process that has
# the plugin loaded from this directory (its library mapped, its JVM reading the jars) keeps the files it opened. A
# copy in place rewrote the library under a running netbench, which died in its next call into the table (SIGSEGV).
# Unchanged files are left alone. Jars no longer staged are removed: the shim puts every jar of the directory on the
# class path, so an old version left beside a new one would be loaded with it.
set -eu
so="$1"
jar="$2"
staged="$3"
dir="$4"
mkdir -p "$dir"
trap 'rm -f "$dir"/.*.tmp.$$' EXIT

place() { # <source file> <name in the plugin dir>
  cmp -s "$1" "$dir/$2" && return 0
  cp "$1" "$dir/.$2.tmp.$$"
  mv -f "$dir/.$2.tmp.$$" "$dir/$2"
}

place "$so" libnccl-net-xdlink.so
place "$so" librccl-net-xdlink.so
keep="/$(basename "$jar")/"
place "$jar" "$(basename "$jar")"
for j in "$staged"/*.jar; do
  [ -f "$j" ] || continue
  name=$(basename "$j")
  place "$j" "$name"
  keep="$keep$name/"
done
for j in "$dir"/*.jar; do
  [ -f "$j" ] || continue
  case "$keep" in
    */"$(basename "$j")"/*) ;;
    *) rm -f "$j" ;;
  esac
done
