"""Motion over real ROS 2: `check_path` (a nav_msgs/Path through a doorway) and the
prediction along the velocity (`collision_ahead` turns true before `collision` when
the robot drives at a wall), with an rclpy peer. Expected values are worked out here
from the scene's numbers (axis-aligned boxes moving along x), not from the node's code.

Run by scripts/test.sh (after `cargo build --bins`).
"""

import math
import threading
import time

from satpkg_support import namespace, ros_peer, start_node  # noqa: F401  (fixture)

ROBOT_PARAM = 'robot_footprint:="[[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]"'
TOL = 1e-6  # the node's answers are exact for translations; inputs are float32 points


def rect(x0, y0, x1, y1):
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def polygon(points):
    from geometry_msgs.msg import Point32, Polygon

    return Polygon(points=[Point32(x=float(x), y=float(y), z=0.0) for x, y in points])


def obstacle_array(frame, obstacles):
    from sat_collision_msgs.msg import Obstacle, ObstacleArray

    array = ObstacleArray()
    array.header.frame_id = frame
    array.obstacles = [Obstacle(id=i, polygon=polygon(p), radius=0.0) for i, p in obstacles]
    return array


def path_msg(frame, poses, dt):
    """A nav_msgs/Path of (x, y, yaw) poses stamped dt apart (from 100 s)."""
    from geometry_msgs.msg import PoseStamped
    from nav_msgs.msg import Path

    path = Path()
    path.header.frame_id = frame
    for k, (x, y, yaw) in enumerate(poses):
        p = PoseStamped()
        t = 100.0 + k * dt
        p.header.stamp.sec = int(t)
        p.header.stamp.nanosec = int(round((t - int(t)) * 1e9))
        p.pose.position.x = float(x)
        p.pose.position.y = float(y)
        p.pose.orientation.z = math.sin(yaw / 2)
        p.pose.orientation.w = math.cos(yaw / 2)
        path.poses.append(p)
    return path


# A wall across x in [3.0, 3.2] with a 1.0 m doorway at |y| < 0.5.
DOORWAY = [('wall_left', rect(3.0, 0.5, 3.2, 4.0)), ('wall_right', rect(3.0, -4.0, 3.2, -0.5))]


def call_path(peer, ns, path, footprint=(), padding=0.0):
    from sat_collision_msgs.srv import CheckPath

    request = CheckPath.Request()
    request.path = path
    request.footprint = polygon(footprint)
    request.padding = padding
    return peer.call(CheckPath, f'{ns}/check_path', request)


