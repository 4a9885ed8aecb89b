"""Sensor sources over real ROS 2: an rclpy peer renders what a robot's sensors would
see (a laser scan of a room, a depth camera's point cloud of a box on the floor, a
sonar's range reading), publishes it with sensor-data QoS together with the static
transforms of the sensors' mounts, and the node's answers (`collision`,
`collision_report` and its per-source entries, `collision_markers`) are compared with
the same scene judged here: the rendering, the frames, point-in-polygon and
point-to-segment distance are written in this file (plain Python, float64 from the
float32 values the messages carry), not taken from the node's code.

The node runs with nav2's source parameters (`observation_sources`, `<name>.type`,
`<name>.topic`, ...) from a params file, the footprint from `robot_footprint` placed in
`base_frame` (base_link): the report is in base_link.

Run by scripts/test.sh (after `cargo build --bins`).
"""

import array
import math
import struct
import threading
import time

import pytest
import yaml

from satpkg_support import NODE_NAME, Pumped, namespace, ros_peer, start_node  # noqa: F401

assert ros_peer  # a fixture, used by name below

# The robot: 1.0 m x 0.6 m, counter-clockwise, in base_link.
ROBOT = [(0.5, 0.3), (-0.5, 0.3), (-0.5, -0.3), (0.5, -0.3)]
ROBOT_TEXT = '[[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]'
TOL = 1e-6  # m: the node's answers are exact; the inputs are the float32 values sent
MARGIN = 1e-6  # m: no point of a scene lies nearer than this to the padded boundary

# visualization_msgs/Marker types and actions.
SPHERE, LINE_LIST, POINTS = 2, 5, 8
DELETE, DELETEALL = 2, 3


# --- independent geometry ------------------------------------------------------------------

def f32(x):
    """x rounded to float32, as a Python float (what a float32 field carries)."""
    return struct.unpack('<f', struct.pack('<f', x))[0]


def apply2(pose, p):
    """A planar pose (x, y, yaw) applied to a point."""
    x, y, t = pose
    c, s = math.cos(t), math.sin(t)
    return (x + c * p[0] - s * p[1], y + s * p[0] + c * p[1])


def quat_yaw(yaw):
    return (0.0, 0.0, math.sin(yaw / 2.0), math.cos(yaw / 2.0))


def quat_pitch(pitch):
    return (0.0, math.sin(pitch / 2.0), 0.0, math.cos(pitch / 2.0))


def quat_matrix(q):
    """The rotation matrix (rows) of a unit quaternion (x, y, z, w)."""
    x, y, z, w = q
    return ((1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)),
            (2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)),
            (2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)))


def mat_mul(a, b):
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3))
                 for i in range(3))


def mat_vec(m, v):
    return tuple(m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2] for i in range(3))


