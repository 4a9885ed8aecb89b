#!/usr/bin/env bash
# Run the main job: the sat_collision node together with the demo publisher.
#
#   scripts/demo.sh            # Ctrl-C stops both
#
# Runs scripts/setup.sh (ROS 2 + sat_collision_msgs, once, cached; meanwhile, on a fresh
# clone, the crates that need no ROS are compiled in the background), sources
# scripts/env.sh, builds `cargo build --release --bins`, then starts
# target/release/sat_collision_node (with --params-file config/sat_collision.yaml and the
# arguments `sat_collision_demo --node-args` prints: -p base_frame:=base_link
# -p global_frame:=map -p robot_footprint:="[[...]]", the demo scene's robot) and
# target/release/sat_collision_demo --svg demo_snapshot.svg. The demo drives the robot by
# TF (/tf_static map -> odom, /tf odom -> base_link at 50 Hz) and publishes the obstacles
# in map; the node places the robot's footprint itself from TF and reports in map. Output
# of both is interleaved on this terminal: the demo prints every change of the collision
# flag (obstacle, depth) and rewrites demo_snapshot.svg (git-ignored) every 2 s. If
# either program exits, the
# other is stopped too and the script exits with the first one's status. Ctrl-C or
# SIGTERM stops both (SIGINT to each, SIGKILL after 5 s).
#
# Environment knobs:
#   SAT_DEMO_SECONDS      stop both after this many seconds, exit 0 (default 0: run until Ctrl-C)
#   SAT_DEMO_NODE_ARGS    extra arguments for the node (e.g. "--ros-args -p padding:=0.1")
#   SAT_DEMO_DEMO_ARGS    extra arguments for the demo publisher (e.g. "--loop-period 10";
#                         target/release/sat_collision_demo --help lists them; a --scene
#                         here also gives the node that scene's robot and frame)
#   SAT_DEMO_SVG          snapshot file (default demo_snapshot.svg in the repository)
#   SAT_DEMO_PREBUILD     0: no background build of the crates that need no ROS while the
#                         set-up runs (default 1: on a fresh clone; docs/demo-time.md)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

[ -f Cargo.toml ] || { echo "ERROR: no Cargo.toml in $ROOT" >&2; exit 1; }
echo "==== environment: scripts/setup.sh, source scripts/env.sh ===="
# While the set-up has work to do (a fresh clone: wheels, the message packages), the crates
# that need no ROS are compiled meanwhile, in the background at a lower priority: the same
# `cargo build` without ROS_DISTRO, with --keep-going, so that r2r's build scripts, which
# need the set-up's messages, stop at once and everything else is built (docs/demo-time.md).
# Its errors are expected; the build after the set-up does the rest.
# Only before r2r's first release build in this target directory: r2r's build script,
# run again later with the environment of its cached bindings, would take them from its
# cache without the cfg flags it sets when it generates them (the build would then fail).
prebuild_pid=""
target_dir="${CARGO_TARGET_DIR:-$ROOT/target}"
if [ "${SAT_DEMO_PREBUILD:-1}" != 0 ] && ! (SAT_ENV_QUIET=1 source "$ROOT/scripts/env.sh" >/dev/null 2>&1) &&
    ! compgen -G "$target_dir/release/build/r2r-*" >/dev/null &&
    command -v cargo >/dev/null 2>&1; then
    prebuild_log="$target_dir/demo-prebuild.log"
    mkdir -p "$(dirname "$prebuild_log")"
    echo "(set-up to do: meanwhile, the crates that need no ROS are compiled; log: ${prebuild_log#"$ROOT"/})"
    # A process group of its own (to stop it as a whole), in this session: the kernel
    # shares the CPU between sessions first, and nice counts only within one.
    set -m
    nice -n 10 env -u ROS_DISTRO cargo build --release --bins --keep-going \
        >"$prebuild_log" 2>&1 </dev/null &
    prebuild_pid=$!
    set +m
    trap 'kill -TERM -- "-$prebuild_pid" 2>/dev/null' EXIT
