"""launch/collision_monitor.launch.py (sat_collision_node as nav2's collision monitor) and
its parameters file config/collision_monitor.yaml.

Without ROS (always run):
* the launch file compiles and its syntax tree declares exactly ARGUMENTS, uses each of
  them, names the node collision_monitor and remaps TF as nav2's launch file does;
* config/collision_monitor.yaml is nav2's default collision_monitor section with the zones
  "PolygonStop", "PolygonSlow", "FootprintApproach" on the source "scan", upstream's values.

With launch_ros and `ros2 launch` (a sourced regular install's, or ../shared/ros2_cli, as
test_dds_profile.py; skipped, saying why, without either), from a stand-in install prefix
(launch/ and config/ copied, a script in place of the node binary that records its command
line, its parameters files and its environment, then exits), so no Rust build is needed
and the gate itself is never started:
* `--show-args`: launch builds the LaunchDescription; the arguments and their defaults;
* the node's command line: name, namespace, nav2's TF remappings, the installed
  parameters file by default and the params_file argument otherwise, use_sim_time, and
  the Fast DDS profile in its environment;
* use_lifecycle_manager:=true, for this launch file and launch/sat_collision.launch.py
  (the same functions, checked on the syntax trees): with a stand-in nav2_lifecycle_manager
  package, its lifecycle_manager is started as nav2's launch file starts it (name
  lifecycle_manager_<node>, the namespace, node_names, autostart, bond_timeout) and the
  node with autostart: false; without one, launch's lifecycle events bring a stand-in
  lifecycle node (rclpy's) up: configure, then activate, and nothing else.
"""

import ast
import os
import py_compile
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from satpkg_support import ROOT, install_prefix, launch_arguments, standin_package
from test_dds_profile import launch_python

assert launch_python  # a fixture, used by name below

LAUNCH = ROOT / 'launch' / 'collision_monitor.launch.py'
CONFIG = ROOT / 'config' / 'collision_monitor.yaml'
ARGUMENTS = {'params_file', 'namespace', 'use_sim_time', 'dds_profile', 'use_lifecycle_manager'}
NODE_NAME = 'collision_monitor'
# Both launch files take use_lifecycle_manager: file -> the node's name.
LAUNCH_FILES = {'collision_monitor.launch.py': NODE_NAME,
                'sat_collision.launch.py': 'sat_collision_node'}
# nav2_lifecycle_manager's parameters (lifecycle_manager.cpp, Jazzy): nav2's default
# bond_timeout.
BOND_TIMEOUT = 4.0
# nav2_collision_monitor/launch/collision_monitor_node.launch.py (Jazzy): `remappings`.
NAV2_REMAPPINGS = [('/tf', 'tf'), ('/tf_static', 'tf_static')]
VARIABLES = ('FASTRTPS_DEFAULT_PROFILES_FILE', 'FASTDDS_DEFAULT_PROFILES_FILE')


# --- without ROS ------------------------------------------------------------------------

def test_compiles(tmp_path):
    py_compile.compile(str(LAUNCH), cfile=str(tmp_path / 'launch.pyc'), doraise=True)


def _module_constant(tree, name):
    (value,) = [n.value for n in tree.body if isinstance(n, ast.Assign)
                and [t.id for t in n.targets if isinstance(t, ast.Name)] == [name]]
    return ast.literal_eval(value)


