"""launch/sat_collision.launch.py.

Without ROS (always run):
* the file compiles, and its syntax tree declares exactly the documented arguments (ARGUMENTS),
  uses each of them, and has a generate_launch_description function;
* REMAPPINGS names every topic and the service of the node's reference (docs/node.md), by
  relative name.

For real, with `ros2 launch` (the `launched` fixture): msg/ and the package built by
colcon (the session's `colcon_workspace`, shared with test_colcon_layout.py), then

    ros2 launch sat_collision sat_collision.launch.py namespace:=robot1 \\
        params_file:=<a file with non-default padding and publish_rate> use_rviz:=true

with a stand-in `rviz2` package (a script that records its command line: RViz2 itself is
not installable here), and:
* `ros2 launch --show-args`: the arguments with their defaults;
* `ros2 topic list` / `ros2 service list`: every topic of the node and check_footprint
  under /robot1; the node's command line holds every remapping and the log level;
* `ros2 param get` reads the file's values; `ros2 param set` applies a value in range and
  refuses one out of range with the node's own message;
* rclpy publishes a footprint and obstacles under /robot1: the collision flag and report
  follow the file's padding, then the padding set at run time;
* RViz2 is started with the installed config, in the namespace;
* Ctrl-C (SIGINT to the process group of `ros2 launch`) stops everything cleanly.
A second, short launch with use_sim_time:=true log_level:=debug checks those two, and a
third one use_lifecycle_manager:=true: the node starts with autostart false and is brought
up (by launch's lifecycle events, or nav2's lifecycle manager when installed) to active,
as `ros2 lifecycle get` reads it.

Where `ros2` comes from: a sourced regular ROS 2 install's, when it has `ros2 launch`;
otherwise ../shared/ros2_cli beside the repository (or, in a git worktree, beside its main
checkout), installed once by its install.sh into
.ros2/ros2_cli/<key>/ (a venv of its own that also sees .ros2/venv's packages, so that
.ros2/venv stays exactly what scripts/requirements-ros.txt says, plus the
composition_interfaces package it builds); otherwise these tests are skipped, saying why.
Every process runs in a process group of its own, killed whole in teardown; `ros2` runs
with --no-daemon, so no ros2 daemon outlives the tests.
"""

import ast
import fcntl
import hashlib
import os
import py_compile
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest
import yaml

from satpkg_support import (
    NODE_NAME, RANGES, ROOT, Proc, Reports, colliding_ids, env_without_private_msgs, fmt_num,
    launch_arguments, ros_peer, square,
)

if not os.environ.get('ROS_DOMAIN_ID'):
    # Before rclpy creates a context: separate runs must not hear each other.
    os.environ['ROS_DOMAIN_ID'] = str(1 + os.getpid() % 100)

assert ros_peer  # a fixture, used by name below

LAUNCH = ROOT / 'launch' / 'sat_collision.launch.py'
ARGUMENTS = {'params_file', 'namespace', 'use_sim_time', 'use_rviz', 'log_level',
             'use_namespaced_tf', 'dds_profile', 'use_lifecycle_manager', 'robot_id'}


