"""Frames over real ROS 2: an rclpy peer publishes TF as a robot does
(/tf_static map -> odom and base_link -> sensor, /tf odom -> base_link at
50 Hz) and the node's answers are compared with the same scene transformed
by hand here: plain 2-D rigid transforms and a small convex-polygon SAT and
distance written in this file, not the node's code.

Run by scripts/test.sh (after `cargo build --bins`).
"""

import math
import threading
import time

import pytest

from satpkg_support import RosPeer, namespace, start_node

# The upstream tf2_msgs/msg/TFMessage type hash (ROS 2 Jazzy): what real TF
# publishers announce. The project's own tf2_msgs (msg/tf2_msgs, built when the
# install lacks it) must produce exactly this.
UPSTREAM_TFMESSAGE_HASH = 'RIHS01_e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087'

ROBOT = [(0.5, 0.3), (-0.5, 0.3), (-0.5, -0.3), (0.5, -0.3)]
ROBOT_PARAM = 'robot_footprint:="[[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]"'
MAP_ODOM = (1.0, 2.0, 0.5)  # static: odom in map
BASE_SENSOR = (0.4, 0.1, 1.2)  # static: sensor in base_link
ODOM_BASE = (2.0, -1.0, 0.3)  # dynamic: base_link in odom
TOL = 2e-4  # Point32 coordinates are float32


# --- independent 2-D geometry --------------------------------------------------------------

def compose(a, b):
    """a ∘ b for poses (x, y, yaw): b expressed in a's parent."""
    ax, ay, at = a
    bx, by, bt = b
    c, s = math.cos(at), math.sin(at)
    return (ax + c * bx - s * by, ay + s * bx + c * by, at + bt)


def apply(pose, points):
    x, y, t = pose
    c, s = math.cos(t), math.sin(t)
    return [(x + c * px - s * py, y + s * px + c * py) for px, py in points]


def square(cx, cy, half):
    return [(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half),
            (cx - half, cy + half)]


def normals(poly):
    out = []
    for i, (x0, y0) in enumerate(poly):
        x1, y1 = poly[(i + 1) % len(poly)]
        ex, ey = x1 - x0, y1 - y0
        n = math.hypot(ex, ey)
        out.append((ey / n, -ex / n))
    return out


def project(poly, axis):
    d = [px * axis[0] + py * axis[1] for px, py in poly]
    return min(d), max(d)


def penetration(a, b):
    """(depth, mtv moving a out of b) when the convex polygons overlap, else None."""
    best = None
    for axis in normals(a) + normals(b):
        a0, a1 = project(a, axis)
        b0, b1 = project(b, axis)
        overlap = min(a1, b1) - max(a0, b0)
        if overlap < 0:
            return None
        if best is None or overlap < best[0]:
            # Push a the short way out along this axis.
            sign = -1.0 if (a0 + a1) < (b0 + b1) else 1.0
            best = (overlap, (sign * axis[0] * overlap, sign * axis[1] * overlap))
    return best


def point_segment(p, a, b):
    ax, ay = a
    bx, by = b
    ex, ey = bx - ax, by - ay
    t = max(0.0, min(1.0, ((p[0] - ax) * ex + (p[1] - ay) * ey) / (ex * ex + ey * ey)))
    return math.hypot(p[0] - (ax + t * ex), p[1] - (ay + t * ey))


def distance(a, b):
    """Clearance between two convex polygons that do not overlap."""
    def edges(poly):
        return [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]
    return min(min(point_segment(p, *e) for p in a for e in edges(b)),
               min(point_segment(p, *e) for p in b for e in edges(a)))


# --- the peer ------------------------------------------------------------------------------

def transform_msg(parent, child, pose, stamp, x_override=None, quaternion=None):
    from geometry_msgs.msg import TransformStamped

    t = TransformStamped()
    t.header.frame_id = parent
    t.header.stamp = stamp
    t.child_frame_id = child
    x, y, yaw = pose
    t.transform.translation.x = float(x if x_override is None else x_override)
    t.transform.translation.y = float(y)
    q = quaternion or (0.0, 0.0, math.sin(yaw / 2.0), math.cos(yaw / 2.0))
    (t.transform.rotation.x, t.transform.rotation.y, t.transform.rotation.z,
     t.transform.rotation.w) = q
    return t


