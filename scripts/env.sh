# shellcheck shell=bash
# Development environment of sat_collision: ROS 2 + r2r + the sat_collision_msgs package.
#
#   source scripts/env.sh        # from bash, from any directory
#
# - If a regular ROS 2 install is already sourced (ROS_DISTRO set and rcl on
#   AMENT_PREFIX_PATH, e.g. `source /opt/ros/jazzy/setup.bash`), it is used as is.
# - Otherwise ROS 2 Jazzy is installed ONCE from the PyPI `ros-jazzy-*` wheels into the
#   git-ignored prefix .ros2/venv (scripts/requirements-ros.txt, pinned by
#   scripts/constraints-ros.txt), and the three gaps between those wheels and a regular
#   install are closed (see /work/shared/ROS2_FROM_PYPI.md): a librmw_implementation.so
#   symlink in .ros2/rmw_shim/lib (that folder's parent goes on CMAKE_PREFIX_PATH, so r2r's
#   own build scripts add it to every link, build scripts included), libpython3.11 linked
#   into ROS binaries (by build.rs, see SAT_COLLISION_LINK_PYTHON), and the wheels' CMake
#   files rewritten to name this machine's Python paths instead of /opt/python/cp311-cp311.
# - Missing Debian packages (libclang-dev for r2r's bindgen, a C/C++ toolchain, ...) are
#   installed with apt-get (as root, or with passwordless sudo).
# - msg/ (package sat_collision_msgs) is built with colcon whenever its sources change,
#   into .ros2/msgs/<hash of msg/ and of the ROS prefix> (symlink: .ros2/msgs_install),
#   and put on every path. The hash in the path matters: r2r regenerates its Rust
#   bindings only when AMENT_PREFIX_PATH & co change, not when a .msg file changes.
#
# Everything is cached behind stamp files: a second `source` takes a fraction of a second.
# Options (environment variables read when sourcing):
#   SAT_COLLISION_ROS_MODE=auto|wheels|system   force the PyPI wheels or a sourced ROS (default auto)
#   SAT_COLLISION_PYTHON_BIN=/path/python3.11   base interpreter for the venv (default: python3.11/python3)
#   SAT_ENV_QUIET=1                             no output unless something is (re)built or fails
#   SAT_ENV_SKIP_APT=1                          do not check/install Debian packages (non-Debian
#                                               systems: provide libclang, cc/c++, make yourself)
#   ROS_AUTOMATIC_DISCOVERY_RANGE               kept if set; defaults to LOCALHOST here
# To refresh the pinned versions: rm -rf .ros2/venv; edit constraints-ros.txt away; source;
#   .ros2/venv/bin/pip freeze --all | grep -vE '^(pip|setuptools|wheel)==' (into constraints-ros.txt)
# To start from scratch: rm -rf .ros2
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
# sensor_msgs is needed by visualization_msgs (Marker.texture is a sensor_msgs type).
_SAT_IDL_FILTER="std_msgs;geometry_msgs;visualization_msgs;sensor_msgs;builtin_interfaces;sat_collision_msgs;rcl_interfaces;action_msgs;unique_identifier_msgs;rosgraph_msgs"

_sat_say() { [ "${SAT_ENV_QUIET:-0}" = 1 ] || echo "[env] $*"; }
_sat_err() { echo "[env] ERROR: $*" >&2; }

# Is $1 one of our own prefix folders (from this or another work tree)?
_sat_is_ours() {
    case "$1" in
        */.ros2/venv | */.ros2/venv/* | */.ros2/msgs/* | */.ros2/msgs_install | */.ros2/msgs_install/* | \
            */.ros2/rmw_shim | */.ros2/rmw_shim/*) return 0 ;;
    esac
    return 1
}

# _sat_prepend VAR dir...: VAR = dir...:(old VAR without those dirs, without our prefixes,
# without empty entries). Idempotent, so re-sourcing gives byte-identical values (r2r
# hashes AMENT_PREFIX_PATH / CMAKE_PREFIX_PATH: any change would rebuild its bindings).
_sat_prepend() {
    local var="$1" e n keep out=""
    shift
    local -a old=()
    if [ -n "${!var:-}" ]; then
        IFS=: read -r -a old <<<"${!var}"
    fi
    for e in "$@"; do
        out="${out:+$out:}$e"
    done
    for e in "${old[@]}"; do
        [ -n "$e" ] || continue
        _sat_is_ours "$e" && continue
        keep=1
        for n in "$@"; do
            if [ "$e" = "$n" ]; then keep=0; break; fi
        done
        case ":$out:" in *":$e:"*) keep=0 ;; esac
        [ "$keep" = 1 ] && out="${out:+$out:}$e"
    done
    export "$var=$out"
}

# True if a regular (not ours) ROS 2 install with rcl is on AMENT_PREFIX_PATH.
_sat_system_ros_prefix() {
    local e
    local -a parts=()
    [ -n "${ROS_DISTRO:-}" ] || return 1
    [ -n "${AMENT_PREFIX_PATH:-}" ] || return 1
    IFS=: read -r -a parts <<<"$AMENT_PREFIX_PATH"
    for e in "${parts[@]}"; do
        [ -n "$e" ] || continue
        _sat_is_ours "$e" && continue
        if [ -e "$e/share/ament_index/resource_index/packages/rcl" ]; then
            echo "$e"
            return 0
        fi
    done
    return 1
}

_sat_hash_files() { # sha256 of the contents and names of the given files
    local f
    for f in "$@"; do
        printf '%s\n' "${f##*/}"
        cat "$f" 2>/dev/null
    done | sha256sum | cut -c1-64
}

