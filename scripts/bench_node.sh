#!/usr/bin/env bash
# Node latency benchmark (performance issue, item 4): sat_collision_node over ROS 2 against
# the transport floor measured in the same run. Not part of scripts/test.sh.
#
#   scripts/bench_node.sh                 # everything below, ~2.5 minutes after the build
#   scripts/bench_node.sh --soak 600      # the issue's 10-minute soak at 1 kHz
#   scripts/bench_node.sh --quick         # fewer samples, 10 s soak: does it work?
#   scripts/bench_node.sh -- --obstacles 10000   # extra options for every latency run
#
# Builds sat_collision_node and benches/node_latency.rs (`cargo bench` profile = release),
# then runs benches/node_latency.rs six times:
#   1. latency at 1 kHz, one message in flight, footprints alternating colliding / clear,
#      node vs echo (floor) vs echo with the node's entities vs single-threaded echo vs
#      an echo that computes 250 µs after each answer (the cost of work right after the
#      flag); then a node whose report is subscribed (by another process) vs the echo, and
#      a node with markers and report subscribed vs the echo;
#   2. the same with steady footprints (the flag never changes);
#   3. the same back to back (next message as soon as the answer is in);
#   4. the footprint from TF (--tf): a node with base_frame base_link and robot_footprint,
#      a static map -> odom on /tf_static, each message one /tf odom -> base_link
#      (alternating colliding / clear poses) vs an echo of the same /tf messages (~10 s);
#   5. allocation calls per message (LD_PRELOAD counter) in the node, the echo, the echo
#      with the node's entities and the node with its report subscribed;
#   6. soak: the node alone at 1 kHz, resident memory sampled every 5 s.
# See BENCHMARKS.md, "Node latency", for what each number means.
#
# Environment: ROS_DOMAIN_ID (default 101 + PID % 100, away from scripts/test.sh's
# 1 + PID % 100), CARGO_TARGET_DIR (cargo's default otherwise). Any Fast DDS variable
# (e.g. FASTDDS_BUILTIN_TRANSPORTS=UDPv4 to force UDP on loopback) reaches every process.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

soak=60
samples=2000
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --soak)
            [ $# -ge 2 ] || { echo "bench_node.sh: --soak needs SECONDS" >&2; exit 64; }
            soak="$2"
            shift 2
            ;;
        --quick)
            soak=10
            samples=500
            shift
            ;;
        --)
            shift
            extra=("$@")
            break
            ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "bench_node.sh: unknown argument $1 (see --help)" >&2
            exit 64
            ;;
    esac
done

"$ROOT/scripts/setup.sh" || { echo "bench_node.sh: scripts/setup.sh failed" >&2; exit 1; }
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh" || { echo "bench_node.sh: scripts/env.sh failed" >&2; exit 1; }
export ROS_DOMAIN_ID="${ROS_DOMAIN_ID:-$((101 + $$ % 100))}"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), nproc $(nproc), $(uname -sr)"
echo "ROS_DOMAIN_ID=$ROS_DOMAIN_ID ROS_AUTOMATIC_DISCOVERY_RANGE=${ROS_AUTOMATIC_DISCOVERY_RANGE:-} FASTDDS_BUILTIN_TRANSPORTS=${FASTDDS_BUILTIN_TRANSPORTS:-(default: SHM + UDPv4)}"
echo "CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}"

echo "building (cargo bench --bench node_latency --no-run) ..."
cargo bench --bench node_latency --no-run

bench() {
    printf '\n==== node_latency %s  [%s, load average %s]\n' "$*" "$(date +%H:%M:%S)" \
        "$(cut -d' ' -f1-3 /proc/loadavg)"
    cargo bench -q --bench node_latency -- "$@"
}

bench --samples "$samples" --report --markers --echo-burn-us 250 "${extra[@]}"
bench --samples "$samples" --steady --no-echo-st "${extra[@]}"
bench --samples "$samples" --period-us 0 --no-echo-st "${extra[@]}"
bench --samples "$samples" --tf "${extra[@]}"
bench --allocs --report --samples "$samples"
bench --soak "$soak" --rate 1000 --rss-every 5
printf '\ndone; load average %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