def stamp_of(seconds):
    from builtin_interfaces.msg import Time

    sec = math.floor(seconds)
    return Time(sec=int(sec), nanosec=int((seconds - sec) * 1e9))


class TfPeer:
    """Publishes TF as a robot does and keeps the node's outputs."""

    def __init__(self, peer, ns):
        from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
        from sat_collision_msgs.msg import CollisionReport
        from std_msgs.msg import Bool
        from tf2_msgs.msg import TFMessage

        self.peer, self.ns = peer, ns
        node = peer.node
        static_qos = QoSProfile(depth=100, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                                reliability=ReliabilityPolicy.RELIABLE)
        self.TFMessage = TFMessage
        self.static_pub = node.create_publisher(TFMessage, '/tf_static', static_qos)
        self.tf_pub = node.create_publisher(TFMessage, '/tf', 100)
        self.cond = threading.Condition()
        self.report = None
        self.reports = []  # every report: (monotonic time, status, valid, colliding)
        self.flags = []  # (monotonic time, value)
        node.create_subscription(CollisionReport, f'{ns}/collision_report', self._on_report, 10)
        node.create_subscription(Bool, f'{ns}/collision', self._on_flag, 10)
        # What the 50 Hz pump sends: a function of the stamp giving [TransformStamped].
        self.dynamic = None
        self.last_tf = None
        self._stop = False
        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._thread.start()

    def now(self):
        return self.peer.node.get_clock().now().nanoseconds * 1e-9

    def _pump(self):
        while not self._stop:
            dynamic = self.dynamic
            if dynamic is not None:
                self.tf_pub.publish(self.TFMessage(transforms=dynamic(stamp_of(self.now()))))
                self.last_tf = time.monotonic()
            time.sleep(0.02)

    def close(self):
        self._stop = True
        self._thread.join(5)

    def _on_report(self, msg):
        with self.cond:
            self.report = msg
            self.reports.append((time.monotonic(), msg.status, msg.valid, msg.colliding))
            self.cond.notify_all()

    def _on_flag(self, msg):
        with self.cond:
            self.flags.append((time.monotonic(), msg.data))
            self.cond.notify_all()

    def publish_static(self, transforms):
        self.static_pub.publish(self.TFMessage(transforms=transforms))

    def another_static_publisher(self):
        """A second /tf_static publisher (another latched sender), as static_pub."""
        from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

        qos = QoSProfile(depth=100, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                         reliability=ReliabilityPolicy.RELIABLE)
        pub = self.peer.node.create_publisher(self.TFMessage, '/tf_static', qos)
        return lambda transforms: pub.publish(self.TFMessage(transforms=transforms))

    def collect(self, seconds):
        """The reports received over the next `seconds`: [(status, valid, colliding)]."""
        start = time.monotonic()
        time.sleep(seconds)
        with self.cond:
            return [r[1:] for r in self.reports if r[0] >= start]

    def wait(self, predicate, what, timeout=30.0):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                if self.report is not None and predicate(self.report):
                    return self.report
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f'no report with {what} within {timeout} s; last: '
                                         f'{self.report and (self.report.status, self.report.valid)}')
                self.cond.wait(min(left, 0.2))

    def wait_status(self, status, timeout=30.0):
        return self.wait(lambda r: r.status == status, f'status {status}', timeout)


@pytest.fixture
def tf_peer(request):
    peer = RosPeer('satpkg_tf_' + request.node.name[:30].replace('[', '_').replace(']', '_'))
    ns = namespace('tf')
    tf = TfPeer(peer, ns)
    yield tf
    tf.close()
    peer.close()


def obstacle_array(frame, obstacles, stamp):
    from geometry_msgs.msg import Point32, Polygon
    from sat_collision_msgs.msg import Obstacle, ObstacleArray

    array = ObstacleArray()
    array.header.frame_id = frame
    array.header.stamp = stamp
    array.obstacles = [Obstacle(id=i, radius=0.0, polygon=Polygon(
        points=[Point32(x=float(x), y=float(y), z=0.0) for x, y in pts]))
        for i, pts in obstacles]
    return array


def instance_msg(frame, ident, points, stamp):
    from geometry_msgs.msg import Point32, PolygonInstanceStamped

    msg = PolygonInstanceStamped()
    msg.header.frame_id = frame
    msg.header.stamp = stamp
    msg.polygon.id = ident
    msg.polygon.polygon.points = [Point32(x=float(x), y=float(y), z=0.0) for x, y in points]
    return msg


