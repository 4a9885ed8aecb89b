"""tests/python/fleet_sim.py against the real node, before any fleet: one robot, on the
test's machine (no namespaces), then across the hosts of tests/python/netns.py's LAN.

The node (started as test_gate.py starts it, in a namespace of its own, TF remapped into
it as nav2 does for several robots) gates the simulator's constant 1 m/s command with a
stop zone 0.6 m deep ahead of the robot, over a `polygon` source (PolygonInstanceStamped,
the nav2 collision monitor's type) that holds one box 3 m ahead in `map`; it also
predicts along the simulator's odometry (velocity_topic, time_horizon 2 s) and judges its
footprint topic. The simulator drives on the gated output only. Checked from its record:

* the pose advances at the commanded 1 m/s;
* the gate stops it: it comes to rest with the obstacle in the stop zone (base at
  2.4 m or more) and its front short of the obstacle, and stays there;
* collision_ahead reads false while the obstacle is beyond the horizon, true once the
  obstacle is within 2 s, before the stop; collision, once the node judges (fail-safe
  true before the first footprint), stays false;
* the gated commands it drove on: 1 m/s, then zeros.

Across hosts (the node in h1, the simulator in h2, the box published from h3), the
simulator's link taken down for 1.5 s on the way halts the robot (no gated command:
its watchdog) and brought up lets it drive on to the same stop.
"""

import json
import math
import os
import sys
import textwrap
import threading
import time
from pathlib import Path

import yaml

from netns import Lan, fastdds_shm_segments, require_netns
from satpkg_support import (  # noqa: F401
    NODE_NAME, ROOT, Proc, binary, namespace, ros_peer, start_node,
)

assert ros_peer  # a fixture, used by name below

SIM = Path(__file__).resolve().with_name('fleet_sim.py')
PYTHON = os.environ.get('SAT_COLLISION_PYTHON') or sys.executable

SPEED = 1.0
OBSTACLE_X = 3.0  # map: the box's near side
STOP_DEPTH = 0.6  # the stop zone, ahead of base_footprint
FRONT = 0.3  # the simulator's footprint: [-0.3, 0.3] x [-0.2, 0.2]
HORIZON = 2.0


def node_params():
    """The gate's topics as config/collision_monitor.yaml names them (nav2's), the
    flag's and the prediction's as the node's defaults, one stop zone on one polygon
    source."""
    cm = yaml.safe_load((ROOT / 'config/collision_monitor.yaml').read_text())
    cm = cm['collision_monitor']['ros__parameters']
    zone = f'[[{STOP_DEPTH}, 0.3], [{STOP_DEPTH}, -0.3], [0.0, -0.3], [0.0, 0.3]]'
    return {
        'global_frame': 'map',
        'publish_rate': 20.0,
        'velocity_topic': 'odom',
        'velocity_type': 'odometry',
        'time_horizon': HORIZON,
        'base_frame_id': cm['base_frame_id'],
        'odom_frame_id': cm['odom_frame_id'],
        'cmd_vel_in_topic': cm['cmd_vel_in_topic'],
        'cmd_vel_out_topic': cm['cmd_vel_out_topic'],
        'observation_sources': ['boxes'],
        'boxes': {'type': 'polygon', 'topic': 'boxes', 'source_timeout': 1.0},
        'polygons': ['PolygonStop'],
        'PolygonStop': {'type': 'polygon', 'points': zone, 'action_type': 'stop',
                        'min_points': 1},
    }, cm


