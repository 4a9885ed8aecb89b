"""sat_collision_node driven from rclpy: the interface package's Python
bindings talk to the Rust node over real ROS 2 topics and its service.

Starts the node binary itself (in a namespace of its own) from
$SAT_COLLISION_BIN_DIR, which scripts/test.sh sets to the folder its
`cargo build --bins` fills (${CARGO_TARGET_DIR:-target}/debug); outside
test.sh the same default is used. The run's ROS_DOMAIN_ID is the one
test.sh exports (else one derived from the process id).

geometry_msgs/Point32 fields are float32: always pass floats (rclpy turns
Python ints in them into 0).
"""

import ctypes
import math
import os
import signal
import subprocess
import time

import pytest

if not os.environ.get("ROS_DOMAIN_ID"):
    # Before rclpy creates a context: separate runs must not hear each other.
    os.environ["ROS_DOMAIN_ID"] = str(1 + os.getpid() % 100)

import rclpy  # noqa: E402
from geometry_msgs.msg import Point32, Polygon, PolygonStamped, Pose  # noqa: E402
from rclpy.executors import SingleThreadedExecutor  # noqa: E402
from sat_collision_msgs.msg import CollisionReport, Obstacle, ObstacleArray  # noqa: E402
from sat_collision_msgs.srv import CheckFootprint  # noqa: E402
from std_msgs.msg import Bool  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EPS = 1e-9
STARTUP = 30.0  # s: discovery and start-up on a busy machine
SETTLE = 10.0  # s: a state the node should reach after an input change


def node_binary():
    bin_dir = os.environ.get("SAT_COLLISION_BIN_DIR") or os.path.join(
        os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"), "debug"
    )
    path = os.path.join(bin_dir, "sat_collision_node")
    if not os.access(path, os.X_OK):
        pytest.fail(
            f"{path} not found: build it first (`cargo build --bins`, "
            "or run scripts/test.sh, which sets SAT_COLLISION_BIN_DIR)"
        )
    return path


def _die_with_parent():
    # The child is killed if this process dies without its teardown.
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


@pytest.fixture
def sat_node(tmp_path):
    """Starts sat_collision_node in /t_py_<pid>; stops it after the test."""
    ns = f"/t_py_{os.getpid()}"
    log_path = tmp_path / "sat_collision_node.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [node_binary(), "--ros-args", "-r", f"__ns:={ns}"],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent,
        )
    try:
        yield ns, proc, log_path
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture
def ros():
    context = rclpy.Context()
    rclpy.init(context=context)
    executor = SingleThreadedExecutor(context=context)
    try:
        yield context, executor
    finally:
        executor.shutdown()
        rclpy.shutdown(context=context)


def p32(x, y):
    return Point32(x=float(x), y=float(y), z=0.0)


def polygon(points):
    return Polygon(points=[p32(x, y) for x, y in points])


def rect(x0, y0, x1, y1):
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def pose(x, y, yaw=0.0):
    p = Pose()
    p.position.x = float(x)
    p.position.y = float(y)
    p.orientation.z = math.sin(yaw / 2.0)
    p.orientation.w = math.cos(yaw / 2.0)
    return p


def close(actual, expected, what):
    assert abs(actual - expected) <= EPS, f"{what}: {actual} != {expected}"


def spin_until(executor, condition, timeout, tick=None, what="condition", log_path=None):
    """Spins until condition() is true (at most timeout s), calling tick()
    every 0.1 s (to re-publish inputs like a real source)."""
    deadline = time.monotonic() + timeout
    next_tick = 0.0
    while time.monotonic() < deadline:
        now = time.monotonic()
        if tick is not None and now >= next_tick:
            tick()
            next_tick = now + 0.1
        executor.spin_once(timeout_sec=0.02)
        if condition():
            return
    node_log = log_path.read_text(errors="replace")[-4000:] if log_path else ""
    pytest.fail(f"timed out after {timeout} s waiting for {what}; node log:\n{node_log}")


