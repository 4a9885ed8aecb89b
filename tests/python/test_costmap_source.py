"""A costmap source (nav2 main's `type: costmap`, `nav2_msgs/Costmap`) over ROS 2, driven
by a recording: the test writes an MCAP of a simulated run (`/clock` at 100 Hz, `/tf`
odom -> base at 20 Hz, a local costmap at 5 Hz, commands at 20 Hz), plays it to the real
node at 1x (each message published at its log time, `/clock` included, the node on
`use_sim_time`), and checks the gated commands phase by phase:

* a lethal cell 0.125 m beyond the stop zone: the command passes;
* a lethal cell whose square touches the zone's edge while its centre is outside (nav2
  takes the centre and lets the command pass): zeros;
* a costmap whose data are shorter than size_x * size_y: an invalid source, zeros;
* each time a good costmap comes back: the command passes again.

The same MCAP is then replayed offline (`sat_collision replay`) with the same
parameters, and its answers in each phase are the node's.

Geometry in binary fractions (0.125 m cells, the zone's edges on cell edges), exact in
float32 as the message carries them. Frame ids are unique to the run (`/tf` is global).

Run by scripts/test.sh (after `cargo build --bins`).
"""

import json
import os
import subprocess
import threading
import time
from pathlib import Path

import yaml

from satpkg_support import NODE_NAME, RosPeer, binary, namespace, start_node
from test_replay_agreement import msgdef, twist_values

TAG = f'costmap_{os.getpid()}'
BASE, ODOM = f'base_{TAG}', f'odom_{TAG}'
# The zone ahead, x in [0.375, 0.625], y in [-0.25, 0.25]; the robot a 0.5 m square.
STOP = [(0.625, 0.25), (0.625, -0.25), (0.375, -0.25), (0.375, 0.25)]
ROBOT = [(0.25, 0.25), (0.25, -0.25), (-0.25, -0.25), (-0.25, 0.25)]
# The costmap: 16 x 16 cells of 0.125 m, its corner at (0, -1) in odom (the robot stays
# at odom's origin): cell (i, j) covers [i / 8, (i + 1) / 8] x [j / 8 - 1, (j + 1) / 8 - 1].
RESOLUTION, SIZE, ORIGIN = 0.125, 16, (0.0, -1.0)
BEYOND = (6, 8)    # [0.75, 0.875] x [0, 0.125]: clear of the zone
TOUCHING = (5, 8)  # [0.625, 0.75] x [0, 0.125]: its edge on the zone's, centre outside
# Phases of the run (start s of simulated time after T0, what the costmap holds).
PHASES = [(0.0, 'beyond'), (1.5, 'touching'), (3.0, 'beyond'), (4.5, 'malformed'),
          (5.5, 'beyond')]
DURATION = 6.5
# Each phase's first moments are left out of the checks: a costmap and the commands
# after it need a publish period and delivery to reach the node.
SETTLE = 0.4
T0 = 1000.0
CMD_X = 0.3
SOURCE_TIMEOUT = 1.0

TYPES = {
    'clock': 'rosgraph_msgs/msg/Clock',
    'tf': 'tf2_msgs/msg/TFMessage',
    'costmap': 'nav2_msgs/msg/Costmap',
    'twist': 'geometry_msgs/msg/Twist',
}
# Topic in the MCAP (the node's names, relative to its namespace, taken as a node in `/`
# names them) -> type key.
TOPICS = {'/clock': 'clock', '/tf': 'tf', '/costmap': 'costmap', '/cmd_in': 'twist'}


def text(points):
    return '[' + ', '.join(f'[{x}, {y}]' for x, y in points) + ']'