def point_segment(p, a, b):
    """(distance, closest point) from p to the segment ab."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    t = ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey)
    t = max(0.0, min(1.0, t))
    c = (a[0] + t * ex, a[1] + t * ey)
    return math.hypot(p[0] - c[0], p[1] - c[1]), c


def in_polygon(p, poly):
    """Crossing-number test (points on the boundary are kept away by MARGIN)."""
    inside = False
    for i, a in enumerate(poly):
        b = poly[(i + 1) % len(poly)]
        if (a[1] > p[1]) != (b[1] > p[1]):
            x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if p[0] < x:
                inside = not inside
    return inside


def signed_distance(p, poly):
    """(signed distance to the polygon's boundary, negative inside; closest boundary
    point; index of the nearest edge)."""
    best = None
    for i, a in enumerate(poly):
        d, c = point_segment(p, a, poly[(i + 1) % len(poly)])
        if best is None or d < best[0]:
            best = (d, c, i)
    d, c, i = best
    return (-d if in_polygon(p, poly) else d), c, i


def outward_normal(poly, i):
    """Outward unit normal of edge i of a counter-clockwise polygon."""
    a, b = poly[i], poly[(i + 1) % len(poly)]
    ex, ey = b[0] - a[0], b[1] - a[1]
    n = math.hypot(ex, ey)
    return (ey / n, -ex / n)


class Judged:
    """Points (in base_link) against the robot grown by a disc of radius `padding`:
    which lie inside (touching counts), the clearance of the nearest, and the depth
    and minimum translation vector (moving the footprint out) of the deepest."""

    def __init__(self, points, padding=0.0, poly=ROBOT):
        self.points = list(points)
        self.padding = padding
        self.inside = []
        self.distance = math.inf
        self.nearest = None
        self.deepest = []  # (depth, mtv, point), deepest first
        for p in self.points:
            sd, closest, edge = signed_distance(p, poly)
            assert abs(sd - padding) > MARGIN, f'scene: {p} lies on the padded boundary'
            if sd - padding < self.distance:
                self.distance, self.nearest = max(0.0, sd - padding), p
            if sd <= padding:
                self.inside.append(p)
                depth = padding - sd
                if sd < 0:
                    axis = outward_normal(poly, edge)
                else:
                    axis = ((p[0] - closest[0]) / sd, (p[1] - closest[1]) / sd)
                self.deepest.append((depth, (-axis[0] * depth, -axis[1] * depth), p))
        self.deepest.sort(key=lambda d: -d[0])

    @property
    def depth(self):
        return self.deepest[0][0] if self.deepest else 0.0

    def deepest_candidates(self):
        """The points whose depth is within TOL of the deepest (any may be reported)."""
        return [d for d in self.deepest if d[0] > self.depth - TOL]


# --- messages --------------------------------------------------------------------------------

def stamp_now(node, age=0.0):
    """The header stamp of a message measured `age` seconds ago."""
    from rclpy.duration import Duration

    return (node.get_clock().now() - Duration(nanoseconds=int(age * 1e9))).to_msg()


def transform(parent, child, xyz, q):
    from geometry_msgs.msg import TransformStamped

    t = TransformStamped()
    t.header.frame_id = parent
    t.child_frame_id = child
    t.transform.translation.x, t.transform.translation.y, t.transform.translation.z = \
        (float(v) for v in xyz)
    (t.transform.rotation.x, t.transform.rotation.y, t.transform.rotation.z,
     t.transform.rotation.w) = (float(v) for v in q)
    return t


def scan_msg(frame, angle_min, increment, range_min, range_max, ranges):
    from sensor_msgs.msg import LaserScan

    msg = LaserScan()
    msg.header.frame_id = frame
    msg.angle_min = angle_min
    msg.angle_increment = increment
    msg.angle_max = f32(angle_min + (len(ranges) - 1) * increment)
    msg.time_increment = 0.0
    msg.scan_time = 0.1
    msg.range_min = range_min
    msg.range_max = range_max
    msg.ranges = array.array('f', ranges)
    return msg


def cloud_msg(frame, width, height, data, x_offset=0):
    """x y z intensity, float32 little endian, 16-byte points."""
    from sensor_msgs.msg import PointCloud2, PointField

    msg = PointCloud2()
    msg.header.frame_id = frame
    msg.height, msg.width = height, width
    msg.fields = [PointField(name='x', offset=x_offset, datatype=PointField.FLOAT32, count=1),
                  PointField(name='y', offset=4, datatype=PointField.FLOAT32, count=1),
                  PointField(name='z', offset=8, datatype=PointField.FLOAT32, count=1),
                  PointField(name='intensity', offset=12, datatype=PointField.FLOAT32,
                             count=1)]
    msg.is_bigendian = False
    msg.point_step = 16
    msg.row_step = 16 * width
    msg.is_dense = False
    msg.data = bytes(data)
    return msg


def pack_points(points, intensity=100.0):
    return b''.join(struct.pack('<ffff', *p, intensity) for p in points)


def range_msg(frame, distance, fov=0.5, min_range=0.05, max_range=3.0):
    from sensor_msgs.msg import Range

    msg = Range()
    msg.header.frame_id = frame
    msg.radiation_type = Range.ULTRASOUND
    msg.field_of_view = fov
    msg.min_range = min_range
    msg.max_range = max_range
    msg.range = distance
    return msg


# --- the peer --------------------------------------------------------------------------------

class Watch(Pumped):
    """Publishes the static transforms and the sensor messages (each feed at 10 Hz, a
    fresh stamp on every message), and keeps every report, flag and the markers."""

    def __init__(self, peer, ns):
        from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
        from sat_collision_msgs.msg import CollisionReport
        from std_msgs.msg import Bool
        from tf2_msgs.msg import TFMessage
        from visualization_msgs.msg import MarkerArray

        self.peer, self.ns, self.node = peer, ns, peer.node
        self.fqn = f'{ns}/{NODE_NAME}'
        self.TFMessage = TFMessage
        static_qos = QoSProfile(depth=100, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                                reliability=ReliabilityPolicy.RELIABLE)
        self.static_pub = self.node.create_publisher(TFMessage, '/tf_static', static_qos)
        self.cond = threading.Condition()
        self.reports = []  # (monotonic time, CollisionReport)
        self.flags = []  # (monotonic time, bool)
        self.markers = {}  # (ns, id) -> Marker, as the node last left it
        self.node.create_subscription(CollisionReport, f'{ns}/collision_report',
                                      self._on_report, 10)
        self.node.create_subscription(Bool, f'{ns}/collision', self._on_flag, 10)
        self.node.create_subscription(MarkerArray, f'{ns}/collision_markers',
                                      self._on_markers, 10)
        self.feeds = {}  # topic -> [publisher, message or None, last publish time, age]
        self._start_pump()

    def _on_report(self, msg):
        with self.cond:
            self.reports.append((time.monotonic(), msg))
            self.cond.notify_all()

    def _on_flag(self, msg):
        with self.cond:
            self.flags.append((time.monotonic(), msg.data))
            self.cond.notify_all()

    def _on_markers(self, msg):
        with self.cond:
            for m in msg.markers:
                if m.action == DELETEALL:
                    self.markers.clear()
                elif m.action == DELETE:
                    self.markers.pop((m.ns, m.id), None)
                else:
                    self.markers[(m.ns, m.id)] = m
            self.cond.notify_all()

    def _pump(self):
        while not self._stop.is_set():
            with self.cond:
                feeds = list(self.feeds.values())
            for feed in feeds:
                pub, msg, _, age = feed
                if msg is not None:
                    msg.header.stamp = stamp_now(self.node, age)
                    pub.publish(msg)
                    feed[2] = time.monotonic()
            time.sleep(0.1)

    def publish_static(self, transforms):
        self.static_pub.publish(self.TFMessage(transforms=transforms))

    def feed(self, topic, msg, age=0.0):
        """Publish `msg` on `ns/topic` from now on, stamped `age` seconds ago."""
        from rclpy.qos import qos_profile_sensor_data

        with self.cond:
            if topic not in self.feeds:
                pub = self.node.create_publisher(type(msg), f'{self.ns}/{topic}',
                                                 qos_profile_sensor_data)
                self.feeds[topic] = [pub, None, None, 0.0]
            self.feeds[topic][1] = msg
            self.feeds[topic][3] = age

    def stop_feed(self, topic):
        """Stop publishing on `topic`; returns the monotonic time of its last message."""
        with self.cond:
            self.feeds[topic][1] = None
        time.sleep(0.15)  # let a publication in progress finish
        with self.cond:
            return self.feeds[topic][2]

    def wait(self, predicate, what, timeout=20.0):
        """The first report received from now on that satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        with self.cond:
            seen = len(self.reports)
            while True:
                for _, msg in self.reports[seen:]:
                    if predicate(msg):
                        return msg
                seen = len(self.reports)
                left = deadline - time.monotonic()
                if left <= 0:
                    last = self.reports[-1][1] if self.reports else None
                    raise AssertionError(f'no report with {what} within {timeout} s; '
                                         f'last: {last}')
                self.cond.wait(min(left, 0.2))

    def next_reports(self, count, timeout=10.0):
        """The next `count` reports."""
        deadline = time.monotonic() + timeout
        with self.cond:
            seen = len(self.reports)
            while len(self.reports) < seen + count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f'fewer than {count} reports within {timeout} s')
                self.cond.wait(min(left, 0.2))
            return [r for _, r in self.reports[seen:seen + count]]

    def steady_flag(self, expected, count=3, timeout=10.0):
        """The collision flag turns `expected` and stays so for the next `count` flags
        (the flag and the report are two topics: a flag sent just before the report's
        decision may arrive after the report). Returns those flags."""
        deadline = time.monotonic() + timeout
        with self.cond:
            seen = len(self.flags)
            while True:
                for k in range(seen, len(self.flags)):
                    if self.flags[k][1] == expected and len(self.flags) >= k + 1 + count:
                        return [v for _, v in self.flags[k + 1:k + 1 + count]]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f'the flag not {expected} then {count} more within '
                                         f'{timeout} s: {[v for _, v in self.flags[seen:]][-20:]}')
                self.cond.wait(min(left, 0.2))

    def wait_markers(self, predicate, what, timeout=10.0):
        """The markers ({(ns, id): Marker}) once `predicate` holds for them."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                if predicate(self.markers):
                    return dict(self.markers)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f'no markers with {what} within {timeout} s; '
                                         f'have: {sorted(self.markers)}')
                self.cond.wait(min(left, 0.2))


@pytest.fixture
def watch(ros_peer, request):
    w = Watch(ros_peer, namespace('src_' + request.node.name[5:20].strip('_')))
    yield w
    w.close()


def start(watch, tmp_path, sources, **params):
    """The node in watch.ns with the robot in base_link and these sources
    ({name: {type: ..., topic: ..., ...}}) in a params file."""
    body = {'robot_footprint': ROBOT_TEXT, 'base_frame': 'base_link',
            'observation_sources': list(sources)}
    body.update(params)
    body.update(sources)
    path = tmp_path / 'sources.yaml'
    path.write_text(yaml.safe_dump({NODE_NAME: {'ros__parameters': body}}))
    return start_node(watch.ns, params_file=str(path))


def entry(report, name):
    """The report's entry for source `name` (exactly one)."""
    found = [r for r in report.results if r.id == name]
    assert len(found) == 1, f'{len(found)} entries named {name}: {report.results}'
    return found[0]


