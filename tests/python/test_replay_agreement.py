"""`sat_collision replay` agrees with the live node: the same recording, fed to the node
over ROS 2 and to the replay from an MCAP, gives the same gate decisions.

The node (`sat_collision_node`, system time) runs with one laser scan source, a stop zone
and a slowdown zone ahead of the robot (polygons in the base frame) and the velocity gate.
An rclpy peer publishes `/tf_static` (base -> laser), a scan at 10 Hz and a command
(Twist, 0.3 m/s) at 20 Hz for 6 s while the scan's obstacle goes far (clear) -> inside the
slowdown zone -> inside the stop zone -> far again. The peer records what it publishes and
what it receives from the node (the gated command, the gate's state, `/collision`) into an
MCAP (`mcap_ros2`'s writer, schemas from the installed .msg files), each at the system
time it published or received it. `sat_collision replay` then runs that MCAP with the
same parameters file (`--jsonl`), and the two are compared:

* for every command, the node's answer and the replay's (same values within 1e-9),
  matched in order; the other outputs (the re-check's, at each side's own tick times)
  repeat the answer before or after them;
* the gate's states (action_type, polygon_name) in the same order, each within one
  publish period (plus delivery) of the node's;
* the `/collision` flag's values once repeats are collapsed;
* the replay's exit status (1: a stop for a zone), no input skipped, the same bytes
  twice;
* and that the comparison is not blind: the same MCAP replayed with a wrong slowdown
  ratio, without the stop zone, with a zone renamed or with a smaller robot must fail
  it, each at the comparison meant to catch it.

Namespace: the node runs in a namespace of its own (tests never share topics); the replay
resolves names as a node in `/` does, so the MCAP holds the topics with the namespace
taken off (as `ros2 bag record` with a remap would). Frame ids are unique to the run
(/tf_static is global). Commands and scans are published 25 ms apart, so that a scan
never races a command between the peer and the node: their order at the node is the
order recorded.

Run by scripts/test.sh (after `cargo build --bins`).
"""

import json
import math
import os
import re
import subprocess
import threading
import time
from pathlib import Path

import pytest
import yaml

from satpkg_support import NODE_NAME, RosPeer, binary, namespace, start_node
from test_gate import (
    ANGLE_MIN, BEAMS, DO_NOTHING, FRONT, INCREMENT, SLOWDOWN, STOP, _tf, cluster, f32,
    ranges_for, text,
)
from test_gate_judges import gate_params, stop_zone

PUBLISH_RATE = 20.0
PERIOD = 1.0 / PUBLISH_RATE
# Delivery between the node and the peer (each way), on a loaded machine.
DELIVERY = 0.03
CMD_X = 0.3
SLOWDOWN_RATIO = 0.4
# Base frame: the stop zone (test_gate's FRONT, x in [0, 0.5]) inside the slowdown zone.
SLOW = [(1.0, 0.4), (1.0, -0.4), (0.0, -0.4), (0.0, 0.4)]
# The laser on the robot (base -> laser: x offset, no rotation).
LASER_X = 0.1
TAG = f'replay_{os.getpid()}'
BASE, LASER = f'base_{TAG}', f'laser_{TAG}'
# The obstacle (a few points, base frame) by phase: (start s, where); far is clear of
# every zone and of the robot; the stop phase's obstacle is inside the robot's footprint
# too (test_gate_judges' ROBOT_FP, x <= 0.25), so the flag rises with the stop.
PHASES = [(0.0, (3.0, 0.0)), (1.5, (0.75, 0.0)), (3.0, (0.2, 0.0)), (4.5, (3.0, 0.0))]
DURATION = 6.0
SCAN_PERIOD, CMD_PERIOD = 0.1, 0.05
# Before the first scan: /tf_static alone (both sides tick a few times with no data).
LEAD_IN = 0.3
# After the last command: the answers still on their way.
TAIL = 0.3

