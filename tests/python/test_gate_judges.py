"""The velocity gate never says "go" when the node cannot judge (issue 29), over real
ROS 2: rclpy peers send commands at 20 Hz (0.3 m/s, a stop zone in front of the robot)
and sensor data, and read `cmd_vel_out_topic`, `state_topic`, the `collision` flag, the
`collision_report` and the gate's `/diagnostics` status.

The rules themselves (a polygon source that cannot be used, no clock ever, ...) are
tested where they live, in the core, fed by events (`tests/monitor/core_events/`); here
is what needs the node over ROS 2: its subscriptions, its parameter services, its clock.

Nodes (each started once for the tests that share its scene):
* `scans`: four scan sources, each bound to its own zone (`sources_names`): the gate's
  `enabled` in a call of 41 changes, `-inf` ranges, scans whose angles and length
  disagree, `allow_escape` from a wall wider than the zone;
* `dynamic`: a stop zone whose transient-local `polygon_sub_topic` never connects;
* `stall[...]`: `use_sim_time`, with `/clock` remapped to a topic of the node's own
  (`-r /clock:=...`) so that each node has its own simulator: a simulator that dies (nav2's default timeouts; footprint and obstacles timeouts 0).

Every node has a robot footprint (`robot_footprint` in the base frame) so that its flag
is false when everything is usable: the flag's truth is the node's verdict, not a
missing footprint. `stop_pub_timeout` is long: a stopped gate keeps publishing zeros.
The gate's state at start-up is published before a peer can have matched the state
topic; it is read from `/diagnostics` (`action`, `state`: nav2's `polygon_name`), later
changes from the state topic. Waiting is on messages: a command is sent every 50 ms
until the expected output arrives, or the test fails on its timeout with what it saw.

Run by scripts/test.sh (after `cargo build --bins`).
"""

import math
import os
import re
import threading
import time

import pytest
import yaml

from satpkg_support import (
    NODE_NAME, RUNTIME_PARAMS, RANGES, Recorder, RosPeer, namespace, start_node,
    to_parameter_value,
)
from test_diagnostics import GATE, MARGIN, OK, PERIOD, Diagnostics, level
from test_gate import (
    ANGLE_MIN, BASE, BEAMS, DO_NOTHING, FRONT, INCREMENT, STOP, GatePeer, beam_of,
    beam_point, cluster, f32, is_zero, passes, scan_points, text,
)
from test_sources import in_polygon
from test_tf import repeat, stamp_of

# The controller's command (m/s), as in the figures.
CMD = (0.3, 0.0, 0.0)
# The flag's robot (base frame), a 0.5 m square: what a stop zone holds beyond x = 0.25
# is outside it.
ROBOT_FP = [(0.25, 0.25), (0.25, -0.25), (-0.25, -0.25), (-0.25, 0.25)]
# The scans' range_min (test_gate's GatePeer._scan).
RANGE_MIN = f32(0.05)
# A clock stall is judged within this (s): the smallest timeout in force is 1 s at most
# in these scenes; the rest is a publish period and delivery on a loaded machine.
STALL_BOUND = 4.0


# --- the peer --------------------------------------------------------------------------------

