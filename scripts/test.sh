#!/usr/bin/env bash
# Run every test of sat_collision (what CI runs: .ci/run calls this script).
#
#   scripts/test.sh
#
# Steps: environment (scripts/setup.sh, then source scripts/env.sh: ROS 2 +
# sat_collision_msgs), cargo fmt --check, the module-layer check (no import cycle),
# clippy without and with the `ros` feature (-D warnings), cargo doc without and with
# ROS (-D warnings), cargo test (doctests included) without and with ROS (the Python
# tests' colcon workspace built beside the latter's run: scripts/colcon_prebuild.py), then
# the Python (rclpy) tests in tests/python with the venv's pytest, then the Python package
# (python/: built and installed into the venv, cargo fmt and clippy, pytest python/tests;
# scripts/test_python_package.sh).
# Every step must pass; any failure stops the script with a non-zero exit.
#
# Environment knobs:
#   SAT_TEST_ROS_DOMAIN_ID   ROS_DOMAIN_ID for this run (default: 1 + PID % 100)
#   SAT_TEST_STEP_TIMEOUT    seconds before a single step is killed (default 1800)
#   CARGO_INCREMENTAL        default 0 here: one build per run gains nothing from
#                            incremental caches, which cost gigabytes of disk
set -euo pipefail
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

STEP_TIMEOUT="${SAT_TEST_STEP_TIMEOUT:-1800}"
T_START=$SECONDS
step() {
    printf '\n==== [%s +%ss] %s ====\n' "$(date +%H:%M:%S)" "$((SECONDS - T_START))" "$*"
}
fail() {
    printf '\n==== FAILED: %s ====\n' "$*" >&2
    exit 1
}
# run CMD...: run with a time limit; report the step that failed.
run() {
    echo "+ $*"
    local rc=0
    timeout --foreground -k 30 "$STEP_TIMEOUT" "$@" || rc=$?
    if [ "$rc" -eq 124 ]; then
        fail "timed out after ${STEP_TIMEOUT}s: $*"
    elif [ "$rc" -ne 0 ]; then
        fail "exit code $rc: $*"
    fi
}

step "environment: scripts/setup.sh, source scripts/env.sh"
"$ROOT/scripts/setup.sh" || fail "scripts/setup.sh"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh" || fail "scripts/env.sh"
# One DDS domain per run, shared by the Rust tests and the rclpy tests, so that two runs
# on one machine (or a stray node) do not see each other's topics.
export ROS_DOMAIN_ID="${SAT_TEST_ROS_DOMAIN_ID:-$((1 + $$ % 100))}"
echo "ROS_DISTRO=$ROS_DISTRO ROS_DOMAIN_ID=$ROS_DOMAIN_ID ROS_AUTOMATIC_DISCOVERY_RANGE=$ROS_AUTOMATIC_DISCOVERY_RANGE"
echo "python: $SAT_COLLISION_PYTHON; cargo: $(cargo --version)"
# Disk space is part of the run's record: a full disk fails builds and copies far from here.
disk_free() { df -h "${CARGO_TARGET_DIR:-$ROOT/target}" 2>/dev/null | tail -1 || df -h "$ROOT" | tail -1; }
mkdir -p "${CARGO_TARGET_DIR:-$ROOT/target}"
echo "disk: $(disk_free)"

[ -f Cargo.toml ] || fail "no Cargo.toml in $ROOT"

step "cargo fmt --check"
run cargo fmt --all --check

step "module layers: no import cycle, dependencies down the layers (tests/module_layers.rs)"
# Prints the module graph; fails on a cycle between modules or an edge against the
# layer table (ARCHITECTURE.md). Also part of `cargo test` below.
run cargo test --no-default-features --test module_layers -- --nocapture

step "cargo clippy --all-targets --no-default-features -- -D warnings"
run cargo clippy --all-targets --no-default-features -- -D warnings

step "cargo clippy --all-targets -- -D warnings  (default features: ros)"
run cargo clippy --all-targets -- -D warnings