# Topics as the node in its namespace names them (relative), and in the MCAP.
CMD_IN, CMD_OUT, STATE, SCAN, FLAG = 'cmd_in', 'cmd_out', 'gate_state', 'scan', 'collision'
INPUT_TOPICS = {'/tf_static', f'/{SCAN}', f'/{CMD_IN}'}

TYPES = {
    'tf': 'tf2_msgs/msg/TFMessage',
    'scan': 'sensor_msgs/msg/LaserScan',
    'twist': 'geometry_msgs/msg/Twist',
    'state': 'nav2_msgs/msg/CollisionMonitorState',
    'bool': 'std_msgs/msg/Bool',
}


def node_params(slowdown_ratio=SLOWDOWN_RATIO, stop=True, slow_name='slow', footprint=None):
    """The node's parameters file's body: the gate (a stop and a slowdown zone on one
    scan), the flag's robot in the base frame, system time. `stop_pub_timeout` is longer
    than the stop: every command is answered (the silence after it is not compared).
    The arguments break it on purpose (test_the_comparison_catches_a_wrong_replay)."""
    zones = {}
    if stop:
        zones['stop'] = stop_zone('scan', FRONT)
    zones[slow_name] = {'type': 'polygon', 'points': text(SLOW), 'action_type': 'slowdown',
                        'slowdown_ratio': slowdown_ratio, 'min_points': 3,
                        'sources_names': ['scan']}
    body = gate_params(TAG, {'scan': {'type': 'scan', 'topic': SCAN}}, zones,
                       publish_rate=PUBLISH_RATE, enabled=True, stop_pub_timeout=10.0,
                       source_timeout=1.0, use_sim_time=False, cmd_vel_in_topic=CMD_IN,
                       cmd_vel_out_topic=CMD_OUT, state_topic=STATE)
    body['base_frame_id'] = body['base_frame'] = BASE
    if footprint is not None:
        body['robot_footprint'] = text(footprint)
    return {NODE_NAME: {'ros__parameters': body}}


def write_params(path, **kw):
    path.write_text(yaml.safe_dump(node_params(**kw)))
    return path


# --- message definitions for mcap_ros2 (rosbag2's concatenated form) ----------------------

PRIMITIVES = {'bool', 'byte', 'char', 'float32', 'float64', 'int8', 'uint8', 'int16',
              'uint16', 'int32', 'uint32', 'int64', 'uint64', 'string', 'wstring'}


def _msg_text(pkg, name):
    for prefix in os.environ.get('AMENT_PREFIX_PATH', '').split(':'):
        path = Path(prefix) / 'share' / pkg / 'msg' / f'{name}.msg'
        if prefix and path.is_file():
            return path.read_text()
    raise AssertionError(f'{pkg}/msg/{name}.msg not found on AMENT_PREFIX_PATH')


def msgdef(full_name):
    """The .msg text of `full_name` (pkg/msg/Type) followed by every type it uses, each
    after a `===` line and `MSG: pkg/Type`, as rosbag2 writes MCAP schemas."""
    pkg, _, name = full_name.split('/')
    seen, parts = set(), []

    def visit(pkg, text):
        for line in text.splitlines():
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            typ = re.sub(r'<=\d+$', '', re.sub(r'\[[^\]]*\]$', '', line.split()[0]))
            if typ in PRIMITIVES:
                continue
            if '/' in typ:
                dep_pkg, dep = typ.split('/')[0], typ.split('/')[-1]
            elif typ == 'Header':
                dep_pkg, dep = 'std_msgs', 'Header'
            else:
                dep_pkg, dep = pkg, typ
            if (dep_pkg, dep) in seen:
                continue
            seen.add((dep_pkg, dep))
            dep_text = _msg_text(dep_pkg, dep)
            parts.append('=' * 80 + f'\nMSG: {dep_pkg}/{dep}\n{dep_text}')
            visit(dep_pkg, dep_text)

    top = _msg_text(pkg, name)
    visit(pkg, top)
    return '\n'.join([top, *parts])


# --- the peer: publishes the scene, records inputs and outputs -----------------------------