def test_declares_exactly_its_arguments_and_remaps_tf_as_nav2():
    tree = ast.parse(LAUNCH.read_text(), filename=str(LAUNCH))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert 'generate_launch_description' in functions
    assert not functions['generate_launch_description'].args.args
    declared, configs = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args \
                and isinstance(node.args[0], ast.Constant):
            if node.func.id == 'DeclareLaunchArgument':
                declared.append(node.args[0].value)
            elif node.func.id == 'LaunchConfiguration':
                configs.add(node.args[0].value)
    assert sorted(declared) == sorted(ARGUMENTS)
    assert configs == ARGUMENTS, 'every argument is used, and only declared ones'
    assert _module_constant(tree, 'NODE_NAME') == NODE_NAME
    assert _module_constant(tree, 'REMAPPINGS') == NAV2_REMAPPINGS
    # The same Fast DDS rule as the project's other launch file, and the same lifecycle
    # bring-up (its functions, word for word).
    other = ast.parse((ROOT / 'launch' / 'sat_collision.launch.py').read_text())
    for name in ('DDS_PROFILE_VARIABLES', 'FASTDDS_RMWS', 'NAV2_LIFECYCLE_MANAGER',
                 'BOND_TIMEOUT'):
        assert _module_constant(tree, name) == _module_constant(other, name), name
    assert _module_constant(tree, 'NAV2_LIFECYCLE_MANAGER') == 'nav2_lifecycle_manager'
    assert _module_constant(tree, 'BOND_TIMEOUT') == BOND_TIMEOUT
    assert _module_constant(other, 'NODE_NAME') == LAUNCH_FILES['sat_collision.launch.py']
    theirs = {n.name: n for n in other.body if isinstance(n, ast.FunctionDef)}
    for name in ('installed', 'lifecycle_bringup'):
        assert ast.dump(functions[name]) == ast.dump(theirs[name]), name
    imported = {(n.module, a.name) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                for a in n.names}
    assert ('launch_ros.actions', 'LifecycleNode') in imported


def _points(text):
    points = yaml.safe_load(text)
    assert all(len(p) == 2 and all(isinstance(c, float) for c in p) for p in points), text
    return points


def test_config_is_nav2s_collision_monitor_with_three_zones_on_scan():
    params = yaml.safe_load(CONFIG.read_text())
    assert list(params) == [NODE_NAME]
    p = params[NODE_NAME]['ros__parameters']
    # nav2's defaults (collision_monitor_params.yaml, Jazzy), unchanged.
    assert {k: p[k] for k in (
        'base_frame_id', 'odom_frame_id', 'cmd_vel_in_topic', 'cmd_vel_out_topic', 'state_topic',
        'transform_tolerance', 'source_timeout', 'base_shift_correction', 'stop_pub_timeout',
    )} == {
        'base_frame_id': 'base_footprint', 'odom_frame_id': 'odom',
        'cmd_vel_in_topic': 'cmd_vel_smoothed', 'cmd_vel_out_topic': 'cmd_vel',
        'state_topic': 'collision_monitor_state', 'transform_tolerance': 0.5,
        'source_timeout': 5.0, 'base_shift_correction': True, 'stop_pub_timeout': 2.0,
    }
    assert p['polygons'] == ['PolygonStop', 'PolygonSlow', 'FootprintApproach']
    assert p['observation_sources'] == ['scan']
    # Only what is listed is defined (no unused zones or sources).
    sections = {k for k, v in p.items() if isinstance(v, dict)}
    assert sections == set(p['polygons']) | set(p['observation_sources'])
    stop, slow, approach = (p[name] for name in p['polygons'])
    assert stop['type'] == 'polygon' and stop['action_type'] == 'stop'
    assert _points(stop['points']) == [[0.3, 0.3], [0.3, -0.3], [0.0, -0.3], [0.0, 0.3]]
    assert stop['min_points'] == 4 and stop['enabled'] is True
    assert slow['type'] == 'polygon' and slow['action_type'] == 'slowdown'
    assert _points(slow['points']) == [[0.4, 0.4], [0.4, -0.4], [-0.4, -0.4], [-0.4, 0.4]]
    assert slow['slowdown_ratio'] == 0.3 and slow['min_points'] == 4
    assert approach == {
        'type': 'polygon', 'action_type': 'approach',
        'footprint_topic': '/local_costmap/published_footprint', 'time_before_collision': 2.0,
        'simulation_time_step': 0.1, 'min_points': 6, 'visualize': False, 'enabled': True,
    }
    assert p['scan'] == {'type': 'scan', 'topic': 'scan', 'enabled': True}
    header = CONFIG.read_text().split(f'\n{NODE_NAME}:', 1)[0]
    assert 'navigation2' in header and 'Apache-2.0' in header