def params():
    body = {
        'use_sim_time': True,
        'publish_rate': 20.0,
        'base_frame_id': BASE,
        'base_frame': BASE,
        'odom_frame_id': ODOM,
        'robot_footprint': text(ROBOT),
        'base_shift_correction': True,
        'cmd_vel_in_topic': 'cmd_in',
        'cmd_vel_out_topic': 'cmd_out',
        'stop_pub_timeout': 3600.0,
        'source_timeout': SOURCE_TIMEOUT,
        'hardware_id': TAG,
        'observation_sources': ['costmap'],
        'costmap': {'type': 'costmap', 'topic': 'costmap'},
        'polygons': ['stop'],
        'stop': {'type': 'polygon', 'points': text(STOP), 'action_type': 'stop',
                 'min_points': 1},
    }
    return {NODE_NAME: {'ros__parameters': body}}


def phase_at(t):
    return [name for start, name in PHASES if start <= t][-1]


def settled(t):
    """Whether `t` (s after T0) is past its phase's settling time."""
    start = [s for s, _ in PHASES if s <= t][-1]
    return t - start >= SETTLE


# --- the recording -------------------------------------------------------------------------

def stamp(msg_time, t):
    ns = round(t * 1e9)
    msg_time.sec, msg_time.nanosec = ns // 1_000_000_000, ns % 1_000_000_000


def costmap_msg(t, phase):
    from nav2_msgs.msg import Costmap

    msg = Costmap()
    stamp(msg.header.stamp, t)
    msg.header.frame_id = ODOM
    meta = msg.metadata
    stamp(meta.update_time, t)
    meta.layer = 'master'
    meta.resolution = RESOLUTION
    meta.size_x = meta.size_y = SIZE
    meta.origin.position.x, meta.origin.position.y = ORIGIN
    meta.origin.orientation.w = 1.0
    data = [0] * (SIZE * SIZE)
    cell = TOUCHING if phase == 'touching' else BEYOND
    data[cell[1] * SIZE + cell[0]] = 254
    if phase == 'malformed':
        data = data[:-SIZE]  # one row short of size_x * size_y
    msg.data = data
    return msg


def tf_msg(t):
    from geometry_msgs.msg import TransformStamped
    from tf2_msgs.msg import TFMessage

    transform = TransformStamped()
    stamp(transform.header.stamp, t)
    transform.header.frame_id, transform.child_frame_id = ODOM, BASE
    transform.transform.rotation.w = 1.0
    return TFMessage(transforms=[transform])


def recording():
    """The simulated run: (time s after T0, topic, message), in order."""
    from geometry_msgs.msg import Twist
    from rosgraph_msgs.msg import Clock

    records = []
    for k in range(int(DURATION * 100) + 1):
        t = k / 100.0
        clock = Clock()
        stamp(clock.clock, T0 + t)
        records.append((t, '/clock', clock))
        if k % 5 == 0:
            records.append((t + 0.001, '/tf', tf_msg(T0 + t)))
        if k % 20 == 10:
            records.append((t + 0.002, '/costmap', costmap_msg(T0 + t, phase_at(t))))
        if k % 5 == 2:
            twist = Twist()
            twist.linear.x = CMD_X
            records.append((t + 0.003, '/cmd_in', twist))
    return sorted(records, key=lambda r: r[0])


def write_mcap(path, records):
    from mcap_ros2.writer import Writer

    with open(path, 'wb') as f:
        writer = Writer(f)
        schemas = {key: writer.register_msgdef(name, msgdef(name)) for key, name in TYPES.items()}
        for t, topic, msg in records:
            log_time = round((T0 + t) * 1e9)
            writer.write_message(topic, schemas[TOPICS[topic]], msg, log_time=log_time,
                                 publish_time=log_time)
        writer.finish()


def read_mcap(path):
    """The recording back as a player reads it: (time s after T0, topic, its serialized
    bytes, as recorded), in log time order."""
    from mcap.reader import make_reader

    with open(path, 'rb') as f:
        return [(message.log_time * 1e-9 - T0, channel.topic, bytes(message.data))
                for _, channel, message in make_reader(f).iter_messages(log_time_order=True)]


# --- the player ----------------------------------------------------------------------------

