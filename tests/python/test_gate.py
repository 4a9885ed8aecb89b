"""The velocity gate (nav2's collision monitor) over real ROS 2: rclpy peers publish
commands on cmd_vel_in_topic and sensor data, and read what the node publishes on
cmd_vel_out_topic and state_topic.

One node per command type (`Twist`, and `TwistStamped` with enable_stamped_cmd_vel), each
zone checked against a scan source of its own (`sources_names`), so that the scenarios
do not see each other's obstacles. Every expected output is computed here from the
scene (plain Python: the beams' points, the zones, a square's rotation), not taken from
the node's code. Waiting is on messages (a command is sent again every 50 ms until the
expected output arrives, or the test fails on its timeout with what it saw).

The gate's rules over time (stop, slowdown, limit, approach, zeros then silence, the
re-check, zones and sources switched at run time, NaN commands, escape) are tested where
they live, in the core fed by events (`tests/monitor/core_events/`, in milliseconds);
here is what needs ROS 2: the command types and their QoS, the other twist components
zeroed, the approach while turning, `~/toggle`, the zones' polygons, the points and
triggering points markers, the gate's state and topics, a robot driving at a wall, nav2's
files.

Run by scripts/test.sh (after `cargo build --bins`).
"""

import math
import os
import shutil
import struct
import threading
import time

import pytest
import yaml

from satpkg_support import (  # noqa: F401
    NODE_NAME, ROOT, Pumped, namespace, ros_peer, start_node,
)

assert ros_peer  # a fixture, used by name below

# nav2_msgs/msg/CollisionMonitorState action_type.
DO_NOTHING, STOP, SLOWDOWN, APPROACH, LIMIT = 0, 1, 2, 3, 4

BASE = 'base_footprint'
STOP_PUB_TIMEOUT = 1.0
# Scans: 720 beams all around, in the base frame.
BEAMS = 720


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


ANGLE_MIN = f32(-math.pi)
INCREMENT = f32(2 * math.pi / BEAMS)

# Zones (base frame). `stop`, `slow`, `limit`: in front of the robot; `approach` and
# `escape`: the robot's own square.
FRONT = [(0.5, 0.3), (0.5, -0.3), (0.0, -0.3), (0.0, 0.3)]
ROBOT = [(0.3, 0.3), (0.3, -0.3), (-0.3, -0.3), (-0.3, 0.3)]
SLOWDOWN_RATIO = 0.3
LINEAR_LIMIT, ANGULAR_LIMIT = 0.2, 0.3
TIME_BEFORE_COLLISION = 2.0
DYN_RATIO = 0.7
POLY_RADIUS = 0.5


# The polygon source's obstacle and the dynamic zone's shape while no test moves them:
# away from every point the tests put.
FAR_POLYGON = [(5.0, 5.0), (5.2, 5.0), (5.2, 5.2)]
FAR_DYN_SHAPE = (3.0, 4.0)


def text(points):
    return '[' + ', '.join(f'[{x}, {y}]' for x, y in points) + ']'


SOURCES = ['s_stop', 's_slow', 's_limit', 's_appr', 's_esc', 's_to', 's_poly']


def params(stamped):
    p = {
        'publish_rate': 20.0,
        'base_frame_id': BASE,
        'base_shift_correction': False,
        'cmd_vel_in_topic': 'cmd_in',
        'cmd_vel_out_topic': 'cmd_out',
        'state_topic': 'gate_state',
        'enable_stamped_cmd_vel': stamped,
        'stop_pub_timeout': STOP_PUB_TIMEOUT,
        'source_timeout': 3.0,
        'observation_sources': SOURCES,
        'polygons': ['stop', 'slow', 'limit', 'approach', 'escape', 'polystop', 'dyn'],
        'stop': {'type': 'polygon', 'points': text(FRONT), 'action_type': 'stop',
                 'min_points': 3, 'sources_names': ['s_stop'], 'visualize': True,
                 'polygon_pub_topic': 'stop_zone'},
        'slow': {'type': 'polygon', 'points': text(FRONT), 'action_type': 'slowdown',
                 'slowdown_ratio': SLOWDOWN_RATIO, 'min_points': 3,
                 'sources_names': ['s_slow']},
        'limit': {'type': 'polygon', 'points': text(FRONT), 'action_type': 'limit',
                  'linear_limit': LINEAR_LIMIT, 'angular_limit': ANGULAR_LIMIT,
                  'min_points': 3, 'sources_names': ['s_limit']},
        'approach': {'type': 'polygon', 'points': text(ROBOT), 'action_type': 'approach',
                     'time_before_collision': TIME_BEFORE_COLLISION, 'min_points': 1,
                     'sources_names': ['s_appr']},
        'escape': {'type': 'polygon', 'points': text(ROBOT), 'action_type': 'stop',
                   'allow_escape': True, 'time_before_collision': 1.0, 'min_points': 1,
                   'sources_names': ['s_esc']},
        'polystop': {'type': 'circle', 'radius': POLY_RADIUS, 'action_type': 'stop',
                     'min_points': 1, 'sources_names': ['s_poly'], 'visualize': True,
                     'polygon_pub_topic': 'polystop_zone'},
        'dyn': {'type': 'polygon', 'polygon_sub_topic': 'dyn_shape',
                'action_type': 'slowdown', 'slowdown_ratio': DYN_RATIO, 'min_points': 3,
                'sources_names': ['s_stop'], 'visualize': True,
                'polygon_pub_topic': 'dyn_zone'},
    }
    for s in SOURCES:
        p[s] = {'type': 'polygon' if s == 's_poly' else 'scan', 'topic': s}
    p['s_to']['source_timeout'] = 0.5
    return {NODE_NAME: {'ros__parameters': p}}