# --- with launch_ros: `ros2 launch` from a stand-in install prefix -------------------------

# Stand-in for sat_collision_node: records its arguments, the contents of each parameters
# file it is given and the Fast DDS profile variables, then exits (so does `ros2 launch`).
FAKE_NODE = r'''#!/bin/sh
out="{out}"
: > "$out"
for a in "$@"; do printf 'ARG %s\n' "$a" >> "$out"; done
prev=
for a in "$@"; do
    if [ "$prev" = --params-file ]; then
        printf 'FILE %s\n' "$a" >> "$out"
        sed 's/^/| /' "$a" >> "$out"
    fi
    prev="$a"
done
env | grep -E '^FAST(RTPS|DDS)_DEFAULT_PROFILES_FILE=' | sort | sed 's/^/ENV /' >> "$out"
'''


@pytest.fixture
def stand_in(launch_python, tmp_path):
    """(ros2 environment, share folder, record file): an install prefix with launch/ and
    config/ and the stand-in node."""
    _, env = launch_python
    if shutil.which('ros2', path=env['PATH']) is None:
        pytest.skip(f'no ros2 on {env["PATH"]}')
    out = tmp_path / 'node_record'
    share, env = install_prefix(tmp_path, env, FAKE_NODE.format(out=out))
    for var in VARIABLES + ('RMW_IMPLEMENTATION',):
        env.pop(var, None)
    return env, share, out


def _ros2_launch(env, cwd, *args, launch_file='collision_monitor.launch.py'):
    result = subprocess.run(['ros2', 'launch', 'sat_collision', launch_file,
                             *args], env=env, cwd=str(cwd), stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=60, start_new_session=True)
    return result.returncode, result.stdout + result.stderr


def test_ros2_launch_shows_the_arguments(stand_in, tmp_path):
    env, _, _ = stand_in
    rc, out = _ros2_launch(env, tmp_path, '--show-args')
    assert rc == 0, out
    shown = launch_arguments(out)
    assert set(shown) == ARGUMENTS, out
    assert shown['namespace'] == "''"
    assert shown['use_sim_time'] == "'false'"
    assert "FindPackageShare(pkg='sat_collision')" in shown['params_file'], out
    assert "'config' + 'collision_monitor.yaml'" in shown['params_file'], out
    assert shown['dds_profile'] == "EnvVar('FASTRTPS_DEFAULT_PROFILES_FILE')", out
    assert shown['use_lifecycle_manager'] == "'false'"


class _ParamsLoader(yaml.SafeLoader):
    """launch_ros writes a parameter list given in a dict as `!!python/tuple` (it holds
    parameter values as tuples; rcl's parser reads the tag's sequence): read it as a list."""


_ParamsLoader.add_constructor('tag:yaml.org,2002:python/tuple',
                              lambda loader, node: loader.construct_sequence(node))


def _record(out):
    lines = out.read_text().splitlines()
    args = [line[4:] for line in lines if line.startswith('ARG ')]
    files, current = {}, None
    for line in lines:
        if line.startswith('FILE '):
            current = line[5:]
            files[current] = []
        elif line.startswith('| ') or line == '|':
            files[current].append(line[2:])
    env = dict(line[4:].split('=', 1) for line in lines if line.startswith('ENV '))
    return args, {path: yaml.load('\n'.join(text), Loader=_ParamsLoader)
                  for path, text in files.items()}, env


def test_ros2_launch_starts_the_node_as_nav2s_collision_monitor(stand_in, tmp_path):
    env, share, out = stand_in
    rc, log = _ros2_launch(env, tmp_path)
    assert rc == 0, log
    args, files, node_env = _record(out)
    pairs = {(args[i], args[i + 1]) for i in range(len(args) - 1)}
    assert ('-r', f'__node:={NODE_NAME}') in pairs, args
    assert ('-r', '__ns:=/') in pairs, 'no namespace by default'
    for a, b in NAV2_REMAPPINGS:
        assert ('-r', f'{a}:={b}') in pairs, (a, b, args)
    installed = str(share / 'config' / 'collision_monitor.yaml')
    assert ('--params-file', installed) in pairs, args
    assert files[installed] == yaml.safe_load(CONFIG.read_text())
    # use_sim_time: launch_ros writes it to a parameters file of its own, under the node's
    # fully qualified name.
    (extra,) = [f for path, f in files.items() if path != installed]
    assert extra == {f'/{NODE_NAME}': {'ros__parameters': {'use_sim_time': False}}}, extra
    profile = str(share / 'config' / 'fastdds_large_data.xml')
    assert node_env == {v: profile for v in VARIABLES}, node_env