def has_entry(name, status='ok'):
    return lambda r: any(x.id == name and x.status == status for x in r.results)


def close(a, b, tol=TOL):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def check_clear(report, name, judged):
    """A valid report in which source `name` is clear at the computed distance."""
    e = entry(report, name)
    assert report.valid and report.status == 'ok' and not report.colliding, report
    assert e.status == 'ok' and not e.colliding and e.points_inside == 0, e
    assert abs(e.distance - judged.distance) <= TOL, (e.distance, judged.distance)
    assert e.penetration_depth == 0.0, e


def check_inside(report, name, judged):
    """A valid, colliding report with source `name`'s points inside as computed."""
    e = entry(report, name)
    assert report.valid and report.status == 'ok' and report.colliding, report
    assert e.status == 'ok' and e.colliding, e
    assert e.points_inside == len(judged.inside), (e.points_inside, len(judged.inside))
    assert e.distance == 0.0, e
    assert abs(e.penetration_depth - judged.depth) <= TOL, (e.penetration_depth, judged.depth)
    assert any(close((e.mtv.x, e.mtv.y), mtv) for _, mtv, _ in judged.deepest_candidates()), \
        (e.mtv, judged.deepest_candidates())


# --- 1. a laser scan of a room with a post -------------------------------------------------

ROOM = (-2.0, -1.5, 3.0, 1.6)  # x0, y0, x1, y1 in base_link
LASER = (0.25, -0.1, 0.35)  # the lidar in base_link: x, y, yaw (0.18 m up)
N_RAYS = 720
ANGLE_MIN = f32(-math.pi)
ANGLE_INCREMENT = f32(2.0 * math.pi / N_RAYS)
RANGE_MIN, RANGE_MAX = f32(0.15), f32(2.5)


def cast(origin, theta, room, posts):
    """Distance along the ray from `origin` at angle `theta` (base_link) to the first
    wall of the room (seen from inside) or round post (cx, cy, r)."""
    ox, oy = origin
    dx, dy = math.cos(theta), math.sin(theta)
    x0, y0, x1, y1 = room
    t = math.inf
    if dx > 0:
        t = min(t, (x1 - ox) / dx)
    elif dx < 0:
        t = min(t, (x0 - ox) / dx)
    if dy > 0:
        t = min(t, (y1 - oy) / dy)
    elif dy < 0:
        t = min(t, (y0 - oy) / dy)
    for cx, cy, r in posts:
        fx, fy = ox - cx, oy - cy
        b = fx * dx + fy * dy
        disc = b * b - (fx * fx + fy * fy - r * r)
        if disc >= 0:
            s = -b - math.sqrt(disc)
            if s > 0:
                t = min(t, s)
    return t