# --- the scene, judged here -----------------------------------------------------------

def beam_of(x, y):
    return round((math.atan2(y, x) - ANGLE_MIN) / INCREMENT) % BEAMS


def beam_point(i, r):
    """Where beam i at range r puts its point (float32 range, the beam's angle)."""
    a = ANGLE_MIN + i * INCREMENT
    r = f32(r)
    return (r * math.cos(a), r * math.sin(a))


def ranges_for(points):
    """A scan's ranges putting a point near each of `points` (one per beam)."""
    ranges = [math.inf] * BEAMS
    for x, y in points:
        ranges[beam_of(x, y)] = math.hypot(x, y)
    return ranges


def scan_points(ranges):
    return [beam_point(i, r) for i, r in enumerate(ranges) if math.isfinite(r)]


def cluster(x, y, n=5, spacing=0.02):
    """n points around (x, y), spread sideways."""
    return [(x, y + (k - (n - 1) / 2) * spacing) for k in range(n)]


def wall(x, half_width, n=9):
    """Points of a wall across the robot's path at x (y in [-half_width, half_width])."""
    return [(x, -half_width + 2 * half_width * k / (n - 1)) for k in range(n)]


def square_rotation_contact(point, half, w):
    """When a square of half side `half` turning at w (rad/s) about its centre first
    touches `point` (outside it, within its corners' circle): the smallest rotation
    putting the point on its boundary, |theta| with cos(phi - theta) = half / r."""
    r = math.hypot(*point)
    phi = math.atan2(point[1], point[0])
    best = math.inf
    # The boundary's edge whose outward normal is at angle n (in the rotated square)
    # reaches the point when r cos(phi - n - theta) = half: theta = phi - n -+ acos(half/r).
    for k in range(4):
        n = k * math.pi / 2
        for sign in (1, -1):
            theta = phi - n - sign * math.acos(half / r)
            # the travelled angle in the turning direction
            travel = (theta if w > 0 else -theta) % (2 * math.pi)
            best = min(best, travel)
    return best / abs(w)


# --- the peer ---------------------------------------------------------------------------