_sat_msgs_hash() { # $1 = msg dir, $2 = extra key
    (
        cd "$1" || exit 1
        find . \( -name build -o -name install -o -name log -o -name __pycache__ \) -prune -o -type f -print0 |
            LC_ALL=C sort -z | xargs -0 sha256sum
        printf '%s\n' "$2"
    ) | sha256sum | cut -c1-64
}

# Debian packages: $@ = pairs "test-command|package". Installs those whose test fails.
_sat_ensure_debs() {
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
_sat_base_python() {
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

# Everything that installs or builds runs in this subshell (under a lock, so two shells
# sourcing at once do not both run pip). It prints one line per step.
_sat_setup() (
    umask 022
    mkdir -p "$_SAT_R/logs" || exit 1
    exec 9>"$_SAT_R/.lock" || exit 1
    if command -v flock >/dev/null 2>&1; then
        flock 9 || exit 1
    fi

    # --- Debian packages --------------------------------------------------------------
    # libclang-dev: bindgen (r2r). C/C++ compiler + make: colcon build of msg/.
    _sat_ensure_debs \
        "dpkg-query -W -f='\${Status}' libclang-dev | grep -q 'ok installed'|libclang-dev" \
        "command -v cc|build-essential" \
        "command -v c++|build-essential" \
        "command -v make|build-essential" \
        "command -v flock|util-linux" || exit 1

    if [ "$_SAT_MODE" = wheels ]; then
        local venv="$_SAT_R/venv" py stamp key
        local req="$_SAT_ROOT/scripts/requirements-ros.txt" con="$_SAT_ROOT/scripts/constraints-ros.txt"
        key="$(_sat_hash_files "$req" "$con")"
        stamp="$venv/.sat_collision_stamp"
        if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$key" ] || [ ! -x "$venv/bin/python3" ] ||
            [ ! -f "$_SAT_R/pyinfo.sh" ]; then
            py="$(_sat_base_python)" || {
                _sat_err "no Python 3.11 found (the ros-jazzy wheels are built for CPython 3.11); set SAT_COLLISION_PYTHON_BIN"
                exit 1
            }
            # Python side of the Debian packages: venv/ensurepip, headers + libpython3.11.so
            # (present in a pyenv/python.org build; Debian's python3.11 needs these packages).
            _sat_ensure_debs \
                "$py -c 'import venv, ensurepip'|python3.11-venv" \
                "$py -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_config_var(\"INCLUDEPY\"), \"Python.h\")))'|libpython3.11-dev" || exit 1
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
                    exit 1
                }
            fi
            _sat_say "pip: installing ROS 2 Jazzy wheels, colcon, cmake, pytest (log: ${log#"$_SAT_ROOT"/})"
            PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python3" -m pip install --no-input -r "$req" -c "$con" >>"$log" 2>&1 || {
                tail -n 30 "$log" >&2
                _sat_err "pip install failed (log: $log)"
                exit 1
            }
            _sat_say "pip: done ($((SECONDS - t0)) s, $(du -sm "$venv" | cut -f1) MB)"

            # Fix 3: the wheels' CMake exports name the build machine's Python paths.
            local inc site files
            inc="$("$venv/bin/python3" -c 'import sysconfig; print(sysconfig.get_config_var("INCLUDEPY"))')" &&
                site="$("$venv/bin/python3" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" || exit 1
            files="$(grep -rl --include='*.cmake' '/opt/python/cp311-cp311' "$venv/share" 2>/dev/null)"
            if [ -n "$files" ]; then
                # shellcheck disable=SC2086
                printf '%s\n' "$files" | while IFS= read -r f; do
                    sed -i -e "s#/opt/python/cp311-cp311/include/python3.11#$inc#g" \
                        -e "s#/opt/python/cp311-cp311/lib/python3.11/site-packages#$site#g" "$f" || exit 1
                done || exit 1
                _sat_say "fix: rewrote /opt/python/cp311-cp311 paths in $(printf '%s\n' "$files" | wc -l) CMake files"
            fi
            if grep -rq --include='*.cmake' '/opt/python/cp311-cp311' "$venv/share" 2>/dev/null; then
                _sat_err "some /opt/python/cp311-cp311 paths are left in $venv/share/**/*.cmake"
                exit 1
            fi
            # Fix 2 (libpython): remember where libpython3.11.so is, for build.rs.
            "$venv/bin/python3" - >"$_SAT_R/pyinfo.sh" <<'PY' || exit 1
import os, shlex, sysconfig
libdir = sysconfig.get_config_var("LIBDIR")
ver = sysconfig.get_config_var("VERSION")
ok = os.path.exists(os.path.join(libdir, "libpython%s.so" % ver))
print("_SAT_PY_LIBDIR=%s" % shlex.quote(libdir if ok else ""))
print("_SAT_PY_LIB=%s" % shlex.quote("python" + ver))
print("_SAT_PY_SITE=%s" % shlex.quote(sysconfig.get_paths()["purelib"]))
PY
            echo "$key" >"$stamp"
        fi
        # Fix 1: r2r links -lrmw_implementation; the wheels ship only rmw_fastrtps_cpp.
        local shim="$_SAT_R/rmw_shim/lib"
        if [ ! -e "$venv/lib/librmw_implementation.so" ]; then
            if [ "$(readlink "$shim/librmw_implementation.so" 2>/dev/null)" != "$venv/lib/librmw_fastrtps_cpp.so" ]; then
                mkdir -p "$shim" && ln -sfn "$venv/lib/librmw_fastrtps_cpp.so" "$shim/librmw_implementation.so" || exit 1
                _sat_say "fix: ${shim#"$_SAT_ROOT"/}/librmw_implementation.so -> librmw_fastrtps_cpp.so"
            fi
        else
            rm -rf "$_SAT_R/rmw_shim"
        fi
    fi

    # --- sat_collision_msgs (msg/) -----------------------------------------------------
    local mkey mdir mstamp venv_key=""
    [ "$_SAT_MODE" = wheels ] && venv_key="$(cat "$_SAT_R/venv/.sat_collision_stamp" 2>/dev/null)"
    mkey="$(_sat_msgs_hash "$_SAT_ROOT/msg" "$_SAT_MODE;${ROS_DISTRO:-};$_SAT_PREFIX;$venv_key")"
    mdir="$_SAT_R/msgs/${mkey:0:16}"
    mstamp="$mdir/.sat_collision_stamp"
    if [ ! -f "$mstamp" ] || [ "$(cat "$mstamp")" != "$mkey" ]; then
        if ! command -v colcon >/dev/null 2>&1; then
            _sat_err "colcon not found: install python3-colcon-common-extensions (or pip install colcon-common-extensions)"
            exit 1
        fi
        local t0=$SECONDS log="$_SAT_R/logs/msgs_build.log"
        _sat_say "colcon: building sat_collision_msgs from msg/ (log: ${log#"$_SAT_ROOT"/})"
        rm -rf "$_SAT_R/msgs_build" "$mdir"
        (
            cd "$_SAT_R" &&
                colcon --log-base "$_SAT_R/logs/colcon" build \
                    --base-paths "$_SAT_ROOT/msg" \
                    --build-base "$_SAT_R/msgs_build" \
                    --install-base "$mdir" \
                    --merge-install \
                    --event-handlers console_direct+ desktop_notification- status- terminal_title- \
                    --cmake-args -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release \
                    "-DPython3_EXECUTABLE=$(command -v python3)"
        ) >"$log" 2>&1 </dev/null || {
            tail -n 40 "$log" >&2
            _sat_err "colcon build of msg/ failed (log: $log)"
            exit 1
        }
        if [ ! -e "$mdir/share/ament_index/resource_index/rosidl_interfaces/sat_collision_msgs" ]; then
            _sat_err "colcon build of msg/ produced no sat_collision_msgs interfaces (log: $log)"
            exit 1
        fi
        echo "$mkey" >"$mstamp"
        rm -rf "$_SAT_R/msgs_build"
        _sat_say "colcon: done ($((SECONDS - t0)) s)"
    fi
    # .ros2/msgs_install -> the current build (read back by _sat_env_main).
    if [ "$(readlink "$_SAT_R/msgs_install" 2>/dev/null)" != "msgs/${mkey:0:16}" ]; then
        rm -rf "$_SAT_R/msgs_install" && ln -s "msgs/${mkey:0:16}" "$_SAT_R/msgs_install" || exit 1
    fi
    touch "$mdir"
    # Keep the 3 most recent builds (switching between two ROS installs rebuilds nothing).
    local old
    find "$_SAT_R/msgs" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\n' | sort -rn | tail -n +4 |
        cut -d' ' -f2- | while IFS= read -r old; do rm -rf "$old"; done
    exit 0
)

