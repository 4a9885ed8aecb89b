"""config/fastdds_large_data.xml and the launch file's dds_profile argument.

* The profile is well-formed Fast DDS XML whose default participant profile uses its
  shared-memory and UDPv4 transports (no built-in ones), with the sizes its comments give.
* Fast DDS accepts it: an rclpy process started with FASTRTPS_DEFAULT_PROFILES_FILE set to
  it prints no parser error and maps a shared-memory segment of the profile's size (and,
  as the control, one of 512 KiB without it).
* Clouds of 200,000 points (3.2 MB) sent five times by scripts/measure_cloud_delivery.py,
  both processes with the profile, arrive intact at least once (no rate is asserted: the
  machine may be loaded; BENCHMARKS.md has the measured delivery).
* The launch file: `dds_profile` is declared, and evaluating the launch description
  (launch's own LaunchContext, no process started) gives the node the two variables with
  the argument's value (default: $FASTRTPS_DEFAULT_PROFILES_FILE, else the installed
  config/fastdds_large_data.xml), only with a Fast DDS RMW and a non-empty argument, and
  never to RViz2 or past the node's group. And once for real: `ros2 launch` of the launch
  file from a stand-in install prefix (launch/ and config/ copied, a script in place of the
  node binary that records its environment), so no Rust build is needed.
  Needs `launch_ros` and `ros2 launch`: a sourced regular install's, or ../shared/ros2_cli
  (as test_launch_file.py); skipped, saying why, without either.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from satpkg_support import ROOT, install_prefix

PROFILE = ROOT / 'config' / 'fastdds_large_data.xml'
LAUNCH = ROOT / 'launch' / 'sat_collision.launch.py'
MEASURE = ROOT / 'scripts' / 'measure_cloud_delivery.py'
NS = '{http://www.eprosima.com/XMLSchemas/fastRTPS_Profiles}'
VARIABLES = ('FASTRTPS_DEFAULT_PROFILES_FILE', 'FASTDDS_DEFAULT_PROFILES_FILE')
SEGMENT = 16 * 1024 * 1024
SOCKET_BUFFER = 8 * 1024 * 1024
DEFAULT_SEGMENT = 512 * 1024


def _domain_env(**extra):
    env = dict(os.environ)
    if not env.get('ROS_DOMAIN_ID'):
        env['ROS_DOMAIN_ID'] = str(1 + os.getpid() % 100)
    for var in VARIABLES:
        env.pop(var, None)
    env.update(extra)
    return env


# --- the file -------------------------------------------------------------------------------

def test_profile_is_a_default_participant_profile_with_large_transports():
    root = ET.parse(PROFILE).getroot()
    assert root.tag == f'{NS}dds'
    descriptors = {d.findtext(f'{NS}transport_id'): d
                   for d in root.iter(f'{NS}transport_descriptor')}
    (participant,) = root.iter(f'{NS}participant')
    assert participant.get('is_default_profile') == 'true'
    rtps = participant.find(f'{NS}rtps')
    assert rtps.findtext(f'{NS}useBuiltinTransports') == 'false'
    used = [t.text for t in rtps.find(f'{NS}userTransports')]
    assert sorted(used) == sorted(descriptors), 'every transport used, each defined'
    kinds = {descriptors[t].findtext(f'{NS}type'): descriptors[t] for t in used}
    assert set(kinds) == {'SHM', 'UDPv4'}
    assert int(kinds['SHM'].findtext(f'{NS}segment_size')) == SEGMENT
    for tag in ('sendBufferSize', 'receiveBufferSize'):
        assert int(kinds['UDPv4'].findtext(f'{NS}{tag}')) == SOCKET_BUFFER
    # QoS stays the code's: no data writer / reader profiles (see the file's comments).
    assert not [e for e in root.iter() if e.tag in (
        f'{NS}publisher', f'{NS}subscriber', f'{NS}data_writer', f'{NS}data_reader')]


# What a process maps from /dev/shm once its participant exists (Linux).
_SEGMENTS = r'''
import re, rclpy
rclpy.init()
node = rclpy.create_node('dds_profile_probe')
sizes = {}
for line in open('/proc/self/maps'):
    m = re.match(r'([0-9a-f]+)-([0-9a-f]+) .* /dev/shm/(fastrtps_[0-9a-f]+)$', line.strip())
    if m:
        sizes[m.group(3)] = sizes.get(m.group(3), 0) + int(m.group(2), 16) - int(m.group(1), 16)
print('SEGMENTS', sorted(sizes.values()))
node.destroy_node()
rclpy.shutdown()
'''


def _segments(profile):
    env = _domain_env(**({v: str(profile) for v in VARIABLES} if profile else {}))
    result = subprocess.run([sys.executable, '-c', _SEGMENTS], env=env, cwd='/',
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=60)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    m = re.search(r'^SEGMENTS (\[.*\])$', result.stdout, re.M)
    assert m, out
    return json.loads(m.group(1)), out


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='reads /proc/self/maps')
def test_fast_dds_accepts_the_profile_and_applies_its_segment():
    sizes, out = _segments(PROFILE)
    assert 'Error' not in out and 'XMLPARSER' not in out, out
    # The participant's own segment (with ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST,
    # rmw_fastrtps adds a default one beside it).
    assert sizes and max(sizes) >= SEGMENT, (sizes, out)
    # The control: without the profile, the largest segment is Fast DDS's default.
    sizes, out = _segments(None)
    assert sizes and DEFAULT_SEGMENT <= max(sizes) < SEGMENT, (sizes, out)


def test_big_clouds_arrive_with_the_profile():
    result = subprocess.run(
        [sys.executable, str(MEASURE), '--points', '200000', '--count', '5', '--rate', '5',
         '--profile', str(PROFILE), '--json'],
        env=_domain_env(), cwd=str(ROOT), stdin=subprocess.DEVNULL, capture_output=True,
        text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    (run,) = json.loads(result.stdout)['runs']
    assert run['sent'] == 5 and run['bytes'] == 3_200_000, run
    assert run['malformed'] == 0 and run['unknown'] == 0, run
    assert run['delivered'] >= 1, run


# --- the launch file ------------------------------------------------------------------------

# Evaluates the launch description the way `ros2 launch` does (LaunchContext, visit),
# except that processes are not started: for each launch_ros Node launch would start (its
# condition holds), the profile variables of the environment it would be started with. argv: launch file, JSON launch arguments,
# JSON RMW_IMPLEMENTATION (null: unset). The RMW is set only after the imports: rcl, which
# launch_ros loads, exits when RMW_IMPLEMENTATION names another RMW than the installed one.
_EVALUATE = r'''
import importlib.util, json, os, sys
from launch import LaunchContext
from launch.utilities import perform_substitutions
from launch_ros.actions import Node

rmw = json.loads(sys.argv[3])
if rmw is None:
    os.environ.pop('RMW_IMPLEMENTATION', None)
else:
    os.environ['RMW_IMPLEMENTATION'] = rmw

VARIABLES = ('FASTRTPS_DEFAULT_PROFILES_FILE', 'FASTDDS_DEFAULT_PROFILES_FILE')
spec = importlib.util.spec_from_file_location('sat_collision_launch', sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
description = module.generate_launch_description()
context = LaunchContext()
context.launch_configurations.update(json.loads(sys.argv[2]))
nodes = []

def walk(entities):
    for entity in entities:
        condition = getattr(entity, 'condition', None)
        if condition is not None and not condition.evaluate(context):
            continue  # (launch would not run it: the managed node's, unless asked)
        if isinstance(entity, Node):
            name = entity.node_executable
            if not isinstance(name, str):
                name = perform_substitutions(context, name)
            nodes.append([name, {v: context.environment.get(v) for v in VARIABLES}])
            continue
        walk(entity.visit(context) or [])

walk([description])
after = {v: context.environment.get(v) for v in VARIABLES}
print('NODES ' + json.dumps({'nodes': nodes, 'after': after}))
'''


@pytest.fixture(scope='module')
def launch_python():
    """(python, environment) that can import launch_ros and run `ros2 launch`."""
    if os.environ.get('SAT_COLLISION_ROS_MODE_USED') == 'system':
        python, env = sys.executable, dict(os.environ)
    else:
        from test_launch_file import SHARED_CLI, _install_shared_cli

        if not (SHARED_CLI / 'install.sh').is_file():
            pytest.skip(f'no launch_ros: no regular ROS 2 install is sourced and there is no '
                        f'{SHARED_CLI} (the ROS 2 command line for the wheels)')
        bin_dir, cli = _install_shared_cli()
        script = f'source "{cli / "install" / "setup.bash"}" && env -0'
        result = subprocess.run(['bash', '-c', script], stdin=subprocess.DEVNULL,
                                capture_output=True, timeout=60)
        assert result.returncode == 0, result.stderr.decode(errors='replace')
        env = dict(item.split('=', 1) for item in result.stdout.decode().split('\0')
                   if '=' in item)
        python = str(bin_dir / 'python3')
        env['PATH'] = f'{bin_dir}:{env["PATH"]}'
    check = subprocess.run([python, '-c', 'import launch_ros.actions'], env=env,
                           cwd='/', capture_output=True, text=True, timeout=60)
    if check.returncode != 0:
        pytest.skip(f'launch_ros does not import: {check.stderr[-500:]}')
    return python, env


@pytest.fixture(scope='module')
def fake_share(tmp_path_factory):
    """An install prefix where FindPackageShare('sat_collision') resolves: its share/."""
    prefix = tmp_path_factory.mktemp('prefix')
    index = prefix / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    (index / 'sat_collision').write_text('')
    (prefix / 'share' / 'sat_collision').mkdir()
    return prefix


def _evaluate(launch_python, fake_share, arguments=None, rmw=None, inherited=None):
    """{'nodes': [[executable, {variable: value}]], 'after': {variable: value}}, with RViz2
    started (use_rviz: true) unless `arguments` say otherwise."""
    python, env = launch_python
    arguments = {'use_rviz': 'true', **(arguments or {})}
    env = dict(env, AMENT_PREFIX_PATH=f'{fake_share}:{env.get("AMENT_PREFIX_PATH", "")}')
    for var in VARIABLES + ('RMW_IMPLEMENTATION',):
        env.pop(var, None)
    if inherited is not None:
        env[VARIABLES[0]] = inherited
    result = subprocess.run([python, '-c', _EVALUATE, str(LAUNCH), json.dumps(arguments),
                             json.dumps(rmw)],
                            env=env, cwd='/', stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=60)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    m = re.search(r'^NODES (.*)$', result.stdout, re.M)
    assert m, out
    found = json.loads(m.group(1))
    names = [name for name, _ in found['nodes']]
    if (arguments.get('use_lifecycle_manager') or 'false').lower() == 'true':
        # nav2's lifecycle manager, when installed, beside the node (outside its group).
        names = [n for n in names if n != 'lifecycle_manager']
    assert names == ['sat_collision_node', 'rviz2'], found
    return found


def _node_env(found):
    return found['nodes'][0][1]


def _unset():
    return {v: None for v in VARIABLES}


def test_launch_sets_the_installed_profile_by_default(launch_python, fake_share):
    installed = str(fake_share / 'share' / 'sat_collision' / 'config' / 'fastdds_large_data.xml')
    for rmw in (None, '', 'rmw_fastrtps_cpp', 'rmw_fastrtps_dynamic_cpp'):
        found = _evaluate(launch_python, fake_share, rmw=rmw)
        assert _node_env(found) == {v: installed for v in VARIABLES}, (rmw, found)
        # Scoped to the node: not RViz2, not what follows.
        assert found['nodes'][1][1] == _unset(), found
        assert found['after'] == _unset(), found
    assert PROFILE.is_file()  # what the installed path names (config/ is installed whole)


def test_launch_managed_node_gets_the_profile_too(launch_python, fake_share):
    """use_lifecycle_manager:=true starts the node as a LifecycleNode in the same group."""
    found = _evaluate(launch_python, fake_share, {'use_lifecycle_manager': 'true',
                                                  'dds_profile': '/opt/robot/dds.xml'})
    assert _node_env(found) == {v: '/opt/robot/dds.xml' for v in VARIABLES}, found
    assert all(env == _unset() for _, env in found['nodes'][1:]), found
    assert found['after'] == _unset(), found


def test_launch_dds_profile_argument_is_what_the_node_gets(launch_python, fake_share):
    found = _evaluate(launch_python, fake_share, {'dds_profile': '/opt/robot/dds.xml'},
                      rmw='rmw_fastrtps_cpp')
    assert _node_env(found) == {v: '/opt/robot/dds.xml' for v in VARIABLES}, found


def test_launch_keeps_an_inherited_profile(launch_python, fake_share):
    found = _evaluate(launch_python, fake_share, inherited='/etc/robot/fastdds.xml')
    assert _node_env(found) == {v: '/etc/robot/fastdds.xml' for v in VARIABLES}, found


def test_launch_sets_nothing_for_other_rmws_or_an_empty_argument(launch_python, fake_share):
    for rmw in ('rmw_cyclonedds_cpp', 'rmw_connextdds', 'rmw_zenoh_cpp'):
        found = _evaluate(launch_python, fake_share, rmw=rmw)
        assert _node_env(found) == _unset(), (rmw, found)
        found = _evaluate(launch_python, fake_share, {'dds_profile': '/opt/robot/dds.xml'}, rmw=rmw)
        assert _node_env(found) == _unset(), (rmw, found)
    found = _evaluate(launch_python, fake_share, {'dds_profile': ''})
    assert _node_env(found) == _unset(), found


FAKE_NODE = """#!/bin/sh
# Stand-in for sat_collision_node: records the profile variables it was started with.
env | grep -E '^FAST(RTPS|DDS)_DEFAULT_PROFILES_FILE=' | sort > "{out}"
echo started >> "{out}"
"""


def test_ros2_launch_starts_the_node_with_the_installed_profile(launch_python, tmp_path):
    _, env = launch_python
    ros2 = shutil.which('ros2', path=env['PATH'])
    if ros2 is None:
        pytest.skip(f'no ros2 on {env["PATH"]}')
    out = tmp_path / 'node_env'
    share, env = install_prefix(tmp_path, env, FAKE_NODE.format(out=out))
    for var in VARIABLES + ('RMW_IMPLEMENTATION',):
        env.pop(var, None)
    # The stand-in exits at once, and `ros2 launch` with it.
    result = subprocess.run([ros2, 'launch', 'sat_collision', 'sat_collision.launch.py'],
                            env=env, cwd=str(tmp_path), stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=60,
                            start_new_session=True)
    assert result.returncode == 0, result.stdout + result.stderr
    profile = share / 'config' / 'fastdds_large_data.xml'
    assert out.read_text().splitlines() == [f'{v}={profile}' for v in sorted(VARIABLES)] + [
        'started'], result.stdout + result.stderr