def render_scan(posts):
    """(ranges as float32 values, the points they make in base_link). The lidar reports
    inf beyond range_max, a NaN now and then (no return) and a few returns shorter than
    range_min (dust on the window): none of those is a point."""
    ranges, points = [], []
    for i in range(N_RAYS):
        a = ANGLE_MIN + i * ANGLE_INCREMENT  # float64 of the float32 fields, as a reader
        r = cast(LASER[:2], LASER[2] + a, ROOM, posts)
        if i % 53 == 7:
            r = math.nan
        elif i % 97 == 11:
            r = 0.05
        elif r > RANGE_MAX:
            r = math.inf
        r = f32(r)
        ranges.append(r)
        if RANGE_MIN <= r <= RANGE_MAX:
            points.append(apply2(LASER, (r * math.cos(a), r * math.sin(a))))
    return ranges, points


def test_scan_of_a_room_matches_the_ray_cast(watch, tmp_path):
    """A 720-ray lidar mounted off-centre and turned (static TF base_link -> lidar),
    its scan ray cast here through a room and a round post: the flag, the entry's
    distance, points_inside, depth and MTV, the report's min_distance and the RViz
    markers as computed here (padding 0.05), with the post clear and then across the
    robot's front left corner."""
    padding = 0.05
    frame = 'lidar_link_scan'
    watch.publish_static([transform('base_link', frame, (LASER[0], LASER[1], 0.18),
                                    quat_yaw(LASER[2]))])
    node = start(watch, tmp_path, {'lidar': {'type': 'scan', 'topic': 'lidar_scan'}},
                 padding=padding, markers_rate=10.0)
    try:
        # The post ahead and to the left, clear of the robot.
        ranges, points = render_scan([(1.3, 0.45, 0.12)])
        judged = Judged(points, padding)
        assert not judged.inside and 0.5 < judged.distance < 1.0  # the scene
        assert sum(math.isnan(r) for r in ranges) > 5 and sum(math.isinf(r) for r in ranges) > 50
        watch.feed('lidar_scan', scan_msg(frame, ANGLE_MIN, ANGLE_INCREMENT, RANGE_MIN,
                                          RANGE_MAX, ranges))
        report = watch.wait(lambda r: r.valid and has_entry('lidar')(r), 'a valid scan entry')
        check_clear(report, 'lidar', judged)
        assert abs(report.min_distance - judged.distance) <= TOL, report
        assert report.nearest_obstacle_id == 'lidar', report
        assert report.header.frame_id == 'base_link', report.header
        assert watch.steady_flag(False) == [False] * 3
        # RViz: the clearance segment from the padded footprint to the nearest point.
        markers = watch.wait_markers(
            lambda m: ('source_nearest', 0) in m and m[('source_nearest', 0)].type == LINE_LIST,
            'the nearest point\'s segment')
        seg = markers[('source_nearest', 0)]
        assert seg.header.frame_id == 'base_link'
        a, b = [(p.x, p.y) for p in seg.points]
        assert close(b, judged.nearest), (b, judged.nearest)
        assert abs(math.hypot(b[0] - a[0], b[1] - a[1]) - judged.distance) <= TOL
        assert ('source_points', 0) not in markers

        # The post moved to the robot's front left corner: part of what the lidar sees
        # of it is inside the padded footprint.
        ranges, points = render_scan([(0.55, 0.28, 0.1)])
        judged = Judged(points, padding)
        assert 3 <= len(judged.inside) < sum(1 for p in points if math.hypot(
            p[0] - 0.55, p[1] - 0.28) < 0.1 + 1e-5)  # some of the post's points, not all
        watch.feed('lidar_scan', scan_msg(frame, ANGLE_MIN, ANGLE_INCREMENT, RANGE_MIN,
                                          RANGE_MAX, ranges))
        report = watch.wait(lambda r: r.colliding and r.valid, 'the post inside')
        check_inside(report, 'lidar', judged)
        assert report.min_distance == 0.0 and report.nearest_obstacle_id == 'lidar', report
        assert watch.steady_flag(True) == [True] * 3
        markers = watch.wait_markers(
            lambda m: ('source_points', 0) in m and len(m[('source_points', 0)].points)
            == len(judged.inside) and m.get(('source_nearest', 0)) is not None
            and m[('source_nearest', 0)].type == SPHERE, 'the points inside')
        drawn = sorted((p.x, p.y) for p in markers[('source_points', 0)].points)
        assert markers[('source_points', 0)].type == POINTS
        assert all(close(d, e) for d, e in zip(drawn, sorted(judged.inside))), drawn
        at = markers[('source_nearest', 0)].pose.position
        assert any(close((at.x, at.y), p) for _, _, p in judged.deepest_candidates()), at
        assert node.proc.poll() is None, node.output
    finally:
        node.stop()
    assert 'panicked' not in node.output


# --- 2. a depth camera's cloud of a box on the floor ---------------------------------------

CAMERA = (-0.2, 0.0, 1.0)  # camera_link in base_link, pitched 20 degrees down
CAMERA_PITCH = math.radians(20.0)
# camera_link -> its optical frame (z forward, x right, y down): REP 103's rotation.
OPTICAL = (-0.5, 0.5, -0.5, 0.5)
WIDTH, HEIGHT, FOCAL, DEPTH_MAX = 64, 48, 30.0, 5.0
SHELF = ((0.1, 0.05, 0.6), (0.4, 0.25, 0.62))  # above max_height, over the robot
MIN_HEIGHT, MAX_HEIGHT = 0.05, 0.5


