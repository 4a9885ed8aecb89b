# shellcheck shell=bash
# Development environment of sat_collision: ROS 2 + r2r + the sat_collision_msgs package.
#
#   scripts/setup.sh             # once, and after msg/ or scripts/*-ros.txt change
#   source scripts/env.sh        # from bash, from any directory
#
# This file only sets environment variables; scripts/setup.sh (run, not sourced) installs
# and builds what they point to (ROS 2 from the PyPI wheels into .ros2/venv, or a sourced
# regular install; msg/ built into .ros2/msgs/<hash>; read its header). When that set-up
# is missing or out of date (no venv, requirements changed, msg/ changed since its last
# build, ...) nothing is changed: the message names the command to run, and the return
# status is 1.
#
# - With a regular ROS 2 install already sourced (ROS_DISTRO set and rcl on
#   AMENT_PREFIX_PATH, e.g. `source /opt/ros/jazzy/setup.bash`), it is used as is.
# - Otherwise ROS 2 Jazzy from .ros2/venv: ROS_DISTRO=jazzy, the venv on PATH,
#   AMENT_PREFIX_PATH, CMAKE_PREFIX_PATH (with .ros2/rmw_shim, whose lib/ r2r's build
#   scripts then add to every link) and LD_LIBRARY_PATH (with the wheels' bundled
#   site-packages/ros_*.libs), and SAT_COLLISION_LINK_PYTHON / SAT_COLLISION_PYTHON_LIB
#   for build.rs (libpython3.11 linked into ROS binaries).
# - Both: the build of msg/ first on every path (Rust, C, Python), IDL_PACKAGE_FILTER (the
#   interface packages r2r generates bindings for), SAT_COLLISION_PYTHON (the Python with
#   rclpy), SAT_COLLISION_ROOT, SAT_COLLISION_ROS_MODE_USED (wheels | system),
#   ROS_AUTOMATIC_DISCOVERY_RANGE (kept if set; defaults to LOCALHOST here) and ROS_LOG_DIR
#   (kept if set; default .ros2/ros_log).
#
# Sourcing twice gives byte-identical values (r2r hashes AMENT_PREFIX_PATH and
# CMAKE_PREFIX_PATH and rebuilds its bindings on any change); it takes a fraction of a
# second. Options (environment variables read when sourcing; setup.sh reads them too):
#   SAT_COLLISION_ROS_MODE=auto|wheels|system   force the PyPI wheels or a sourced ROS (default auto)
#   SAT_ENV_QUIET=1                             no output unless something is wrong
# (SAT_COLLISION_PYTHON_BIN and SAT_ENV_SKIP_APT are options of scripts/setup.sh.)
#
# This file never exits the shell and never changes shell options (no set -e left on).

if [ -z "${BASH_VERSION:-}" ]; then
    echo "[env] scripts/env.sh must be sourced from bash" >&2
    # shellcheck disable=SC2317
    return 1 2>/dev/null || exit 1
fi
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    echo "[env] this file must be sourced: source ${BASH_SOURCE[0]}" >&2
    exit 1
fi

# The r2r message packages the project uses. r2r always adds rcl_interfaces,
# builtin_interfaces, unique_identifier_msgs and action_msgs itself (parameters, time,
# actions); rosgraph_msgs enables r2r's sim-time support (use_sim_time, /clock);
# sensor_msgs is needed by visualization_msgs (Marker.texture is a sensor_msgs type);
# nav_msgs: Path (check_path) and Odometry (velocity_topic); nav2_msgs: CollisionMonitorState
# and Toggle (the velocity gate, nav2's collision monitor's interfaces); lifecycle_msgs: the
# lifecycle services and transition_event; diagnostic_msgs: /diagnostics; bond: Status (the
# heartbeat to nav2's lifecycle manager).
_SAT_IDL_FILTER="std_msgs;geometry_msgs;visualization_msgs;sensor_msgs;nav_msgs;builtin_interfaces;sat_collision_msgs;tf2_msgs;nav2_msgs;lifecycle_msgs;diagnostic_msgs;bond;rcl_interfaces;action_msgs;unique_identifier_msgs;rosgraph_msgs"