_sat_elapsed() { # seconds since $1 (an EPOCHREALTIME value), to 0.01 s
    local now=${EPOCHREALTIME:-0}
    awk -v a="$1" -v b="$now" 'BEGIN { printf "%.2f", b - a }'
}

_sat_env_main() {
    local t0=${EPOCHREALTIME:-0} root
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." >/dev/null 2>&1 && pwd -P)" || {
        _sat_err "cannot locate the repository from ${BASH_SOURCE[0]}"
        return 1
    }
    _SAT_ROOT="$root"
    _SAT_R="$root/.ros2"

    # PATH without our venv (from this or another work tree).
    local e
    local -a parts=()
    _SAT_CLEAN_PATH=""
    IFS=: read -r -a parts <<<"${PATH:-}"
    for e in "${parts[@]}"; do
        [ -n "$e" ] || continue
        _sat_is_ours "$e" || _SAT_CLEAN_PATH="${_SAT_CLEAN_PATH:+$_SAT_CLEAN_PATH:}$e"
    done

    # --- which ROS? -----------------------------------------------------------------------
    local mode="${SAT_COLLISION_ROS_MODE:-auto}" sys_prefix=""
    sys_prefix="$(_sat_system_ros_prefix)" || sys_prefix=""
    case "$mode" in
        auto) if [ -n "$sys_prefix" ]; then mode=system; else mode=wheels; fi ;;
        system)
            if [ -z "$sys_prefix" ]; then
                _sat_err "SAT_COLLISION_ROS_MODE=system but no ROS 2 is sourced (source /opt/ros/<distro>/setup.bash first)"
                return 1
            fi
            ;;
        wheels) ;;
        *)
            _sat_err "SAT_COLLISION_ROS_MODE must be auto, wheels or system (is '$mode')"
            return 1
            ;;
    esac
    _SAT_MODE="$mode"
    local venv="$_SAT_R/venv" msgs
    if [ "$mode" = wheels ]; then
        export ROS_DISTRO=jazzy
        _SAT_PREFIX="$venv"
        PATH="$venv/bin:$_SAT_CLEAN_PATH"
    else
        _SAT_PREFIX="$sys_prefix"
        PATH="$_SAT_CLEAN_PATH"
    fi
    export PATH
    # Prefix paths without sat_collision_msgs for its own colcon build...
    if [ "$mode" = wheels ]; then
        _sat_prepend AMENT_PREFIX_PATH "$venv"
        _sat_prepend CMAKE_PREFIX_PATH "$venv"
    else
        _sat_prepend AMENT_PREFIX_PATH
        _sat_prepend CMAKE_PREFIX_PATH
    fi

    _sat_setup || {
        _sat_err "environment NOT ready (see messages above)"
        return 1
    }
    msgs="$(cd "$_SAT_R/msgs_install" >/dev/null 2>&1 && pwd -P)" || {
        _sat_err "no $_SAT_R/msgs_install"
        return 1
    }

    # ...then with it.
    if [ "$mode" = wheels ]; then
        _sat_prepend AMENT_PREFIX_PATH "$msgs" "$venv"
        # .ros2/rmw_shim: not a package, only lib/librmw_implementation.so; r2r adds
        # <entry>/lib of every AMENT_PREFIX_PATH and CMAKE_PREFIX_PATH entry to the link.
        if [ -e "$_SAT_R/rmw_shim/lib/librmw_implementation.so" ]; then
            _sat_prepend CMAKE_PREFIX_PATH "$msgs" "$venv" "$_SAT_R/rmw_shim"
        else
            _sat_prepend CMAKE_PREFIX_PATH "$msgs" "$venv"
        fi
    else
        _sat_prepend AMENT_PREFIX_PATH "$msgs"
        _sat_prepend CMAKE_PREFIX_PATH "$msgs"
    fi

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
        _sat_say "ready: ROS 2 $ROS_DISTRO from $sys_prefix + sat_collision_msgs ($(_sat_elapsed "$t0") s)"
    fi
    return 0
}

_sat_env_rc=0
_sat_env_main "$@" || _sat_env_rc=$?
unset -f _sat_elapsed _sat_say _sat_err _sat_is_ours _sat_prepend _sat_system_ros_prefix _sat_hash_files \
    _sat_msgs_hash _sat_ensure_debs _sat_base_python _sat_setup _sat_env_main
unset _SAT_IDL_FILTER _SAT_ROOT _SAT_R _SAT_CLEAN_PATH _SAT_MODE _SAT_PREFIX \
    _SAT_PY_LIBDIR _SAT_PY_LIB _SAT_PY_SITE
eval "unset _sat_env_rc; return $_sat_env_rc"