class Boxes:
    """Publishes the obstacle box in `map` at 10 Hz on the polygon source's topic."""

    def __init__(self, node, topic):
        from geometry_msgs.msg import PolygonInstanceStamped
        from rclpy.qos import qos_profile_sensor_data

        self.node = node
        self.pub = node.create_publisher(PolygonInstanceStamped, topic, qos_profile_sensor_data)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        from geometry_msgs.msg import Point32, PolygonInstanceStamped

        box = [(OBSTACLE_X, -0.5), (OBSTACLE_X + 0.4, -0.5), (OBSTACLE_X + 0.4, 0.5),
               (OBSTACLE_X, 0.5)]
        while not self.stop.is_set():
            msg = PolygonInstanceStamped()
            msg.header.frame_id = 'map'
            msg.header.stamp = self.node.get_clock().now().to_msg()
            msg.polygon.id = 1
            msg.polygon.polygon.points = [Point32(x=x, y=y, z=0.0) for x, y in box]
            self.pub.publish(msg)
            time.sleep(0.1)

    def close(self):
        self.stop.set()
        self.thread.join(5)


def read_record(path):
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    # The last line may be half written.
    out = []
    for line in lines:
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    return out


def wait_record(path, predicate, what, timeout, procs):
    deadline = time.monotonic() + timeout
    while True:
        rec = read_record(path)
        if predicate(rec):
            return rec
        if time.monotonic() > deadline:
            poses = [r for r in rec if r['kind'] == 'pose']
            logs = '\n'.join(f'--- {p.args[:2]}:\n{p.output[-3000:]}' for p in procs)
            raise AssertionError(f'{what}: not within {timeout} s; last pose '
                                 f'{poses[-1:]}, {len(rec)} records\n{logs}')
        time.sleep(0.05)


def poses(rec):
    return [r for r in rec if r['kind'] == 'pose']


def drive(record, procs, sim, outage=None):
    """Follow the robot in its record: 0.5 m driven, its speed measured over 0.5 s,
    `outage` called (if given: it returns the flags' window to ignore), then at rest for
    1 s where the stop zone put it, and still there 0.5 s later. Returns what the checks
    of the record need, with timings."""
    got = {'t_sim': time.monotonic()}
    rec = wait_record(record, lambda rec: any(p['x'] > 0.5 for p in poses(rec)),
                      'the robot driving 0.5 m', 15, procs)
    got['t_moving'] = time.monotonic()
    start = next(p for p in poses(rec) if p['x'] > 0.5)
    rec = wait_record(record, lambda rec: poses(rec)[-1]['t'] > start['t'] + 0.5,
                      'the robot driving on', 5, procs)
    end = next(p for p in poses(rec) if p['t'] >= start['t'] + 0.5)
    got['speed'] = (end['x'] - start['x']) / (end['t'] - start['t'])
    assert abs(got['speed'] - SPEED) < 0.1, (start, end, got['speed'])
    assert abs(end['y']) < 1e-9 and abs(end['yaw']) < 1e-9, end
    got['ignore'] = outage() if outage else None

    # The stop: at rest (zeros, or no gated command for the watchdog's 0.5 s) for 1 s.
    def at_rest(rec):
        ps = poses(rec)
        if not ps or ps[-1]['x'] < OBSTACLE_X - STOP_DEPTH - 0.2:
            return False
        recent = [p for p in ps if p['t'] > ps[-1]['t'] - 1.0]
        return (ps[-1]['t'] - ps[0]['t'] > 1.0
                and all(p['x'] == ps[-1]['x'] for p in recent))
    rec = wait_record(record, at_rest, 'the robot at rest at the box', 10, procs)
    got['t_stopped'] = time.monotonic()
    x_stop = got['x_stop'] = poses(rec)[-1]['x']
    assert x_stop + FRONT < OBSTACLE_X, f'stopped at {x_stop}: touching the obstacle'
    # It stays there.
    time.sleep(0.5)
    later = poses(read_record(record))[-1]
    assert later['x'] == x_stop and later['t'] > poses(rec)[-1]['t'], later
    assert sim.proc.poll() is None, sim.output
    return got