def repeat(period, send):
    """Calls send() every `period` s on a thread until the returned event is set."""
    stop = threading.Event()

    def run():
        while not stop.is_set():
            send()
            time.sleep(period)
    threading.Thread(target=run, daemon=True).start()
    return stop


def base_pose(stamp):
    return [transform_msg('odom', 'base_link', ODOM_BASE, stamp)]


# --- tests ---------------------------------------------------------------------------------

def test_scene_in_three_frames_matches_the_scene_transformed_by_hand(tf_peer, tmp_path):
    """Footprint from robot_footprint in base_link, obstacles and a zone in map, one
    obstacle instance in a sensor frame under base_link: every result as computed here
    in map. /tf_static is published before the node starts (it joins late)."""
    from sat_collision_msgs.msg import ObstacleArray
    from geometry_msgs.msg import PolygonInstanceStamped

    now = stamp_of(tf_peer.now())
    tf_peer.publish_static([transform_msg('map', 'odom', MAP_ODOM, now),
                            transform_msg('base_link', 'sensor', BASE_SENSOR, now)])
    tf_peer.dynamic = base_pose
    robot_in_map = compose(MAP_ODOM, ODOM_BASE)
    sensor_in_map = compose(robot_in_map, BASE_SENSOR)

    def at_robot(x, y):
        return apply(robot_in_map, [(x, y)])[0]

    # Obstacles: axis-aligned squares in map, placed relative to the robot.
    hit = square(*at_robot(0.62, 0.05), 0.15)
    side = square(*at_robot(0.0, 1.3), 0.2)
    behind = square(*at_robot(-3.0, 0.0), 0.3)
    zone = square(*at_robot(0.3, -1.6), 0.25)
    zones_file = tmp_path / 'zones.yaml'
    zones_file.write_text('frame_id: map\nobstacles:\n  - id: dock\n    polygon: ['
                          + ', '.join(f'[{x!r}, {y!r}]' for x, y in zone) + ']\n')
    in_sensor = square(1.0, 0.0, 0.15)  # in the sensor frame

    node = start_node(tf_peer.ns, '-p', ROBOT_PARAM, '-p', 'base_frame:=base_link',
                      '-p', 'global_frame:=map', '-p', f'zones_file:={zones_file}',
                      '-p', 'obstacles_timeout:=5.0', '-p', 'transform_tolerance:=0.5')
    try:
        node_ = tf_peer.peer.node
        array_pub = node_.create_publisher(ObstacleArray, f'{tf_peer.ns}/obstacles', 10)
        inst_pub = node_.create_publisher(PolygonInstanceStamped,
                                          f'{tf_peer.ns}/obstacle_instances', 10)
        stop = repeat(0.1, lambda: (
            array_pub.publish(obstacle_array('map', [('hit', hit), ('side', side),
                                                     ('behind', behind)], stamp_of(0.0))),
            inst_pub.publish(instance_msg('sensor', 7, in_sensor, stamp_of(0.0)))))
        try:
            report = tf_peer.wait(lambda r: r.valid and len(r.results) == 5,
                                  'five valid results')
        finally:
            stop.set()
        assert report.header.frame_id == 'map'
        assert report.colliding and report.status == 'ok'

        robot = apply(robot_in_map, ROBOT)
        expected = {'dock': zone, 'hit': hit, 'side': side, 'behind': behind,
                    'instance_7': apply(sensor_in_map, in_sensor)}
        results = {r.id: r for r in report.results}
        assert set(results) == set(expected)
        for ident, polygon in expected.items():
            r = results[ident]
            pen = penetration(robot, polygon)
            assert r.colliding == (pen is not None), ident
            if pen is None:
                assert abs(r.distance - distance(robot, polygon)) < TOL, (ident, r.distance)
            else:
                depth, mtv = pen
                assert abs(r.penetration_depth - depth) < TOL, (ident, r.penetration_depth)
                # The MTV in map: rotated out of the obstacle group's frame.
                assert abs(r.mtv.x - mtv[0]) < TOL and abs(r.mtv.y - mtv[1]) < TOL, \
                    (ident, r.mtv, mtv)
        assert [i for i, r in sorted(results.items()) if r.colliding] == ['hit']

        # The node and this publisher agree on TFMessage's type and hash: upstream's.
        # The graph may show the node's endpoints a little after its messages.
        deadline = time.monotonic() + 15.0
        while True:
            subs = [i for i in node_.get_subscriptions_info_by_topic('/tf')
                    if i.node_name == 'sat_collision_node'
                    and i.node_namespace == tf_peer.ns]
            pubs = list(node_.get_publishers_info_by_topic('/tf'))
            if (subs and pubs) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert subs and pubs, (node_.get_subscriptions_info_by_topic('/tf'), pubs)
        for info in subs + pubs:
            assert info.topic_type == 'tf2_msgs/msg/TFMessage'
            assert str(info.topic_type_hash) == UPSTREAM_TFMESSAGE_HASH
        static_subs = [i for i in node_.get_subscriptions_info_by_topic('/tf_static')
                       if i.node_name == 'sat_collision_node'
                       and i.node_namespace == tf_peer.ns]
        assert static_subs and str(static_subs[0].topic_type_hash) == UPSTREAM_TFMESSAGE_HASH
    finally:
        node.stop()