class Judge(GatePeer):
    """test_gate's GatePeer (commands, outputs, states; scans fed at 20 Hz) on a node of
    this file: the scan sources `scans` (topic: the name), and the collision flag, the
    report and the gate's /diagnostics statuses (by `hardware_id`)."""

    def __init__(self, peer, ns, scans=(), hardware_id=''):
        from sat_collision_msgs.msg import CollisionReport
        from std_msgs.msg import Bool

        self.own_scans = list(scans)
        super().__init__(peer, ns, False)
        self.flags = Recorder(peer, Bool, f'{ns}/collision', keep=lambda m: m.data)
        self.reports = Recorder(peer, CollisionReport, f'{ns}/collision_report')
        self.diag = Diagnostics(peer, hardware_id)
        self.proc = None

    def _start_pump(self):
        """Called last by GatePeer's __init__: this file's scenes replace test_gate's
        before the pump starts (none of its scans, no polygon on a polygon source, no
        dynamic zone's shape): what each node gets is what its test sends."""
        from rclpy.qos import qos_profile_sensor_data
        from sensor_msgs.msg import LaserScan

        for pub in self.scan_pubs.values():
            self.node.destroy_publisher(pub)
        self.scan_pubs = {s: self.node.create_publisher(LaserScan, f'{self.ns}/{s}',
                                                        qos_profile_sensor_data)
                          for s in self.own_scans}
        self.ranges = {s: [math.inf] * BEAMS for s in self.own_scans}
        self.polygon = None
        self.dyn_shape = None
        super()._start_pump()

    def set_ranges(self, source, ranges):
        with self.cond:
            self.ranges[source] = list(ranges)

    def flag_reads(self, value, what, timeout=5.0, count=3):
        """The flag reads `value` (from now on, within `timeout`) and so do the `count`
        flags after it."""
        mark = self.flags.mark()
        deadline = time.monotonic() + timeout
        with self.flags.cond:
            while True:
                got = [v for _, v in self.flags.items[mark:]]
                for k, v in enumerate(got):
                    if v == value and len(got) >= k + 1 + count:
                        if all(x == value for x in got[k + 1:k + 1 + count]):
                            return
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f'the flag not steadily {value} within {timeout} s '
                                         f'({what}): {got[-20:]}')
                self.flags.cond.wait(min(left, 0.1))

    def gate_statuses(self, mark):
        return [a[GATE] for a in self.diag.arrays.since(mark) if GATE in a]

    def stop_judged(self, what, name, state_mark=None, timeout=5.0):
        """The gate stops (zeros) with the state (STOP, `name`), the flag is true, and
        the gate's /diagnostics status is not OK while it is. `state_mark`: the state
        topic from there; None: the state from /diagnostics (a start-up state).
        Returns how long the zeros took."""
        t0 = time.monotonic()
        self.gate(CMD, is_zero, f'zeros ({what})', timeout)
        took = time.monotonic() - t0
        if state_mark is not None:
            self.wait_state(state_mark, STOP, name)
        self.flag_reads(True, what)
        flags, diag = self.flags.mark(), self.diag.mark()
        stopping = (lambda s, v: v.get('action') == 'stop' and v.get('state') == name)
        if state_mark is None:
            self.diag.wait(GATE, stopping, f'action stop, state {name!r} ({what})',
                           2 * PERIOD + MARGIN, diag)
        else:
            self.diag.wait(GATE, lambda s, v: True, f'a status ({what})', PERIOD + MARGIN,
                           diag)
        statuses = self.gate_statuses(diag)
        seen = [(level(s), s.message) for s in statuses]
        assert all(level(s) != OK for s in statuses), \
            f'the gate status OK while the flag reads a fault ({what}): {seen}'
        values = [{kv.key: kv.value for kv in s.values} for s in statuses]
        assert all(v.get('action') == 'stop' and v.get('state') == name for v in values), \
            (what, values)
        got = [v for _, v in self.flags.items[flags:]]
        assert got and all(got), f'the flag while the gate status was read ({what}): {got}'
        return took

    def passes_judged(self, what, cmd=CMD):
        """The command passes unchanged and the flag is false: everything usable."""
        self.gate(cmd, passes(cmd), f'the command unchanged ({what})')
        self.flag_reads(False, what)


def write_params(tmp_path_factory, tag, body):
    path = tmp_path_factory.mktemp(tag) / f'{tag}.yaml'
    path.write_text(yaml.safe_dump({NODE_NAME: {'ros__parameters': body}}))
    return str(path)


def gate_params(hardware_id, sources, zones, **extra):
    """The node's parameters: test_gate's topics, the flag's robot in the base frame,
    `sources` and `zones` ({name: parameters})."""
    body = {
        'publish_rate': 20.0,
        'base_frame_id': BASE,
        'base_frame': BASE,
        'robot_footprint': text(ROBOT_FP),
        'base_shift_correction': False,
        'cmd_vel_in_topic': 'cmd_in',
        'cmd_vel_out_topic': 'cmd_out',
        'state_topic': 'gate_state',
        'stop_pub_timeout': 3600.0,
        'hardware_id': hardware_id,
        'observation_sources': list(sources),
        'polygons': list(zones),
    }
    body.update(sources)
    body.update(zones)
    body.update(extra)
    return body


def stop_zone(source, points=FRONT, **extra):
    return {'type': 'polygon', 'points': text(points), 'action_type': 'stop',
            'min_points': 3, 'sources_names': [source], **extra}


