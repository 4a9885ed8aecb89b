# shellcheck shell=bash
# Functions shared by scripts/setup.sh (run: installs and builds) and scripts/env.sh
# (sourced: only exports). Sourcing this file defines functions and nothing else;
# _sat_init then sets the _SAT_* variables below. env.sh unsets all of them again.
#
#   _SAT_TAG         prefix of messages ([setup], [env]); set by the caller
#   _SAT_ROOT        the repository (physical path)
#   _SAT_R           $_SAT_ROOT/.ros2, the git-ignored prefix of everything installed or built
#   _SAT_CLEAN_PATH  PATH without our venv (from this or another work tree)
#   _SAT_MODE        wheels | system
#   _SAT_PREFIX      the ROS prefix: .ros2/venv (wheels) or the sourced install (system)
#   _SAT_DISTRO      jazzy (wheels) or $ROS_DISTRO (system)

_sat_say() { [ "${SAT_ENV_QUIET:-0}" = 1 ] || echo "[$_SAT_TAG] $*"; }
_sat_err() { echo "[$_SAT_TAG] ERROR: $*" >&2; }

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

# Key of the venv: the pip requirements and constraints it was installed from.
_sat_venv_key() {
    _sat_hash_files "$_SAT_ROOT/scripts/requirements-ros.txt" "$_SAT_ROOT/scripts/constraints-ros.txt"
}

# Key of the build of msg/: its sources, the ROS it is built against and (wheels) the
# venv's key. The build goes to .ros2/msgs/<first 16 characters>.
_sat_msgs_key() {
    local venv_key="" tf2=system nav2=system bond=system
    [ "$_SAT_MODE" = wheels ] && venv_key="$(cat "$_SAT_R/venv/.sat_collision_stamp" 2>/dev/null)"
    _sat_needs_tf2_msgs && tf2=fallback
    _sat_needs_nav2_msgs && nav2=fallback
    _sat_needs_bond_msgs && bond=fallback
    _sat_msgs_hash "$_SAT_ROOT/msg" "$_SAT_MODE;$_SAT_DISTRO;$_SAT_PREFIX;$venv_key;tf2_msgs=$tf2;nav2_msgs=$nav2;bond=$bond"
}

# True when the ROS install lacks tf2_msgs (the PyPI wheels do): then msg/tf2_msgs (TFMessage,
# upstream's definition) is built beside sat_collision_msgs. A regular install's own
# tf2_msgs is always preferred.
_sat_needs_tf2_msgs() {
    [ ! -e "$_SAT_PREFIX/share/ament_index/resource_index/packages/tf2_msgs" ]
}

# True when the ROS install lacks nav2_msgs (the PyPI wheels do, and so does a ROS install
# without nav2): then msg/nav2_msgs (CollisionMonitorState, Toggle, Costmap, CostmapMetaData,
# ExclusionZoneDescription, AddExclusionZone and RemoveExclusionZone only, upstream's
# definitions) is built beside sat_collision_msgs. A regular install's own nav2_msgs is
# always preferred.
_sat_needs_nav2_msgs() {
    [ ! -e "$_SAT_PREFIX/share/ament_index/resource_index/packages/nav2_msgs" ]
}

# True when the ROS install lacks bond (the PyPI wheels do, and so does a ROS install
# without bond_core): then msg/bond (bond/msg/Status and Constants, upstream bond_core's
# definitions) is built beside sat_collision_msgs. A regular install's own bond is always
# preferred.
_sat_needs_bond_msgs() {
    [ ! -e "$_SAT_PREFIX/share/ament_index/resource_index/packages/bond" ]
}

# _sat_init ROOT: the _SAT_* variables above, from SAT_COLLISION_ROS_MODE and the
# environment. Changes nothing else.
_sat_init() {
    _SAT_ROOT="$1"
    _SAT_R="$1/.ros2"

    local e
    local -a parts=()
    _SAT_CLEAN_PATH=""
    IFS=: read -r -a parts <<<"${PATH:-}"
    for e in "${parts[@]}"; do
        [ -n "$e" ] || continue
        _sat_is_ours "$e" || _SAT_CLEAN_PATH="${_SAT_CLEAN_PATH:+$_SAT_CLEAN_PATH:}$e"
    done

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
    if [ "$mode" = wheels ]; then
        _SAT_PREFIX="$_SAT_R/venv"
        _SAT_DISTRO=jazzy
    else
        _SAT_PREFIX="$sys_prefix"
        _SAT_DISTRO="$ROS_DISTRO"
    fi
}