fi
"$ROOT/scripts/setup.sh"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"
if [ -n "$prebuild_pid" ]; then
    kill -0 "$prebuild_pid" 2>/dev/null && echo "(set-up done: waiting for the crates that need no ROS)"
    wait "$prebuild_pid" || true
    trap - EXIT
fi

echo "==== cargo build --release --bins ===="
cargo build --release --bins

BIN_DIR="${CARGO_TARGET_DIR:-$ROOT/target}/release"
NODE="$BIN_DIR/sat_collision_node"
DEMO="$BIN_DIR/sat_collision_demo"
missing=()
for b in "$NODE" "$DEMO"; do
    [ -x "$b" ] || missing+=("${b##*/}")
done
if [ "${#missing[@]}" -ne 0 ]; then
    echo "ERROR: the build produced no ${missing[*]} (expected in $BIN_DIR)." >&2
    echo "       The package must define the binaries sat_collision_node and sat_collision_demo" >&2
    echo "       (with the 'ros' feature, which is on by default)." >&2
    exit 1
fi

# Job control: each background program gets its own process group, so Ctrl-C reaches
# only this script, which then stops both groups (and anything they started) cleanly.
set -m
read -r -a node_extra <<<"${SAT_DEMO_NODE_ARGS:-}"
read -r -a demo_extra <<<"${SAT_DEMO_DEMO_ARGS:-}"
# The node follows the demo's robot: frames and footprint, one argument a line (the
# footprint holds spaces), from the same scene the demo drives (--scene, if given).
demo_node_args=()
mapfile -t demo_node_args < <("$DEMO" --node-args "${demo_extra[@]}")
if [ "${#demo_node_args[@]}" -eq 0 ]; then
    echo "ERROR: ${DEMO##*/} --node-args printed no arguments for the node (see above)." >&2
    exit 1
fi
node_args=(--ros-args --params-file "$ROOT/config/sat_collision.yaml" "${demo_node_args[@]}"
           "${node_extra[@]}")
demo_args=(--svg "${SAT_DEMO_SVG:-$ROOT/demo_snapshot.svg}" "${demo_extra[@]}")

pids=()
stopping=0
cleanup() {
    [ "$stopping" = 1 ] && return
    stopping=1
    local p
    for p in "${pids[@]}"; do
        kill -INT -- "-$p" 2>/dev/null || true
    done
    # Give them 5 s to shut down (ROS nodes leave the graph), then force.
    for _ in $(seq 50); do
        local alive=0
        for p in "${pids[@]}"; do
            kill -0 "$p" 2>/dev/null && alive=1
        done
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    for p in "${pids[@]}"; do
        kill -KILL -- "-$p" 2>/dev/null || true
    done
    wait 2>/dev/null || true
}
trap 'echo; echo "==== stopping ===="; cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM HUP
trap 'echo "==== ${SAT_DEMO_SECONDS} s are up: stopping ===="; cleanup; exit 0' USR1
trap 'cleanup' EXIT

echo "==== starting ${NODE##*/} and ${DEMO##*/} (ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-0}; Ctrl-C stops both) ===="
"$NODE" "${node_args[@]}" &
pids+=("$!")
sleep 0.5
"$DEMO" "${demo_args[@]}" &
pids+=("$!")

if [ "${SAT_DEMO_SECONDS:-0}" != 0 ]; then
    (sleep "$SAT_DEMO_SECONDS" && kill -USR1 $$ 2>/dev/null) &
    timer_pid=$!
fi

rc=0
wait -n "${pids[@]}" || rc=$?
[ -n "${timer_pid:-}" ] && kill -- "-$timer_pid" 2>/dev/null
echo "==== one program exited (status $rc): stopping the other ===="
cleanup
exit "$rc"