def test_stamps_between_samples_interpolate_and_beyond_tolerance_are_stale(tf_peer):
    """The footprint topic in base_link, stamped: between two TF samples (robot at
    x = 0 and x = 2) the footprint is where the interpolation puts it."""
    from geometry_msgs.msg import Point32, PolygonStamped
    from sat_collision_msgs.msg import ObstacleArray

    t1 = math.floor(tf_peer.now()) - 3.0
    t2 = t1 + 1.0
    samples = [transform_msg('odom', 'base_link', (0.0, 0.0, 0.0), stamp_of(t1)),
               transform_msg('odom', 'base_link', (2.0, 0.0, 0.4), stamp_of(t2))]
    obstacles = [('start', square(0.0, 1.0, 0.2)), ('mid', square(1.0, 0.35, 0.1)),
                 ('end', square(2.0, -1.0, 0.2))]
    # The footprint is stamped up to 4 s ago, and more as the test runs: timeouts that
    # let the transforms decide (freshness is by stamp too).
    node = start_node(tf_peer.ns, '-p', 'global_frame:=odom', '-p', 'transform_tolerance:=0.25',
                      '-p', 'footprint_timeout:=30.0', '-p', 'obstacles_timeout:=30.0')
    try:
        node_ = tf_peer.peer.node
        fp_pub = node_.create_publisher(PolygonStamped, f'{tf_peer.ns}/footprint', 10)
        array_pub = node_.create_publisher(ObstacleArray, f'{tf_peer.ns}/obstacles', 10)
        footprint_stamp = [t1 + 0.5]

        def send():
            tf_peer.tf_pub.publish(tf_peer.TFMessage(transforms=samples))
            array_pub.publish(obstacle_array('odom', obstacles, stamp_of(0.0)))
            msg = PolygonStamped()
            msg.header.frame_id = 'base_link'
            msg.header.stamp = stamp_of(footprint_stamp[0])
            msg.polygon.points = [Point32(x=float(x), y=float(y), z=0.0) for x, y in ROBOT]
            fp_pub.publish(msg)
        stop = repeat(0.1, send)
        try:
            report = tf_peer.wait(lambda r: r.valid and len(r.results) == 3, 'a valid report')
            # Halfway: x = 1, yaw = 0.2 (the shorter arc).
            robot = apply((1.0, 0.0, 0.2), ROBOT)
            results = {r.id: r for r in report.results}
            for ident, polygon in obstacles:
                pen = penetration(robot, polygon)
                assert results[ident].colliding == (pen is not None), ident
                if pen is None:
                    assert abs(results[ident].distance - distance(robot, polygon)) < TOL, ident
            assert [i for i in sorted(results) if results[i].colliding] == ['mid']
            assert report.header.frame_id == 'odom'

            # A quarter of the way, to be sure it moves with the stamp.
            footprint_stamp[0] = t1 + 0.25
            robot = apply((0.5, 0.0, 0.1), ROBOT)
            want = distance(robot, obstacles[0][1])
            tf_peer.wait(lambda r: r.valid and any(
                x.id == 'start' and abs(x.distance - want) < TOL for x in r.results),
                'the footprint at a quarter of the way')

            footprint_stamp[0] = t2 + 0.25 + 0.5
            report = tf_peer.wait_status('stale_transform')
            assert not report.valid and report.colliding
            footprint_stamp[0] = t1 - 0.25 - 0.5
            report = tf_peer.wait_status('transform_unavailable')
            assert report.colliding
        finally:
            stop.set()
    finally:
        node.stop()


