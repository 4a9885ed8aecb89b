"""Configure / cleanup cycles over real ROS 2: they must not pile up subscriptions.

r2r destroys a dropped subscription only when its next message arrives, so a node that
subscribed its inputs anew at every configure and dropped them at cleanup kept one more
subscription per cycle on every quiet or latched topic (`obstacle_instances` with no
publisher, `/tf_static` whose latched sample came once): 100 cycles left 102 on each, the
memory and the spin's CPU growing with them. The node reuses its subscriptions from one
configuration to the next (ARCHITECTURE.md, "The ROS edge").

Here a node with autostart false runs 100 configure/cleanup cycles through its
`change_state` service (no manager, one client: the cycles are the cost), with a latched
`/tf_static` published before it started and nothing on `obstacle_instances`. Then the
graph must show at most one subscription of the node on each of the two topics (and one
once configured again), and after a final configure and activate the node must still
work: the latched transform (published once, before the cycles) places an obstacle
instance given in the sensor's frame, and the collision flag follows the footprint and
that obstacle (false while it is clear, true once it overlaps), from valid reports. An
instance published while the node was unconfigured never reaches it (obstacles never go
stale here, so one that did would stay in every report).

Each configured state lasts DWELL: long enough for the new `/tf_static` subscription of a
node that makes one per configure to receive the latched sample while in use (one dropped
before that is destroyed by r2r when the sample comes, and would hide the pile-up).

Run by scripts/test.sh (after `cargo build --bins`).
"""

import math
import os
import time

from lifecycle_manager import ACTIVATE, ACTIVE, CLEANUP, CONFIGURE, INACTIVE, UNCONFIGURED
from satpkg_support import NODE_NAME, Proc, Reports, RosPeer, binary, namespace, square

if not os.environ.get('ROS_DOMAIN_ID'):
    # Before rclpy creates a context: separate runs must not hear each other.
    os.environ['ROS_DOMAIN_ID'] = str(1 + os.getpid() % 100)

CYCLES = 100
DWELL = 0.05
# The sensor frame in the global frame (the footprint's, map): static, latched.
SENSOR_IN_MAP = (3.0, -1.0, math.pi / 2)


def _static_transform(parent, child, pose):
    from geometry_msgs.msg import TransformStamped

    t = TransformStamped()
    t.header.frame_id, t.child_frame_id = parent, child
    x, y, yaw = pose
    t.transform.translation.x, t.transform.translation.y = float(x), float(y)
    t.transform.rotation.z, t.transform.rotation.w = math.sin(yaw / 2), math.cos(yaw / 2)
    return t


def _in_sensor(x, y):
    """Map point (x, y) in the sensor frame (the inverse of SENSOR_IN_MAP)."""
    sx, sy, yaw = SENSOR_IN_MAP
    c, s = math.cos(yaw), math.sin(yaw)
    dx, dy = x - sx, y - sy
    return (c * dx + s * dy, -s * dx + c * dy)


class Lifecycle:
    """The node's change_state and get_state services, one client each."""

    def __init__(self, peer, fqn):
        from lifecycle_msgs.srv import ChangeState, GetState

        self.ChangeState, self.GetState = ChangeState, GetState
        self.change = peer.node.create_client(ChangeState, f'{fqn}/change_state')
        self.get = peer.node.create_client(GetState, f'{fqn}/get_state')
        for client in (self.change, self.get):
            assert client.wait_for_service(timeout_sec=30.0), client.srv_name

    @staticmethod
    def _call(client, request, timeout=10.0):
        future = client.call_async(request)
        deadline = time.monotonic() + timeout
        while not future.done():
            assert time.monotonic() < deadline, f'no answer from {client.srv_name}'
            time.sleep(0.001)
        return future.result()

    def transition(self, transition_id):
        request = self.ChangeState.Request()
        request.transition.id = transition_id
        return self._call(self.change, request).success

    def state(self):
        return self._call(self.get, self.GetState.Request()).current_state.id


def _node_subscriptions(peer, ns, topic):
    return [i for i in peer.node.get_subscriptions_info_by_topic(topic)
            if i.node_name == NODE_NAME and i.node_namespace == ns]


def _rss_mb(pid):
    with open(f'/proc/{pid}/status') as f:
        for line in f:
            if line.startswith('VmRSS:'):
                return int(line.split()[1]) / 1024
    return float('nan')