class GatePeer(Pumped):
    """Commands in, outputs and states out, the scans fed at 20 Hz."""

    def __init__(self, peer, ns, stamped):
        from geometry_msgs.msg import PolygonInstanceStamped, PolygonStamped, Twist, TwistStamped
        from nav2_msgs.msg import CollisionMonitorState
        from rclpy.qos import qos_profile_sensor_data
        from sensor_msgs.msg import LaserScan

        self.peer, self.node, self.ns, self.stamped = peer, peer.node, ns, stamped
        self.fqn = f'{ns}/{NODE_NAME}'
        self.cond = threading.Condition()
        self.outputs = []  # (monotonic, msg)
        self.states = []  # (monotonic, msg)
        self.Twist, self.TwistStamped = Twist, TwistStamped
        kind = TwistStamped if stamped else Twist
        self.cmd_pub = self.node.create_publisher(kind, f'{ns}/cmd_in', 10)
        self.node.create_subscription(kind, f'{ns}/cmd_out', self._on_out, 50)
        self.node.create_subscription(CollisionMonitorState, f'{ns}/gate_state',
                                      self._on_state, 50)
        self.scan_pubs = {s: self.node.create_publisher(LaserScan, f'{ns}/{s}',
                                                        qos_profile_sensor_data)
                          for s in SOURCES if s != 's_poly'}
        self.poly_pub = self.node.create_publisher(PolygonInstanceStamped, f'{ns}/s_poly',
                                                   qos_profile_sensor_data)
        self.dyn_pub = self.node.create_publisher(PolygonStamped, f'{ns}/dyn_shape', 10)
        self.ranges = {s: [math.inf] * BEAMS for s in self.scan_pubs}
        self.paused = set()
        # The polygon source's obstacle (a source that holds no polygon stops the robot,
        # as nav2's), far away unless a test moves it.
        self.polygon = FAR_POLYGON
        # The dynamic zone's shape, published with the scans (a dynamic zone without a
        # shape stops the robot): x from, x to (a triangle), or a list of points as is.
        self.dyn_shape = FAR_DYN_SHAPE
        self.seq = 0
        self._start_pump()

    def _on_out(self, msg):
        with self.cond:
            self.outputs.append((time.monotonic(), msg))
            self.cond.notify_all()

    def _on_state(self, msg):
        with self.cond:
            self.states.append((time.monotonic(), msg))
            self.cond.notify_all()

    def _scan(self, ranges):
        from sensor_msgs.msg import LaserScan

        msg = LaserScan()
        msg.header.frame_id = BASE
        msg.header.stamp = self.node.get_clock().now().to_msg()
        msg.angle_min = ANGLE_MIN
        msg.angle_increment = INCREMENT
        msg.angle_max = f32(ANGLE_MIN + (BEAMS - 1) * INCREMENT)
        msg.scan_time = 0.05
        msg.range_min = 0.05
        msg.range_max = 20.0
        msg.ranges = [float(r) for r in ranges]
        return msg

    def _pump(self):
        from geometry_msgs.msg import Point32, PolygonInstanceStamped

        while not self._stop.is_set():
            with self.cond:
                feeds = [(s, list(r)) for s, r in self.ranges.items() if s not in self.paused]
                polygon = self.polygon
                dyn_shape = self.dyn_shape
            for s, ranges in feeds:
                self.scan_pubs[s].publish(self._scan(ranges))
            if polygon is not None:
                msg = PolygonInstanceStamped()
                msg.header.frame_id = BASE
                msg.header.stamp = self.node.get_clock().now().to_msg()
                msg.polygon.id = 1
                msg.polygon.polygon.points = [Point32(x=float(x), y=float(y), z=0.0)
                                              for x, y in polygon]
                self.poly_pub.publish(msg)
            if dyn_shape is not None:
                self.dyn_pub.publish(self.dyn_msg(dyn_shape))
            time.sleep(0.05)

    def dyn_msg(self, shape):
        """The dynamic zone's PolygonStamped: a triangle from x0 to x1, or the points."""
        from geometry_msgs.msg import Point32, PolygonStamped

        if isinstance(shape, tuple):
            x0, x1 = shape
            shape = [(x0, -0.5), (x1, -0.5), (x1, 0.5)]
        msg = PolygonStamped()
        msg.header.frame_id = BASE
        msg.header.stamp = self.node.get_clock().now().to_msg()
        msg.polygon.points = [Point32(x=float(x), y=float(y), z=0.0) for x, y in shape]
        return msg

    # scene
    def put(self, source, points):
        """`points` (base frame) as what `source` sees from now on; the points the node
        gets (the beams')."""
        ranges = ranges_for(points)
        with self.cond:
            self.ranges[source] = ranges
        return scan_points(ranges)

    def clear(self, source):
        self.put(source, [])

    # commands
    def command(self, x=0.0, y=0.0, w=0.0):
        """Publish one command; returns (its stamp as (sec, nanosec), its frame)."""
        twist = self.Twist()
        twist.linear.x, twist.linear.y, twist.angular.z = float(x), float(y), float(w)
        twist.linear.z, twist.angular.x, twist.angular.y = 0.25, 0.5, 0.75
        if not self.stamped:
            self.cmd_pub.publish(twist)
            return None
        msg = self.TwistStamped()
        self.seq += 1
        msg.header.stamp.sec = 1000 + self.seq
        msg.header.stamp.nanosec = 12345
        msg.header.frame_id = f'cmd_frame_{self.seq}'
        msg.twist = twist
        self.cmd_pub.publish(msg)
        return (msg.header.stamp.sec, msg.header.stamp.nanosec, msg.header.frame_id)

    @staticmethod
    def twist_of(msg):
        return msg.twist if hasattr(msg, 'twist') else msg

    def gate(self, cmd, predicate, what, timeout=15.0):
        """Send `cmd` (x, y, w) every 50 ms until an output it caused satisfies
        `predicate(twist)`; returns that twist. With TwistStamped, the output must carry
        the header of the command it answers."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            with self.cond:
                seen = len(self.outputs)
            header = self.command(*cmd)
            until = min(deadline, time.monotonic() + 0.05)
            with self.cond:
                while time.monotonic() < until:
                    for _, msg in self.outputs[seen:]:
                        twist = self.twist_of(msg)
                        last = twist
                        if header is not None:
                            h = msg.header
                            if (h.stamp.sec, h.stamp.nanosec, h.frame_id) != header:
                                continue
                        if predicate(twist):
                            return twist
                    seen = len(self.outputs)
                    self.cond.wait(max(0.0, until - time.monotonic()))
            if time.monotonic() >= deadline:
                raise AssertionError(f'no output with {what} within {timeout} s for {cmd}; '
                                     f'last: {last}')

    def wait_output(self, predicate, what, timeout=10.0):
        """The first output received from now on with `predicate(twist)`, no command sent."""
        deadline = time.monotonic() + timeout
        with self.cond:
            seen = len(self.outputs)
            while True:
                for _, msg in self.outputs[seen:]:
                    if predicate(self.twist_of(msg)):
                        return self.twist_of(msg)
                seen = len(self.outputs)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f'no output with {what} within {timeout} s')
                self.cond.wait(min(left, 0.2))

    def state_mark(self):
        with self.cond:
            return len(self.states)

    def wait_state(self, mark, action, name, timeout=10.0):
        """A state message (action_type, polygon_name) received after `mark`."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for _, msg in self.states[mark:]:
                    if msg.action_type == action and msg.polygon_name == name:
                        return msg
                left = deadline - time.monotonic()
                if left <= 0:
                    got = [(m.action_type, m.polygon_name) for _, m in self.states[mark:]]
                    raise AssertionError(f'no state ({action}, {name!r}) within {timeout} s; '
                                         f'got {got}')
                self.cond.wait(min(left, 0.2))


def close(a, b, tol=1e-6):
    return abs(a - b) <= tol


def passes(cmd):
    x, y, w = cmd

    def check(t):
        return (close(t.linear.x, x) and close(t.linear.y, y) and close(t.angular.z, w)
                and t.linear.z == 0.0 and t.angular.x == 0.0 and t.angular.y == 0.0)
    return check