def test_ros2_launch_arguments_reach_the_node(stand_in, tmp_path):
    env, share, out = stand_in
    mine = tmp_path / 'mine.yaml'
    mine.write_text(yaml.safe_dump({NODE_NAME: {'ros__parameters': {'state_topic': 'mine'}}}))
    rc, log = _ros2_launch(env, tmp_path, 'namespace:=robot1', 'use_sim_time:=true',
                           f'params_file:={mine}', 'dds_profile:=/opt/robot/dds.xml')
    assert rc == 0, log
    args, files, node_env = _record(out)
    pairs = {(args[i], args[i + 1]) for i in range(len(args) - 1)}
    assert ('-r', f'__node:={NODE_NAME}') in pairs and ('-r', '__ns:=/robot1') in pairs, args
    for a, b in NAV2_REMAPPINGS:
        assert ('-r', f'{a}:={b}') in pairs, (a, b, args)
    assert ('--params-file', str(mine)) in pairs, args
    assert str(share / 'config' / 'collision_monitor.yaml') not in files, files
    (extra,) = [f for path, f in files.items() if path != str(mine)]
    assert extra == {f'/robot1/{NODE_NAME}': {'ros__parameters': {'use_sim_time': True}}}, extra
    assert node_env == {v: '/opt/robot/dds.xml' for v in VARIABLES}, node_env


# --- use_lifecycle_manager:=true ------------------------------------------------------------

def _pairs(args):
    return {(args[i], args[i + 1]) for i in range(len(args) - 1)}


def _nav2_manager_installed(env):
    return any((Path(p) / 'share' / 'ament_index' / 'resource_index' / 'packages' /
                'nav2_lifecycle_manager').is_file()
               for p in env.get('AMENT_PREFIX_PATH', '').split(':') if p)


@pytest.mark.parametrize('launch_file', sorted(LAUNCH_FILES))
def test_ros2_launch_managed_starts_nav2s_lifecycle_manager_beside_the_node(
        stand_in, tmp_path, launch_file):
    """nav2_lifecycle_manager installed (a stand-in recording its command line, as the
    node's): its lifecycle_manager with nav2's parameters, the node with autostart false."""
    env, share, out = stand_in
    node = LAUNCH_FILES[launch_file]
    manager_out = tmp_path / 'manager_record'
    env = standin_package(tmp_path, env, 'nav2_lifecycle_manager', 'lifecycle_manager',
                          FAKE_NODE.format(out=manager_out))
    rc, log = _ros2_launch(env, tmp_path, 'namespace:=robot1', 'use_lifecycle_manager:=true',
                           launch_file=launch_file)
    assert rc == 0, log
    args, files, _ = _record(out)
    assert ('-r', f'__node:={node}') in _pairs(args) and ('-r', '__ns:=/robot1') in _pairs(args)
    installed = str(share / 'config' / launch_file.replace('.launch.py', '.yaml'))
    assert ('--params-file', installed) in _pairs(args), args
    (extra,) = [f for path, f in files.items() if path != installed]
    # sat_collision.launch.py gives the robot its fleet id (the namespace's).
    expected = {'use_sim_time': False, 'autostart': False}
    if launch_file == 'sat_collision.launch.py':
        expected['robot_id'] = 'robot1'
    assert extra == {f'/robot1/{node}': {'ros__parameters': expected}}, extra
    args, files, _ = _record(manager_out)
    manager = f'lifecycle_manager_{node}'
    assert ('-r', f'__node:={manager}') in _pairs(args), args
    assert ('-r', '__ns:=/robot1') in _pairs(args), args
    (params,) = files.values()
    assert params == {f'/robot1/{manager}': {'ros__parameters': {
        'use_sim_time': False, 'autostart': True, 'node_names': [node],
        'bond_timeout': BOND_TIMEOUT}}}, params
    assert 'is configured (inactive): activating it' not in log, 'no launch events with nav2'