def test_a_footprint_stamped_seconds_ago_is_stale_not_where_the_robot_was(tf_peer):
    """The footprint in base_link stamped 5 s ago (a skewed clock, a relay re-sending),
    obstacles in map, TF live: the robot has since driven into a wall. Placed at its
    stamp the footprint is where the robot was, clear of it; it must not be valid
    (stale_footprint, flag true), while the same footprint stamped now collides.
    Obstacles stamped as long ago are stale too (an instance: dropped)."""
    from geometry_msgs.msg import Point32, PolygonInstanceStamped, PolygonStamped
    from sat_collision_msgs.msg import ObstacleArray

    wall = square(3.0, 0.0, 0.5)  # x in [2.5, 3.5]: the robot at x = 0 is 2 m clear
    robot = {'x': 0.0}
    tf_peer.dynamic = lambda st: [transform_msg('map', 'base_link', (robot['x'], 0.0, 0.0),
                                                st)]
    started = time.monotonic()
    node = start_node(tf_peer.ns, '-p', 'global_frame:=map', '-p', 'obstacles_timeout:=5.0')
    try:
        node_ = tf_peer.peer.node
        fp_pub = node_.create_publisher(PolygonStamped, f'{tf_peer.ns}/footprint', 10)
        array_pub = node_.create_publisher(ObstacleArray, f'{tf_peer.ns}/obstacles', 10)
        inst_pub = node_.create_publisher(PolygonInstanceStamped,
                                          f'{tf_peer.ns}/obstacle_instances', 10)
        lag = [5.0]
        array_lag = [0.0]

        def send():
            now = tf_peer.now()
            inst_pub.publish(instance_msg('map', 9, square(-3.0, 0.0, 0.2), stamp_of(now - 6.0)))
            array_pub.publish(obstacle_array('map', [('wall', wall)],
                                             stamp_of(now - array_lag[0])))
            msg = PolygonStamped()
            msg.header.frame_id = 'base_link'
            msg.header.stamp = stamp_of(now - lag[0])
            msg.polygon.points = [Point32(x=float(x), y=float(y), z=0.0) for x, y in ROBOT]
            fp_pub.publish(msg)
        stop = repeat(0.1, send)
        try:
            # TF has 5 s of the robot at x = 0 behind it; then it is in the wall.
            time.sleep(max(0.0, started + 7.0 - time.monotonic()))
            robot['x'] = 3.0
            time.sleep(0.5)
            with tf_peer.cond:
                tf_peer.report = None
            reports = []
            deadline = time.monotonic() + 3.0
            while time.monotonic() < deadline:
                reports.append(tf_peer.wait(lambda r: True, 'a report'))
                with tf_peer.cond:
                    tf_peer.report = None
            clear = [r for r in reports if r.valid and not r.colliding]
            assert not clear, (f'{len(clear)} of {len(reports)} reports valid and clear '
                               f'about a footprint stamped 5 s ago')
            assert all(r.status == 'stale_footprint' and not r.valid and r.colliding
                       for r in reports), {(r.status, r.valid, r.colliding) for r in reports}
            with tf_peer.cond:
                assert tf_peer.flags[-1][1], 'the flag reads true'
            # Stamped now: placed where the robot is, in the wall.
            lag[0] = 0.0
            report = tf_peer.wait(lambda r: r.valid, 'a valid report stamped now')
            assert report.status == 'ok' and report.colliding, report.status
            assert [r.id for r in report.results] == ['wall'], 'the old instance is dropped'
            # The same for the obstacles: stamped 6 s ago (obstacles_timeout 5 s).
            array_lag[0] = 6.0
            assert tf_peer.wait_status('stale_obstacles').colliding
        finally:
            stop.set()
    finally:
        node.stop()
    # Said once per 5 s, not per message.
    warned = node.output.count('footprint stamped 5.')
    assert 1 <= warned <= 3, node.output
    assert 'obstacle instance `instance_9` dropped' in node.output, node.output