def scaled(cmd, ratio, tol=1e-6):
    x, y, w = cmd

    def check(t):
        return (close(t.linear.x, x * ratio, tol) and close(t.linear.y, y * ratio, tol)
                and close(t.angular.z, w * ratio, tol) and t.linear.z == 0.0)
    return check


def is_zero(t):
    return (t.linear.x == 0.0 and t.linear.y == 0.0 and t.angular.z == 0.0
            and t.linear.z == 0.0 and t.angular.x == 0.0 and t.angular.y == 0.0)


@pytest.fixture(scope='module', params=[False, True], ids=['Twist', 'TwistStamped'])
def gate(request, tmp_path_factory):
    from satpkg_support import RosPeer

    stamped = request.param
    ns = namespace(f'gate_{"stamped" if stamped else "twist"}')
    path = tmp_path_factory.mktemp('gate') / 'gate.yaml'
    path.write_text(yaml.safe_dump(params(stamped)))
    node = start_node(ns, params_file=str(path))
    peer = RosPeer(f'gate_peer_{int(stamped)}_{os.getpid()}')
    g = GatePeer(peer, ns, stamped)
    g.proc = node
    try:
        # Every zone clear: a command passes.
        g.gate((0.1, 0.0, 0.0), passes((0.1, 0.0, 0.0)), 'the first command passed', 30)
        yield g
    finally:
        g.close()
        peer.close()
        node.stop()


CMD = (0.4, 0.05, 0.2)


def test_passes_when_clear_and_zeroes_other_components(gate):
    gate.gate(CMD, passes(CMD), 'the command unchanged, z/roll/pitch zero')


def test_approach_turning_in_place(gate):
    # A point only a rotation reaches: 0.4 m from the centre, beyond the square's sides
    # (0.3) but within its corners' circle (0.42).
    (point,) = gate.put('s_appr', [(0.4, 0.0)])
    for w in (1.0, -1.0):
        cmd = (0.0, 0.0, w)
        t = square_rotation_contact(point, 0.3, w)
        ratio = t / TIME_BEFORE_COLLISION
        assert 0.1 < ratio < 1.0
        try:
            gate.gate(cmd, scaled(cmd, ratio, 1e-5), f'the turn scaled by {ratio:.4f}')
        except AssertionError:
            gate.clear('s_appr')
            raise
    # Straight ahead the point is 0.1 m from the front edge: slowed to 0.05 s / 2 s.
    cmd = (0.5, 0.0, 0.0)
    try:
        gate.gate(cmd, scaled(cmd, ((point[0] - 0.3) / 0.5) / TIME_BEFORE_COLLISION, 1e-5),
                  'driving at the point slowed')
    finally:
        gate.clear('s_appr')
    gate.gate(cmd, passes(cmd), 'the command once clear')


def test_toggle_service(gate):
    from nav2_msgs.srv import Toggle

    gate.put('s_stop', cluster(0.3, 0.0))
    try:
        gate.gate(CMD, is_zero, 'zeros')
        response = gate.peer.call(Toggle, f'{gate.fqn}/toggle', Toggle.Request(enable=False))
        assert response.success
        assert response.message == 'Collision monitor toggled off successfully'
        gate.gate(CMD, passes(CMD), 'the command with the gate toggled off')
        response = gate.peer.call(Toggle, f'{gate.fqn}/toggle', Toggle.Request(enable=True))
        assert response.success
        assert response.message == 'Collision monitor toggled on successfully'
        gate.gate(CMD, is_zero, 'zeros with the gate on again')
    finally:
        gate.peer.call(Toggle, f'{gate.fqn}/toggle', Toggle.Request(enable=True))
        gate.clear('s_stop')


# --- a robot driving at a wall ----------------------------------------------------------

def _tf(parent, child, x, y, yaw, stamp):
    from geometry_msgs.msg import TransformStamped

    t = TransformStamped()
    t.header.frame_id = parent
    t.header.stamp = stamp
    t.child_frame_id = child
    t.transform.translation.x, t.transform.translation.y = float(x), float(y)
    t.transform.rotation.z, t.transform.rotation.w = math.sin(yaw / 2), math.cos(yaw / 2)
    return t


class Outputs:
    """The outputs on `topic` (Twist), each with its arrival."""

    def __init__(self, node, topic, kind=None):
        from geometry_msgs.msg import Twist

        self.cond = threading.Condition()
        self.msgs = []
        node.create_subscription(kind or Twist, topic, self._on, 50)

    def _on(self, msg):
        with self.cond:
            self.msgs.append((time.monotonic(), msg))
            self.cond.notify_all()

    def mark(self):
        with self.cond:
            return len(self.msgs)

    def wait(self, mark, predicate=lambda m: True, timeout=5.0):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for _, m in self.msgs[mark:]:
                    if predicate(m):
                        return m
                mark = len(self.msgs)
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)


WALL_X = 3.0  # odom
LASER = (0.1, 0.05, 0.2)  # base_footprint -> laser (x, y, yaw)
SIM_T = 1.0  # time_before_collision (s)
DT = 0.05  # the simulation's step and command period (s)


