#!/usr/bin/env bash
# Time scripts/demo.sh from a fresh clone to its first flag line, twice (docs/demo-time.md).
#
#   scripts/demo_time.sh [--cold] [--keep] [--seconds N] [DIR]
#
# Clones this repository's HEAD (committed work only) into DIR/sat (DIR: a new temporary
# folder by default; DIR/shared is linked to the repository's ../shared when there is one),
# then runs `SAT_DEMO_SECONDS=N scripts/demo.sh` there twice: the first run does the whole
# set-up (ROS 2 wheels, the message packages, the release build), the second finds
# everything cached. Every output line is stamped with the seconds since the run started
# (DIR/run1.log, DIR/run2.log); the summary gives the steps' times, `uptime` before and
# after, and the time to the first flag line (the demo's first "[ t s] COLLISION: ..." or
# "[ t s] clear: ..." line).
#
#   --cold        a machine with no caches: CARGO_HOME=DIR/cargo-home (no crates.io
#                 downloads or index cached; the toolchain itself stays where it is) and
#                 PIP_CACHE_DIR=DIR/pip-cache (no wheels cached). Without it the user's
#                 ~/.cargo/registry and pip cache are used, as they are.
#   --keep        keep DIR (default: removed at the end unless it was given)
#   --seconds N   SAT_DEMO_SECONDS of each run (default 20)
#
# Nothing outside DIR is written (with --cold; without it, cargo and pip may add to
# their caches). The machine's load matters: compare figures taken at the same load.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
COLD=0
KEEP=0
SECS=20
DIR=""
while [ $# -gt 0 ]; do
    case "$1" in
        --cold) COLD=1; shift ;;
        --keep) KEEP=1; shift ;;
        --seconds)
            [ $# -ge 2 ] || { echo "demo_time.sh: --seconds needs a number" >&2; exit 64; }
            SECS="$2"
            shift 2
            ;;
        -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "demo_time.sh: unknown option '$1' (see --help)" >&2; exit 64 ;;
        *) DIR="$1"; KEEP=1; shift ;;
    esac
done
if [ -z "$DIR" ]; then
    DIR="$(mktemp -d "${TMPDIR:-/tmp}/sat-demo-time.XXXXXX")"
elif [ -e "$DIR/sat" ]; then
    echo "demo_time.sh: $DIR/sat exists already: give a new or empty folder" >&2
    exit 64
fi
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd -P)"
[ "$KEEP" = 1 ] || trap 'rm -rf "$DIR"' EXIT

say() { echo "[demo_time] $*"; }
# stamp: each line of stdin with the seconds since $1 (an EPOCHREALTIME value)
stamp() {
    local t0="$1" line now
    while IFS= read -r line; do
        now=$EPOCHREALTIME
        printf '%8.2f %s\n' "$(awk -v a="$t0" -v b="$now" 'BEGIN { print b - a }')" "$line"
    done
}
# the first stamp of a line matching the extended regex $2 in log $1 (empty if none)
at() { sed -nE "s/^ *([0-9.]+) ($2).*/\\1/p" "$1" | head -n 1; }
sub() { [ -n "$1" ] && [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

say "uptime: $(uptime)"
t0=$EPOCHREALTIME
git clone -q "$ROOT" "$DIR/sat"
[ -d "$ROOT/../shared" ] && [ ! -e "$DIR/shared" ] && ln -s "$(cd "$ROOT/../shared" && pwd -P)" "$DIR/shared"
say "clone: $(sub "$t0" "$EPOCHREALTIME") s -> $DIR/sat ($(git -C "$DIR/sat" rev-parse --short HEAD))"

unset CARGO_TARGET_DIR
if [ "$COLD" = 1 ]; then
    export CARGO_HOME="$DIR/cargo-home" PIP_CACHE_DIR="$DIR/pip-cache"
    mkdir -p "$CARGO_HOME" "$PIP_CACHE_DIR"
    say "cold caches: CARGO_HOME=$CARGO_HOME PIP_CACHE_DIR=$PIP_CACHE_DIR"
else
    say "warm caches: CARGO_HOME=${CARGO_HOME:-~/.cargo}, pip's own cache"
fi

run() { # $1 = log; prints its summary
    local log="$1" t rc=0
    t=$EPOCHREALTIME
    (cd "$DIR/sat" && SAT_DEMO_SECONDS="$SECS" stdbuf -oL -eL scripts/demo.sh </dev/null 2>&1) |
        stamp "$t" >"$log" || rc=$?
    local flag ready cargo build
    ready="$(at "$log" '\[setup\] ready')"
    cargo="$(at "$log" '==== cargo build')"
    build="$(at "$log" '==== starting')"
    flag="$(at "$log" '\[ *[0-9.]+ s\] (COLLISION|clear):')"
    grep -E '^ *[0-9.]+ (\[setup\]|====|\()' "$log" | sed 's/^/    /' || true
    say "$(basename "$log"): exit $rc; set-up ${ready:-?} s, then waiting for the background" \
        "build $(sub "$ready" "$cargo") s, release build $(sub "$cargo" "$build") s," \
        "start to first flag $(sub "$build" "$flag") s; FIRST FLAG AT ${flag:-none} s"
    [ -n "$flag" ] && grep -m1 -E '\[ *[0-9.]+ s\] (COLLISION|clear):' "$log" | sed 's/^/    /'
    return 0
}
say "run 1 (fresh clone: everything installed and built)"
run "$DIR/run1.log"
say "uptime: $(uptime)"
say "run 2 (everything cached)"
run "$DIR/run2.log"
say "uptime: $(uptime)"
[ "$KEEP" = 1 ] && say "logs: $DIR/run1.log $DIR/run2.log"
