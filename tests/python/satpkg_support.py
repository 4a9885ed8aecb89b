"""Shared helpers of the packaging tests (params file, zones, demo, launch, colcon).

* `Proc`: a child process (the node, the demo) in its own session, whose output is
  collected by a thread; it is stopped with SIGINT then SIGKILL, and the kernel kills it
  too (PR_SET_PDEATHSIG) if the test process dies first, so no run leaves one behind.
* `ros_peer()`: an rclpy node for talking to the node under test (parameter services);
  `Reports` on it publishes a footprint and obstacles and collects reports and flags.

Binaries come from $SAT_COLLISION_BIN_DIR (set by scripts/test.sh) or
${CARGO_TARGET_DIR:-target}/debug. Every test runs its node in a namespace of its own,
so tests never see each other's topics.
"""

import ctypes
import hashlib
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TARGET_DIR = Path(os.environ.get('CARGO_TARGET_DIR') or ROOT / 'target')
BIN_DIR = Path(os.environ.get('SAT_COLLISION_BIN_DIR') or TARGET_DIR / 'debug')
NODE_NAME = 'sat_collision_node'

# The node's parameters, their allowed ranges and the run-time ones, read from the
# table in the config module (`PARAMS`: one `ParamSpec { name: ..., kind: ..., runtime: ... }`
# per parameter; src/config/node.rs since config was split by table) so that the tests
# follow the code.
_CONFIG_RS = next((f.read_text() for f in [ROOT / 'src' / 'config.rs',
                                            *sorted((ROOT / 'src' / 'config').rglob('*.rs'))]
                   if 'pub static PARAMS: &[ParamSpec]' in f.read_text()), '')


def _param_table():
    m = re.search(r'pub static PARAMS: &\[ParamSpec\] = &\[(.*?)\n\];', _CONFIG_RS, re.S)
    assert m, 'PARAMS not found in src/config.rs or src/config/'
    entries = m.group(1).split('ParamSpec {')[1:]
    assert entries, 'no ParamSpec in PARAMS (src/config)'
    table = []
    for entry in entries:
        name = re.search(r'\bname: "([a-z_]+)"', entry)
        runtime = re.search(r'\bruntime: (true|false)', entry)
        assert name and runtime, f'unreadable ParamSpec in src/config: {entry!r}'
        bounds = re.search(r'\bmin: ([0-9._eE+-]+),\s*max: ([0-9._eE+-]+),', entry)
        table.append((name.group(1), runtime.group(1) == 'true',
                      tuple(float(x) for x in bounds.groups()) if bounds else None))
    return table


_PARAMS = _param_table()
PARAM_NAMES = [name for name, _, _ in _PARAMS]
RUNTIME_PARAMS = [name for name, runtime, _ in _PARAMS if runtime]
RANGES = {name: bounds for name, _, bounds in _PARAMS if bounds}


def msg_key():
    """A hash of msg/ (file names and contents): names the cached colcon workspace."""
    h = hashlib.sha256()
    for path in sorted((ROOT / 'msg').rglob('*')):
        if path.is_file():
            h.update(str(path.relative_to(ROOT)).encode() + b'\0' + path.read_bytes())
    return h.hexdigest()[:16]


def env_without_private_msgs():
    """os.environ without scripts/env.sh's own build of msg/ (.ros2/msgs) on the paths, so
    that a colcon workspace's sat_collision_msgs is the one seen."""
    env = dict(os.environ)
    for var in ('AMENT_PREFIX_PATH', 'CMAKE_PREFIX_PATH', 'LD_LIBRARY_PATH', 'PYTHONPATH'):
        parts = [p for p in env.get(var, '').split(':')
                 if p and '/.ros2/msgs' not in p]
        if parts:
            env[var] = ':'.join(parts)
        else:
            env.pop(var, None)
    return env