# A lifecycle node (rclpy's) in place of the node: records its command line as FAKE_NODE
# does, then each transition it goes through and its autostart parameter; ends (exit 0)
# a moment after it is active, and after 60 s without being activated (exit 1).
LIFECYCLE_STAND_IN = r"""
import sys
import time

import rclpy
from rclpy.lifecycle import LifecycleNode, TransitionCallbackReturn

RECORD = sys.argv[1]


def note(line):
    with open(RECORD, 'a') as f:
        f.write(line + '\n')


class StandIn(LifecycleNode):
    active = False

    def on_configure(self, state):
        note('TRANSITION configure')
        return TransitionCallbackReturn.SUCCESS

    def on_activate(self, state):
        note('TRANSITION activate')
        self.active = True
        return TransitionCallbackReturn.SUCCESS

    def on_deactivate(self, state):
        note('TRANSITION deactivate')
        return TransitionCallbackReturn.SUCCESS

    def on_cleanup(self, state):
        note('TRANSITION cleanup')
        return TransitionCallbackReturn.SUCCESS

    def on_shutdown(self, state):
        note('TRANSITION shutdown')
        return TransitionCallbackReturn.SUCCESS


rclpy.init(args=sys.argv)
node = StandIn('stand_in', automatically_declare_parameters_from_overrides=True)
autostart = node.get_parameter('autostart').value if node.has_parameter('autostart') else None
note(f'AUTOSTART {autostart!r}')
deadline = time.monotonic() + 60
while not node.active and time.monotonic() < deadline:
    rclpy.spin_once(node, timeout_sec=0.1)
# The answer to activate and the transition event go out before the end.
end = time.monotonic() + 1.0
while time.monotonic() < end:
    rclpy.spin_once(node, timeout_sec=0.1)
node.destroy_node()
rclpy.shutdown()
sys.exit(0 if node.active else 1)
"""


@pytest.mark.parametrize('launch_file', sorted(LAUNCH_FILES))
def test_ros2_launch_managed_without_nav2_brings_the_node_up_with_lifecycle_events(
        launch_python, tmp_path, launch_file):
    """No nav2_lifecycle_manager: launch's ChangeState events configure, then activate a
    lifecycle node started with autostart false; `ros2 launch` ends with it."""
    python, env = launch_python
    if shutil.which('ros2', path=env['PATH']) is None:
        pytest.skip(f'no ros2 on {env["PATH"]}')
    if _nav2_manager_installed(env):
        pytest.skip('nav2_lifecycle_manager is installed: the launch files use it')
    out = tmp_path / 'node_record'
    script = tmp_path / 'lifecycle_stand_in.py'
    script.write_text(LIFECYCLE_STAND_IN)
    node_script = FAKE_NODE.format(out=out) + f'exec "{python}" "{script}" "{out}" "$@"\n'
    share, env = install_prefix(tmp_path, env, node_script)
    for var in VARIABLES + ('RMW_IMPLEMENTATION',):
        env.pop(var, None)
    node = LAUNCH_FILES[launch_file]
    ns = f'lc_events_{os.getpid()}'
    rc, log = _ros2_launch(env, tmp_path, f'namespace:={ns}', 'use_lifecycle_manager:=true',
                           launch_file=launch_file)
    record = out.read_text().splitlines()
    assert rc == 0, log + '\n'.join(record)
    assert [line.split()[1] for line in record if line.startswith('TRANSITION ')] == [
        'configure', 'activate'], record
    assert 'AUTOSTART False' in record, record
    args, files, _ = _record(out)
    assert ('-r', f'__node:={node}') in _pairs(args) and ('-r', f'__ns:=/{ns}') in _pairs(args)
    assert f'{node} is configured (inactive): activating it' in log, log