def box_hit(o, d, lo, hi):
    """Entry distance of the ray o + t d into the box [lo, hi] (slabs), or inf."""
    t0, t1 = 0.0, math.inf
    for k in range(3):
        if d[k] == 0.0:
            if not lo[k] <= o[k] <= hi[k]:
                return math.inf
            continue
        a, b = (lo[k] - o[k]) / d[k], (hi[k] - o[k]) / d[k]
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    return t0 if 0.0 < t0 <= t1 else math.inf


def render_cloud(boxes):
    """An organised cloud (HEIGHT x WIDTH) in the optical frame, by ray casting the
    floor (z = 0) and `boxes` in base_link; no return (NaN) beyond DEPTH_MAX. Returns
    (the packed data, the points in base_link from the float32 values with their
    heights, how many floor points lie over the footprint)."""
    r_base_opt = mat_mul(quat_matrix(quat_pitch(CAMERA_PITCH)), quat_matrix(OPTICAL))
    data = bytearray()
    seen, floor_over_robot = [], 0
    for v in range(HEIGHT):
        for u in range(WIDTH):
            d_opt = ((u + 0.5 - WIDTH / 2) / FOCAL, (v + 0.5 - HEIGHT / 2) / FOCAL, 1.0)
            d = mat_vec(r_base_opt, d_opt)
            t = -CAMERA[2] / d[2] if d[2] < 0 else math.inf
            for lo, hi in boxes:
                t = min(t, box_hit(CAMERA, d, lo, hi))
            if t * math.sqrt(sum(c * c for c in d_opt)) > DEPTH_MAX:
                p = (math.nan,) * 3
            else:
                p = tuple(f32(t * c) for c in d_opt)
            data += struct.pack('<ffff', *p, 50.0)
            if math.isnan(p[0]):
                continue
            b = tuple(CAMERA[k] + v_k for k, v_k in enumerate(mat_vec(r_base_opt, p)))
            seen.append(b)
            if abs(b[2]) < 1e-4 and in_polygon(b[:2], ROBOT):
                floor_over_robot += 1
    return bytes(data), seen, floor_over_robot


def kept(points):
    """nav2's height band in base_link (min_range 0: every point is far enough)."""
    for b in points:
        assert abs(b[2] - MIN_HEIGHT) > MARGIN and abs(b[2] - MAX_HEIGHT) > MARGIN, b
    return [b[:2] for b in points if MIN_HEIGHT <= b[2] <= MAX_HEIGHT]


def test_cloud_of_a_pitched_camera_keeps_the_box_not_the_floor(watch, tmp_path):
    """A depth camera 1 m up, pitched 20 degrees down, its organised cloud in the
    optical frame (two static transforms): floor points over the footprint and a shelf
    above max_height are not counted, a box 0.3 m tall is, at the distance computed
    from the float32 points moved into base_link here; then the box under the front
    edge: points_inside, depth and MTV as computed."""
    link, optical = 'camera_link_cloud', 'camera_optical_cloud'
    # The optical rotation is the one its axes say (a check of this file's algebra).
    assert all(close(r, e, 1e-12) for r, e in zip(
        quat_matrix(OPTICAL), ((0, 0, 1), (-1, 0, 0), (0, -1, 0))))
    watch.publish_static([transform('base_link', link, CAMERA, quat_pitch(CAMERA_PITCH)),
                          transform(link, optical, (0.0, 0.0, 0.0), OPTICAL)])
    node = start(watch, tmp_path, {'depth': {'type': 'pointcloud', 'topic': 'depth_points',
                                             'min_height': MIN_HEIGHT,
                                             'max_height': MAX_HEIGHT}})
    try:
        # A box 0.3 m tall 0.3 m ahead of the robot's front, and a shelf over the robot.
        ahead = ((0.8, -0.2, 0.0), (1.1, 0.2, 0.3))
        data, seen, floor_over_robot = render_cloud([ahead, SHELF])
        points = kept(seen)
        judged = Judged(points)
        assert floor_over_robot > 10  # floor points the height band must drop
        assert any(in_polygon(b[:2], ROBOT) and b[2] > 0.55 for b in seen)  # the shelf
        assert len(points) > 50 and not judged.inside
        assert abs(judged.distance - 0.3) < 1e-5  # the box's face, through float32
        watch.feed('depth_points', cloud_msg(optical, WIDTH, HEIGHT, data))
        report = watch.wait(lambda r: r.valid and has_entry('depth')(r), 'a valid cloud entry')
        check_clear(report, 'depth', judged)
        assert watch.steady_flag(False) == [False] * 3

        # The box moved under the robot's front edge.
        under = ((0.35, -0.15, 0.0), (0.7, 0.15, 0.3))
        data, seen, _ = render_cloud([under, SHELF])
        judged = Judged(kept(seen))
        assert len(judged.inside) > 10
        watch.feed('depth_points', cloud_msg(optical, WIDTH, HEIGHT, data))
        report = watch.wait(lambda r: r.colliding and r.valid, 'the box inside')
        check_inside(report, 'depth', judged)
        assert watch.steady_flag(True) == [True] * 3
        assert node.proc.poll() is None, node.output
    finally:
        node.stop()
    assert 'panicked' not in node.output


# --- 3. a sonar's range reading --------------------------------------------------------------

SONAR = (0.5, 0.1, 0.2)  # on the front edge, turned 0.2 rad left


def arc(distance, fov, step=math.pi / 180.0):
    """REP 117 as nav2 draws it: points at -fov/2 + k step below fov/2, then fov/2; in
    base_link."""
    half = fov / 2.0
    angles, k = [], 0
    while -half + k * step < half:
        angles.append(-half + k * step)
        k += 1
    angles.append(half)
    return [apply2(SONAR, (distance * math.cos(a), distance * math.sin(a))) for a in angles]