class Started:
    """A node, its peer and the Judge on it; closed in reverse."""

    def __init__(self, tmp_path_factory, tag, body, scans=(), *ros_args, judge=Judge, **kw):
        self.ns = namespace(f'judges_{tag}')
        self.peer = RosPeer(f'judges_{tag}_{os.getpid()}')
        try:
            self.judge = judge(self.peer, self.ns, scans, body['hardware_id'], **kw)
            path = write_params(tmp_path_factory, tag, body)
            self.judge.proc = start_node(self.ns, *ros_args, params_file=path)
        except BaseException:
            self.close()
            raise

    def close(self):
        j = getattr(self, 'judge', None)
        if j is not None:
            j.close()
            for stop in getattr(j, 'stops', []):
                stop.set()
            time.sleep(0.1)  # a publication in progress is out before the node goes
        self.peer.close()
        if j is not None and j.proc is not None:
            j.proc.stop()


def hw(tag):
    return f'judges_{tag}_{os.getpid()}'


# --- the scan scenes: 4, 5, 6, 9 -----------------------------------------------------------

# The escape zone (issue 29, 9) and its wall, 5 cm inside its front edge.
ESCAPE = [(0.6, 0.4), (0.6, -0.4), (-0.6, -0.4), (-0.6, 0.4)]
WALL_X = 0.55
ESCAPE_TBC = 1.0


@pytest.fixture(scope='module')
def scans(tmp_path_factory):
    tag = 'scans'
    names = ['s_front', 's_inf', 's_bad', 's_wall']
    zones = {
        'stop': stop_zone('s_front'),
        'inf_stop': stop_zone('s_inf'),
        'bad_stop': stop_zone('s_bad'),
        'escape': stop_zone('s_wall', ESCAPE, allow_escape=True,
                            time_before_collision=ESCAPE_TBC, min_points=1),
    }
    body = gate_params(hw(tag), {s: {'type': 'scan', 'topic': s} for s in names}, zones)
    started = Started(tmp_path_factory, tag, body, names)
    j = started.judge
    try:
        j.passes_judged('every scan clear')
        yield j
    finally:
        started.close()


def test_enabled_true_among_41_changes_in_one_call_arms_the_gate(scans):
    """Issue 29, 4: the gate disabled; one SetParameters call with 40 other run-time
    changes, then `enabled: true`: every result successful, and with an obstacle in the
    stop zone the commands are stopped afterwards."""
    from rcl_interfaces.msg import Parameter
    from rcl_interfaces.srv import SetParameters

    j = scans
    others = [n for n in RUNTIME_PARAMS if n != 'enabled']
    assert len(others) >= 5, others
    original = j.peer.get_parameters(j.fqn, others)

    def other_value(name, value):
        """A value other than `value`, inside the parameter's range."""
        if isinstance(value, bool):
            return not value
        lo, hi = RANGES[name]
        if isinstance(value, int):
            return value + 1 if value + 1 <= hi else value - 1
        step = 0.01 * ((hi - value) if value < hi else (value - lo))
        return value + step if value < hi else value - step

    # Each change differs from the value before it (a real change, a change event each),
    # and every parameter ends where it was: the stop zone and its source switched off
    # first and on again last, the node's run-time parameters changed and set back in
    # between.
    switches = ['stop.enabled', 's_front.enabled']
    assert j.peer.get_parameters(j.fqn, switches) == {n: True for n in switches}
    middle = []
    while len(middle) < 40 - 2 * len(switches):
        for name in others:
            middle += [(name, other_value(name, original[name])), (name, original[name])]
    middle = middle[:40 - 2 * len(switches)]
    changes = [(n, False) for n in switches] + middle + [(n, True) for n in switches]
    assert len(changes) == 40
    assert all(changes[k] != changes[k + 1] for k in range(len(changes) - 1))
    final = {n: v for n, v in changes}
    assert final == {**original, **{n: True for n in switches}}, final

    cluster_points = j.put('s_front', cluster(0.3, 0.0))
    assert sum(in_polygon(p, FRONT) for p in cluster_points) >= 3  # stop's min_points
    try:
        j.gate(CMD, is_zero, 'zeros: an obstacle in the stop zone')
        ok, reason = j.peer.set_parameter(j.fqn, 'enabled', False)
        assert ok, reason
        j.gate(CMD, passes(CMD), 'the command passes: the gate disabled')

        request = SetParameters.Request()
        request.parameters = [Parameter(name=n, value=to_parameter_value(v))
                              for n, v in changes + [('enabled', True)]]
        response = j.peer.call(SetParameters, f'{j.fqn}/set_parameters', request)
        assert len(response.results) == 41, response
        refused = [(n, r.reason) for (n, _), r in zip(changes + [('enabled', True)],
                                                       response.results) if not r.successful]
        assert not refused, refused
        got = j.peer.get_parameters(j.fqn, list(final) + ['enabled'])
        assert got == {**final, 'enabled': True}, got

        j.gate(CMD, is_zero, 'zeros: enabled true again, the obstacle in the stop zone',
               timeout=3.0)
        # And the commands after it: none passes.
        with j.cond:
            start = len(j.outputs)
        for _ in range(20):
            j.command(*CMD)
            time.sleep(0.05)
        with j.cond:
            outs = [j.twist_of(m) for _, m in j.outputs[start:]]
        assert outs and all(is_zero(t) for t in outs), \
            f'{sum(not is_zero(t) for t in outs)} of {len(outs)} outputs not zero'
    finally:
        # Off and on in two calls each: re-armed whatever the node kept.
        for name in ['enabled'] + switches:
            j.peer.set_parameter(j.fqn, name, False)
            j.peer.set_parameter(j.fqn, name, True)
        j.clear('s_front')
    j.passes_judged('the obstacle gone')


