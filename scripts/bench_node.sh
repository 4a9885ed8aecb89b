#!/usr/bin/env bash
# Node latency benchmark (performance issue, item 4): sat_collision_node over ROS 2 against
# the transport floor measured in the same run. Not part of scripts/test.sh.
#
#   scripts/bench_node.sh                 # everything below, ~7 minutes after the build
#   scripts/bench_node.sh --soak 600      # the issue's 10-minute soak at 1 kHz
#   scripts/bench_node.sh --quick         # fewer samples, 10 s soak: does it work?
#   scripts/bench_node.sh -- --obstacles 10000   # extra options for every latency run
#   scripts/bench_node.sh --cloud-only   # step 5 alone (point clouds), ~4 minutes after the build
#   scripts/bench_node.sh --no-setup     # the environment as it is (scripts/env.sh already
#                                        # sourced): neither scripts/setup.sh nor env.sh is run
#
# Builds sat_collision_node and benches/node_latency.rs (`cargo bench` profile = release),
# then runs benches/node_latency.rs (seven steps):
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
#   5. point clouds (--cloud): sensor_msgs/PointCloud2 to a node with a pointcloud source
#      (observation_sources [camera], base_frame base_link, an octagon robot_footprint)
#      vs an echo of the same clouds, every process with config/fastdds_large_data.xml:
#      24,000 points at 30 Hz (the target: node p50 <= 1.3x the echo's), then 200,000
#      points at 10 Hz and 1,000,000 points at 5 Hz (answered or refused, and the node's
#      collision still published at publish_rate while they arrive);
#   6. allocation calls per message (LD_PRELOAD counter) in the node, the echo, the echo
#      with the node's entities and the node with its report subscribed;
#   7. soak: the node alone at 1 kHz, resident memory sampled every 5 s.
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
big_samples=300
huge_samples=60
cloud_only=false
setup=true
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
            big_samples=100
            huge_samples=30
            shift
            ;;
        --cloud-only)
            cloud_only=true
            shift
            ;;
        --no-setup)
            setup=false
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

if $setup; then
    "$ROOT/scripts/setup.sh" || { echo "bench_node.sh: scripts/setup.sh failed" >&2; exit 1; }
    # shellcheck source=scripts/env.sh
    source "$ROOT/scripts/env.sh" || { echo "bench_node.sh: scripts/env.sh failed" >&2; exit 1; }
elif [ -z "${ROS_DISTRO:-}" ]; then
    echo "bench_node.sh: --no-setup needs a sourced environment (source scripts/env.sh)" >&2
    exit 1
fi
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

clouds() {
    bench --samples "$samples" --cloud 24000 "${extra[@]}"
    bench --samples "$big_samples" --warmup 20 --period-us 100000 --cloud 200000 "${extra[@]}"
    bench --samples "$huge_samples" --warmup 5 --period-us 200000 --cloud 1000000 "${extra[@]}"
}

if $cloud_only; then
    clouds
    printf '\ndone; load average %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi
bench --samples "$samples" --report --markers --echo-burn-us 250 "${extra[@]}"
bench --samples "$samples" --steady --no-echo-st "${extra[@]}"
bench --samples "$samples" --period-us 0 --no-echo-st "${extra[@]}"
bench --samples "$samples" --tf "${extra[@]}"
clouds
bench --allocs --report --samples "$samples"
bench --soak "$soak" --rate 1000 --rss-every 5
printf '\ndone; load average %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