def test_range_reading_is_an_arc_and_nan_is_invalid(watch, ros_peer, tmp_path):
    """A sonar on the front edge (fov 0.5 rad): 0.4 m is an arc of 30 points, clear;
    with padding 0.38 (set at run time) the points it reaches are inside, as counted
    here; +inf is no point (valid, clear); NaN is invalid_source (fail-safe), and so is
    what nav2 main's validation refuses (a field of view above pi or of zero, equal
    limits, no frame id)."""
    frame = 'sonar_front_range'
    watch.publish_static([transform('base_link', frame, (SONAR[0], SONAR[1], 0.2),
                                    quat_yaw(SONAR[2]))])
    node = start(watch, tmp_path, {'sonar': {'type': 'range', 'topic': 'sonar_range'}})
    try:
        fov, distance = f32(0.5), f32(0.4)
        points = arc(distance, fov)
        assert len(points) == 30  # 0.5 rad at one degree: 29 steps below, the end
        judged = Judged(points)
        assert not judged.inside
        watch.feed('sonar_range', range_msg(frame, 0.4))
        report = watch.wait(lambda r: r.valid and has_entry('sonar')(r), 'a valid range')
        check_clear(report, 'sonar', judged)
        assert watch.steady_flag(False) == [False] * 3

        # Padding (a run-time parameter) that reaches part of the arc.
        padding = 0.38
        judged = Judged(points, padding)
        assert 0 < len(judged.inside) < len(points)
        ok, reason = ros_peer.set_parameter(watch.fqn, 'padding', padding)
        assert ok, reason
        report = watch.wait(lambda r: r.colliding and r.valid, 'the arc inside the padding')
        check_inside(report, 'sonar', judged)
        assert watch.steady_flag(True) == [True] * 3

        # +inf: nothing detected. Valid, clear, no point.
        watch.feed('sonar_range', range_msg(frame, math.inf))
        report = watch.wait(lambda r: r.valid and not r.colliding, 'nothing detected')
        e = entry(report, 'sonar')
        assert report.status == 'ok' and e.status == 'ok', report
        assert e.points_inside == 0 and not e.colliding and e.distance == math.inf, e
        assert report.min_distance == math.inf, report
        assert watch.steady_flag(False) == [False] * 3

        # NaN: the reading says nothing; fail-safe.
        watch.feed('sonar_range', range_msg(frame, math.nan))
        report = watch.wait(lambda r: not r.valid, 'an invalid reading')
        assert report.status == 'invalid_source' and report.colliding, report
        assert entry(report, 'sonar').status == 'invalid_source', report
        assert watch.steady_flag(True) == [True] * 3

        # And back.
        watch.feed('sonar_range', range_msg(frame, 0.4))
        report = watch.wait(lambda r: r.valid, 'a valid reading again')
        check_inside(report, 'sonar', judged)

        # What nav2 main refuses (navigation2 #6231, after #6216: an unbounded
        # field_of_view was a denial of service) is refused: invalid_source, fail-safe,
        # never clear. A field of view above pi or of zero, equal limits, no frame id.
        for what, bad in [('fov 4', range_msg(frame, 0.4, fov=4.0)),
                          ('fov 0', range_msg(frame, 0.4, fov=0.0)),
                          ('min_range = max_range', range_msg(frame, 3.0, min_range=3.0)),
                          ('no frame id', range_msg('', 0.4))]:
            watch.feed('sonar_range', bad)
            report = watch.wait(lambda r: not r.valid, f'{what}: refused')
            assert report.status == 'invalid_source' and report.colliding, (what, report)
            assert entry(report, 'sonar').status == 'invalid_source', (what, report)
            watch.feed('sonar_range', range_msg(frame, 0.4))
            report = watch.wait(lambda r: r.valid, f'after {what}: valid again')
            check_inside(report, 'sonar', judged)
        assert node.proc.poll() is None, node.output
    finally:
        node.stop()
    assert 'panicked' not in node.output


# --- 4. fail-safe: stale, malformed, unplaceable, disabled -----------------------------------

def ring_scan(frame, ranges_by_index, n=16):
    """A scan of n rays over a full turn, from angle 0, inf where no range is given."""
    inc = f32(2.0 * math.pi / n)
    ranges = [f32(ranges_by_index.get(i, math.inf)) for i in range(n)]
    return scan_msg(frame, 0.0, inc, f32(0.05), f32(10.0), ranges)


def ring_points(ranges_by_index, n=16):
    inc = f32(2.0 * math.pi / n)
    return [(f32(r) * math.cos(i * inc), f32(r) * math.sin(i * inc))
            for i, r in sorted(ranges_by_index.items())]