def test_scan_minus_inf_ahead_is_a_point_at_range_min(scans):
    """Issue 29, 5: 61 beams ahead read -inf (REP 117: too close to measure): each is a
    point at range_min on its ray, in the stop zone and in the robot: the gate stops and
    the flag is true."""
    j = scans
    ahead = beam_of(1.0, 0.0)
    beams = list(range(ahead - 30, ahead + 31))
    assert len(beams) == 61
    points = [beam_point(i, RANGE_MIN) for i in beams]
    assert all(abs(math.atan2(y, x)) < math.radians(15.1) for x, y in points)
    assert sum(in_polygon(p, FRONT) for p in points) >= 3  # inf_stop's min_points
    in_robot = sum(in_polygon(p, ROBOT_FP) for p in points)
    assert in_robot >= 1  # the flag's min_points
    j.passes_judged('before: nothing seen')
    ranges = [math.inf] * BEAMS
    for i in beams:
        ranges[i] = -math.inf
    mark = j.state_mark()
    j.set_ranges('s_inf', ranges)
    try:
        j.gate(CMD, is_zero, 'zeros: -inf ahead')
        j.wait_state(mark, STOP, 'inf_stop')
        j.flag_reads(True, '-inf ahead, inside the robot')
        report = j.reports.wait(lambda r: any(x.id == 's_inf' and x.points_inside > 0
                                              for x in r.results),
                                "s_inf's points inside", 5.0, j.reports.mark())[1]
        assert report.valid and report.colliding, (report.status, report.valid)
        (entry,) = [x for x in report.results if x.id == 's_inf']
        assert entry.status == 'ok' and entry.points_inside == in_robot, entry
    finally:
        j.clear('s_inf')
    j.passes_judged('the -inf beams gone')


def scan_msg(node, angle_min, angle_max, increment, ranges):
    from sensor_msgs.msg import LaserScan

    msg = LaserScan()
    msg.header.frame_id = BASE
    msg.header.stamp = node.get_clock().now().to_msg()
    msg.angle_min, msg.angle_max, msg.angle_increment = angle_min, angle_max, increment
    msg.scan_time = 0.05
    msg.range_min, msg.range_max = RANGE_MIN, 20.0
    msg.ranges = [float(r) for r in ranges]
    return msg