step "cargo doc --no-deps --no-default-features  (RUSTDOCFLAGS=-D warnings)"
# Broken or private intra-doc links, and (with #![warn(missing_docs)]) undocumented
# public items, fail here. The doctests themselves run with `cargo test` below.
RUSTDOCFLAGS="-D warnings" run cargo doc --no-deps --no-default-features

step "cargo doc --no-deps  (default features: ros; RUSTDOCFLAGS=-D warnings)"
RUSTDOCFLAGS="-D warnings" run cargo doc --no-deps

step "cargo test --no-default-features"
run cargo test --no-default-features

step "cargo test  (default features: ros, ROS_DOMAIN_ID=$ROS_DOMAIN_ID)"
run cargo test --no-run
# The Python tests' colcon workspace (tests/python/conftest.py) is built beside the
# tests' run, which mostly waits on ROS 2 messages: seeded from what cargo test has just
# compiled, niced, its result handed to the fixture (SAT_COLCON_PREBUILT).
COLCON_PREBUILT="${CARGO_TARGET_DIR:-$ROOT/target}/colcon_prebuild.json"
rm -f "$COLCON_PREBUILT"
colcon_pid=""
if [ -f tests/python/conftest.py ] && [ -x scripts/colcon_build.sh ]; then
    # Its own process group (setsid), so that a failing step stops it with its children.
    setsid nice -n 19 "$SAT_COLLISION_PYTHON" scripts/colcon_prebuild.py "$COLCON_PREBUILT" \
        > "${COLCON_PREBUILT%.json}.log" 2>&1 &
    colcon_pid=$!
    trap '[ -n "$colcon_pid" ] && kill -- "-$colcon_pid" 2>/dev/null; true' EXIT
fi
run cargo test

step "Python tests (tests/python)"
shopt -s nullglob globstar
py_tests=()
if [ -d tests/python ]; then
    py_tests=(tests/python/**/test_*.py tests/python/**/*_test.py)
fi
if [ "${#py_tests[@]}" -eq 0 ]; then
    if [ -d tests/python ]; then
        echo "tests/python has no test_*.py / *_test.py files: nothing to run"
    else
        echo "no tests/python folder: nothing to run"
    fi
else
    # The Python tests start the node binaries. When the package has integration tests,
    # `cargo test` above has just built every binary (default features) into
    # target/debug, in its own feature set (dev-dependencies included): use those, since
    # a plain `cargo build --bins` would rebuild much of the tree with other features.
    has_itests="$(cargo metadata --no-deps --format-version 1 | "$SAT_COLLISION_PYTHON" -c '
import json, sys
m = json.load(sys.stdin)
print(int(any("test" in t["kind"] for p in m["packages"] for t in p["targets"])))')"
    if [ "$has_itests" = 1 ]; then
        echo "binaries: built by cargo test above"
    else
        run cargo build --bins
    fi
    SAT_COLLISION_BIN_DIR="${CARGO_TARGET_DIR:-$ROOT/target}/debug"
    export SAT_COLLISION_BIN_DIR
    if [ -n "$colcon_pid" ]; then
        wait "$colcon_pid" || true
        colcon_pid=""
        echo "colcon workspace built beside cargo test: $(tail -1 "${COLCON_PREBUILT%.json}.log")"
        export SAT_COLCON_PREBUILT="$COLCON_PREBUILT"
    fi
    echo "SAT_COLLISION_BIN_DIR=$SAT_COLLISION_BIN_DIR; ${#py_tests[@]} test file(s)"
    echo "disk: $(disk_free)"
    rc=0
    timeout --foreground -k 30 "$STEP_TIMEOUT" \
        "$SAT_COLLISION_PYTHON" -m pytest -p no:cacheprovider -ra tests/python || rc=$?
    case "$rc" in
        0) ;;
        5) fail "pytest collected no tests although tests/python has test files" ;;
        124) fail "pytest timed out after ${STEP_TIMEOUT}s" ;;
        *) fail "pytest exit code $rc" ;;
    esac
fi

step "Python package (python/): pip install ./python, cargo fmt and clippy, pytest python/tests"
# Its own crate and target directory (target/python), never the ROS builds' (see the script).
run "$ROOT/scripts/test_python_package.sh"

echo "disk: $(disk_free)"
step "all tests passed ($((SECONDS - T_START)) s)"