class Player:
    """Publishes a recording at 1x into the node's namespace, `/clock` and `/tf` global,
    and records the node's gated commands with the simulated time they arrived at."""

    def __init__(self, peer, ns):
        from geometry_msgs.msg import Twist
        from nav2_msgs.msg import Costmap
        from rclpy.qos import QoSProfile
        from rosgraph_msgs.msg import Clock
        from tf2_msgs.msg import TFMessage

        node = peer.node
        self.node, self.ns = node, ns
        self.now = None
        self.lock = threading.Lock()
        self.outputs = []
        self.pubs = {
            '/clock': node.create_publisher(Clock, '/clock', QoSProfile(depth=10)),
            '/tf': node.create_publisher(TFMessage, '/tf', 100),
            '/costmap': node.create_publisher(Costmap, f'{ns}/costmap', 10),
            '/cmd_in': node.create_publisher(Twist, f'{ns}/cmd_in', 10),
        }
        self.sub = node.create_subscription(Twist, f'{ns}/cmd_out', self._on, 100)

    def _on(self, msg):
        with self.lock:
            if self.now is not None:
                self.outputs.append((self.now, twist_values(msg)))

    def wait_matched(self, timeout=20.0):
        deadline = time.monotonic() + timeout
        while not (all(p.get_subscription_count() > 0 for p in self.pubs.values())
                   and self.node.count_publishers(f'{self.ns}/cmd_out') > 0):
            assert time.monotonic() < deadline, 'the node did not match the player'
            time.sleep(0.05)
        time.sleep(0.3)

    def play(self, records):
        """Publishes each recorded message's bytes at its time (rclpy publishes a
        serialized message as it is)."""
        start = time.monotonic()
        for t, topic, msg in records:
            delay = start + t - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            if topic == '/clock':
                with self.lock:
                    self.now = t
            self.pubs[topic].publish(msg)
        time.sleep(0.2)
        return time.monotonic() - start


def by_phase(outputs):
    """{phase index: [moving?]} for the settled outputs (time s after T0, twist)."""
    phases = {}
    for t, value in outputs:
        if not settled(t) or t > DURATION:
            continue
        k = max(i for i, (s, _) in enumerate(PHASES) if s <= t)
        phases.setdefault(k, []).append(any(abs(v) > 1e-9 for v in value))
    return phases


def assert_phases(side, phases):
    for k, (start, name) in enumerate(PHASES):
        moving = phases.get(k, [])
        assert len(moving) >= 5, f'{side}: {len(moving)} outputs in phase {k} ({name})'
        if name == 'beyond':
            assert all(moving), f'{side}: phase {k} ({name}) stopped: {moving}'
        else:
            assert not any(moving), f'{side}: phase {k} ({name}) moved: {moving}'


def test_a_recorded_costmap_played_with_clock_gates_as_the_squares_say(tmp_path):
    records = recording()
    bag = tmp_path / 'costmap.mcap'
    write_mcap(bag, records)
    played = read_mcap(bag)
    assert len(played) == len(records)
    params_file = tmp_path / 'params.yaml'
    params_file.write_text(yaml.safe_dump(params()))

    ns = namespace('costmap')
    peer = RosPeer(f'costmap_player_{os.getpid()}')
    proc = None
    try:
        player = Player(peer, ns)
        proc = start_node(ns, params_file=str(params_file))
        player.wait_matched()
        took = player.play(played)
        assert took < DURATION + 1.0, f'played {DURATION} s in {took:.2f} s: not 1x'
        with player.lock:
            outputs = list(player.outputs)
    finally:
        if proc is not None:
            proc.stop()
        peer.close()
    assert_phases('node', by_phase(outputs))

    # The same recording replayed offline through the node's core.
    jsonl = tmp_path / 'replay.jsonl'
    result = subprocess.run([binary('sat_collision'), 'replay', str(bag), '--params',
                             str(params_file), '--jsonl', str(jsonl)],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode in (0, 1), f'{result.stdout}\n{result.stderr}'
    lines = [json.loads(line) for line in Path(jsonl).read_text().splitlines()]
    replayed = [(line['log_time_ns'] * 1e-9 - T0, twist_values(line['message']))
                for line in lines if line['topic'] == '/cmd_out']
    assert_phases('replay', by_phase(replayed))