def test_scan_whose_angles_and_length_disagree_is_refused(scans):
    """Issue 29, 6: angle_increment 0 with 360 ranges over 2 pi (an object 0.3 m ahead);
    361 ranges where angle_min, angle_max and the increment give 181 (an object 0.35 m
    ahead): each scan is refused (invalid_source), the gate stops, the flag is true."""
    j = scans
    full = f32(math.pi)
    # (what, (angle_min, angle_max, angle_increment, ranges)); the sender meant the
    # ranges as beams over 2 pi from -pi, one degree apart.
    zero = [math.inf] * 360
    for i in range(178, 183):
        zero[i] = 0.3
    short = [math.inf] * 361
    for i in range(175, 186):
        short[i] = 0.35
    cases = [('angle_increment 0', (-full, full, 0.0, zero)),
             ('361 ranges for 181 angles',
              (f32(-math.pi / 2), f32(math.pi / 2), f32(math.pi / 180), short))]
    for what, (a0, a1, inc, ranges) in cases:
        # The scene: the object where the sender meant it (beams over 2 pi from -pi) is
        # in the stop zone; the message's angles do not give its number of ranges.
        meant = [(r * math.cos(-math.pi + i * 2 * math.pi / 360),
                  r * math.sin(-math.pi + i * 2 * math.pi / 360))
                 for i, r in enumerate(ranges) if math.isfinite(r)]
        assert sum(in_polygon(p, FRONT) for p in meant) >= 3, meant
        assert inc == 0.0 or abs((a1 - a0) / inc + 1 - len(ranges)) > 1, what
        j.passes_judged(f'before: {what}')
        mark, reports = j.state_mark(), j.reports.mark()
        with j.cond:
            j.paused.add('s_bad')
        stop = repeat(0.05, lambda: j.scan_pubs['s_bad'].publish(
            scan_msg(j.node, a0, a1, inc, ranges)))
        try:
            j.gate(CMD, is_zero, f'zeros: {what}')
            j.wait_state(mark, STOP, 'invalid source')
            j.flag_reads(True, what)
            _, report = j.reports.wait(
                lambda r: any(x.id == 's_bad' and x.status == 'invalid_source'
                              for x in r.results),
                f's_bad invalid_source ({what})', 5.0, reports)
            assert report.colliding and not report.valid, (report.status, report.valid)
            assert report.status == 'invalid_source', report.status
        finally:
            stop.set()
            with j.cond:
                j.paused.discard('s_bad')
        j.passes_judged(f'after: {what}')


def wall_ranges(x, half_width):
    """A scan of the wall at `x` (base frame) for |y| <= half_width: each beam's range
    to it."""
    ranges = [math.inf] * BEAMS
    for i in range(BEAMS):
        a = ANGLE_MIN + i * INCREMENT
        if math.cos(a) <= 1e-9:
            continue
        r = x / math.cos(a)
        if abs(r * math.sin(a)) <= half_width:
            ranges[i] = r
    return ranges


def enters(point, zone, v, horizon, steps=400):
    """The point, outside `zone` now, is inside the zone moved straight at v (m/s) some
    time in [0, horizon] (the zone is convex: sampled finely, with the ends)."""
    for k in range(steps + 1):
        dx = v * horizon * k / steps
        if in_polygon((point[0] - dx, point[1]), zone):
            return True
    return False


@pytest.mark.parametrize('half_width', [0.45, 2.0])
def test_allow_escape_backs_away_from_a_wall_wider_than_the_zone(scans, half_width):
    """Issue 29, 9: allow_escape, a wall 5 cm inside the stop zone's front edge that is
    wider than the zone: backing straight away passes unchanged (no point of the wall
    enters the zone, none goes deeper); driving into it stays stopped."""
    j = scans
    ranges = wall_ranges(WALL_X, half_width)
    points = scan_points(ranges)
    inside = [p for p in points if in_polygon(p, ESCAPE)]
    beside = [p for p in points if not in_polygon(p, ESCAPE)]
    assert inside and beside, (len(inside), len(beside))
    assert all(abs(abs(y) - 0.4) > 1e-4 for _, y in points), 'a point on the zone edge'
    back, forward = (-0.3, 0.0, 0.0), (0.3, 0.0, 0.0)
    # Backing away: nothing outside enters the zone within time_before_collision, and
    # the points inside only leave it (their x grows in the zone's frame).
    assert not any(enters(p, ESCAPE, back[0], ESCAPE_TBC) for p in beside)
    # Forward: the points inside go deeper.
    assert all(in_polygon((x - 0.01, y), ESCAPE) for x, y in inside)
    j.set_ranges('s_wall', ranges)
    try:
        # The wall seen first (else a clear zone would pass the back-off too).
        j.gate(forward, is_zero, 'zeros: driving into the wall')
        j.gate(back, passes(back), f'backing away from a wall |y| <= {half_width} passes',
               timeout=5.0)
        j.gate(forward, is_zero, 'zeros: driving into the wall again')
    finally:
        j.clear('s_wall')
    j.passes_judged('the wall gone')


# --- 7. a dynamic zone that never got its shape ----------------------------------------------

DYN_SHAPE = [(1.0, -0.5), (2.0, -0.5), (2.0, 0.5), (1.0, 0.5)]
DYN_POINT = (1.5, 0.0)