class Tape:
    """What the peer published and received: (log time ns, topic in the MCAP, type key,
    message), the time read when it published or received it (system time: the node's
    clock). Recording starts with `start()` and ends with `stop()`."""

    def __init__(self, node, ns):
        from geometry_msgs.msg import Twist
        from nav2_msgs.msg import CollisionMonitorState
        from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
        from rclpy.qos import qos_profile_sensor_data
        from sensor_msgs.msg import LaserScan
        from std_msgs.msg import Bool
        from tf2_msgs.msg import TFMessage

        self.node, self.ns = node, ns
        self.lock = threading.Lock()
        self.records = []
        self.on = False
        static_qos = QoSProfile(depth=100, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                                reliability=ReliabilityPolicy.RELIABLE)
        self.pubs = {
            'tf': ('/tf_static', node.create_publisher(TFMessage, '/tf_static', static_qos)),
            'scan': (f'/{SCAN}', node.create_publisher(LaserScan, f'{ns}/{SCAN}',
                                                      qos_profile_sensor_data)),
            'twist': (f'/{CMD_IN}', node.create_publisher(Twist, f'{ns}/{CMD_IN}', 10)),
        }
        self.subs = [
            node.create_subscription(kind, f'{ns}/{topic}', self._receiver(f'/{topic}', key),
                                     100)
            for kind, topic, key in [(Twist, CMD_OUT, 'twist'),
                                     (CollisionMonitorState, STATE, 'state'),
                                     (Bool, FLAG, 'bool')]]

    def _receiver(self, topic, key):
        def on(msg):
            with self.lock:
                if self.on:
                    self.records.append((time.time_ns(), topic, key, msg))
        return on

    def publish(self, key, make):
        """Publishes `make(now_ns)` on the publisher `key`, recorded at `now_ns`."""
        topic, pub = self.pubs[key]
        with self.lock:
            now = time.time_ns()
            msg = make(now)
            if self.on:
                self.records.append((now, topic, key, msg))
            pub.publish(msg)
        return now

    def start(self):
        with self.lock:
            self.on = True

    def stop(self):
        with self.lock:
            self.on = False

    def wait_matched(self, timeout=20.0):
        """Until the node subscribes to every input and publishes every output."""
        deadline = time.monotonic() + timeout
        outs = [f'{self.ns}/{t}' for t in (CMD_OUT, STATE, FLAG)]
        while True:
            subscribed = all(pub.get_subscription_count() > 0
                             for key, (_, pub) in self.pubs.items() if key != 'tf')
            publishing = all(self.node.count_publishers(t) > 0 for t in outs)
            if subscribed and publishing:
                break
            assert time.monotonic() < deadline, \
                f'the node did not match the peer within {timeout} s'
            time.sleep(0.05)
        time.sleep(0.3)  # discovery is two-way: the node's side matches too

    def write_mcap(self, path):
        from mcap_ros2.writer import Writer

        with self.lock:
            records = sorted(self.records, key=lambda r: r[0])
        with open(path, 'wb') as f:
            writer = Writer(f)
            schemas = {key: writer.register_msgdef(name, msgdef(name))
                       for key, name in TYPES.items()}
            for log_time, topic, key, msg in records:
                writer.write_message(topic, schemas[key], msg, log_time=log_time,
                                     publish_time=log_time)
            writer.finish()
        return records


def obstacle_at(t):
    return [where for start, where in PHASES if start <= t][-1]