def test_configure_cleanup_cycles_keep_one_subscription_per_input():
    from geometry_msgs.msg import Point32, PolygonInstanceStamped
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from tf2_msgs.msg import TFMessage

    ns = namespace('lc_cycles')
    fqn = f'{ns}/{NODE_NAME}'
    instances = f'{ns}/obstacle_instances'
    # Frames of this run only: /tf_static is global.
    world, sensor = f'map_{os.getpid()}', f'sensor_{os.getpid()}'
    peer = RosPeer(f'lc_cycles_{os.getpid()}')
    try:
        static_qos = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                                reliability=ReliabilityPolicy.RELIABLE)
        static_pub = peer.node.create_publisher(TFMessage, '/tf_static', static_qos)
        static_pub.publish(TFMessage(transforms=[
            _static_transform(world, sensor, SENSOR_IN_MAP)]))
        with Proc([binary(NODE_NAME), '--ros-args', '-r', f'__ns:={ns}',
                   '-p', 'autostart:=false', '-p', 'obstacles_timeout:=0.0']) as node:
            lifecycle = Lifecycle(peer, fqn)
            assert lifecycle.state() == UNCONFIGURED
            rss_before = _rss_mb(node.proc.pid)
            started = time.monotonic()
            for cycle in range(CYCLES):
                assert lifecycle.transition(CONFIGURE), (cycle, node.output[-2000:])
                time.sleep(DWELL)
                assert lifecycle.transition(CLEANUP), (cycle, node.output[-2000:])
            cycles_took = time.monotonic() - started
            assert lifecycle.state() == UNCONFIGURED
            rss_after = _rss_mb(node.proc.pid)
            print(f'{CYCLES} cycles in {cycles_took:.1f} s; RSS {rss_before:.1f} -> '
                  f'{rss_after:.1f} MB')

            # The graph, unconfigured after the cycles: at most one subscription each
            # (read for a while: the graph follows the node's endpoints late).
            counts = {'/tf_static': 0, instances: 0}
            until = time.monotonic() + 2.0
            while time.monotonic() < until:
                for topic in counts:
                    counts[topic] = max(counts[topic],
                                        len(_node_subscriptions(peer, ns, topic)))
                time.sleep(0.1)
            print(f'subscriptions after {CYCLES} cycles: {counts}')
            assert all(n <= 1 for n in counts.values()), counts

            reports = Reports(peer, ns, frame=world)
            reports.points = square(0.0, 0.0)
            inst_pub = peer.node.create_publisher(PolygonInstanceStamped, instances, 10)
            obstacle = {'at': (2.0, 0.0)}  # in map: clear of the footprint

            def publish_instance(ident=7, at=None):
                msg = PolygonInstanceStamped()
                msg.header.frame_id = sensor
                msg.polygon.id = ident
                msg.polygon.polygon.points = [
                    Point32(x=float(x), y=float(y), z=0.0)
                    for x, y in (_in_sensor(*p) for p in square(*(at or obstacle['at'])))]
                inst_pub.publish(msg)

            # While unconfigured: an instance on the footprint, for nobody.
            for _ in range(10):
                publish_instance(9, (0.0, 0.0))
                time.sleep(0.02)

            # Configured and active again: it still works.
            timer = peer.node.create_timer(0.1, publish_instance)
            try:
                assert lifecycle.transition(CONFIGURE), node.output[-2000:]
                assert lifecycle.state() == INACTIVE
                assert lifecycle.transition(ACTIVATE), node.output[-2000:]
                assert lifecycle.state() == ACTIVE
                # The instance in the sensor frame, placed by the latched transform alone.
                clear = reports.wait(lambda r: r.valid and not r.colliding and any(
                    o.id == 'instance_7' for o in r.results), 'the instance, valid and clear',
                    timeout=10.0)
                assert clear.status == 'ok', clear.status
                assert [o.id for o in clear.results] == ['instance_7'], clear.results
                until = time.monotonic() + 5.0
                while reports.next_flag() is not False:
                    assert time.monotonic() < until, 'no false collision flag'
                obstacle['at'] = (0.3, 0.0)  # overlapping the footprint
                hit = reports.wait(lambda r: r.valid and r.colliding, 'a valid collision',
                                   timeout=10.0)
                assert [o.id for o in hit.results] == ['instance_7'], hit.results
                until = time.monotonic() + 5.0
                while reports.next_flag() is not True:
                    assert time.monotonic() < until, 'no true collision flag'
                # One subscription each (a replaced one goes with its topic's next
                # message, and the graph follows late).
                until = time.monotonic() + 3.0
                while True:
                    counts = {topic: len(_node_subscriptions(peer, ns, topic))
                              for topic in ('/tf_static', instances)}
                    if all(n == 1 for n in counts.values()) or time.monotonic() > until:
                        break
                    time.sleep(0.1)
                assert all(n == 1 for n in counts.values()), counts
            finally:
                peer.node.destroy_timer(timer)
            assert 'panicked' not in node.output
    finally:
        peer.close()
