"""The fleet over real ROS 2 (issue 32, items 1 to 3 and its bad input): two real nodes,
robot1 and robot2, each publishing its robot on a fleet topic and seeing the other;
rclpy peers publish TF (each robot's base placed in `map`), read the fleet topic, the
reports and the flags, and send the bad messages.

* each node publishes its robot (id, session, sequence, its footprint in its body
  frame, its pose in `map` from TF, its speed bounds) at `fleet_rate`, with the
  documented QoS (best effort, depth 1, lifespan and liveliness lease `fleet_timeout`);
* each sees the other in its report (`fleet/<id>`, `ok`, the clearance) and its flag
  turns true when the other's footprint reaches it;
* a node that stops is kept by the other as `stale_peer` within `fleet_timeout` (plus
  the tick and transport), never forgotten, and keeps growing;
* bad input (a NaN pose, a 10 kB id, a footprint of 10,000 vertices, a plan out of
  time order) is refused with a warning, and a flood of 20,000 distinct ids is capped:
  the flag goes on being published at `publish_rate` throughout, fail-safe (true, the
  fleet not judged) while the flood lasts, and the node's memory stays bounded.

The rules themselves (growth, motion, clocks, conflicts) are tested in the core
(`src/fleet/tests.rs`, `tests/monitor/core_events/fleet.rs`); here is the edge.

Run by scripts/test.sh (after `cargo build --bins`).
"""

import math
import os
import threading
import time

import pytest
import yaml

from satpkg_support import NODE_NAME, Recorder, namespace, ros_peer, start_node

assert ros_peer  # a fixture, used by name below

PUBLISH_RATE = 20.0
FLEET_RATE = 10.0
FLEET_TIMEOUT = 0.5
# The robots: 0.4 m squares, bounds 1 m/s and 1 rad/s.
HALF = 0.2
MAX_LINEAR, MAX_ANGULAR = 1.0, 1.0


def _robot_params(tag, robot, topic, base):
    return {NODE_NAME: {'ros__parameters': {
        'robot_footprint': f'[[{HALF}, {HALF}], [{HALF}, -{HALF}], [-{HALF}, -{HALF}], '
                           f'[-{HALF}, {HALF}]]',
        'base_frame': base,
        'global_frame': 'map',
        'publish_rate': PUBLISH_RATE,
        'transform_tolerance': 60.0,
        'robot_id': robot,
        'fleet_topic': topic,
        'fleet_rate': FLEET_RATE,
        'fleet_timeout': FLEET_TIMEOUT,
        'max_linear_speed': MAX_LINEAR,
        'max_angular_speed': MAX_ANGULAR,
        'observation_sources': ['fleet'],
        'fleet': {'type': 'fleet'},
        'hardware_id': f'fleet_{tag}_{os.getpid()}',
    }}}


class Fleet:
    """Two nodes (robot1 at the origin, robot2 at `x2`), TF from an rclpy peer, and
    recorders of the fleet topic and of each node's report and flag."""

    def __init__(self, tmp_path, peer, tag):
        from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
        from sat_collision_msgs.msg import CollisionReport, FleetRobot
        from std_msgs.msg import Bool
        from tf2_msgs.msg import TFMessage

        self.peer = peer
        self.ns = {r: namespace(f'{tag}_{r}') for r in ('robot1', 'robot2')}
        self.topic = namespace(f'{tag}_fleet')
        self.base = {r: f'{self.ns[r].strip("/")}/base' for r in self.ns}
        self.TFMessage = TFMessage
        static = QoSProfile(depth=100, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                            reliability=ReliabilityPolicy.RELIABLE)
        self.tf_pub = peer.node.create_publisher(TFMessage, '/tf_static', static)
        self.poses = {'robot1': (0.0, 0.0, 0.0), 'robot2': (3.0, 0.0, math.pi)}
        self.publish_tf()
        self.fleet = Recorder(peer, FleetRobot, self.topic,
                              qos=QoSProfile(depth=100,
                                             reliability=ReliabilityPolicy.BEST_EFFORT))
        self.reports = {r: Recorder(peer, CollisionReport, f'{ns}/collision_report')
                        for r, ns in self.ns.items()}
        self.flags = {r: Recorder(peer, Bool, f'{ns}/collision') for r, ns in self.ns.items()}
        self.procs = {}
        for robot, ns in self.ns.items():
            path = tmp_path / f'{robot}.yaml'
            path.write_text(yaml.safe_dump(_robot_params(tag, robot, self.topic,
                                                         self.base[robot])))
            self.procs[robot] = start_node(ns, params_file=str(path))

    def publish_tf(self):
        from geometry_msgs.msg import TransformStamped

        transforms = []
        for robot, (x, y, yaw) in self.poses.items():
            t = TransformStamped()
            t.header.frame_id = 'map'
            t.child_frame_id = self.base[robot]
            t.transform.translation.x, t.transform.translation.y = x, y
            t.transform.rotation.z = math.sin(yaw / 2)
            t.transform.rotation.w = math.cos(yaw / 2)
            transforms.append(t)
        self.tf_pub.publish(self.TFMessage(transforms=transforms))

    def peer_result(self, robot, other):
        """The latest report of `robot`'s result for `other` (None: none yet)."""
        items = self.reports[robot].since(0)
        if not items:
            return None
        return next((r for r in items[-1].results if r.id == f'fleet/{other}'), None)

    def close(self):
        for proc in self.procs.values():
            proc.kill()