def _find_shared_cli():
    """../shared/ros2_cli beside the repository or, in a git worktree, beside the main
    checkout (the parent of git's common directory); the first when neither has it."""
    candidates = [ROOT.parent / 'shared' / 'ros2_cli']
    try:
        common = subprocess.run(['git', '-C', str(ROOT), 'rev-parse', '--path-format=absolute',
                                 '--git-common-dir'], stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        common = ''
    if common:
        candidates.append(Path(common).parent.parent / 'shared' / 'ros2_cli')
    return next((c for c in candidates if (c / 'install.sh').is_file()), candidates[0])


SHARED_CLI = _find_shared_cli()
NS = '/robot1'
NODE = f'{NS}/{NODE_NAME}'
# The launch's parameters file: non-default padding and publish_rate (defaults 0 and 10).
PADDING, PUBLISH_RATE = 0.25, 20.0
SERVICES = {'check_footprint', 'check_path'}


def _reference_topics():
    """Topics and services of the table of the node's names in its reference, docs/node.md,
    named by a relative name of their own (not by a parameter)."""
    reference = (ROOT / 'docs' / 'node.md').read_text()
    return set(re.findall(r'^\| `([a-z_]+)` \| `[a-z_]+/', reference, re.M))


# --- without ROS ------------------------------------------------------------------------

def test_compiles(tmp_path):
    py_compile.compile(str(LAUNCH), cfile=str(tmp_path / 'launch.pyc'), doraise=True)


def test_declares_exactly_the_documented_arguments():
    tree = ast.parse(LAUNCH.read_text(), filename=str(LAUNCH))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert 'generate_launch_description' in functions
    assert not functions['generate_launch_description'].args.args
    declared = []
    configs = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant):
                if node.func.id == 'DeclareLaunchArgument':
                    declared.append(first.value)
                elif node.func.id == 'LaunchConfiguration':
                    configs.add(first.value)
    assert sorted(declared) == sorted(ARGUMENTS)
    assert configs == ARGUMENTS, 'every argument is used, and only declared ones'
    imported = {(n.module, a.name) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                for a in n.names}
    assert ('launch_ros.actions', 'Node') in imported
    assert ('launch_ros.actions', 'LifecycleNode') in imported
    assert ('launch.conditions', 'IfCondition') in imported


def _remappings():
    tree = ast.parse(LAUNCH.read_text(), filename=str(LAUNCH))
    (value,) = [n.value for n in tree.body if isinstance(n, ast.Assign)
                and [t.id for t in n.targets if isinstance(t, ast.Name)] == ['REMAPPINGS']]
    return ast.literal_eval(value)


def test_remappings_name_every_topic_and_service_by_relative_name():
    remapped = [a for a, _ in _remappings()]
    assert sorted(remapped) == sorted(_reference_topics())
    assert all(not a.startswith('/') for a in remapped)


# --- `ros2`: a regular install's, or ../shared/ros2_cli ----------------------------------

def _run(args, env, timeout=120):
    return subprocess.run([str(a) for a in args], env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=timeout)


def _shared_cli_key():
    h = hashlib.sha256()
    h.update((ROOT / '.ros2' / 'venv' / '.sat_collision_stamp').read_bytes())
    for path in sorted(p for p in SHARED_CLI.rglob('*') if p.is_file()):
        h.update(str(path.relative_to(SHARED_CLI)).encode() + b'\0' + path.read_bytes())
    return h.hexdigest()[:16]


def _scripts_run(venv):
    """Whether the venv's `ros2` script names an interpreter that exists (a venv's scripts
    name it by the path the venv was made at)."""
    try:
        first = (venv / 'bin' / 'ros2').read_text().split('\n', 1)[0]
    except OSError:
        return False
    return first.startswith('#!') and os.access(first[2:].strip(), os.X_OK)