def wall_scan(robot_x, stamp):
    """A scan in the laser frame of the wall x = WALL_X (odom), y in [-1.5, 1.5], seen
    from the robot at (robot_x, 0, 0)."""
    from sensor_msgs.msg import LaserScan

    lx, ly, lyaw = LASER
    ox, oy = robot_x + lx, ly  # the laser in odom (the robot does not turn)
    n = 720
    msg = LaserScan()
    msg.header.frame_id = 'laser'
    msg.header.stamp = stamp
    msg.angle_min, msg.angle_increment = ANGLE_MIN, f32(2 * math.pi / n)
    msg.angle_max = f32(ANGLE_MIN + (n - 1) * msg.angle_increment)
    msg.range_min, msg.range_max = 0.05, 20.0
    ranges = []
    for i in range(n):
        a = ANGLE_MIN + i * msg.angle_increment + lyaw  # in odom
        c = math.cos(a)
        r = (WALL_X - ox) / c if c > 1e-6 else math.inf
        ranges.append(r if r < 20 and abs(oy + r * math.sin(a)) <= 1.5 else math.inf)
    msg.ranges = ranges
    return msg


def test_robot_driving_at_a_wall_keeps_time_to_contact(ros_peer, tmp_path):
    """The test is the robot: it integrates cmd_vel_out, publishes odom -> base_footprint
    and the laser's scan of a wall every DT, and asks for 1 m/s all the time. With an
    approach zone (the robot's square), the time to contact at the published speed never
    falls below time_before_collision minus one command period, and the robot gets
    close without touching."""
    from geometry_msgs.msg import Twist, Vector3
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy, qos_profile_sensor_data
    from sensor_msgs.msg import LaserScan
    from tf2_msgs.msg import TFMessage

    ns = namespace('gate_wall')
    p = {'publish_rate': 20.0, 'base_frame_id': BASE, 'odom_frame_id': 'odom',
         'cmd_vel_in_topic': 'cmd_in', 'cmd_vel_out_topic': 'cmd_out',
         'source_timeout': 1.0, 'transform_tolerance': 0.5,
         'observation_sources': ['scan'], 'scan': {'type': 'scan', 'topic': 'scan'},
         'polygons': ['approach'],
         'approach': {'type': 'polygon', 'points': text(ROBOT), 'action_type': 'approach',
                      'time_before_collision': SIM_T, 'min_points': 1}}
    path = tmp_path / 'wall.yaml'
    path.write_text(yaml.safe_dump({NODE_NAME: {'ros__parameters': p}}))
    node = ros_peer.node
    static_qos = QoSProfile(depth=100, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                            reliability=ReliabilityPolicy.RELIABLE)
    static = node.create_publisher(TFMessage, '/tf_static', static_qos)
    tf = node.create_publisher(TFMessage, '/tf', 100)
    scan = node.create_publisher(LaserScan, f'{ns}/scan', qos_profile_sensor_data)
    cmd = node.create_publisher(Twist, f'{ns}/cmd_in', 10)
    outputs = Outputs(node, f'{ns}/cmd_out')
    stamp = node.get_clock().now().to_msg()
    static.publish(TFMessage(transforms=[_tf(BASE, 'laser', *LASER, stamp)]))
    with start_node(ns, params_file=str(path)) as proc:
        x, v = 0.0, 0.0
        front = 0.3  # the square's front edge
        samples = []
        t_end = time.monotonic() + 30
        steps = 0
        next_step = time.monotonic()
        while time.monotonic() < t_end and steps < 100:
            # Odometry (TF) and the scan at the start of each period, the command half a
            # period later, as two unsynchronised nodes would: the robot keeps moving at
            # its speed in between, so what the gate sees is half a period old.
            next_step += DT
            time.sleep(max(0.0, next_step - time.monotonic()))
            stamp = node.get_clock().now().to_msg()
            tf.publish(TFMessage(transforms=[_tf('odom', BASE, x, 0.0, 0.0, stamp)]))
            scan.publish(wall_scan(x, stamp))
            time.sleep(DT / 2)
            x += v * DT / 2
            mark = outputs.mark()
            cmd.publish(Twist(linear=Vector3(x=1.0)))
            out = outputs.wait(mark, timeout=1.0)
            if out is not None:
                steps += 1
                v = out.linear.x
                gap = WALL_X - (x + front)
                assert gap > 0, f'the robot touched the wall at x = {x}'
                if v > 0:
                    samples.append((gap, v, gap / v))
            x += v * DT / 2
        proc.stop()
    assert steps >= 60, f'only {steps} outputs'
    ttc = [t for _, _, t in samples]
    # Before the first scan arrives the source is invalid (zeros); once moving, every
    # published speed leaves at least T - DT to contact.
    assert samples, 'the robot never moved'
    assert min(ttc) >= SIM_T - DT, sorted(samples, key=lambda s: s[2])[:5]
    final_gap = WALL_X - (x + front)
    print(f'{steps} steps, {len(samples)} moving, time to contact min {min(ttc):.4f} s, '
          f'final gap {final_gap:.4f} m')
    assert final_gap < 0.5, f'the robot stopped {final_gap} m short'


# --- nav2's parameters file, and nav2's launch ----------------------------------------------