def test_bad_tf_gets_a_clear_status_and_the_node_lives_on(tf_peer):
    now = stamp_of(tf_peer.now())
    tf_peer.publish_static([transform_msg('map', 'odom', MAP_ODOM, now)])
    tf_peer.dynamic = base_pose
    node = start_node(tf_peer.ns, '-p', ROBOT_PARAM, '-p', 'base_frame:=base_link',
                      '-p', 'global_frame:=map', '-p', 'obstacles_timeout:=0.0')
    try:
        from sat_collision_msgs.msg import ObstacleArray
        pub = tf_peer.peer.node.create_publisher(ObstacleArray, f'{tf_peer.ns}/obstacles', 10)
        stop = repeat(0.2, lambda: pub.publish(obstacle_array(
            'map', [('far', square(50.0, 50.0, 0.2))], stamp_of(0.0))))
        try:
            tf_peer.wait_status('ok')

            def bad(**kw):
                return lambda st: [transform_msg('odom', 'base_link', ODOM_BASE, st, **kw)]
            for how in (bad(x_override=float('nan')), bad(quaternion=(0.0, 0.0, 0.0, 0.0)),
                        bad(quaternion=(0.0, 0.0, 0.5, 0.5))):
                tf_peer.dynamic = how
                report = tf_peer.wait_status('invalid_transform')
                assert report.colliding
                tf_peer.dynamic = base_pose
                tf_peer.wait_status('ok')

            # A second parent for base_link while odom still publishes it.
            tf_peer.dynamic = lambda st: base_pose(st) + [
                transform_msg('map', 'base_link', (0.0, 0.0, 0.0), st)]
            assert tf_peer.wait_status('transform_conflict').colliding
            tf_peer.dynamic = base_pose
            tf_peer.wait_status('ok', timeout=30)  # once the rival is silent (2 s)

            # A loop: map's parent becomes base_link (base_link -> odom -> map -> ...).
            tf_peer.dynamic = lambda st: base_pose(st) + [
                transform_msg('base_link', 'map', (1.0, 0.0, 0.0), st)]
            assert tf_peer.wait_status('transform_conflict').colliding
            assert node.proc.poll() is None, node.output
            tf_peer.dynamic = base_pose
            time.sleep(0.5)
            assert node.proc.poll() is None, node.output
        finally:
            stop.set()
    finally:
        node.stop()
    assert 'panicked' not in node.output


def test_best_effort_publishers_connect(tf_peer):
    """Perception often publishes with sensor-data QoS (best effort): with the default
    input_reliability the node hears it (a reliable subscription would not match)."""
    from geometry_msgs.msg import Point32, PolygonStamped
    from rclpy.qos import qos_profile_sensor_data
    from sat_collision_msgs.msg import ObstacleArray

    node = start_node(tf_peer.ns)
    try:
        node_ = tf_peer.peer.node
        fp_pub = node_.create_publisher(PolygonStamped, f'{tf_peer.ns}/footprint',
                                        qos_profile_sensor_data)
        array_pub = node_.create_publisher(ObstacleArray, f'{tf_peer.ns}/obstacles',
                                           qos_profile_sensor_data)

        def send():
            msg = PolygonStamped()
            msg.header.frame_id = 'map'
            msg.polygon.points = [Point32(x=float(x), y=float(y), z=0.0) for x, y in ROBOT]
            fp_pub.publish(msg)
            array_pub.publish(obstacle_array('map', [('near', square(0.6, 0.0, 0.2))],
                                             stamp_of(0.0)))
        stop = repeat(0.1, send)
        try:
            report = tf_peer.wait(lambda r: r.valid, 'a valid report from best-effort inputs')
            assert report.colliding and [r.id for r in report.results] == ['near']
        finally:
            stop.set()
    finally:
        node.stop()


# --- issue #19: TF judged by its stamps, lasting static conflicts, bounded names ----------

def robot_node(tf_peer, *extra):
    """The node placing ROBOT from TF in base_link, reporting in map, with an
    obstacle publisher; obstacles never go stale (only TF is under test)."""
    from sat_collision_msgs.msg import ObstacleArray

    node = start_node(tf_peer.ns, '-p', ROBOT_PARAM, '-p', 'base_frame:=base_link',
                      '-p', 'global_frame:=map', '-p', 'transform_tolerance:=0.3',
                      '-p', 'obstacles_timeout:=0.0', *extra)
    pub = tf_peer.peer.node.create_publisher(ObstacleArray, f'{tf_peer.ns}/obstacles', 10)
    return node, pub