def check_record(record, ns, got):
    """What the simulator recorded: its gated commands, the prediction and the flag."""
    rec = read_record(record)
    assert rec[0]['kind'] == 'start' and rec[0]['ns'] == ns, rec[0]
    x_stop = got['x_stop']
    lo, hi = got['ignore'] or (math.inf, -math.inf)

    # The gated commands: 1 m/s passed, then zeros once stopped.
    outs = [r for r in rec if r['kind'] == 'cmd_out']
    assert any(o['vx'] == SPEED for o in outs), outs[:5]
    first_full = next(i for i, o in enumerate(outs) if o['vx'] == SPEED)
    assert [o for o in outs[first_full:] if o['vx'] == 0.0], 'no zero command after driving'
    assert all(o['vy'] == 0.0 and o['wz'] == 0.0 for o in outs)

    # The prediction: clear while the obstacle is beyond the horizon, then true before
    # the stop, within the horizon of the obstacle (1 m/s: 2 m) but not long before.
    moving = [r for r in rec if r['kind'] == 'collision_ahead' and 0.05 < r['x'] < x_stop]
    clear = [r for r in moving if not r['data'] and r['x'] < 0.5]
    assert clear, f'collision_ahead never false while far: {moving[:10]}'
    first_true = next((r for r in moving if r['data'] and r['t'] > clear[0]['t']), None)
    assert first_true is not None, f'collision_ahead never true before the stop: {moving}'
    ahead_at = OBSTACLE_X - FRONT - HORIZON * SPEED  # where the box comes within 2 s
    assert ahead_at - 0.25 <= first_true['x'] <= ahead_at + 0.25, (first_true, ahead_at)
    got['ahead_x'] = first_true['x']

    # No contact: once the node judges (its first false; before the first footprint it
    # reads true, fail-safe), the flag stays false, while moving and stopped (outside an
    # outage, when the footprint goes stale and the flag true, as it should).
    flags = [r for r in rec if r['kind'] == 'collision']
    judged = next((i for i, r in enumerate(flags) if not r['data']), None)
    assert judged is not None and flags[judged]['x'] < 0.5, flags[:10]
    wrong = [r for r in flags[judged:] if r['data'] and not lo <= r['t'] <= hi]
    assert not wrong, wrong[:5]
    assert any(r['x'] == x_stop for r in flags[judged:]), 'no flag once stopped'


def summary(t0, t_node, got):
    return (f'node started {t_node - t0:.2f} s; simulator ready {got["t_sim"] - t_node:.2f} s '
            f'later; 0.5 m driven {got["t_moving"] - got["t_sim"]:.2f} s later; speed '
            f'{got["speed"]:.3f} m/s; at rest (1 s) {got["t_stopped"] - got["t_moving"]:.2f} s '
            f'later at x = {got["x_stop"]:.3f} m (front {OBSTACLE_X - got["x_stop"] - FRONT:.3f}'
            f' m short of the box); collision_ahead true at x = {got["ahead_x"]:.3f} m')


def write_params(tmp_path):
    params, cm = node_params()
    path = tmp_path / 'node.yaml'
    path.write_text(yaml.safe_dump({NODE_NAME: {'ros__parameters': params}}))
    return path, cm


def sim_args(ns, record, cm):
    return [PYTHON, SIM, '--ns', ns, '--out', record, '--vx', SPEED,
            '--cmd-in', cm['cmd_vel_in_topic'], '--cmd-out', cm['cmd_vel_out_topic']]


def node_args(ns, path):
    return [binary(NODE_NAME), '--ros-args', '-r', f'__ns:={ns}', '-r', '/tf:=tf',
            '-r', '/tf_static:=tf_static', '--params-file', str(path)]


def test_fleet_sim_drives_and_the_gate_stops_it(ros_peer, tmp_path):
    """One machine, no namespaces: the node, the simulator, the box from the test."""
    t0 = time.monotonic()
    ns = namespace('fleet_sim')
    path, cm = write_params(tmp_path)
    record = tmp_path / 'robot.jsonl'
    boxes = Boxes(ros_peer.node, f'{ns}/boxes')
    sim = None
    try:
        with start_node(ns, '-r', '/tf:=tf', '-r', '/tf_static:=tf_static',
                        params_file=str(path)) as node:
            t_node = time.monotonic()
            sim = Proc(sim_args(ns, record, cm), env=dict(os.environ))
            sim.wait_for('^READY$', timeout=30)
            got = drive(record, (node, sim), sim)
        sim.stop()
    finally:
        boxes.close()
        if sim is not None:
            sim.kill()
    check_record(record, ns, got)
    print(f'{summary(t0, t_node, got)}; total {time.monotonic() - t0:.2f} s')