def _install_shared_cli():
    """../shared/ros2_cli installed into .ros2/ros2_cli/<key>/ (once; under a lock):
    (folder to put first on PATH, prefix whose install/setup.bash to source).

    The prefix is .ros2's real path: in a git worktree .ros2 is a link to the main
    checkout's, and a venv made through the link would name the worktree in its scripts'
    first lines, which break once that worktree is gone; an install whose scripts do not
    run is made again."""
    base = (ROOT / '.ros2').resolve() / 'ros2_cli'
    key = _shared_cli_key()
    prefix = base / key
    venv, cli = prefix / 'venv', prefix / 'cli'
    base.mkdir(parents=True, exist_ok=True)
    with open(base / '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = prefix / '.stamp'
        if not (stamp.is_file() and stamp.read_text() == key and _scripts_run(venv)):
            for old in base.iterdir():
                if old.is_dir():
                    shutil.rmtree(old)
            t0 = time.monotonic()
            # A venv on the same base Python as .ros2/venv, which sees .ros2/venv's
            # packages (rclpy, the messages, colcon) through a .pth file.
            base_python = os.path.join(sys.base_prefix, 'bin', 'python%d.%d' % sys.version_info[:2])
            result = _run([base_python, '-m', 'venv', venv], os.environ, timeout=300)
            assert result.returncode == 0, result.stdout
            result = _run([venv / 'bin' / 'python3', '-c',
                           'import sysconfig; print(sysconfig.get_paths()["purelib"])'],
                          os.environ)
            assert result.returncode == 0, result.stdout
            site = result.stdout.strip()
            ros_site = sysconfig.get_paths()['purelib']
            with open(os.path.join(site, 'sat_collision_ros_venv.pth'), 'w') as pth:
                pth.write(f'import site; site.addsitedir({ros_site!r})\n')
            env = dict(os.environ, PATH=f'{venv / "bin"}:{os.environ["PATH"]}')
            result = _run([SHARED_CLI / 'install.sh', cli], env, timeout=1200)
            assert result.returncode == 0, result.stdout
            stamp.write_text(key)
            print(f'ros2 command line installed into {prefix} ({time.monotonic() - t0:.0f} s)')
    return venv / 'bin', cli


def _ros2_env(ws, path_first=None, cli=None):
    """The environment of `ros2` commands: ours without .ros2/msgs, the command line's
    prefix and the colcon workspace sourced."""
    env = env_without_private_msgs()
    if path_first is not None:
        env['PATH'] = f'{path_first}:{env["PATH"]}'
    scripts = ([cli / 'install' / 'setup.bash'] if cli is not None else []) + \
        [ws / 'install' / 'setup.bash']
    script = ' && '.join(f'source "{s}"' for s in scripts) + ' && env -0'
    result = subprocess.run(['bash', '-c', script], env=env, stdin=subprocess.DEVNULL,
                            capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode(errors='replace')
    pairs = (item.split('=', 1) for item in result.stdout.decode().split('\0') if '=' in item)
    env = dict(pairs)
    assert shutil.which('ros2', path=env['PATH']), f'no ros2 on {env["PATH"]}'
    return env


@pytest.fixture(scope='module')
def ros2_env(request):
    """Environment in which `ros2` launches the colcon workspace's package."""
    if os.environ.get('SAT_COLLISION_ROS_MODE_USED') == 'system':
        # A regular ROS 2 install is sourced: its own `ros2`.
        if shutil.which('ros2') is None or \
                _run(['ros2', 'launch', '--help'], os.environ, timeout=60).returncode != 0:
            pytest.skip('the sourced regular ROS 2 install has no `ros2 launch` (install '
                        'ros-$ROS_DISTRO-ros2launch, -ros2topic, -ros2param, -ros2service)')
        path_first = cli = None
    elif (SHARED_CLI / 'install.sh').is_file():
        path_first, cli = _install_shared_cli()
    else:
        pytest.skip(f'no `ros2 launch`: no regular ROS 2 install is sourced and there is no '
                    f'{SHARED_CLI} (the ROS 2 command line for the wheels)')
    ws, _ = request.getfixturevalue('colcon_workspace')
    return _ros2_env(ws, path_first, cli)


def ros2(env, *args, timeout=60):
    """`ros2 ARGS...`: (exit code, output)."""
    result = _run(['ros2', *args], env, timeout=timeout)
    return result.returncode, result.stdout


def ros2_until(env, args, done, what, timeout=30.0):
    """Repeat `ros2 ARGS...` until done(output) (discovery takes a moment)."""
    deadline = time.monotonic() + timeout
    while True:
        rc, out = ros2(env, *args)
        if rc == 0 and done(out):
            return out
        if time.monotonic() > deadline:
            raise AssertionError(f'`ros2 {" ".join(args)}`: no {what} within {timeout} s '
                                 f'(exit code {rc}); output:\n{out}')
        time.sleep(0.5)


# --- one launch ---------------------------------------------------------------------------

FAKE_RVIZ = '''#!/bin/sh
# Stand-in for rviz2: records its command line, runs until SIGINT / SIGTERM.
printf '%s\\n' "$@" > "{argv}"
trap 'exit 0' INT TERM
while :; do sleep 0.1; done
'''


def _fake_rviz_prefix(tmp):
    """An install prefix with a package `rviz2` whose `rviz2` writes its arguments to
    <tmp>/rviz2_argv."""
    argv = tmp / 'rviz2_argv'
    prefix = tmp / 'fake_rviz'
    exe = prefix / 'lib' / 'rviz2' / 'rviz2'
    exe.parent.mkdir(parents=True)
    exe.write_text(FAKE_RVIZ.format(argv=argv))
    exe.chmod(0o755)
    index = prefix / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    (index / 'rviz2').write_text('')
    return prefix, argv


class Launch:
    """`ros2 launch sat_collision sat_collision.launch.py ARGS...` in a process group of
    its own; the node's pid comes from launch's 'process started' line."""

    def __init__(self, env, *args):
        self.proc = Proc(['ros2', 'launch', 'sat_collision', 'sat_collision.launch.py', *args],
                         env=env)
        self.pids = {}
        self.cmdlines = {}

    def wait_started(self, processes=('sat_collision_node',), timeout=60, node_line=True):
        """Wait for launch's 'process started' line of each of `processes`, then (with
        `node_line`) the node's own 'started: ' line."""
        for name in processes:
            m = self.proc.wait_for(rf'\[INFO\] \[{name}-\d+\]: process started with pid \[(\d+)\]',
                                   timeout=timeout)
            self.pids[name] = int(m.group(1))
            self.cmdlines[name] = self.cmdline(name)
        if node_line:
            self.proc.wait_for(r'\bstarted: ', timeout=timeout)

    def cmdline(self, name):
        try:
            with open(f'/proc/{self.pids[name]}/cmdline', 'rb') as f:
                return [a.decode() for a in f.read().split(b'\0')[:-1]]
        except FileNotFoundError:
            return []

    def alive(self):
        """Names of the launched processes still running."""
        alive = []
        for name, pid in self.pids.items():
            try:
                with open(f'/proc/{pid}/stat') as f:
                    if f.read().rsplit(')', 1)[1].split()[0] != 'Z':
                        alive.append(name)
            except FileNotFoundError:
                pass
        return alive

    def ctrl_c(self, timeout=30):
        """SIGINT to the whole process group, as Ctrl-C in a terminal: (exit code, output)."""
        rc = self.proc.stop(signal.SIGINT, timeout=timeout)
        return rc, self.proc.output

    def kill(self):
        self.proc.kill()
        # In case a launched process left launch's process group: it, not a new process
        # that got its pid.
        for name, pid in self.pids.items():
            if self.cmdlines[name] and self.cmdline(name) == self.cmdlines[name]:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def _params_file(tmp, padding, publish_rate):
    path = tmp / 'robot1_params.yaml'
    path.write_text(yaml.safe_dump({NODE_NAME: {'ros__parameters': {
        'padding': padding, 'publish_rate': publish_rate}}}))
    return path


@pytest.fixture(scope='module')
def launched(ros2_env, tmp_path_factory):
    """The launch of the module's tests (in order): namespace robot1, the parameters
    file, a stand-in RViz2. Killed (whole process group) at the end whatever happened."""
    tmp = tmp_path_factory.mktemp('launch')
    rviz_prefix, rviz_argv = _fake_rviz_prefix(tmp)
    env = dict(ros2_env, AMENT_PREFIX_PATH=f'{ros2_env["AMENT_PREFIX_PATH"]}:{rviz_prefix}')
    params = _params_file(tmp, PADDING, PUBLISH_RATE)
    t0 = time.monotonic()
    launch = Launch(env, f'namespace:={NS.lstrip("/")}', f'params_file:={params}',
                    'use_rviz:=true')
    try:
        launch.wait_started(('sat_collision_node', 'rviz2'))
        print(f'ros2 launch: node started after {time.monotonic() - t0:.1f} s')
        yield launch, env, rviz_argv
    finally:
        launch.kill()


def test_launch_shows_the_documented_arguments(ros2_env):
    rc, out = ros2(ros2_env, 'launch', 'sat_collision', 'sat_collision.launch.py', '--show-args')
    assert rc == 0, out
    shown = launch_arguments(out)
    assert set(shown) == ARGUMENTS, out
    assert shown['namespace'] == "''"
    assert shown['use_sim_time'] == "'false'"
    assert shown['use_rviz'] == "'false'"
    assert shown['log_level'] == "'info'"
    assert shown['use_namespaced_tf'] == "'false'"
    assert "FindPackageShare(pkg='sat_collision')" in shown['params_file'], out
    assert "'config' + 'sat_collision.yaml'" in shown['params_file'], out
    # The default is the variable, else the installed profile (launch prints the first only,
    # the description names the second).
    assert shown['dds_profile'] == "EnvVar('FASTRTPS_DEFAULT_PROFILES_FILE')", out
    assert 'config/fastdds_large_data.xml' in out, out
    assert shown['use_lifecycle_manager'] == "'false'"


def test_launch_topics_and_service_in_the_namespace(launched):
    launch, env, _ = launched
    topics = _reference_topics() - SERVICES
    want = {f'{NS}/{t}' for t in topics}
    out = ros2_until(env, ['topic', 'list', '--no-daemon'],
                     lambda out: want <= set(out.split()), f'topics {sorted(want)}')
    assert not {f'/{t}' for t in topics} & set(out.split()), 'the namespace moved them all'
    want = {f'{NS}/{s}' for s in SERVICES} | {f'{NODE}/{s}' for s in (
        'get_parameters', 'set_parameters', 'list_parameters', 'describe_parameters')}
    ros2_until(env, ['service', 'list', '--no-daemon'],
               lambda out: want <= set(out.split()), f'services {sorted(want)}')
    # What launch_ros gave the node: its name and namespace, every remapping, the log level.
    cmd = launch.cmdline('sat_collision_node')
    assert cmd[0].endswith('/lib/sat_collision/sat_collision_node'), cmd
    pairs = {(cmd[i], cmd[i + 1]) for i in range(len(cmd) - 1)}
    assert ('-r', f'__node:={NODE_NAME}') in pairs and ('-r', f'__ns:={NS}') in pairs, cmd
    for a, b in _remappings():
        assert ('-r', f'{a}:={b}') in pairs, (a, b, cmd)
    assert ('--log-level', 'info') in pairs, cmd


def _param_get(env, name):
    rc, out = ros2(env, 'param', 'get', '--no-daemon', '--timeout', '20', NODE, name)
    assert rc == 0, out
    return out.strip()


def test_launch_param_get_reads_the_params_file(launched):
    _, env, _ = launched
    assert _param_get(env, 'padding') == f'Double value is: {PADDING}'
    assert _param_get(env, 'publish_rate') == f'Double value is: {PUBLISH_RATE}'


# A 1 x 1 m footprint at the origin; `near` 0.125 m to the right of it, `far` farther.
# (Coordinates exact in float32, the type of geometry_msgs/Point32.)
GAP = 0.125
FOOTPRINT = square(0.0, 0.0, 0.5)
NEAR = ('near', [(0.5 + GAP, -0.5), (1.0, -0.5), (1.0, 0.5), (0.5 + GAP, 0.5)])
FAR = ('far', [(1.0, 1.0), (1.5, 1.0), (1.5, 2.0), (1.0, 2.0)])
RUNTIME_PADDING = 0.0625


def _expect(reports, colliding, nearest, what):
    r = reports.wait(lambda r: r.valid and r.nearest_obstacle_id == nearest
                     and r.colliding == colliding and len(r.results) == 2, what)
    assert r.status == 'ok', r
    assert colliding_ids(r) == (['near'] if colliding else []), r
    # The flag follows (published before each report, from the same inputs).
    assert reports.next_flag() is colliding
    return r


def test_launch_collision_flag_follows_the_params_file_padding(launched, ros_peer):
    reports = Reports(ros_peer, NS)
    reports.points = FOOTPRINT
    reports.obstacles = [NEAR, FAR]
    # 0.125 m from the footprint, padding 0.25 m: colliding, by 0.125 m.
    r = _expect(reports, True, 'near', 'near colliding through the padding')
    near = next(x for x in r.results if x.id == 'near')
    assert abs(near.penetration_depth - (PADDING - GAP)) < 1e-9, near


def test_launch_param_set_in_range_applies_out_of_range_is_refused(launched, ros_peer):
    _, env, _ = launched
    rc, out = ros2(env, 'param', 'set', '--no-daemon', '--timeout', '20', NODE, 'padding',
                   str(RUNTIME_PADDING))
    assert rc == 0 and out.strip() == 'Set parameter successful', out
    # Out of range: refused with the node's own message.
    lo, hi = RANGES['padding']
    rc, out = ros2(env, 'param', 'set', '--no-daemon', '--timeout', '20', NODE, 'padding', '7.5')
    assert out.strip() == ('Setting parameter failed: Parameter padding conversion failed: '
                           f'7.5 is outside the allowed range [{fmt_num(lo)}, {fmt_num(hi)}]'), out
    # The value set is the one used, the refused one changed nothing: `near` is now clear,
    # at its gap less the new padding.
    reports = Reports(ros_peer, NS)
    reports.points = FOOTPRINT
    reports.obstacles = [NEAR, FAR]
    r = _expect(reports, False, 'near', f'near clear with padding {RUNTIME_PADDING}')
    near = next(x for x in r.results if x.id == 'near')
    assert abs(near.distance - (GAP - RUNTIME_PADDING)) < 1e-9, near


def test_launch_starts_rviz_with_the_installed_config_in_the_namespace(launched):
    launch, env, argv_file = launched
    argv = argv_file.read_text().splitlines()
    share = _run(['ros2', 'pkg', 'prefix', '--share', 'sat_collision'], env).stdout.strip()
    assert argv[:2] == ['-d', f'{share}/config/sat_collision.rviz'], argv
    pairs = {(argv[i], argv[i + 1]) for i in range(len(argv) - 1)}
    assert ('-r', '__node:=rviz2') in pairs and ('-r', f'__ns:={NS}') in pairs, argv
    assert ('--log-level', 'info') in pairs, argv


def test_launch_ctrl_c_stops_everything_cleanly(launched):
    launch, _, _ = launched
    assert launch.alive() == ['sat_collision_node', 'rviz2'], launch.proc.output
    rc, out = launch.ctrl_c()
    assert rc == 0, out
    assert launch.alive() == [], out
    for name, pid in launch.pids.items():
        assert re.search(rf'\[INFO\] \[{name}-\d+\]: process has finished cleanly \[pid {pid}\]',
                         out), out
    assert 'died' not in out and 'Traceback' not in out and 'panicked' not in out, out


def test_launch_with_sim_time_and_debug_log_level(ros2_env, tmp_path):
    """use_sim_time:=true reaches the node (and the node accepts it), as does the log level;
    no RViz2 without use_rviz."""
    launch = Launch(ros2_env, 'namespace:=robot2', 'use_sim_time:=true', 'log_level:=debug')
    try:
        launch.wait_started()
        assert 'rviz2' not in launch.proc.output
        cmd = launch.cmdline('sat_collision_node')
        assert ('--log-level', 'debug') in {(cmd[i], cmd[i + 1]) for i in range(len(cmd) - 1)}
        rc, out = ros2(ros2_env, 'param', 'get', '--no-daemon', '--timeout', '20',
                       f'/robot2/{NODE_NAME}', 'use_sim_time')
        assert rc == 0 and out.strip() == 'Boolean value is: True', out
        rc, out = launch.ctrl_c()
        assert rc == 0 and launch.alive() == [], out
        assert 'died' not in out and 'Traceback' not in out, out
    finally:
        launch.kill()


def test_launch_with_lifecycle_manager_brings_the_node_up(ros2_env):
    """use_lifecycle_manager:=true: the node is started with autostart false, then brought
    up to active (launch's lifecycle events here, nav2's lifecycle manager where it is
    installed); Ctrl-C stops everything cleanly."""
    launch = Launch(ros2_env, 'namespace:=robot3', 'use_lifecycle_manager:=true')
    node = f'/robot3/{NODE_NAME}'
    try:
        launch.wait_started(node_line=False)
        ros2_until(ros2_env, ['lifecycle', 'get', '--no-daemon', node],
                   lambda out: out.strip() == 'active [3]', 'active [3]', timeout=60)
        rc, out = ros2(ros2_env, 'param', 'get', '--no-daemon', '--timeout', '20', node,
                       'autostart')
        assert rc == 0 and out.strip() == 'Boolean value is: False', out
        rc, out = launch.ctrl_c()
        assert rc == 0 and launch.alive() == [], out
        assert 'died' not in out and 'Traceback' not in out and 'panicked' not in out, out
    finally:
        launch.kill()