@pytest.fixture(scope='module')
def dynamic(tmp_path_factory):
    tag = 'dyn'
    zones = {'dynstop': {'type': 'polygon', 'polygon_sub_topic': 'dyn_shape',
                         'polygon_subscribe_transient_local': True, 'action_type': 'stop',
                         'min_points': 1, 'sources_names': ['s_dyn']}}
    body = gate_params(hw(tag), {'s_dyn': {'type': 'scan', 'topic': 's_dyn'}}, zones)
    started = Started(tmp_path_factory, tag, body, ['s_dyn'])
    try:
        yield started.judge
    finally:
        started.close()


def shape_msg(node, points):
    from geometry_msgs.msg import Point32, PolygonStamped

    msg = PolygonStamped()
    msg.header.frame_id = BASE
    msg.header.stamp = node.get_clock().now().to_msg()
    msg.polygon.points = [Point32(x=float(x), y=float(y), z=0.0) for x, y in points]
    return msg


def test_dynamic_zone_without_a_shape_stops_warns_and_is_not_ok(dynamic):
    """Issue 29, 7: a stop zone whose polygon_sub_topic is subscribed transient-local and
    published volatile (they never connect), a point where the zone was meant: the
    commands are stopped ("invalid zone"), a throttled warning is logged, and the gate's
    status is not OK. Control: the shape from a transient-local publisher, away from
    the point: the command passes."""
    from geometry_msgs.msg import PolygonStamped
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

    j = dynamic
    assert in_polygon(DYN_POINT, DYN_SHAPE)
    got = j.put('s_dyn', [DYN_POINT])
    assert len(got) == 1 and in_polygon(got[0], DYN_SHAPE)
    volatile = j.node.create_publisher(
        PolygonStamped, f'{j.ns}/dyn_shape',
        QoSProfile(depth=1, durability=DurabilityPolicy.VOLATILE,
                   reliability=ReliabilityPolicy.RELIABLE))
    stop = repeat(0.2, lambda: volatile.publish(shape_msg(j.node, DYN_SHAPE)))
    try:
        started = time.monotonic()
        # The point is in (its source usable, at its distance from the robot's front):
        # the zeros are then not a source's.
        gap = got[0][0] - max(x for x, _ in ROBOT_FP)
        j.reports.wait(lambda r: any(x.id == 's_dyn' and x.status == 'ok'
                                     and abs(x.distance - gap) < 1e-4 for x in r.results),
                       's_dyn usable, its point in', 10.0)
        j.gate(CMD, is_zero, 'zeros: the zone has no shape')
        mark = j.diag.mark()
        _, status, values, _ = j.diag.wait(
            GATE, lambda s, v: v.get('action') == 'stop' and v.get('state') == 'invalid zone',
            "action stop, state 'invalid zone'", 2 * PERIOD + MARGIN, mark)
        assert level(status) != OK, (status.message, values)
        assert volatile.get_subscription_count() == 0, 'the volatile publisher connected'
        rx = re.compile(r'(?i)\[WARN\].*(dynstop.*shape|shape.*dynstop)')
        j.proc.wait_for(rx.pattern, timeout=10)
        # Throttled: not once per check (20 Hz).
        j.gate(CMD, is_zero, 'zeros: still no shape')
        elapsed = time.monotonic() - started
        lines = [line for line in j.proc.output.splitlines() if rx.search(line)]
        assert len(lines) <= 3 + elapsed, (elapsed, lines)
        print(f'{len(lines)} warning lines in {elapsed:.1f} s, the first: {lines[0]}')
    finally:
        stop.set()
    # Control: the shape arrives (transient local), away from the point: it passes.
    latched = j.node.create_publisher(
        PolygonStamped, f'{j.ns}/dyn_shape',
        QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                   reliability=ReliabilityPolicy.RELIABLE))
    away = [(x + 2.0, y) for x, y in DYN_SHAPE]
    assert not in_polygon(DYN_POINT, away)
    mark = j.state_mark()
    latched.publish(shape_msg(j.node, away))
    j.passes_judged('the shape received, away from the point')
    j.wait_state(mark, DO_NOTHING, '')


# --- 2, 3: simulated time ------------------------------------------------------------------

