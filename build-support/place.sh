#!/bin/sh
# Puts built files into the directory programs run them from, the way a running program can live with: a file that
# differs from the one in place is copied beside it under a temporary name and renamed onto it, never copied over it,
# so a process that has the old one open or mapped (a JVM reading its jars, a collective library with the plugin's
# library loaded) keeps reading the old bytes. A copy in place rewrote the plugin's library under a running netbench,
# which died in its next call into the table (SIGSEGV). A file already the same is left in place with a fresh
# modification time, so that it counts as built now.
#   place.sh [--prune PATTERN] DIR SOURCE[=NAME] ...
# Each SOURCE file goes to DIR/NAME (its own name by default); a SOURCE directory puts each file in it under its own
# name. --prune also removes the files of DIR that match the shell pattern PATTERN and were not placed: the plugin's
# shim and the launcher's manifest take every jar of their directory, so an old version left beside a new one would be
# loaded with it. Called by Maven (exec-maven-plugin) in the package phase of cli (the launcher's jar and its lib/)
# and ccl-plugin (the plugin directory).
set -eu
prune=""
if [ "${1:-}" = "--prune" ]; then
  prune="$2"
  shift 2
fi
dir="$1"
shift
mkdir -p "$dir"
trap 'rm -f "$dir"/.*.place.$$' EXIT
placed="/"

# Without cmp (diffutils is not on every minimal system) every file counts as changed, which is as safe, if slower.
same() { # <file> <file>
  command -v cmp >/dev/null 2>&1 && cmp -s "$1" "$2"
}

place() { # <source file> <name in dir>
  if same "$1" "$dir/$2"; then
    touch "$dir/$2"
  else
    cp "$1" "$dir/.$2.place.$$"
    mv -f "$dir/.$2.place.$$" "$dir/$2"
  fi
  placed="$placed$2/"
}

for arg in "$@"; do
  # SOURCE=NAME only where NAME is a bare file name, so a checkout under a folder with '=' in its name still works.
  src="$arg"
  name=""
  case "$arg" in
    *=*)
      case "${arg##*=}" in
        */* | "") ;;
        *) src="${arg%=*}"; name="${arg##*=}" ;;
      esac
      ;;
  esac
  if [ -d "$src" ] && [ -z "$name" ]; then
    for f in "$src"/*; do
      if [ -f "$f" ]; then
        place "$f" "$(basename "$f")"
      fi
    done
  elif [ -f "$src" ]; then
    place "$src" "${name:-$(basename "$src")}"
  else
    echo "place.sh: no file $src to place in $dir" >&2
    exit 1
  fi
done
if [ -n "$prune" ]; then
  for f in "$dir"/$prune; do
    [ -f "$f" ] || continue
    case "$placed" in
      */"$(basename "$f")"/*) ;;
      *) rm -f "$f" ;;
    esac
  done
fi