class Scene(Pumped):
    """Publishes at 20 Hz: odom -> base_footprint (the robot at the origin) on `tf`,
    base_footprint -> `laser` (identity) on `tf_static`, a scan of `points` (base frame)
    in `laser` on `scan_topic`, and the robot's square as `footprint_topic` in odom."""

    def __init__(self, node, scan_topic, tf='/tf', tf_static='/tf_static',
                 footprint_topic=None, footprint=None):
        from geometry_msgs.msg import PolygonStamped
        from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
        from rclpy.qos import qos_profile_sensor_data
        from sensor_msgs.msg import LaserScan
        from tf2_msgs.msg import TFMessage

        self.node = node
        static_qos = QoSProfile(depth=100, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                                reliability=ReliabilityPolicy.RELIABLE)
        self.static = node.create_publisher(TFMessage, tf_static, static_qos)
        self.tf = node.create_publisher(TFMessage, tf, 100)
        self.scan = node.create_publisher(LaserScan, scan_topic, qos_profile_sensor_data)
        self.footprint_pub = (node.create_publisher(PolygonStamped, footprint_topic, 10)
                              if footprint_topic else None)
        self.footprint = footprint
        self.points = []
        self.lock = threading.Lock()
        self.TFMessage = TFMessage
        self.static.publish(TFMessage(transforms=[
            _tf(BASE, 'laser', 0.0, 0.0, 0.0, node.get_clock().now().to_msg())]))
        self._start_pump()

    def put(self, points):
        with self.lock:
            self.points = list(points)
        return scan_points(ranges_for(points))

    def _pump(self):
        from geometry_msgs.msg import Point32, PolygonStamped
        from sensor_msgs.msg import LaserScan

        while not self._stop.is_set():
            stamp = self.node.get_clock().now().to_msg()
            self.tf.publish(self.TFMessage(transforms=[_tf('odom', BASE, 0, 0, 0, stamp)]))
            with self.lock:
                ranges = ranges_for(self.points)
            msg = LaserScan()
            msg.header.frame_id = 'laser'
            msg.header.stamp = stamp
            msg.angle_min, msg.angle_increment = ANGLE_MIN, INCREMENT
            msg.angle_max = f32(ANGLE_MIN + (BEAMS - 1) * INCREMENT)
            msg.range_min, msg.range_max = 0.05, 20.0
            msg.ranges = [float(r) for r in ranges]
            self.scan.publish(msg)
            if self.footprint_pub is not None:
                fp = PolygonStamped()
                fp.header.frame_id = 'odom'
                fp.header.stamp = stamp
                fp.polygon.points = [Point32(x=float(x), y=float(y), z=0.0)
                                     for x, y in self.footprint]
                self.footprint_pub.publish(fp)
            time.sleep(0.05)