def test_check_path_through_a_doorway(ros_peer):
    ns = namespace('path')
    node = start_node(ns, '-p', ROBOT_PARAM, '-p', 'obstacles_timeout:=30.0')
    try:
        from sat_collision_msgs.msg import ObstacleArray

        pub = ros_peer.node.create_publisher(ObstacleArray, f'{ns}/obstacles', 10)
        stop = threading.Event()

        def feed():
            while not stop.is_set():
                pub.publish(obstacle_array('map', DOORWAY))
                time.sleep(0.1)

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        try:
            # Centred: the 0.6 m wide robot passes the 1.0 m doorway, 0.2 m each side.
            centred = [(float(x), 0.0, 0.0) for x in range(7)]
            deadline = time.monotonic() + 30.0
            while True:
                r = call_path(ros_peer, ns, path_msg('map', centred, 0.5))
                if r.status != 'no_obstacles' or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert r.valid and r.status == 'ok', r
            assert r.first_collision == -1 and r.time_to_collision == -1.0, r
            assert r.distance_to_collision == -1.0 and r.obstacle_id == '', r
            assert len(r.clearance) == 7
            # x = 0: from the front corner (0.5, 0.3) to the door's corner (3.0, 0.5);
            # x = 3: in the doorway, 0.2 either side.
            assert abs(r.clearance[0] - math.hypot(2.5, 0.2)) < TOL, r.clearance
            assert abs(r.clearance[3] - 0.2) < TOL, r.clearance
            # Off-centre by 0.4 m: the robot's side (y = 0.7) meets the left wall's face
            # x = 3.0 when its front (x + 0.5) gets there: x = 2.5, half-way through the
            # segment from pose 2 (x = 2) to pose 3 (x = 3), 0.5 s apart: 1.25 s.
            off = [(float(x), 0.4, 0.0) for x in range(7)]
            r = call_path(ros_peer, ns, path_msg('map', off, 0.5))
            assert r.valid, r
            assert r.first_collision == 2, r
            assert abs(r.time_to_collision - 1.25) < TOL, r
            assert abs(r.distance_to_collision - 2.5) < TOL, r
            assert r.obstacle_id == 'wall_left', r
            assert abs(r.collision_pose.position.x - 2.5) < TOL, r.collision_pose
            assert abs(r.collision_pose.position.y - 0.4) < TOL, r.collision_pose
            # The per-pose check (what planners had) sees pose 3 colliding too, but the
            # path check is the one that reports where contact begins; the stamps not
            # increasing: the poses count 1 s apart.
            r = call_path(ros_peer, ns, path_msg('map', off, 0.0))
            assert abs(r.time_to_collision - 2.5) < TOL, r
            # Poses in a frame the node cannot relate: fail-safe, not a guess.
            r = call_path(ros_peer, ns, path_msg('odom', centred, 0.5))
            assert not r.valid and r.status == 'frame_mismatch', r
            assert r.first_collision == 0 and r.time_to_collision == 0.0, r
            # An explicit footprint, wider than the doorway: contact at the door.
            wide = rect(-0.5, -0.6, 0.5, 0.6)
            r = call_path(ros_peer, ns, path_msg('map', centred, 0.5), footprint=wide)
            assert r.valid and r.first_collision == 2, r
            assert abs(r.time_to_collision - 1.25) < TOL, r
        finally:
            stop.set()
            feeder.join(5)
        assert node.proc.poll() is None, node.output
    finally:
        node.stop()


def tf_message(parent, child, x, y, yaw, stamp):
    from geometry_msgs.msg import TransformStamped
    from tf2_msgs.msg import TFMessage

    t = TransformStamped()
    t.header.frame_id = parent
    t.header.stamp = stamp
    t.child_frame_id = child
    t.transform.translation.x = float(x)
    t.transform.translation.y = float(y)
    t.transform.rotation.z = math.sin(yaw / 2)
    t.transform.rotation.w = math.cos(yaw / 2)
    return TFMessage(transforms=[t])