def summary(reports):
    valid = sum(1 for _, v, _ in reports if v)
    valid_clear = sum(1 for _, v, colliding in reports if v and not colliding)
    return f'{valid_clear} of {len(reports)} reports valid and clear, {valid} valid; ' \
        f'statuses {sorted(set(st for st, _, _ in reports))}'


@pytest.mark.parametrize('frozen', ['map_odom', 'odom_base_link'])
def test_a_transform_repeated_with_a_frozen_stamp_goes_stale(tf_peer, frozen):
    """Issue #19, 2: a transform that keeps arriving with one stamp is not new data
    (tf2 drops it): (a) map -> odom frozen while odom -> base_link is live, (b)
    odom -> base_link repeated at 50 Hz with its last stamp (robot_localization's
    TF_REPEATED_DATA). The latest transform's age is its stamp's."""
    node, pub = robot_node(tf_peer)
    try:
        far = square(*apply(compose(MAP_ODOM, ODOM_BASE), [(5.0, 0.0)])[0], 0.2)
        stop = repeat(0.1, lambda: pub.publish(obstacle_array('map', [('far', far)],
                                                              stamp_of(0.0))))
        try:
            def live(st, odom_stamp=None, base_stamp=None):
                return [transform_msg('map', 'odom', MAP_ODOM, odom_stamp or st),
                        transform_msg('odom', 'base_link', ODOM_BASE, base_stamp or st)]
            tf_peer.dynamic = live
            tf_peer.wait(lambda r: r.valid and not r.colliding, 'valid and clear')
            since = stamp_of(tf_peer.now())
            if frozen == 'map_odom':
                tf_peer.dynamic = lambda st: live(st, odom_stamp=since)
            else:
                tf_peer.dynamic = lambda st: live(st, base_stamp=since)
            time.sleep(1.0)  # tolerance 0.3 s, with room for delivery
            reports = tf_peer.collect(3.0)
            assert len(reports) >= 10, reports
            assert all(st == 'stale_transform' and not valid and colliding
                       for st, valid, colliding in reports), summary(reports)
            # New stamps again: fresh again.
            tf_peer.dynamic = live
            tf_peer.wait(lambda r: r.valid and not r.colliding, 'valid and clear again')
        finally:
            stop.set()
    finally:
        node.stop()
    assert 'panicked' not in node.output


def test_a_second_static_parent_is_a_conflict_that_lasts(tf_peer):
    """Issue #19, 3: two /tf_static publishers give lidar two parents. Static
    transforms are latched, never "recent": the conflict is kept well beyond the
    2 s window, and through further samples from both publishers."""
    tf_peer.publish_static([transform_msg('map', 'odom', MAP_ODOM, stamp_of(0.0)),
                            transform_msg('base_link', 'lidar', BASE_SENSOR, stamp_of(0.0))])
    tf_peer.dynamic = base_pose
    node, pub = robot_node(tf_peer)
    try:
        ahead = square(3.0, 0.0, 0.2)  # in lidar: clear of the robot
        stop = repeat(0.1, lambda: pub.publish(obstacle_array('lidar', [('ahead', ahead)],
                                                              stamp_of(0.0))))
        try:
            tf_peer.wait(lambda r: r.valid and not r.colliding and len(r.results) == 1,
                         'valid and clear')
            second = tf_peer.another_static_publisher()
            rival = [transform_msg('map', 'lidar', (100.0, 0.0, 0.0), stamp_of(0.0))]
            second(rival)
            time.sleep(1.0)
            reports = []
            for _ in range(3):  # 3 x CONFLICT_WINDOW, each publisher sending again
                second(rival)
                tf_peer.publish_static([
                    transform_msg('map', 'odom', MAP_ODOM, stamp_of(0.0)),
                    transform_msg('base_link', 'lidar', BASE_SENSOR, stamp_of(0.0))])
                reports += tf_peer.collect(2.0)
            assert len(reports) >= 20, reports
            assert all(st == 'transform_conflict' and not valid and colliding
                       for st, valid, colliding in reports), summary(reports)
        finally:
            stop.set()
    finally:
        node.stop()
    assert 'panicked' not in node.output