def _gate_until(cmd_pub, outputs, cmd, predicate, what, timeout=20.0):
    """Send `cmd` (a Twist) every 50 ms until an output satisfies `predicate`."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        mark = outputs.mark()
        cmd_pub.publish(cmd)
        out = outputs.wait(mark, timeout=0.05)
        if out is not None:
            last = out
            if predicate(out):
                return out
    raise AssertionError(f'no output with {what} within {timeout} s; last: {last}')


NAV2_FOOTPRINT = [(0.25, 0.25), (0.25, -0.25), (-0.25, -0.25), (-0.25, 0.25)]


@pytest.mark.parametrize('release', ['nav2', 'nav2_main'])
def test_nav2_params_file_as_collision_monitor(ros_peer, release):
    """nav2's nav2_params.yaml, Jazzy's and main's (Lyrical: tests/data/nav2_main names
    the commit), its collision_monitor section as is, the node named collision_monitor:
    it starts, and an obstacle ahead of the footprint approach zone (the footprint from
    the local costmap's published_footprint: absolute in Jazzy's file, relative to the
    node's namespace in main's) slows the command."""
    from geometry_msgs.msg import Twist, Vector3
    from nav2_msgs.msg import CollisionMonitorState

    params_file = ROOT / 'tests/data' / release / 'nav2_params.yaml'
    nav2 = yaml.safe_load(params_file.read_text())
    section = nav2['collision_monitor']['ros__parameters']
    approach = section['FootprintApproach']
    tbc, min_points = approach['time_before_collision'], approach['min_points']
    ns = namespace(f'gate_{release}')
    node = ros_peer.node
    footprint_topic = approach['footprint_topic']
    if not footprint_topic.startswith('/'):
        footprint_topic = f'{ns}/{footprint_topic}'
    scene = Scene(node, f'{ns}/scan', footprint_topic=footprint_topic,
                  footprint=NAV2_FOOTPRINT)
    outputs = Outputs(node, f'{ns}/{section["cmd_vel_out_topic"]}')
    states = Outputs(node, f'{ns}/{section["state_topic"]}', CollisionMonitorState)
    cmd_pub = node.create_publisher(Twist, f'{ns}/{section["cmd_vel_in_topic"]}', 10)
    try:
        with start_node(ns, '-r', '__node:=collision_monitor',
                        params_file=str(params_file)) as proc:
            cmd = Twist(linear=Vector3(x=1.0))
            _gate_until(cmd_pub, outputs, cmd, lambda t: t.linear.x == 1.0,
                        'the command passed (nothing near)')
            # A wall 0.6 m ahead of the footprint's front edge, wider than the robot.
            got = scene.put(wall(0.25 + 0.6, 0.2, n=9))
            assert len(got) >= min_points
            gap = sorted(x for x, _ in got)[min_points - 1] - 0.25
            ratio = gap / 1.0 / tbc
            mark = states.mark()
            _gate_until(cmd_pub, outputs, cmd, lambda t: abs(t.linear.x - ratio) < 1e-4,
                        f'the command slowed to {ratio:.4f}')
            state = states.wait(mark, lambda m: m.action_type == APPROACH)
            assert state is not None and state.polygon_name == 'FootprintApproach'
            # Inside the footprint: stopped.
            scene.put(cluster(0.1, 0.0, n=min_points + 2))
            _gate_until(cmd_pub, outputs, cmd, is_zero, 'zeros')
            proc.wait_for(r'Robot to approach for 1\.2 seconds away from collision')
    finally:
        scene.close()


NODE_WRAPPER = '''#!/bin/sh
exec "{binary}" "$@"
'''


def test_ros2_launch_collision_monitor_gates(tmp_path, ros_peer):
    """`ros2 launch sat_collision collision_monitor.launch.py namespace:=...` from an
    install prefix (launch/ and config/ copied, the built node behind
    lib/sat_collision/sat_collision_node): the node comes up as <ns>/collision_monitor
    with config/collision_monitor.yaml, reads TF inside its namespace, and gates (points
    in PolygonStop: zeros)."""
    import signal
    from geometry_msgs.msg import Twist, Vector3
    from nav2_msgs.srv import Toggle

    from satpkg_support import Proc, binary, install_prefix

    lp = _launch_env()
    ros2 = shutil.which('ros2', path=lp['PATH'])
    if ros2 is None:
        pytest.skip(f'no ros2 on {lp["PATH"]}')
    _, env = install_prefix(tmp_path, lp, NODE_WRAPPER.format(binary=binary(NODE_NAME)))
    ns = namespace('gate_launch').lstrip('/')
    config = yaml.safe_load((ROOT / 'config/collision_monitor.yaml').read_text())
    section = config['collision_monitor']['ros__parameters']
    node = ros_peer.node
    # nav2's launch remaps TF into the namespace. The approach zone's shape comes from
    # the local costmap's footprint (a dynamic zone without a shape stops the robot).
    scene = Scene(node, f'/{ns}/scan', tf=f'/{ns}/tf', tf_static=f'/{ns}/tf_static',
                  footprint_topic=section['FootprintApproach']['footprint_topic'],
                  footprint=NAV2_FOOTPRINT)
    outputs = Outputs(node, f'/{ns}/{section["cmd_vel_out_topic"]}')
    cmd_pub = node.create_publisher(Twist, f'/{ns}/{section["cmd_vel_in_topic"]}', 10)
    # Through the command line's own Python: its scripts' #! names the place it was
    # first installed from, which another checkout may have been.
    python = os.path.join(os.path.dirname(ros2), 'python3')
    command = [python, ros2] if os.access(python, os.X_OK) else [ros2]
    launch = Proc([*command, 'launch', 'sat_collision', 'collision_monitor.launch.py',
                   f'namespace:={ns}'], env=env, cwd=tmp_path)
    try:
        launch.wait_for(r'\bstarted: ', timeout=60)
        cmd = Twist(linear=Vector3(x=0.2))
        _gate_until(cmd_pub, outputs, cmd, lambda t: t.linear.x == 0.2, 'the command passed')
        scene.put(cluster(0.2, 0.0, n=6))  # inside PolygonStop (min_points 4)
        _gate_until(cmd_pub, outputs, cmd, is_zero, 'zeros (PolygonStop)')
        response = ros_peer.call(Toggle, f'/{ns}/collision_monitor/toggle',
                                 Toggle.Request(enable=False))
        assert response.success, response
        _gate_until(cmd_pub, outputs, cmd, lambda t: t.linear.x == 0.2,
                    'the command passed, toggled off')
        assert launch.stop(signal.SIGINT, timeout=30) == 0, launch.output
    finally:
        scene.close()
        launch.kill()


def _launch_env():
    """The environment of `ros2 launch` (as test_dds_profile's launch_python fixture)."""
    import subprocess

    if os.environ.get('SAT_COLLISION_ROS_MODE_USED') == 'system':
        return dict(os.environ)
    from test_launch_file import SHARED_CLI, _install_shared_cli

    if not (SHARED_CLI / 'install.sh').is_file():
        pytest.skip(f'no `ros2 launch`: no regular ROS 2 install and no {SHARED_CLI}')
    bin_dir, cli = _install_shared_cli()
    script = f'source "{cli / "install" / "setup.bash"}" && env -0'
    result = subprocess.run(['bash', '-c', script], stdin=subprocess.DEVNULL,
                            capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode(errors='replace')
    env = dict(item.split('=', 1) for item in result.stdout.decode().split('\0') if '=' in item)
    env['PATH'] = f'{bin_dir}:{env["PATH"]}'
    return env


# --- parameters, polygons and markers (on the module's nodes) --------------------------------

def test_zone_parameters_declared(gate):
    names = gate.peer.list_parameters(gate.fqn)
    for n in ('stop.enabled', 'stop.action_type', 'stop.points', 'stop.min_points',
              'slow.slowdown_ratio', 'limit.linear_limit', 'approach.time_before_collision',
              'escape.allow_escape', 'polystop.radius', 'dyn.polygon_sub_topic'):
        assert n in names, (n, names)
    assert 'stop.slowdown_ratio' not in names  # not a stop zone's
    got = gate.peer.get_parameters(gate.fqn, ['slow.slowdown_ratio', 'limit.angular_limit',
                                              'stop.enabled', 'polystop.radius'])
    assert got == {'slow.slowdown_ratio': SLOWDOWN_RATIO, 'limit.angular_limit': ANGULAR_LIMIT,
                   'stop.enabled': True, 'polystop.radius': POLY_RADIUS}
    ok, _ = gate.peer.set_parameter(gate.fqn, 'stop.points', '[[0, 0], [1, 0], [1, 1]]')
    assert not ok, 'a zone shape is read at start-up only'


def test_zone_polygons_and_points_markers(gate):
    from geometry_msgs.msg import PolygonStamped
    from visualization_msgs.msg import MarkerArray

    got = {}
    cond = threading.Condition()

    def keep(key):
        def on(msg):
            with cond:
                got[key] = msg
                cond.notify_all()
        return on

    subs = [gate.node.create_subscription(PolygonStamped, f'{gate.ns}/stop_zone',
                                          keep('stop'), 10),
            gate.node.create_subscription(PolygonStamped, f'{gate.ns}/polystop_zone',
                                          keep('polystop'), 10),
            gate.node.create_subscription(MarkerArray,
                                          f'{gate.fqn}/collision_points_marker',
                                          keep('markers'), 10)]
    inside = gate.put('s_stop', cluster(0.3, 0.0))

    def wait(pred, what):
        deadline = time.monotonic() + 10
        with cond:
            while not pred():
                left = deadline - time.monotonic()
                assert left > 0, f'no {what}; got {list(got)}'
                cond.wait(left)

    def stop_marker():
        m = got.get('markers')
        marker = m and {k.ns: k for k in m.markers}.get('stop')
        return marker if marker and len(marker.points) == len(inside) else None
    try:
        wait(lambda: 'stop' in got and 'polystop' in got and stop_marker(), 'zones, markers')
        stop = got['stop']
        assert stop.header.frame_id == BASE
        # The zone's vertices (the node keeps them counter-clockwise).
        assert sorted((p.x, p.y) for p in stop.polygon.points) == sorted(
            (f32(x), f32(y)) for x, y in FRONT)
        circle = got['polystop'].polygon.points
        assert len(circle) >= 16
        assert all(abs(math.hypot(p.x, p.y) - POLY_RADIUS) < 1e-6 for p in circle)
        markers = {m.ns: m for m in got['markers'].markers}
        assert set(markers) == {'stop', 'slow', 'limit', 'approach', 'escape', 'polystop',
                                'dyn'}
        m = stop_marker()
        assert m.header.frame_id == BASE and m.type == 8  # POINTS
        assert (m.color.r, m.color.g, m.color.b) == (1.0, 0.0, 0.0)
        drawn = sorted((p.x, p.y) for p in m.points)
        assert all(close(a[0], b[0], 1e-9) and close(a[1], b[1], 1e-9)
                   for a, b in zip(drawn, sorted(inside))), (drawn, inside)
        assert (markers['slow'].color.r, markers['slow'].color.g) == (1.0, 0.5)
        assert markers['slow'].points == []
    finally:
        gate.clear('s_stop')
        for s in subs:
            gate.node.destroy_subscription(s)


def test_triggering_points_show_the_obstacle_in_the_stop_zone(gate):
    """nav2 main's ~/triggering_points: after every check a DELETEALL, then per source of
    the zone acting a POINTS marker of the points that triggered it; clear: the DELETEALL
    alone. (Which points for each action: tests/monitor/core_events/triggering_points.rs.)"""
    from visualization_msgs.msg import Marker, MarkerArray

    got, cond = [], threading.Condition()

    def on(msg):
        with cond:
            got.append(msg)
            cond.notify_all()

    def wait_for(pred, what):
        with cond:
            assert cond.wait_for(lambda: got and pred(got[-1]), 10.0), \
                f'no {what}; last: {got[-1:]}'
            return got[-1]

    def stop_marker(msg):
        return (len(msg.markers) == 2 and msg.markers[1].ns == 'stop/s_stop'
                and len(msg.markers[1].points) == len(inside))

    sub = gate.node.create_subscription(MarkerArray, f'{gate.fqn}/triggering_points', on, 10)
    inside = gate.put('s_stop', cluster(0.3, 0.0))
    try:
        gate.gate(CMD, is_zero, 'zeros')
        msg = wait_for(stop_marker, 'stop marker')
        clear, m = msg.markers
        assert clear.action == Marker.DELETEALL
        assert (m.type, m.action, m.id) == (Marker.POINTS, Marker.ADD, 0)
        assert m.header.frame_id == BASE
        assert (m.header.stamp.sec, m.header.stamp.nanosec) == (0, 0)
        assert (m.scale.x, m.scale.y) == (0.05, 0.05) and m.frame_locked
        assert (m.color.r, m.color.g, m.color.b, m.color.a) == (1.0, 0.0, 0.0, 1.0)
        drawn = sorted((p.x, p.y) for p in m.points)
        assert all(close(a[0], b[0], 1e-9) and close(a[1], b[1], 1e-9)
                   for a, b in zip(drawn, sorted(inside))), (drawn, inside)
    finally:
        gate.clear('s_stop')
    try:
        gate.gate(CMD, passes(CMD), 'the command once clear')
        msg = wait_for(lambda msg: len(msg.markers) == 1, 'DELETEALL alone')
        assert msg.markers[0].action == Marker.DELETEALL
    finally:
        gate.node.destroy_subscription(sub)