def test_collision_ahead_turns_true_before_collision(ros_peer):
    """The robot drives at a wall at 1 m/s (footprint on the topic in map, base_link
    on /tf, the velocity as a geometry_msgs/Twist command of base_frame):
    collision_ahead (2 s horizon) must turn true about 2 s before collision does, and
    the report's time_to_collision must match."""
    from geometry_msgs.msg import PolygonStamped, Twist, Vector3
    from sat_collision_msgs.msg import CollisionReport, ObstacleArray
    from std_msgs.msg import Bool
    from tf2_msgs.msg import TFMessage

    ns = namespace('ahead')
    node = start_node(ns, '-p', 'velocity_topic:=cmd_vel', '-p', 'velocity_type:=twist',
                      '-p', 'base_frame:=base_link',
                      '-p', 'time_horizon:=2.0', '-p', 'obstacles_timeout:=30.0',
                      '-p', 'publish_rate:=20.0')
    peer = ros_peer.node
    state = {'x': -2.0, 'vx': 1.0, 'twist': True, 'moving': False}
    events = []  # (robot x, topic, value)
    reports = []
    lock = threading.Lock()
    fp_pub = peer.create_publisher(PolygonStamped, f'{ns}/footprint', 10)
    obs_pub = peer.create_publisher(ObstacleArray, f'{ns}/obstacles', 10)
    cmd_pub = peer.create_publisher(Twist, f'{ns}/cmd_vel', 10)
    tf_pub = peer.create_publisher(TFMessage, '/tf', 100)

    def on(topic):
        def callback(msg):
            with lock:
                events.append((state['x'], topic, msg.data))
        return callback

    def on_report(msg):
        with lock:
            reports.append((state['x'], msg))

    subs = [peer.create_subscription(Bool, f'{ns}/collision', on('collision'), 10),
            peer.create_subscription(Bool, f'{ns}/collision_ahead', on('ahead'), 10),
            peer.create_subscription(CollisionReport, f'{ns}/collision_report', on_report, 10)]
    stop = threading.Event()

    def drive():
        period = 0.05
        while not stop.is_set():
            with lock:
                if state['moving']:
                    state['x'] += state['vx'] * period
                x = state['x']
            tf_pub.publish(tf_message('map', 'base_link', x, 0.0, 0.0,
                                      peer.get_clock().now().to_msg()))
            msg = PolygonStamped()
            msg.header.frame_id = 'map'
            msg.polygon = polygon(rect(x - 0.5, -0.3, x + 0.5, 0.3))
            fp_pub.publish(msg)
            obs_pub.publish(obstacle_array('map', [('wall', rect(3.0, -2.0, 3.2, 2.0))]))
            if state['twist']:
                cmd_pub.publish(Twist(linear=Vector3(x=state['vx'])))
            time.sleep(period)

    driver = threading.Thread(target=drive, daemon=True)
    driver.start()
    try:
        def wait(predicate, what, timeout=30.0):
            with lock:
                since = len(reports)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                with lock:
                    found = [r for x, r in reports[since:] if predicate(x, r)]
                if found:
                    return found[-1]
                time.sleep(0.05)
            with lock:
                last = reports[-1] if reports else None
            raise AssertionError(f'no report with {what} within {timeout} s; last: {last}')

        # Standing at x = -2 (front -1.5, wall 3.0: 4.5 s away at 1 m/s): nothing ahead.
        r = wait(lambda x, r: r.prediction_status == 'ok' and r.valid, 'a valid prediction')
        assert r.time_to_collision == -1.0 and r.predicted_obstacle_id == '', r
        # Drive (the flags before this, true at start-up while inputs were missing,
        # do not count).
        with lock:
            state['moving'] = True
            start = len(events)
        wait(lambda x, r: r.colliding, 'the collision', timeout=60.0)
        with lock:
            state['moving'] = False
            timeline = list(events[start:])
            seen = list(reports)
        first_ahead = next(x for x, topic, v in timeline if topic == 'ahead' and v)
        first_collision = next(x for x, topic, v in timeline if topic == 'collision' and v)
        # Contact when the front (x + 0.5) reaches 3.0: x = 2.5; predicted 2 s (2 m)
        # earlier: x = 0.5. Messages take a few cycles: 0.3 m of slack.
        assert first_ahead < first_collision, timeline
        assert abs(first_ahead - 0.5) < 0.3, (first_ahead, first_collision)
        assert abs(first_collision - 2.5) < 0.3, (first_ahead, first_collision)
        # While approaching, the report's time to collision is (3.0 - front) / 1 m/s
        # for the footprint it judged: consistent with some footprint sent recently.
        approaching = [(x, r) for x, r in seen
                       if r.prediction_status == 'ok' and 0.0 < r.time_to_collision < 2.0]
        assert approaching, seen[-5:]
        for x, r in approaching:
            assert r.predicted_obstacle_id == 'wall', r
            assert abs((3.0 - (x + 0.5)) - r.time_to_collision) < 0.3, (x, r.time_to_collision)
        # Standing still in contact: time 0 ahead, and collision_ahead stays true.
        r = wait(lambda x, r: r.colliding and r.time_to_collision == 0.0, 'time 0 in contact')
        # The velocity stops arriving: stale after 0.5 s, collision_ahead still true
        # (fail-safe) with prediction_status stale_velocity.
        with lock:
            state['x'] = -2.0
            state['twist'] = False
        r = wait(lambda x, r: r.prediction_status == 'stale_velocity', 'a stale velocity')
        assert r.valid and not r.colliding, r
        with lock:
            n = len(events)
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline:
            with lock:
                later = [v for _, topic, v in events[n:] if topic == 'ahead']
            if len(later) >= 3:
                break
            time.sleep(0.05)
        assert later and all(later), later
        assert node.proc.poll() is None, node.output
    finally:
        stop.set()
        driver.join(5)
        for s in subs:
            peer.destroy_subscription(s)
        node.stop()