@pytest.fixture
def fleet(tmp_path, ros_peer, request):
    # A short tag of the test's name (letters and single underscores: a ROS name).
    tag = '_'.join(w[:4] for w in request.node.name[5:].split('_')[:3])
    f = Fleet(tmp_path, ros_peer, tag)
    yield f
    f.close()


def test_each_node_publishes_its_robot_with_the_documented_qos(fleet):
    at, msg = fleet.fleet.wait(lambda m: m.robot_id == 'robot2', 'robot2 on the fleet topic',
                               timeout=15)
    assert msg.header.frame_id == 'map'
    assert (msg.pose.position.x, msg.pose.position.y) == pytest.approx((3.0, 0.0))
    assert abs(2 * math.atan2(msg.pose.orientation.z, msg.pose.orientation.w)) == \
        pytest.approx(math.pi)
    got = sorted((round(p.x, 6), round(p.y, 6)) for p in msg.footprint.points)
    assert got == sorted([(HALF, HALF), (HALF, -HALF), (-HALF, -HALF), (-HALF, HALF)])
    assert (msg.max_linear_speed, msg.max_angular_speed) == (MAX_LINEAR, MAX_ANGULAR)
    # At fleet_rate, sequence numbers one apart, one session.
    time.sleep(1.0)
    mine = [m for m in fleet.fleet.after(at) if m.robot_id == 'robot2']
    assert 7 <= len(mine) <= 13, len(mine)
    assert len({m.session for m in mine}) == 1
    seqs = [m.sequence for m in mine]
    assert all(b == a + 1 for a, b in zip(seqs, seqs[1:])), seqs
    # The publisher's QoS, as offered.
    infos = fleet.peer.node.get_publishers_info_by_topic(fleet.topic)
    ours = [i for i in infos if i.node_name == NODE_NAME]
    assert len(ours) == 2, infos
    for info in ours:
        qos = info.qos_profile
        assert qos.reliability.name == 'BEST_EFFORT'
        assert qos.lifespan.nanoseconds == int(FLEET_TIMEOUT * 1e9)
        assert qos.liveliness.name == 'AUTOMATIC'
        assert qos.liveliness_lease_duration.nanoseconds == int(FLEET_TIMEOUT * 1e9)


def test_each_sees_the_other_and_a_peer_that_reaches_it_is_a_collision(fleet):
    # robot2's square 3 m away: 2.6 m between them, less its growth (age < 0.2 s at
    # 10 Hz plus transport: at most 0.2 × (1 + 1 × 0.28) m).
    def clear_and_seen(report):
        r = next((r for r in report.results if r.id == 'fleet/robot2'), None)
        return r is not None and r.status == 'ok' and not r.colliding
    _, report = fleet.reports['robot1'].wait(clear_and_seen, 'robot2 seen, clear', 15)
    result = next(r for r in report.results if r.id == 'fleet/robot2')
    assert 2.6 - 0.3 < result.distance <= 2.6, result
    assert report.valid and not report.colliding
    fleet.reports['robot2'].wait(
        lambda rep: any(r.id == 'fleet/robot1' and r.status == 'ok' for r in rep.results),
        'robot1 seen by robot2', 15)
    # robot2 drives into robot1 (its TF moved): both flags turn true.
    fleet.poses['robot2'] = (0.3, 0.0, math.pi)
    fleet.publish_tf()
    for robot in ('robot1', 'robot2'):
        mark = fleet.flags[robot].mark()
        fleet.flags[robot].wait(lambda m: m.data, f'{robot} colliding', 5, mark)