class SimJudge(Judge):
    """A Judge with a simulator: `/clock` (on `clock_topic`, at 100 Hz) from `start` s
    while it runs, and the scans stamped in its time (0 before it ever ran)."""

    def __init__(self, peer, ns, scans, hardware_id, clock_topic, start=1000.0):
        from rosgraph_msgs.msg import Clock

        # Read by the scans' pump, which GatePeer starts.
        self.sim = threading.Lock()
        self.sim_base = None  # sim time when it last started or stopped; None: never ran
        self.sim_since = None  # monotonic time it (re)started; None: not running
        self.sim_start = start
        super().__init__(peer, ns, scans, hardware_id)
        self.Clock = Clock
        self.clock_pub = self.node.create_publisher(Clock, clock_topic, 10)
        self.stops = [repeat(0.01, self._tick)]

    def sim_now(self):
        with self.sim:
            if self.sim_base is None:
                return 0.0
            if self.sim_since is None:
                return self.sim_base
            return self.sim_base + (time.monotonic() - self.sim_since)

    def _tick(self):
        with self.sim:
            running = self.sim_since is not None
        if running:
            self.clock_pub.publish(self.Clock(clock=stamp_of(self.sim_now())))

    def _scan(self, ranges):
        msg = GatePeer._scan(self, ranges)
        msg.header.stamp = stamp_of(self.sim_now())
        return msg

    def run(self):
        """The simulator runs (again): its clock and the scans."""
        with self.sim:
            if self.sim_base is None:
                self.sim_base = self.sim_start
            self.sim_since = time.monotonic()
        with self.cond:
            self.paused.clear()

    def die(self):
        """The simulator dies: the scans and /clock stop. Returns when (monotonic)."""
        with self.cond:
            self.paused.update(self.ranges)
        now = self.sim_now()
        with self.sim:
            self.sim_base, self.sim_since = now, None
        time.sleep(0.06)  # a scan or tick in progress is out
        return time.monotonic()


def sim_node(tmp_path_factory, tag, sources=None, **extra):
    sources = sources or {'scan': {'type': 'scan', 'topic': 'scan'}}
    body = gate_params(hw(tag), sources, {'stop': stop_zone('scan')}, use_sim_time=True,
                       **extra)
    ns = namespace(f'judges_{tag}')
    clock = f'{ns}/sim_clock'
    return Started(tmp_path_factory, tag, body, list(sources), '-r', f'/clock:={clock}',
                   judge=SimJudge, clock_topic=clock)


STALLS = {
    # nav2's defaults (issue 29, 2)
    'default_timeouts': ({}, {}),
    # footprint and obstacles never stale, the scan's 1 s (issue 29, 3)
    'zero_timeouts': ({'footprint_timeout': 0.0, 'obstacles_timeout': 0.0},
                      {'source_timeout': 1.0}),
}


@pytest.fixture(scope='module', params=sorted(STALLS))
def stall(request, tmp_path_factory):
    params, scan = STALLS[request.param]
    started = sim_node(tmp_path_factory, f'stall_{request.param}',
                       {'scan': {'type': 'scan', 'topic': 'scan', **scan}}, **params)
    try:
        yield started.judge
    finally:
        started.close()


def test_sim_clock_that_stops_stops_the_gate(stall):
    """Issue 29, 2 and 3: use_sim_time, the simulator runs (the command passes, the flag
    is false), then dies (/clock and the scan stop) while the commands keep coming at
    20 Hz: within STALL_BOUND the output is zero ("invalid source"), the flag is true
    with the report's status clock_stalled, and the gate's status is not OK (8)."""
    j = stall
    j.run()
    j.passes_judged('the simulator running')
    mark, reports, flags = j.state_mark(), j.reports.mark(), j.flags.mark()
    died = j.die()
    took = j.stop_judged('the simulator died', 'invalid source', mark, timeout=STALL_BOUND)
    flag_at, _ = j.flags.wait(lambda v: v, 'a true flag', 0.1, flags)
    assert flag_at - died <= STALL_BOUND, f'the flag true {flag_at - died:.2f} s after the stall'
    report_at, report = j.reports.wait(lambda r: r.status == 'clock_stalled',
                                       'the report clock_stalled', STALL_BOUND, reports)
    assert report_at - died <= STALL_BOUND, \
        f'clock_stalled {report_at - died:.2f} s after the stall'
    assert report.colliding and not report.valid
    print(f'stall: zeros after {took:.2f} s, the flag true after {flag_at - died:.2f} s, '
          f'the report clock_stalled after {report_at - died:.2f} s')