def test_a_twist_without_base_frame_is_never_predicted(ros_peer):
    """A geometry_msgs/Twist command and no base_frame: whose motion it is is unknown.
    The robot at (5, 0) in map faces +y (yaw 90 degrees), a wall 1 m ahead of it,
    1 m/s forward: applied in map the twist would slide the robot along +x, past the
    wall, and read clear. The prediction must be unknown_velocity_frame with
    collision_ahead true (fail-safe), the instantaneous report still valid and clear.
    With base_frame (base_link on /tf) the same command hits the wall at 1 s."""
    from geometry_msgs.msg import PolygonStamped, Twist, Vector3
    from sat_collision_msgs.msg import CollisionReport, ObstacleArray
    from std_msgs.msg import Bool
    from tf2_msgs.msg import TFMessage

    ns = namespace('twistframe')
    node = start_node(ns, '-p', 'velocity_topic:=cmd_vel', '-p', 'velocity_type:=twist',
                      '-p', 'time_horizon:=2.0', '-p', 'obstacles_timeout:=30.0')
    peer = ros_peer.node
    lock = threading.Lock()
    reports, ahead = [], []

    def on_report(msg):
        with lock:
            reports.append(msg)

    def on_ahead(msg):
        with lock:
            ahead.append(msg.data)

    subs = [peer.create_subscription(CollisionReport, f'{ns}/collision_report', on_report, 10),
            peer.create_subscription(Bool, f'{ns}/collision_ahead', on_ahead, 10)]
    fp_pub = peer.create_publisher(PolygonStamped, f'{ns}/footprint', 10)
    obs_pub = peer.create_publisher(ObstacleArray, f'{ns}/obstacles', 10)
    cmd_pub = peer.create_publisher(Twist, f'{ns}/cmd_vel', 10)
    tf_pub = peer.create_publisher(TFMessage, '/tf', 100)
    # The 1.0 x 0.6 robot turned 90 degrees at (5, 0): x in [4.7, 5.3], y in [-0.5, 0.5].
    # Its front (y = 0.5) is 1 m from the wall (y = 1.5): contact at 1 s, within 2 s.
    robot = rect(4.7, -0.5, 5.3, 0.5)
    wall = [('wall', rect(3.0, 1.5, 7.0, 1.7))]
    stop = threading.Event()

    def feed():
        while not stop.is_set():
            msg = PolygonStamped()
            msg.header.frame_id = 'map'
            msg.polygon = polygon(robot)
            fp_pub.publish(msg)
            obs_pub.publish(obstacle_array('map', wall))
            cmd_pub.publish(Twist(linear=Vector3(x=1.0)))
            tf_pub.publish(tf_message('map', 'base_link', 5.0, 0.0, math.pi / 2,
                                      peer.get_clock().now().to_msg()))
            time.sleep(0.05)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        deadline = time.monotonic() + 30.0
        while time.monotonic() < deadline:
            with lock:
                judged = [r for r in reports if r.valid and r.prediction_status != 'no_velocity']
            if len(judged) >= 20:
                break
            time.sleep(0.05)
        statuses = {(r.prediction_status, r.time_to_collision) for r in judged}
        guessed = [r for r in judged if r.prediction_status == 'ok']
        assert not guessed, (f'{len(guessed)} of {len(judged)} valid reports predicted '
                             f'with a body twist of no known frame: {statuses}')
        assert judged and all(r.prediction_status == 'unknown_velocity_frame'
                              for r in judged), statuses
        assert all(not r.colliding and r.status == 'ok' for r in judged)
        with lock:
            last = ahead[-10:]
        assert last and all(last), last
        assert node.proc.poll() is None, node.output
        node.stop()
        assert 'velocity_type twist without base_frame' in node.output, node.output

        # The twist is base_link's: forward is +y in map, the wall 1 m ahead.
        node = start_node(ns, '-p', 'velocity_topic:=cmd_vel', '-p', 'velocity_type:=twist',
                          '-p', 'base_frame:=base_link',
                          '-p', 'time_horizon:=2.0', '-p', 'obstacles_timeout:=30.0')
        with lock:
            reports.clear()
        deadline = time.monotonic() + 30.0
        predicted = []
        while time.monotonic() < deadline and not predicted:
            with lock:
                predicted = [r for r in reports if r.valid and r.prediction_status == 'ok']
            time.sleep(0.05)
        assert predicted, [(r.status, r.prediction_status) for r in reports[-5:]]
        r = predicted[-1]
        assert abs(r.time_to_collision - 1.0) < TOL and r.predicted_obstacle_id == 'wall', r
        assert not r.colliding
    finally:
        stop.set()
        feeder.join(5)
        for s in subs:
            peer.destroy_subscription(s)
        node.stop()