def fmt_num(x):
    """A number the way Rust's `{}` prints an f64 (1.0 -> 1, 0.1 -> 0.1)."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def binary(name):
    path = BIN_DIR / name
    if not os.access(path, os.X_OK):
        pytest.fail(f'{path} not found: build it first (cargo build --bins), or set '
                    'SAT_COLLISION_BIN_DIR')
    return str(path)


def namespace(tag):
    """A namespace unique to this test and this run."""
    return f'/t_pkg_{tag}_{os.getpid()}'


_PR_SET_PDEATHSIG = 1


def _child_setup():
    try:
        ctypes.CDLL('libc.so.6', use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass


class Proc:
    """A child process with its combined output collected line by line."""

    def __init__(self, args, cwd=ROOT, env=None):
        self.args = [str(a) for a in args]
        self.lines = []
        self._cond = threading.Condition()
        self.proc = subprocess.Popen(
            self.args, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
            start_new_session=True, preexec_fn=_child_setup)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.proc.stdout:
            with self._cond:
                self.lines.append(line.rstrip('\n'))
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    @property
    def output(self):
        with self._cond:
            return '\n'.join(self.lines)

    def wait_for(self, pattern, timeout=30.0):
        """Wait until a line matches `pattern` (regex); return the match."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        seen = 0
        with self._cond:
            while True:
                for line in self.lines[seen:]:
                    m = rx.search(line)
                    if m:
                        return m
                seen = len(self.lines)
                left = deadline - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and not self._reader.is_alive()):
                    raise AssertionError(
                        f'no line matching {pattern!r} within {timeout} s from '
                        f'{" ".join(self.args)} (exit code {self.proc.poll()}); output:\n'
                        + '\n'.join(self.lines))
                self._cond.wait(min(left, 0.2))

    def wait_exit(self, timeout=30.0):
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f'{" ".join(self.args)} still running after {timeout} s; '
                                 f'output:\n{self.output}')
        self._reader.join(5)
        return rc

    def stop(self, sig=signal.SIGINT, timeout=10.0):
        """Send `sig`, wait for the exit; SIGKILL after `timeout`. Returns the exit code."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
                raise AssertionError(f'{" ".join(self.args)} ignored signal {sig} for '
                                     f'{timeout} s; output:\n{self.output}')
        self._reader.join(5)
        return self.proc.returncode

    def kill(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()
        self._reader.join(5)


def start_node(ns, *ros_args, params_file=None):
    """sat_collision_node in namespace `ns`, waiting for its 'started' line."""
    args = [binary(NODE_NAME), '--ros-args', '-r', f'__ns:={ns}']
    if params_file is not None:
        args += ['--params-file', params_file]
    args += list(ros_args)
    proc = Proc(args)
    try:
        proc.wait_for(r'\bstarted: ', timeout=30)
    except BaseException:
        proc.kill()
        raise
    return proc


def run_node_expect_failure(*ros_args, params_file=None, timeout=30.0):
    """Run the node with arguments that must stop its start-up: (exit code, output)."""
    args = [binary(NODE_NAME), '--ros-args', '-r', f'__ns:={namespace("fail")}']
    if params_file is not None:
        args += ['--params-file', params_file]
    args += list(ros_args)
    with Proc(args) as proc:
        rc = proc.wait_exit(timeout)
        return rc, proc.output


# --- rclpy -----------------------------------------------------------------------------

class Pumped:
    """A peer whose `_pump` runs on a daemon thread until `close()`: `_pump` loops while
    `self._stop` (a threading.Event) is not set. Call `_start_pump()` last in `__init__`."""

    def _start_pump(self):
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._thread.start()

    def close(self):
        self._stop.set()
        self._thread.join(5)


class RosPeer:
    """An rclpy node with a background executor."""

    def __init__(self, name, type_description=True):
        import rclpy
        from rclpy.executors import SingleThreadedExecutor

        self.rclpy = rclpy
        self.context = rclpy.context.Context()
        rclpy.init(context=self.context)
        # type_description=False: no ~/get_type_description on this peer (one entity
        # less for destroy_node to tear down; the tests that ask a peer for type
        # descriptions keep it).
        from rclpy.parameter import Parameter
        overrides = [] if type_description else [
            Parameter('start_type_description_service', value=False)]
        self.node = rclpy.create_node(name, context=self.context,
                                      parameter_overrides=overrides)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self._stop = False
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()

    def _spin(self):
        while not self._stop and self.context.ok():
            self.executor.spin_once(timeout_sec=0.05)

    def close(self):
        self._stop = True
        self._thread.join(30)
        if self._thread.is_alive():
            # Destroying a node another thread spins segfaults (ros2/rclpy#260, #663):
            # the peer is left to the process's end rather than crash every test.
            print(f'RosPeer {self.node.get_name()}: its spin thread did not stop; '
                  'the node is not destroyed')
            return
        self.executor.shutdown()
        self.node.destroy_node()
        self.rclpy.shutdown(context=self.context)

    def call(self, srv_type, name, request, timeout=30.0):
        client = self.node.create_client(srv_type, name)
        try:
            deadline = time.monotonic() + timeout
            while not client.wait_for_service(timeout_sec=0.2):
                if time.monotonic() > deadline:
                    raise AssertionError(f'service {name} not available within {timeout} s')
            future = client.call_async(request)
            while not future.done():
                if time.monotonic() > deadline:
                    raise AssertionError(f'no answer from {name} within {timeout} s')
                time.sleep(0.02)
            return future.result()
        finally:
            self.node.destroy_client(client)

    def get_parameters(self, node_fqn, names):
        """{name: python value} through rcl_interfaces/srv/GetParameters."""
        from rcl_interfaces.srv import GetParameters

        request = GetParameters.Request()
        request.names = list(names)
        response = self.call(GetParameters, f'{node_fqn}/get_parameters', request)
        assert len(response.values) == len(names), response
        return {n: parameter_value(v) for n, v in zip(names, response.values)}

    def list_parameters(self, node_fqn, prefixes=()):
        """The names ListParameters answers (every depth), sorted."""
        from rcl_interfaces.srv import ListParameters

        request = ListParameters.Request()
        request.prefixes = list(prefixes)
        response = self.call(ListParameters, f'{node_fqn}/list_parameters', request)
        return sorted(response.result.names)

    def describe_parameters(self, node_fqn, names):
        """{name: description} through rcl_interfaces/srv/DescribeParameters."""
        from rcl_interfaces.srv import DescribeParameters

        request = DescribeParameters.Request()
        request.names = list(names)
        response = self.call(DescribeParameters, f'{node_fqn}/describe_parameters', request)
        return {d.name: d.description for d in response.descriptors}

    def set_parameter(self, node_fqn, name, value):
        """(successful, reason) of one SetParameters request."""
        from rcl_interfaces.msg import Parameter
        from rcl_interfaces.srv import SetParameters

        request = SetParameters.Request()
        request.parameters = [Parameter(name=name, value=to_parameter_value(value))]
        response = self.call(SetParameters, f'{node_fqn}/set_parameters', request)
        result = response.results[0]
        return result.successful, result.reason


def parameter_value(msg):
    from rcl_interfaces.msg import ParameterType as T

    values = {
        T.PARAMETER_BOOL: 'bool_value',
        T.PARAMETER_INTEGER: 'integer_value',
        T.PARAMETER_DOUBLE: 'double_value',
        T.PARAMETER_STRING: 'string_value',
        T.PARAMETER_STRING_ARRAY: 'string_array_value',
    }
    if msg.type == T.PARAMETER_STRING_ARRAY:
        return list(msg.string_array_value)
    if msg.type == T.PARAMETER_NOT_SET:
        return None
    assert msg.type in values, f'unexpected parameter type {msg.type}'
    return getattr(msg, values[msg.type])


def to_parameter_value(value):
    from rcl_interfaces.msg import ParameterType as T
    from rcl_interfaces.msg import ParameterValue

    if isinstance(value, bool):
        return ParameterValue(type=T.PARAMETER_BOOL, bool_value=value)
    if isinstance(value, int):
        return ParameterValue(type=T.PARAMETER_INTEGER, integer_value=value)
    if isinstance(value, float):
        return ParameterValue(type=T.PARAMETER_DOUBLE, double_value=value)
    if isinstance(value, list):
        return ParameterValue(type=T.PARAMETER_STRING_ARRAY,
                              string_array_value=[str(v) for v in value])
    return ParameterValue(type=T.PARAMETER_STRING, string_value=str(value))


@pytest.fixture
def ros_peer(request):
    peer = RosPeer('satpkg_peer_' + re.sub(r'\W', '_', request.node.name)[:40],
                   type_description=False)
    yield peer
    peer.close()


def square(cx, cy, half=0.2):
    return [(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half),
            (cx - half, cy + half)]


def colliding_ids(report):
    return sorted(r.id for r in report.results if r.colliding)


class Recorder:
    """Messages of one topic on a RosPeer, with the monotonic time each arrived; `keep`
    turns a message into what is recorded (None: not recorded)."""

    def __init__(self, peer, msg_type, topic, qos=10, keep=None):
        self.items = []
        self.cond = threading.Condition()
        self.keep = keep or (lambda msg: msg)
        self.sub = peer.node.create_subscription(msg_type, topic, self._on, qos)

    def _on(self, msg):
        item = self.keep(msg)
        if item is None:
            return
        with self.cond:
            self.items.append((time.monotonic(), item))
            self.cond.notify_all()

    def mark(self):
        with self.cond:
            return len(self.items)

    def since(self, mark):
        with self.cond:
            return [m for _, m in self.items[mark:]]

    def after(self, t):
        """Messages that arrived after monotonic time t."""
        with self.cond:
            return [m for at, m in self.items if at > t]

    def wait(self, predicate, what, timeout, mark=0):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for at, m in self.items[mark:]:
                    if predicate(m):
                        return at, m
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f'no {what} within {timeout} s; got '
                                         f'{[m for _, m in self.items[mark:]][-5:]}')
                self.cond.wait(min(left, 0.1))


class Reports:
    """On a RosPeer: publishes `points` as the footprint and, when set, `obstacles`
    ([(id, points)]) as an obstacle array, both at 10 Hz into namespace `ns`; keeps the
    latest collision_report and collision flag."""

    def __init__(self, peer, ns, frame='map'):
        from geometry_msgs.msg import PolygonStamped
        from sat_collision_msgs.msg import CollisionReport, ObstacleArray
        from std_msgs.msg import Bool

        self.peer, self.frame = peer, frame
        self.latest = None
        self.flags = []
        self.cond = threading.Condition()
        self.pub = peer.node.create_publisher(PolygonStamped, f'{ns}/footprint', 10)
        self.obstacles_pub = peer.node.create_publisher(ObstacleArray, f'{ns}/obstacles', 10)
        self.sub = peer.node.create_subscription(
            CollisionReport, f'{ns}/collision_report', self._on_report, 10)
        self.flag_sub = peer.node.create_subscription(Bool, f'{ns}/collision', self._on_flag, 10)
        self.points = None
        self.obstacles = None
        self.timer = peer.node.create_timer(0.1, self._publish)

    def _on_report(self, msg):
        with self.cond:
            self.latest = msg
            self.cond.notify_all()

    def _on_flag(self, msg):
        with self.cond:
            self.flags.append(msg.data)
            self.cond.notify_all()

    def _polygon(self, points):
        from geometry_msgs.msg import Point32, Polygon

        return Polygon(points=[Point32(x=float(x), y=float(y), z=0.0) for x, y in points])

    def _publish(self):
        from geometry_msgs.msg import PolygonStamped
        from sat_collision_msgs.msg import Obstacle, ObstacleArray

        stamp = self.peer.node.get_clock().now().to_msg()
        if self.obstacles is not None:
            array = ObstacleArray()
            array.header.frame_id = self.frame
            array.header.stamp = stamp
            array.obstacles = [Obstacle(id=i, polygon=self._polygon(p), radius=0.0)
                               for i, p in self.obstacles]
            self.obstacles_pub.publish(array)
        if self.points is None:
            return
        msg = PolygonStamped()
        msg.header.frame_id = self.frame
        msg.header.stamp = stamp
        msg.polygon = self._polygon(self.points)
        self.pub.publish(msg)

    def wait(self, predicate, what, timeout=30.0):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                if self.latest is not None and predicate(self.latest):
                    return self.latest
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f'no report with {what} within {timeout} s; '
                                         f'last: {self.latest}')
                self.cond.wait(min(left, 0.2))

    def next_flag(self, timeout=10.0):
        """The first collision flag received after this call."""
        deadline = time.monotonic() + timeout
        with self.cond:
            seen = len(self.flags)
            while len(self.flags) == seen:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f'no collision flag within {timeout} s')
                self.cond.wait(min(left, 0.2))
            return self.flags[seen]


def install_prefix(tmp_path, env, node_script):
    """An install prefix under `tmp_path` laid out as colcon installs the package, for
    `ros2 launch`: launch/ and config/ copied into share/sat_collision, the package in the
    ament index, `node_script` (a script's text) as lib/sat_collision/sat_collision_node.
    Returns (the share folder, `env` with the prefix first on AMENT_PREFIX_PATH and the ROS
    logs under `tmp_path`)."""
    prefix = tmp_path / 'prefix'
    share = prefix / 'share' / 'sat_collision'
    shutil.copytree(ROOT / 'launch', share / 'launch')
    shutil.copytree(ROOT / 'config', share / 'config')
    index = prefix / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    (index / 'sat_collision').write_text('')
    node = prefix / 'lib' / 'sat_collision' / NODE_NAME
    node.parent.mkdir(parents=True)
    node.write_text(node_script)
    node.chmod(0o755)
    env = dict(env, AMENT_PREFIX_PATH=f'{prefix}:{env.get("AMENT_PREFIX_PATH", "")}',
               ROS_LOG_DIR=str(tmp_path / 'log'))
    return share, env


def standin_package(tmp_path, env, package, executable, script):
    """A prefix under `tmp_path` with `package` in the ament index and `script` (a script's
    text) as lib/<package>/<executable>, for `ros2 launch`: `env` with the prefix first on
    AMENT_PREFIX_PATH."""
    prefix = tmp_path / f'standin_{package}'
    index = prefix / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    (index / package).write_text('')
    exe = prefix / 'lib' / package / executable
    exe.parent.mkdir(parents=True)
    exe.write_text(script)
    exe.chmod(0o755)
    return dict(env, AMENT_PREFIX_PATH=f'{prefix}:{env.get("AMENT_PREFIX_PATH", "")}')


def launch_arguments(out):
    """The arguments `ros2 launch ... --show-args` printed in `out`: name -> its default as
    shown (quoted, or the substitution's text)."""
    return dict(re.findall(r"^    '(\w+)':\n(?:        .*\n)+?        \(default: (.*)\)$",
                           out, re.M))