def test_stale_malformed_unplaced_and_disabled_sources(watch, ros_peer, tmp_path):
    """Fail-safe, one node throughout: nothing yet (no_obstacles); a source that never
    sent (no_source_data) until disabled at run time; a scan that stops (stale after
    its own source_timeout, not before) or arrives with old stamps; malformed clouds
    (invalid_source); a cloud in an unknown frame (transform_unavailable); a disabled
    source with points inside counts for nothing. The node lives and publishes on."""
    node = start(watch, tmp_path, {
        'front': {'type': 'scan', 'topic': 'front_scan', 'source_timeout': 0.6},
        'cam': {'type': 'pointcloud', 'topic': 'cam_points'},
        'rear': {'type': 'scan', 'topic': 'rear_scan'},
    })
    try:
        clear_scan = {0: 1.5, 4: 1.2, 8: 2.0}  # in base_link: 1.0, 0.9, 1.5 m away
        cloud_points = [(1.0, y / 10.0, 0.2) for y in range(-2, 3)]  # 0.5 m ahead
        good_cloud = cloud_msg('base_link', len(cloud_points), 1, pack_points(cloud_points))
        # Nothing delivered yet.
        report = watch.wait(lambda r: True, 'a first report')
        assert not report.valid and report.status == 'no_obstacles' and report.colliding
        watch.feed('front_scan', ring_scan('base_link', clear_scan))
        watch.feed('cam_points', good_cloud)
        # rear is enabled and has never sent: the answer cannot be trusted.
        report = watch.wait(lambda r: has_entry('rear', 'no_source_data')(r)
                            and has_entry('front')(r) and has_entry('cam')(r),
                            'front and cam in, rear without data')
        assert not report.valid and report.status == 'no_source_data' and report.colliding
        assert watch.steady_flag(True) == [True] * 3

        # rear disabled at run time: no entry, and the report is valid again.
        ok, reason = ros_peer.set_parameter(watch.fqn, 'rear.enabled', False)
        assert ok, reason
        report = watch.wait(lambda r: r.valid, 'a valid report without rear')
        assert sorted(r.id for r in report.results) == ['cam', 'front'], report.results
        check_clear(report, 'front', Judged(ring_points(clear_scan)))
        check_clear(report, 'cam', Judged([p[:2] for p in cloud_points]))
        assert watch.steady_flag(False) == [False] * 3

        # front stops: stale after its own 0.6 s, not before; fail-safe.
        last = watch.stop_feed('front_scan')
        report = watch.wait(has_entry('front', 'stale_source'), 'front stale')
        with watch.cond:
            (at,) = [t for t, r in watch.reports if r is report]
        assert at - last > 0.6 - 0.05, at - last
        assert not report.valid and report.status == 'stale_source' and report.colliding
        assert entry(report, 'cam').status == 'ok'
        assert watch.steady_flag(True) == [True] * 3
        watch.feed('front_scan', ring_scan('base_link', clear_scan))
        watch.wait(lambda r: r.valid and not r.colliding, 'front fresh again')
        # Arriving on time but measured 0.9 s ago: stale by its stamp for front
        # (0.6 s), not for cam (the default source_timeout, 2 s).
        watch.feed('front_scan', ring_scan('base_link', clear_scan), age=0.9)
        watch.feed('cam_points', good_cloud, age=0.9)
        watch.wait(has_entry('front', 'stale_source'), 'front stale by its stamp')
        for report in watch.next_reports(10):
            assert report.status == 'stale_source' and report.colliding, report
            assert entry(report, 'front').status == 'stale_source', report
            assert entry(report, 'cam').status == 'ok', report
        watch.feed('front_scan', ring_scan('base_link', clear_scan))
        watch.feed('cam_points', good_cloud)
        watch.wait(lambda r: r.valid and not r.colliding, 'front fresh again')

        # Malformed clouds: x beyond point_step; data shorter than row_step * height.
        bad = [cloud_msg('base_link', len(cloud_points), 1, pack_points(cloud_points),
                         x_offset=13),
               cloud_msg('base_link', len(cloud_points), 1, pack_points(cloud_points)[:-5])]
        for msg in bad:
            watch.feed('cam_points', msg)
            report = watch.wait(has_entry('cam', 'invalid_source'), 'cam invalid')
            assert not report.valid and report.status == 'invalid_source' and report.colliding
            assert entry(report, 'front').status == 'ok'
            assert watch.steady_flag(True) == [True] * 3
            watch.feed('cam_points', good_cloud)
            watch.wait(lambda r: r.valid and not r.colliding, 'cam valid again')

        # A cloud in a frame TF does not know.
        watch.feed('cam_points', cloud_msg('camera_nowhere_fail', len(cloud_points), 1,
                                           pack_points(cloud_points)))
        report = watch.wait(has_entry('cam', 'transform_unavailable'), 'cam unplaced')
        assert not report.valid and report.status == 'transform_unavailable', report
        assert watch.steady_flag(True) == [True] * 3
        watch.feed('cam_points', good_cloud)
        watch.wait(lambda r: r.valid and not r.colliding, 'cam placed again')

        # A disabled source counts for nothing, even with points inside the robot.
        inside = {0: 0.2, 5: 0.25}
        watch.feed('rear_scan', ring_scan('base_link', inside))
        for report in watch.next_reports(10):
            assert report.valid and not report.colliding and \
                'rear' not in [r.id for r in report.results], report
        ok, reason = ros_peer.set_parameter(watch.fqn, 'rear.enabled', True)
        assert ok, reason
        report = watch.wait(lambda r: r.colliding and r.valid, 'rear enabled, inside')
        assert entry(report, 'rear').points_inside == 2, report
        ok, reason = ros_peer.set_parameter(watch.fqn, 'rear.enabled', False)
        assert ok, reason
        report = watch.wait(lambda r: r.valid and not r.colliding, 'rear disabled again')
        assert 'rear' not in [r.id for r in report.results], report
        assert watch.steady_flag(False) == [False] * 3

        # Alive and publishing through all of it.
        assert node.proc.poll() is None, node.output
        watch.wait(lambda r: True, 'one more report')
    finally:
        node.stop()
    assert 'panicked' not in node.output


# --- 5. min_points over all sources together -----------------------------------------------