def test_a_flood_of_frame_names_does_not_lock_out_a_legitimate_frame(tf_peer):
    """Issue #19, 9: 1,100 bogus static frame names (over the 1,024-frame limit) in
    one latched message, then a legitimate map -> lidar: the flood's own names are
    evicted, lidar is placed; again after the node restarts and hears both latched
    publishers anew."""
    tf_peer.publish_static([transform_msg('map', 'odom', MAP_ODOM, stamp_of(0.0))])
    tf_peer.dynamic = base_pose
    flood = tf_peer.another_static_publisher()
    legit = tf_peer.another_static_publisher()
    robot_in_map = compose(MAP_ODOM, ODOM_BASE)
    # lidar at the robot's origin: an obstacle 0.3 m ahead in lidar is under the robot.
    near, far = square(0.3, 0.0, 0.1), square(5.0, 0.0, 0.2)

    def placed(r):
        hits = {x.id: x.colliding for x in r.results}
        return r.valid and r.status == 'ok' and hits == {'near': True, 'far': False}

    node, pub = robot_node(tf_peer)
    stop = repeat(0.1, lambda: pub.publish(obstacle_array('lidar', [('near', near), ('far', far)],
                                                          stamp_of(0.0))))
    try:
        tf_peer.wait(lambda r: r.status == 'transform_unavailable', 'lidar unknown yet')
        flood([transform_msg('map', f'bogus_{i}', (float(i), 0.0, 0.0), stamp_of(0.0))
               for i in range(1100)])
        time.sleep(1.0)
        legit([transform_msg('map', 'lidar', robot_in_map, stamp_of(0.0))])
        time.sleep(2.0)
        reports = tf_peer.collect(2.0)
        assert reports and all(valid and st == 'ok' for st, valid, _ in reports), \
            summary(reports)
        assert placed(tf_peer.report)
        node.wait_for('frames evicted at the frame limit', timeout=15)
        # A frame the flood lost to the limit is named as such (the flood's own
        # newest names went first), fail-safe.
        stop.set()
        stop = repeat(0.1, lambda: pub.publish(obstacle_array(
            'bogus_1050', [('near', near)], stamp_of(0.0))))
        assert tf_peer.wait_status('too_many_frames').colliding
        node.stop()

        # A restart: the latched flood and tree arrive again, in either order.
        with tf_peer.cond:
            tf_peer.report = None
        node, pub2 = robot_node(tf_peer)
        stop.set()
        stop = repeat(0.1, lambda: pub2.publish(obstacle_array(
            'lidar', [('near', near), ('far', far)], stamp_of(0.0))))
        tf_peer.wait(placed, 'lidar placed after a restart', timeout=20)
    finally:
        stop.set()
        node.stop()
    assert 'panicked' not in node.output


def test_a_sample_stamped_far_in_the_future_is_refused(tf_peer):
    """Issue #19, 9: one odom -> base_link stamped 10^6 s ahead would be the edge's
    newest for good (live samples are older and fall out of the history): it is
    refused, counted and logged, and the live samples go on being used."""
    tf_peer.publish_static([transform_msg('map', 'odom', MAP_ODOM, stamp_of(0.0))])
    tf_peer.dynamic = base_pose
    node, pub = robot_node(tf_peer)
    try:
        far = square(*apply(compose(MAP_ODOM, ODOM_BASE), [(5.0, 0.0)])[0], 0.2)
        stop = repeat(0.1, lambda: pub.publish(obstacle_array('map', [('far', far)],
                                                              stamp_of(0.0))))
        try:
            tf_peer.wait(lambda r: r.valid and not r.colliding, 'valid and clear')
            ahead = stamp_of(tf_peer.now() + 1e6)
            tf_peer.tf_pub.publish(tf_peer.TFMessage(transforms=[
                transform_msg('odom', 'base_link', (50.0, 0.0, 0.0), ahead)]))
            time.sleep(1.0)
            reports = tf_peer.collect(3.0)
            assert len(reports) >= 10, reports
            assert all(st == 'ok' and valid and not colliding
                       for st, valid, colliding in reports), summary(reports)
            node.wait_for('transforms stamped in the future', timeout=15)
        finally:
            stop.set()
    finally:
        node.stop()
    assert 'panicked' not in node.output