def scan_msg(stamp_ns, where):
    """A scan in the laser frame seeing a few points around `where` (base frame)."""
    from builtin_interfaces.msg import Time
    from sensor_msgs.msg import LaserScan

    x, y = where
    msg = LaserScan()
    msg.header.frame_id = LASER
    msg.header.stamp = Time(sec=stamp_ns // 10**9, nanosec=stamp_ns % 10**9)
    msg.angle_min, msg.angle_increment = ANGLE_MIN, INCREMENT
    msg.angle_max = f32(ANGLE_MIN + (BEAMS - 1) * INCREMENT)
    msg.scan_time = float(SCAN_PERIOD)
    msg.range_min, msg.range_max = 0.05, 20.0
    msg.ranges = [float(r) for r in ranges_for(cluster(x - LASER_X, y))]
    return msg


def run_scene(tape):
    """/tf_static, then scans and commands on one schedule (scans 25 ms after a
    command); returns the commands' log times."""
    from builtin_interfaces.msg import Time
    from geometry_msgs.msg import Twist, Vector3
    from tf2_msgs.msg import TFMessage

    def static(now):
        stamp = Time(sec=now // 10**9, nanosec=now % 10**9)
        return TFMessage(transforms=[_tf(BASE, LASER, LASER_X, 0.0, 0.0, stamp)])

    events = [(LEAD_IN + SCAN_PERIOD / 4 + k * SCAN_PERIOD, 'scan')
              for k in range(round(DURATION / SCAN_PERIOD))]
    events += [(LEAD_IN + (j + 1) * CMD_PERIOD, 'twist')
               for j in range(round(DURATION / CMD_PERIOD))]
    events.sort()
    tape.start()
    t0 = time.monotonic()
    tape.publish('tf', static)
    commands = []
    for at, key in events:
        time.sleep(max(0.0, t0 + at - time.monotonic()))
        if key == 'scan':
            where = obstacle_at(at - LEAD_IN)
            tape.publish('scan', lambda now: scan_msg(now, where))
        else:
            commands.append(tape.publish('twist', lambda now: Twist(linear=Vector3(x=CMD_X))))
    time.sleep(TAIL)
    tape.stop()
    return commands


# --- the replay ----------------------------------------------------------------------------

def replay(bag, params, jsonl, timeout=60):
    """`sat_collision replay` with --jsonl: (exit status, stdout, the JSON lines)."""
    result = subprocess.run([binary('sat_collision'), 'replay', str(bag), '--params',
                             str(params), '--jsonl', str(jsonl)],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=timeout)
    assert result.returncode in (0, 1), \
        f'replay failed ({result.returncode}):\n{result.stdout}\n{result.stderr}'
    lines = [json.loads(line) for line in Path(jsonl).read_text().splitlines()]
    return result.returncode, result.stdout, lines


def twist_values(msg):
    """(linear x y z, angular x y z) of an rclpy Twist or a JSON line's message."""
    if isinstance(msg, dict):
        return tuple(msg[part][a] for part in ('linear', 'angular') for a in 'xyz')
    return tuple(getattr(getattr(msg, part), a) for part in ('linear', 'angular') for a in 'xyz')


def same(a, b, tol=1e-9):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def collapse(values):
    return [v for k, v in enumerate(values) if k == 0 or v != values[k - 1]]


def node_side(records, commands):
    """The node's outputs as recorded: per command its answer (the first output received
    after the command and before the next one), the other outputs (re-checks) with their
    times, the states and the flags with their times (s)."""
    outs = [(t, twist_values(m)) for t, topic, _, m in records if topic == f'/{CMD_OUT}']
    answers, extras, k = [], [], 0
    for i, c in enumerate(commands):
        end = commands[i + 1] if i + 1 < len(commands) else math.inf
        while k < len(outs) and outs[k][0] <= c:
            extras.append(outs[k])
            k += 1
        if k < len(outs) and outs[k][0] < end:
            answers.append(outs[k][1])
            k += 1
        else:
            answers.append(None)
    extras += outs[k:]
    states = [(t * 1e-9, (m.action_type, m.polygon_name))
              for t, topic, _, m in records if topic == f'/{STATE}']
    flags = [(t * 1e-9, m.data) for t, topic, _, m in records if topic == f'/{FLAG}']
    return answers, extras, states, flags


def replay_side(lines, commands):
    """The same from the replay's JSON lines: a command's answer is the output stamped
    with the command's log time."""
    by_time = {}
    extras = []
    command_times = set(commands)
    for line in lines:
        if line['topic'] != f'/{CMD_OUT}':
            continue
        value = twist_values(line['message'])
        if line['log_time_ns'] in command_times:
            assert line['log_time_ns'] not in by_time, f'two answers to one command: {line}'
            by_time[line['log_time_ns']] = value
        else:
            extras.append((line['log_time_ns'], value))
    answers = [by_time.get(c) for c in commands]
    states = [(line['log_time_ns'] * 1e-9,
               (line['message']['action_type'], line['message']['polygon_name']))
              for line in lines if line['topic'] == f'/{STATE}']
    flags = [(line['log_time_ns'] * 1e-9, line['message']['data'])
             for line in lines if line['topic'] == f'/{FLAG}']
    return answers, extras, states, flags


def check_extras(side, extras, answers, commands):
    """Every output that answers no command is a re-check's: it repeats the answer to the
    command before it or after it (a more restrictive result published between commands,
    or the zeros of a stop)."""
    for t, value in extras:
        before = [a for c, a in zip(commands, answers) if c < t and a is not None][-1:]
        after = [a for c, a in zip(commands, answers) if c > t and a is not None][:1]
        assert any(same(value, a) for a in before + after), \
            f'{side}: an output at {t * 1e-9:.3f} s answering no command: {value}; ' \
            f'answers around it {before} {after}'


def compare(recorded, lines):
    """Asserts that the replay's JSON lines agree with what the node did."""
    records, commands = recorded['records'], recorded['commands']
    n_answers, n_extras, n_states, n_flags = node_side(records, commands)
    r_answers, r_extras, r_states, r_flags = replay_side(lines, commands)
    t0 = commands[0] * 1e-9
    # Every command answered on both sides, with the same values.
    missing = [(i, (c * 1e-9 - t0)) for i, (c, a) in enumerate(zip(commands, n_answers))
               if a is None]
    assert not missing, f'commands the node did not answer (index, s): {missing}'
    missing = [(i, (c * 1e-9 - t0)) for i, (c, a) in enumerate(zip(commands, r_answers))
               if a is None]
    assert not missing, f'commands the replay did not answer (index, s): {missing}'
    differ = [(i, round(c * 1e-9 - t0, 3), n, r)
              for i, (c, n, r) in enumerate(zip(commands, n_answers, r_answers))
              if not same(n, r)]
    assert not differ, ('the node and the replay answered commands differently '
                        f'(index, s from the first command, node, replay): {differ}')
    check_extras('node', n_extras, n_answers, commands)
    check_extras('replay', r_extras, r_answers, commands)
    # The gate's states: the replay starts the core at the first record, so it also
    # shows the node's start-up (a stop: no scan yet) the node went through before the
    # peer could hear it; those come before the first scan.
    first_scan = min(t for t, topic, _, _ in records if topic == f'/{SCAN}') * 1e-9
    node_seq = [s for _, s in n_states]
    replay_seq = [s for _, s in r_states]
    lead = len(replay_seq) - len(node_seq)
    assert lead >= 0 and replay_seq[lead:] == node_seq, \
        f'gate states differ: node {n_states}, replay {r_states}'
    early = [(t, s) for t, s in r_states[:lead] if not (t <= first_scan and s[0] == STOP)]
    assert not early, f'replay states not in the node\'s record: {early} ' \
                      f'(first scan at {first_scan:.3f} s)'
    late = [(round(tn - t0, 3), round(tr - t0, 3), s)
            for (tn, s), (tr, _) in zip(n_states, r_states[lead:])
            if abs(tn - tr) > PERIOD + DELIVERY]
    assert not late, f'state changes more than a period apart (node s, replay s): {late}'
    # The flag: the same values once repeats are collapsed.
    assert collapse([v for _, v in n_flags]) == collapse([v for _, v in r_flags]), \
        (f'flags differ: node {collapse([v for _, v in n_flags])}, '
         f'replay {collapse([v for _, v in r_flags])}')
    return n_answers, node_seq, n_flags


@pytest.fixture(scope='module')
def recorded(tmp_path_factory):
    """The live run: the node and the peer, the MCAP written. Returns its paths, the
    records and the commands' log times (one run for every test here)."""
    tmp = tmp_path_factory.mktemp('replay_agreement')
    params = write_params(tmp / 'params.yaml')
    ns = namespace('replay')
    peer = RosPeer(f'replay_peer_{os.getpid()}')
    try:
        tape = Tape(peer.node, ns)
        with start_node(ns, params_file=str(params)):
            tape.wait_matched()
            commands = run_scene(tape)
    finally:
        peer.close()
    bag = tmp / 'live.mcap'
    records = tape.write_mcap(bag)
    return {'tmp': tmp, 'params': params, 'bag': bag, 'records': records,
            'commands': commands}


def test_replay_agrees_with_the_live_node(recorded):
    rc, out, lines = replay(recorded['bag'], recorded['params'],
                            recorded['tmp'] / 'out.jsonl')
    answers, states, flags = compare(recorded, lines)
    # The scene did what it was meant to: each phase's answer, in order; the states.
    expected = collapse([CMD_X, CMD_X * SLOWDOWN_RATIO, 0.0, CMD_X])
    got = collapse([round(a[0], 9) for a in answers])
    assert got == expected, f'answers (linear.x, collapsed): {got}'
    assert collapse(states) == [(DO_NOTHING, ''), (SLOWDOWN, 'slow'), (STOP, 'stop'),
                                (DO_NOTHING, '')], states
    assert True in [v for _, v in flags] and collapse([v for _, v in flags])[-1] is False
    # A stop for a zone: exit status 1.
    assert rc == 1, out


def test_replay_reads_every_input_and_is_deterministic(recorded):
    rc1, out1, _ = replay(recorded['bag'], recorded['params'], recorded['tmp'] / 'a.jsonl')
    rc2, out2, _ = replay(recorded['bag'], recorded['params'], recorded['tmp'] / 'b.jsonl')
    assert (recorded['tmp'] / 'a.jsonl').read_bytes() == \
        (recorded['tmp'] / 'b.jsonl').read_bytes()
    assert (rc1, out1) == (rc2, out2)
    inputs = sum(1 for _, topic, _, _ in recorded['records'] if topic in INPUT_TOPICS)
    m = re.search(r'^messages: (\d+) read, (\d+) used, (\d+) skipped$', out1, re.M)
    assert m, out1
    assert int(m.group(1)) == len(recorded['records']), out1
    assert int(m.group(2)) == inputs, out1
    skipped = re.findall(r'^\s+skipped \d+: (.*)$', out1, re.M)
    bad = [s for s in skipped
           if not s.startswith('not an input of the node: ')
           or s.rsplit(': ', 1)[1] in INPUT_TOPICS]
    assert not bad, f'inputs skipped: {bad}\n{out1}'
    assert 'decode error' not in out1, out1


# The same MCAP replayed with parameters that differ from the node's in one way each, and
# the comparison that must then fail: a slowdown ratio of 0.5 instead of 0.4 and no stop
# zone (a missed stop) change the answers; the slowdown zone under another name, the
# states only; a robot too small to hold the obstacle, the flag only.
BROKEN = {
    'slowdown_ratio': ({'slowdown_ratio': 0.5}, 'answered commands differently'),
    'no_stop': ({'stop': False}, 'answered commands differently'),
    'zone_name': ({'slow_name': 'slower'}, 'gate states differ'),
    'small_robot': ({'footprint': [(0.1, 0.1), (0.1, -0.1), (-0.1, -0.1), (-0.1, 0.1)]},
                    'flags differ'),
}


@pytest.mark.parametrize('broken', list(BROKEN))
def test_the_comparison_catches_a_wrong_replay(recorded, broken):
    kw, failure = BROKEN[broken]
    params = write_params(recorded['tmp'] / f'{broken}.yaml', **kw)
    _, _, lines = replay(recorded['bag'], params, recorded['tmp'] / f'{broken}.jsonl')
    with pytest.raises(AssertionError, match=failure):
        compare(recorded, lines)