def test_min_points_counts_the_points_of_all_sources(watch, ros_peer, tmp_path):
    """min_points 3: two points inside are not a collision, two in one scan and one in
    another are; min_points 4 at run time is not reached by three."""
    node = start(watch, tmp_path, {
        'left': {'type': 'scan', 'topic': 'left_scan'},
        'right': {'type': 'scan', 'topic': 'right_scan'},
    }, min_points=3)
    try:
        outside = {8: 1.0}  # (-1.0, 0): 0.5 m behind the robot
        two = {0: 0.2, 4: 0.25, **outside}  # (0.2, 0), (0, 0.25) inside
        one = {12: 0.2, 2: 2.0}  # (0, -0.2) inside, (1.41, 1.41) outside
        assert len(Judged(ring_points(two)).inside) == 2
        assert len(Judged(ring_points(one)).inside) == 1
        assert not Judged(ring_points(outside)).inside
        watch.feed('left_scan', ring_scan('base_link', two))
        watch.feed('right_scan', ring_scan('base_link', outside))
        # Two points inside: fewer than min_points, not colliding.
        report = watch.wait(lambda r: r.valid and entry_inside(r, 'left') == 2
                            and has_entry('right')(r), 'two points inside')
        assert not report.colliding, report
        left, right = entry(report, 'left'), entry(report, 'right')
        assert not left.colliding and left.distance == 0.0, left
        assert not right.colliding and right.points_inside == 0, right
        assert abs(right.distance - 0.5) <= TOL, right
        assert watch.steady_flag(False) == [False] * 3

        # One more in the other source: three together.
        watch.feed('right_scan', ring_scan('base_link', one))
        report = watch.wait(lambda r: entry_inside(r, 'right') == 1, 'three points inside')
        assert report.valid and report.colliding, report
        assert entry(report, 'left').colliding and entry(report, 'right').colliding, report
        assert watch.steady_flag(True) == [True] * 3

        # Three in one source, none in the other: that one alone collides.
        three = {0: 0.2, 4: 0.25, 12: 0.15}
        watch.feed('left_scan', ring_scan('base_link', three))
        watch.feed('right_scan', ring_scan('base_link', outside))
        report = watch.wait(lambda r: entry_inside(r, 'left') == 3
                            and entry_inside(r, 'right') == 0, 'three in left')
        assert report.valid and report.colliding, report
        assert entry(report, 'left').colliding and not entry(report, 'right').colliding
        assert watch.steady_flag(True) == [True] * 3

        # min_points is a run-time parameter: 4 are not reached.
        ok, reason = ros_peer.set_parameter(watch.fqn, 'min_points', 4)
        assert ok, reason
        report = watch.wait(lambda r: r.valid and not r.colliding, 'min_points 4')
        assert entry(report, 'left').points_inside == 3, report
        assert watch.steady_flag(False) == [False] * 3
        assert node.proc.poll() is None, node.output
    finally:
        node.stop()
    assert 'panicked' not in node.output


def entry_inside(report, name):
    found = [r for r in report.results if r.id == name]
    return found[0].points_inside if len(found) == 1 else None


def polygon_msg(node, frame, ident, points):
    from geometry_msgs.msg import Point32, PolygonInstanceStamped

    msg = PolygonInstanceStamped()
    msg.header.frame_id = frame
    msg.header.stamp = stamp_now(node)
    msg.polygon.id = ident
    msg.polygon.polygon.points = [Point32(x=float(x), y=float(y), z=0.0) for x, y in points]
    return msg


def test_polygon_source_keeps_polygons_exactly_and_they_expire(watch, ros_peer, tmp_path):
    """A `polygon` source (PolygonInstanceStamped, as nav2's): each polygon kept
    exactly (not sampled into points) under the id <source>/<id>, expiring on its own
    after the source's timeout; disabled at run time, its polygons go."""
    # obstacles_timeout (the other instances' lifetime) far longer than the source's.
    node = start(watch, tmp_path,
                 {'people': {'type': 'polygon', 'topic': 'people', 'source_timeout': 0.5}},
                 obstacles_timeout=60.0)
    try:
        # A thin sliver whose corner reaches 0.01 m into the footprint's front edge
        # (x = 0.5): sampled every 0.1 m as nav2 does, no sample would be inside.
        sliver = [(0.49, 0.0), (1.5, 0.05), (1.5, -0.05)]
        watch.feed('people', polygon_msg(watch.node, 'base_link', 7, sliver))
        report = watch.wait(lambda r: r.colliding and r.valid, 'the sliver colliding')
        result = [r for r in report.results if r.id == 'people/7']
        assert len(result) == 1, report.results
        assert result[0].colliding and close([result[0].penetration_depth], [0.01]), result
        assert report.nearest_obstacle_id == 'people/7'
        # Moved 0.25 m ahead of the footprint: clear at exactly 0.25 m.
        ahead = [(0.75, 0.0), (1.5, 0.05), (1.5, -0.05)]
        watch.feed('people', polygon_msg(watch.node, 'base_link', 7, ahead))
        report = watch.wait(lambda r: r.valid and not r.colliding, 'the polygon clear')
        assert close([report.min_distance], [0.25]), report.min_distance
        # Silence: the polygon expires after the source's 0.5 s; nothing is left.
        last = watch.stop_feed('people')
        report = watch.wait(lambda r: not any(x.id == 'people/7' for x in r.results),
                            'the polygon expired')
        assert time.monotonic() - last >= 0.4, 'expired before its source_timeout'
        assert report.status == 'no_obstacles' and report.colliding, report
        # Disabled at run time: a polygon sent then counts for nothing.
        ok, reason = ros_peer.set_parameter(watch.fqn, 'people.enabled', False)
        assert ok, reason
        watch.feed('people', polygon_msg(watch.node, 'base_link', 8, sliver))
        time.sleep(0.5)
        for report in watch.next_reports(3):
            assert not any(x.id.startswith('people/') for x in report.results), report
        assert node.proc.poll() is None
    finally:
        node.stop()