def test_a_velocity_stamped_seconds_ago_is_stale(ros_peer):
    """A geometry_msgs/TwistStamped stamped 5 s ago (velocity_timeout 0.5 s), arriving
    at 20 Hz: stale_velocity (collision_ahead true), not a prediction along an old
    motion; stamped now, it predicts."""
    from geometry_msgs.msg import PolygonStamped, TwistStamped
    from sat_collision_msgs.msg import CollisionReport, ObstacleArray

    ns = namespace('oldtwist')
    node = start_node(ns, '-p', 'velocity_topic:=vel', '-p', 'velocity_type:=twist_stamped',
                      '-p', 'obstacles_timeout:=30.0')
    peer = ros_peer.node
    lock = threading.Lock()
    reports = []

    def on_report(msg):
        with lock:
            reports.append(msg)

    sub = peer.create_subscription(CollisionReport, f'{ns}/collision_report', on_report, 10)
    fp_pub = peer.create_publisher(PolygonStamped, f'{ns}/footprint', 10)
    obs_pub = peer.create_publisher(ObstacleArray, f'{ns}/obstacles', 10)
    vel_pub = peer.create_publisher(TwistStamped, f'{ns}/vel', 10)
    lag = [5.0]
    stop = threading.Event()

    def feed():
        while not stop.is_set():
            msg = PolygonStamped()
            msg.header.frame_id = 'map'
            msg.polygon = polygon(rect(-0.5, -0.3, 0.5, 0.3))
            fp_pub.publish(msg)
            obs_pub.publish(obstacle_array('map', [('wall', rect(1.5, -2.0, 1.7, 2.0))]))
            vel = TwistStamped()
            vel.header.frame_id = 'map'
            now = peer.get_clock().now().nanoseconds * 1e-9 - lag[0]
            vel.header.stamp.sec = int(now)
            vel.header.stamp.nanosec = int((now - int(now)) * 1e9)
            vel.twist.linear.x = 1.0
            vel_pub.publish(vel)
            time.sleep(0.05)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        deadline = time.monotonic() + 30.0
        judged = []
        while time.monotonic() < deadline and len(judged) < 20:
            with lock:
                judged = [r for r in reports if r.valid and r.prediction_status != 'no_velocity']
            time.sleep(0.05)
        predicted = [r for r in judged if r.prediction_status == 'ok']
        assert not predicted, (f'{len(predicted)} of {len(judged)} valid reports predicted '
                               f'along a velocity stamped 5 s ago')
        assert judged and all(r.prediction_status == 'stale_velocity' for r in judged)
        lag[0] = 0.0
        deadline = time.monotonic() + 30.0
        while time.monotonic() < deadline and not predicted:
            with lock:
                predicted = [r for r in reports if r.valid and r.prediction_status == 'ok']
            time.sleep(0.05)
        # The front (0.5) meets the wall (1.5) at 1 s.
        assert predicted and abs(predicted[-1].time_to_collision - 1.0) < TOL, predicted[-1:]
        assert node.proc.poll() is None, node.output
    finally:
        stop.set()
        feeder.join(5)
        peer.destroy_subscription(sub)
        node.stop()