def test_a_node_that_stops_is_kept_as_a_stale_peer_and_grows(fleet):
    fleet.reports['robot1'].wait(
        lambda rep: any(r.id == 'fleet/robot2' and r.status == 'ok' for r in rep.results),
        'robot2 seen', 15)
    fleet.procs['robot2'].kill()
    stopped = time.monotonic()
    at, report = fleet.reports['robot1'].wait(
        lambda rep: any(r.id == 'fleet/robot2' and r.status == 'stale_peer'
                        for r in rep.results),
        'robot2 stale', 5, fleet.reports['robot1'].mark())
    # Stale within fleet_timeout, plus one message period it may have just missed, one
    # decision period and the transport.
    assert at - stopped <= FLEET_TIMEOUT + 1 / FLEET_RATE + 1 / PUBLISH_RATE + 0.3
    first = next(r for r in report.results if r.id == 'fleet/robot2')
    time.sleep(1.0)
    later = fleet.peer_result('robot1', 'robot2')
    assert later is not None and later.status == 'stale_peer', 'never forgotten'
    # It keeps growing: about (1 + 1 × 0.28) m/s of age.
    assert later.distance < first.distance - 0.8, (first.distance, later.distance)


def _bad(peer, topic, **change):
    from sat_collision_msgs.msg import FleetRobot
    from geometry_msgs.msg import Point32

    msg = FleetRobot()
    msg.header.frame_id = 'map'
    msg.header.stamp = peer.node.get_clock().now().to_msg()
    msg.robot_id = 'intruder'
    msg.session = 7
    msg.sequence = 1
    msg.footprint.points = [Point32(x=x, y=y) for x, y in
                            [(-0.2, -0.2), (0.2, -0.2), (0.2, 0.2), (-0.2, 0.2)]]
    msg.pose.position.x = 50.0
    msg.pose.orientation.w = 1.0
    msg.max_linear_speed = 1.0
    msg.max_angular_speed = 1.0
    for key, value in change.items():
        if key == 'x':
            msg.pose.position.x = value
        elif key == 'vertices':
            msg.footprint.points = [Point32(x=math.cos(k), y=math.sin(k)) for k in
                                    range(value)]
        elif key == 'plan':
            from geometry_msgs.msg import PoseStamped
            poses = []
            for sec in value:
                p = PoseStamped()
                p.header.stamp.sec = sec
                p.pose.orientation.w = 1.0
                poses.append(p)
            msg.plan.poses = poses
        else:
            setattr(msg, key, value)
    return msg


def test_bad_messages_are_refused_and_a_flood_of_ids_never_starves_the_flag(fleet):
    from rclpy.qos import QoSProfile, ReliabilityPolicy
    from sat_collision_msgs.msg import FleetRobot

    proc = fleet.procs['robot1']
    fleet.reports['robot1'].wait(
        lambda rep: any(r.id == 'fleet/robot2' and r.status == 'ok' for r in rep.results),
        'robot2 seen', 15)
    pub = fleet.peer.node.create_publisher(FleetRobot, fleet.topic,
                                           QoSProfile(depth=1000,
                                                      reliability=ReliabilityPolicy.RELIABLE))
    time.sleep(0.5)
    for msg, warning in [
        (_bad(fleet.peer, fleet.topic, x=float('nan')), 'not finite'),
        (_bad(fleet.peer, fleet.topic, robot_id='x' * 10_000), 'robot id empty, over 64'),
        # 10,000 vertices (120 kB; refused before any is read, whatever the size: a
        # larger one is only less likely to arrive whole, best effort).
        (_bad(fleet.peer, fleet.topic, vertices=10_000), 'footprint of 10000 vertices'),
        (_bad(fleet.peer, fleet.topic, plan=[20, 10]), 'plan not finite, not in time order'),
    ]:
        # Best effort at the subscription: a large one may be lost; sent until refused.
        for attempt in range(5):
            pub.publish(msg)
            try:
                proc.wait_for(warning, timeout=2)
                break
            except AssertionError:
                if attempt == 4:
                    raise
    report = fleet.reports['robot1'].since(0)[-1]
    assert not any(r.id == 'fleet/intruder' for r in report.results)

    # A flood of 20,000 distinct ids, as fast as rclpy publishes (far away: 50 m).
    flags = fleet.flags['robot1']
    mark = flags.mark()
    started = time.monotonic()
    for i in range(20_000):
        pub.publish(_bad(fleet.peer, fleet.topic, robot_id=f'ghost{i}', x=50.0 + i * 1e-3))
    flooded = time.monotonic() - started
    proc.wait_for('peers kept already|messages refused: 1024 peers', timeout=10)
    # The flag was published throughout: at least half the decisions at publish_rate.
    during = flags.since(mark)
    print(f'flood: {len(during)} flags in {flooded:.2f} s')
    assert len(during) >= 0.5 * PUBLISH_RATE * flooded, (len(during), flooded)
    # Fail-safe while robots were refused for lack of room.
    assert any(m.data for m in during)
    # Memory bounded: the peers' table and the slot are capped.
    rss_kb = int(next(line.split()[1] for line in
                      open(f'/proc/{proc.proc.pid}/status') if line.startswith('VmRSS')))
    assert rss_kb < 400_000, rss_kb