def test_report_fields_and_check_footprint_from_rclpy(sat_node, ros):
    ns, proc, log_path = sat_node
    context, executor = ros
    peer = rclpy.create_node("py_peer", namespace=ns, context=context)
    executor.add_node(peer)

    footprints = peer.create_publisher(PolygonStamped, "footprint", 10)
    arrays = peer.create_publisher(ObstacleArray, "obstacles", 10)
    reports, flags = [], []
    peer.create_subscription(CollisionReport, "collision_report", reports.append, 10)
    peer.create_subscription(Bool, "collision", lambda m: flags.append(m.data), 10)

    footprint = PolygonStamped()
    footprint.header.frame_id = "map"
    footprint.polygon = polygon(rect(-0.5, -0.5, 0.5, 0.5))
    scene = ObstacleArray()
    scene.header.frame_id = "map"
    scene.obstacles = [
        # Enters the footprint's right side by 0.25 m.
        Obstacle(id="hit", polygon=polygon(rect(0.25, -0.25, 1.25, 0.25)), radius=0.0),
        # A circle (one vertex + radius), 1 m above the footprint.
        Obstacle(id="post", polygon=polygon([(0.0, 2.0)]), radius=0.5),
    ]

    def feed():
        footprints.publish(footprint)
        arrays.publish(scene)

    def got_scene():
        return any(r.valid and len(r.results) == 2 for r in reports)

    spin_until(executor, got_scene, STARTUP, feed, "a valid report with 2 results", log_path)
    r = next(r for r in reports if r.valid and len(r.results) == 2)

    # Every field of the report.
    assert r.header.frame_id == "map"
    assert r.header.stamp.sec > 0, "stamped with the node's ROS time"
    assert r.colliding is True
    assert r.valid is True
    assert r.status == "ok"
    assert r.min_distance == 0.0
    assert r.nearest_obstacle_id == "hit"
    assert [o.id for o in r.results] == ["hit", "post"]
    hit, post = r.results
    assert hit.status == "ok"
    assert hit.colliding is True
    close(hit.penetration_depth, 0.25, "hit depth")
    close(hit.mtv.x, -0.25, "hit mtv x")
    close(hit.mtv.y, 0.0, "hit mtv y")
    assert hit.mtv.z == 0.0
    assert hit.distance == 0.0
    close(hit.separating_axis.x, 1.0, "hit axis x")
    close(hit.separating_axis.y, 0.0, "hit axis y")
    assert hit.separating_axis.z == 0.0
    assert post.status == "ok"
    assert post.colliding is False
    assert post.penetration_depth == 0.0
    assert (post.mtv.x, post.mtv.y, post.mtv.z) == (0.0, 0.0, 0.0)
    close(post.distance, 1.0, "post distance")
    close(post.separating_axis.x, 0.0, "post axis x")
    close(post.separating_axis.y, 1.0, "post axis y")
    assert post.separating_axis.z == 0.0

    # The flag agrees (after the state settled).
    flags.clear()
    spin_until(executor, lambda: len(flags) >= 3, SETTLE, feed, "3 collision flags", log_path)
    assert flags[-3:] == [True, True, True]

    # check_footprint from rclpy: a 1 m x 0.5 m robot along -x -> 0.
    client = peer.create_client(CheckFootprint, "check_footprint")
    spin_until(executor, client.service_is_ready, STARTUP, feed, "check_footprint", log_path)
    request = CheckFootprint.Request()
    request.footprint = polygon(rect(-0.5, -0.25, 0.5, 0.25))
    request.poses = [pose(-2.0, 0.0), pose(-1.0, 0.0), pose(0.0, 0.0), pose(0.0, 0.0, math.pi / 2)]
    request.padding = 0.0
    response = None
    for _attempt in range(3):  # a request right after discovery may be lost
        future = client.call_async(request)
        deadline = time.monotonic() + 5.0
        while not future.done() and time.monotonic() < deadline:
            feed()
            executor.spin_once(timeout_sec=0.05)
        if future.done():
            response = future.result()
            break
    assert response is not None, "check_footprint did not answer"
    assert response.valid is True
    assert response.status == "ok"
    assert list(response.colliding) == [False, False, True, True]
    assert response.first_collision == 2
    assert len(response.distance) == 4
    close(response.distance[0], 1.75, "distance at x = -2")
    close(response.distance[1], 0.75, "distance at x = -1")
    assert response.distance[2] == 0.0 and response.distance[3] == 0.0

    assert proc.poll() is None, "the node is still running"
    peer.destroy_node()