_sat_elapsed() { # seconds since $1 (an EPOCHREALTIME value), to 0.01 s
    local now=${EPOCHREALTIME:-0}
    awk -v a="$1" -v b="$now" 'BEGIN { printf "%.2f", b - a }'
}

_sat_env_main() {
    local t0=${EPOCHREALTIME:-0} here
    here="$(cd "$(dirname "${BASH_SOURCE[0]}")" >/dev/null 2>&1 && pwd -P)" || {
        echo "[env] ERROR: cannot locate the repository from ${BASH_SOURCE[0]}" >&2
        return 1
    }
    # shellcheck source=scripts/env_lib.sh
    . "$here/env_lib.sh" || return 1
    _SAT_TAG="env"
    _sat_init "$(dirname "$here")" || return 1
    local root="$_SAT_ROOT" mode="$_SAT_MODE" venv="$_SAT_R/venv"

    # --- is the set-up there and current? (nothing is changed before this is known) ----------
    local stale="" mkey msgs=""
    if [ "$mode" = wheels ]; then
        if [ ! -x "$venv/bin/python3" ] || [ ! -f "$_SAT_R/pyinfo.sh" ]; then
            stale="no ROS 2 venv in .ros2/venv"
        elif [ "$(cat "$venv/.sat_collision_stamp" 2>/dev/null)" != "$(_sat_venv_key)" ]; then
            stale="scripts/requirements-ros.txt or constraints-ros.txt changed since .ros2/venv was installed"
        elif [ ! -e "$venv/lib/librmw_implementation.so" ] &&
            ! [ "$_SAT_R/rmw_shim/lib/librmw_implementation.so" -ef "$venv/lib/librmw_fastrtps_cpp.so" ]; then
            stale="no .ros2/rmw_shim/lib/librmw_implementation.so"
        fi
    fi
    if [ -z "$stale" ]; then
        mkey="$(_sat_msgs_key)"
        if [ "$(cat "$_SAT_R/msgs/${mkey:0:16}/.sat_collision_stamp" 2>/dev/null)" != "$mkey" ]; then
            if [ -d "$_SAT_R/msgs" ]; then
                stale="msg/ (or the ROS 2 it is built against) changed since its last build"
            else
                stale="msg/ (sat_collision_msgs) not built yet"
            fi
        else
            msgs="$(cd "$_SAT_R/msgs/${mkey:0:16}" >/dev/null 2>&1 && pwd -P)" || stale="cannot read .ros2/msgs"
        fi
    fi
    if [ -n "$stale" ]; then
        local cmd="$root/scripts/setup.sh"
        [ "$PWD" = "$root" ] && cmd=scripts/setup.sh
        _sat_err "the set-up is missing or out of date: $stale. Run: $cmd  (then source scripts/env.sh again)"
        return 1
    fi

    # --- which ROS ------------------------------------------------------------------------
    if [ "$mode" = wheels ]; then
        export ROS_DISTRO=jazzy
        PATH="$venv/bin:$_SAT_CLEAN_PATH"
        _sat_prepend AMENT_PREFIX_PATH "$msgs" "$venv"
        # .ros2/rmw_shim: not a package, only lib/librmw_implementation.so; r2r adds
        # <entry>/lib of every AMENT_PREFIX_PATH and CMAKE_PREFIX_PATH entry to the link.
        if [ -e "$_SAT_R/rmw_shim/lib/librmw_implementation.so" ]; then
            _sat_prepend CMAKE_PREFIX_PATH "$msgs" "$venv" "$_SAT_R/rmw_shim"
        else
            _sat_prepend CMAKE_PREFIX_PATH "$msgs" "$venv"
        fi
    else
        PATH="$_SAT_CLEAN_PATH"
        _sat_prepend AMENT_PREFIX_PATH "$msgs"
        _sat_prepend CMAKE_PREFIX_PATH "$msgs"
    fi
    export PATH

    # --- run-time and build-time variables ---------------------------------------------------
    local pysite=""
    if [ "$mode" = wheels ]; then
        # shellcheck disable=SC1091
        . "$_SAT_R/pyinfo.sh" || return 1
        local -a ld=("$msgs/lib" "$venv/lib")
        local d
        for d in "$_SAT_PY_SITE"/ros_*.libs; do
            [ -d "$d" ] && ld+=("$d")
        done
        _sat_prepend LD_LIBRARY_PATH "${ld[@]}"
        pysite="$msgs/lib/python3.11/site-packages"
        export SAT_COLLISION_PYTHON="$venv/bin/python3"
        # Read by build.rs (cargo feature `ros`): link libpython into binaries and tests.
        if [ -n "$_SAT_PY_LIBDIR" ]; then
            export SAT_COLLISION_LINK_PYTHON="$_SAT_PY_LIBDIR"
            export SAT_COLLISION_PYTHON_LIB="$_SAT_PY_LIB"
        else
            _sat_err "libpython3.11.so not found next to the venv's base Python: ROS binaries will fail with 'undefined symbol: Py...'"
            unset SAT_COLLISION_LINK_PYTHON SAT_COLLISION_PYTHON_LIB
        fi
    else
        _sat_prepend LD_LIBRARY_PATH "$msgs/lib"
        local pyver
        pyver="$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" || pyver=""
        [ -n "$pyver" ] && pysite="$msgs/lib/python$pyver/site-packages"
        SAT_COLLISION_PYTHON="$(command -v python3)"
        export SAT_COLLISION_PYTHON
        unset SAT_COLLISION_LINK_PYTHON SAT_COLLISION_PYTHON_LIB
    fi
    if [ -n "$pysite" ]; then
        _sat_prepend PYTHONPATH "$pysite"
    else
        _sat_prepend PYTHONPATH
    fi
    [ -n "$PYTHONPATH" ] || unset PYTHONPATH

    export IDL_PACKAGE_FILTER="$_SAT_IDL_FILTER"
    export SAT_COLLISION_ROOT="$root"
    export SAT_COLLISION_ROS_MODE_USED="$mode"
    # DDS discovery stays on this machine unless the user chose otherwise.
    export ROS_AUTOMATIC_DISCOVERY_RANGE="${ROS_AUTOMATIC_DISCOVERY_RANGE:-LOCALHOST}"
    export ROS_LOG_DIR="${ROS_LOG_DIR:-$_SAT_R/ros_log}"

    if [ "$mode" = wheels ]; then
        _sat_say "ready: ROS 2 jazzy from PyPI wheels (.ros2/venv) + sat_collision_msgs ($(_sat_elapsed "$t0") s)"
    else
        _sat_say "ready: ROS 2 $ROS_DISTRO from $_SAT_PREFIX + sat_collision_msgs ($(_sat_elapsed "$t0") s)"
    fi
    return 0
}

_sat_env_rc=0
_sat_env_main "$@" || _sat_env_rc=$?
unset -f _sat_elapsed _sat_say _sat_err _sat_is_ours _sat_prepend _sat_system_ros_prefix _sat_hash_files \
    _sat_msgs_hash _sat_venv_key _sat_msgs_key _sat_needs_tf2_msgs _sat_needs_nav2_msgs _sat_needs_bond_msgs _sat_init _sat_env_main
unset _SAT_IDL_FILTER _SAT_TAG _SAT_ROOT _SAT_R _SAT_CLEAN_PATH _SAT_MODE _SAT_PREFIX _SAT_DISTRO \
    _SAT_PY_LIBDIR _SAT_PY_LIB _SAT_PY_SITE
eval "unset _sat_env_rc; return $_sat_env_rc"
