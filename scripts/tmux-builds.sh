#!/usr/bin/env bash
# Builds other tmux versions from source into a cache, for the tests that compare corral's reading
# of tmux with tmux itself on every supported version (CORRAL_TMUX_BINARIES lists what it built).
#
#   scripts/tmux-builds.sh 3.2a 3.5a      builds what is missing, prints one binary path a line
#
# Builds go to $CORRAL_TMUX_CACHE (default ~/.cache/corral/tmux/VERSION/bin/tmux). A source tarball
# is taken from $CORRAL_TMUX_SOURCES/tmux-VERSION.tar.gz (default ~/.cache/corral/tmux-src) when it
# is there, else from Debian's archive, which carries the versions of Debian's current releases
# (3.3a, 3.5a, ...) but no longer 3.2a. A tarball made with `git archive` (no configure script yet)
# is prepared with autogen.sh. Any failure ends the script with a message and a non-zero status.
set -euo pipefail

cache="${CORRAL_TMUX_CACHE:-$HOME/.cache/corral/tmux}"
sources="${CORRAL_TMUX_SOURCES:-$HOME/.cache/corral/tmux-src}"
debian_pool="http://deb.debian.org/debian/pool/main/t/tmux"

fail() {
  echo "tmux-builds: $*" >&2
  exit 1
}

[ $# -gt 0 ] || fail "usage: scripts/tmux-builds.sh VERSION... (e.g. 3.2a 3.5a)"
for tool in cc make pkg-config; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing: apt install build-essential pkg-config libevent-dev libncurses-dev bison autoconf automake"
done

source_tarball() {
  local version="$1" tarball="$sources/tmux-$1.tar.gz"
  if [ ! -s "$tarball" ]; then
    mkdir -p "$sources"
    echo "tmux-builds: fetching tmux $version's source from Debian's archive" >&2
    if ! curl -fsS --max-time 120 -o "$tarball.part" "$debian_pool/tmux_$version.orig.tar.gz"; then
      rm -f "$tarball.part"
      fail "no source for tmux $version: put tmux-$version.tar.gz (a release tarball or a git archive of tag $version) in $sources"
    fi
    mv "$tarball.part" "$tarball"
  fi
  echo "$tarball"
}

build() {
  local version="$1" prefix="$cache/$1"
  if [ -x "$prefix/bin/tmux" ] && "$prefix/bin/tmux" -V | grep -qx "tmux $version"; then
    echo "$prefix/bin/tmux"
    return
  fi
  local tarball work log
  tarball=$(source_tarball "$version")
  work=$(mktemp -d)
  log="$work/build.log"
  echo "tmux-builds: building tmux $version into $prefix (log: $log)" >&2
  tar xzf "$tarball" -C "$work" || fail "could not unpack $tarball"
  local dir
  dir=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'tmux*' | head -n 1)
  [ -n "$dir" ] || fail "$tarball holds no tmux folder"
  (
    cd "$dir"
    [ -x configure ] || sh autogen.sh
    ./configure --prefix="$prefix" --disable-utf8proc
    make -j"$(nproc)"
    rm -rf "$prefix"
    make install
  ) >"$log" 2>&1 || {
    tail -n 30 "$log" >&2
    fail "building tmux $version failed (log above; needs libevent-dev libncurses-dev bison autoconf automake)"
  }
  "$prefix/bin/tmux" -V | grep -qx "tmux $version" || fail "the built tmux does not say it is $version"
  rm -rf "$work"
  echo "$prefix/bin/tmux"
}

for version in "$@"; do
  build "$version"
done