BOXES = textwrap.dedent('''
    import sys, time
    import rclpy
    from geometry_msgs.msg import Point32, PolygonInstanceStamped
    from rclpy.qos import qos_profile_sensor_data
    rclpy.init()
    node = rclpy.create_node('boxes')
    pub = node.create_publisher(PolygonInstanceStamped, sys.argv[1], qos_profile_sensor_data)
    x = float(sys.argv[2])
    box = [(x, -0.5), (x + 0.4, -0.5), (x + 0.4, 0.5), (x, 0.5)]
    print('READY', flush=True)
    try:
        while rclpy.ok():
            msg = PolygonInstanceStamped()
            msg.header.frame_id = 'map'
            msg.header.stamp = node.get_clock().now().to_msg()
            msg.polygon.id = 1
            msg.polygon.polygon.points = [Point32(x=a, y=b, z=0.0) for a, b in box]
            pub.publish(msg)
            time.sleep(0.1)
    except KeyboardInterrupt:
        pass
''')


def test_fleet_sim_and_the_node_on_separate_hosts(tmp_path):
    """The same across netns.Lan's hosts: the node in h1, the simulator in h2, the box's
    publisher in h3. With h2's link down the robot gets no gated command and halts (its
    watchdog); with the link up it drives on, and the gate stops it at the box."""
    require_netns()
    t0 = time.monotonic()
    ns = '/robot1'
    path, cm = write_params(tmp_path)
    record = tmp_path / 'robot.jsonl'
    with Lan(3) as lan:
        h1, h2, h3 = lan.hosts
        env = lan.ros_env()
        node = h1.popen(node_args(ns, path), env=env)
        node.wait_for(r'\bstarted: ', timeout=30)
        t_node = time.monotonic()
        boxes = h3.popen([PYTHON, '-c', BOXES, f'{ns}/boxes', OBSTACLE_X], env=env)
        sim = h2.popen(sim_args(ns, record, cm), env=env)
        sim.wait_for('^READY$', timeout=30)
        boxes.wait_for('^READY$', timeout=30)
        # Over UDPv4 only: the node (r2r, rmw_fastrtps) maps no shared memory either.
        for p in (node, sim, boxes):
            assert fastdds_shm_segments(p.proc.pid) == [], p.args
        timings = {}

        def outage():
            t_down = timings['down'] = time.monotonic()
            h2.link_down()
            time.sleep(1.5)
            t_up = timings['up'] = time.monotonic()
            h2.link_up()
            ps = poses(read_record(record))
            # Halted within the watchdog's 0.5 s (and a step).
            frozen = [p for p in ps if t_down + 0.6 < p['t'] <= t_up]
            assert frozen and all(p['x'] == frozen[0]['x'] for p in frozen), \
                (frozen[:1], frozen[-1:])
            assert frozen[0]['x'] < OBSTACLE_X - STOP_DEPTH, frozen[0]
            timings['frozen_x'] = frozen[0]['x']
            wait_record(record, lambda rec: poses(rec)[-1]['x'] > frozen[0]['x'] + 0.05,
                        'the robot driving again after the link came up', 10,
                        (node, sim, boxes))
            timings['again'] = time.monotonic()
            return (t_down, timings['again'] + 1.0)
        got = drive(record, (node, sim, boxes), sim, outage)
        sim.stop()
    check_record(record, ns, got)
    print(f'{summary(t0, t_node, got)}; link down at x = {timings["frozen_x"]:.3f} m for '
          f'{timings["up"] - timings["down"]:.2f} s, driving again '
          f'{timings["again"] - timings["up"]:.2f} s after it came up; total '
          f'{time.monotonic() - t0:.2f} s')
