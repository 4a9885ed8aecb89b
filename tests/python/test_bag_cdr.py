"""The bag reader and CDR codec (src/bag) against rclpy: every message type the node
reads or publishes, built with rclpy with varied values (NaN and infinities, empty and
non-ASCII strings, empty and long sequences, extreme integers), serialized with
`rclpy.serialization.serialize_message`, recorded with the Python `mcap` writer in
every form `sat_collision bag-dump` reads:

* MCAP with zstd chunks, lz4 chunks, uncompressed chunks, and no chunks;
* rosbag2's whole-file compression (`.mcap.zstd`);
* rosbag2 directories (metadata.yaml): split files, whole-file and per-message
  compression.

`bag-dump` prints one JSON line per message; each is compared, field by field and in
the message's field order, with the message rclpy reads back from the same bytes. With
`--rewrite`, the decoded messages are encoded again into an MCAP of our own: its bytes
must be rclpy's (but for alignment padding, which Fast-CDR leaves uninitialised and we
zero, and the end padding of fixed-size types), rclpy must read them back to the same message, and `mcap_ros2` (which reads our ros2msg schemas, not
rclpy's) must decode them to the same values.

No ROS graph: nothing is published, only rclpy's serialization is used.
"""

import array
import json
import math
import subprocess
import time
from pathlib import Path

import numpy
import pytest
import zstandard
from builtin_interfaces.msg import Duration, Time
from bond.msg import Status as BondStatus
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import (
    Point, Point32, Polygon, PolygonInstance, PolygonInstanceStamped, PolygonStamped,
    TransformStamped, Twist, TwistStamped,
)
from lifecycle_msgs.msg import TransitionEvent
from mcap.reader import make_reader
from mcap.writer import CompressionType, Writer
from mcap_ros2.decoder import DecoderFactory
from nav2_msgs.msg import CollisionMonitorState
from nav_msgs.msg import Odometry
from rclpy.serialization import deserialize_message, serialize_message
from rosgraph_msgs.msg import Clock
from sat_collision_msgs.msg import (
    CollisionReport, FleetRobot, Obstacle, ObstacleArray, ObstacleResult,
)
from sensor_msgs.msg import LaserScan, PointCloud2, PointField, Range
from std_msgs.msg import Bool, ColorRGBA, Float32, Header, String
from tf2_msgs.msg import TFMessage
from visualization_msgs.msg import Marker, MarkerArray, UVCoordinate

from satpkg_support import binary

NAN, INF = float('nan'), float('inf')
TEXT = 'ünïcødé ✓ 日本'
FLOATS = [0.0, -0.0, 0.1, -1.5e-30, 3.4e38, 1e300, NAN, INF, -INF]


def header(k, frame=''):
    return Header(stamp=Time(sec=-(2 ** 31) if k % 2 else 2 ** 31 - 1,
                             nanosec=999_999_999 * (k % 2)), frame_id=frame)


def polygon(n, k=0.0):
    return Polygon(points=[Point32(x=float(i) + k, y=-float(i) * 0.5, z=FLOATS[i % 6])
                           for i in range(n)])


def scans():
    yield LaserScan()
    m = LaserScan(header=header(1, TEXT), angle_min=-math.pi, angle_max=math.pi,
                  angle_increment=NAN, time_increment=INF, scan_time=-INF,
                  range_min=0.1, range_max=3.4e38)
    m.ranges = [i * 0.01 for i in range(3000)] + [INF, -INF, NAN, 0.1]
    m.intensities = [float(i) for i in range(100)]
    yield m


def clouds():
    yield PointCloud2()
    fields = [PointField(name=n, offset=4 * i, datatype=PointField.FLOAT32, count=1)
              for i, n in enumerate('xyz')] + [PointField(name='ïntensity', offset=12,
                                                          datatype=2, count=3)]
    data = bytes(range(256)) * 64
    yield PointCloud2(header=header(0, 'lidar'), height=2, width=len(data) // 32,
                      fields=fields, is_bigendian=True, point_step=16, row_step=len(data) // 2,
                      data=data, is_dense=True)


def ranges():
    yield Range()
    yield Range(header=header(1, 'sonar'), radiation_type=Range.INFRARED, field_of_view=0.3,
                min_range=0.02, max_range=4.0, range=-INF, variance=NAN)


def polygons():
    yield PolygonStamped()
    yield PolygonStamped(header=header(0, 'base_link'), polygon=polygon(5000))
    yield PolygonInstanceStamped()
    yield PolygonInstanceStamped(header=header(1, TEXT), polygon=PolygonInstance(
        polygon=polygon(4, 0.25), id=-(2 ** 63)))


def twists():
    t = Twist()
    t.linear.x, t.linear.y, t.linear.z = 0.5, NAN, -INF
    t.angular.x, t.angular.y, t.angular.z = 1e-300, 0.0, -2.5
    yield Twist()
    yield t
    yield TwistStamped()
    yield TwistStamped(header=header(1, 'base_link'), twist=t)


def odometry():
    yield Odometry()
    m = Odometry(header=header(0, 'odom'), child_frame_id=TEXT)
    m.pose.pose.position.x = 1e300
    m.pose.pose.orientation.w = 1.0
    m.pose.covariance = [float(i) * 0.5 - 3 for i in range(36)]
    m.twist.twist.linear.x = NAN
    m.twist.covariance = [FLOATS[i % len(FLOATS)] for i in range(36)]
    yield m


def tf():
    yield TFMessage()
    transforms = []
    for i in range(300):
        t = TransformStamped(header=header(i, 'map' if i == 0 else f'frame_{i - 1}'),
                             child_frame_id=f'frame_{i}')
        t.transform.translation.x = float(i)
        t.transform.rotation.w = FLOATS[i % len(FLOATS)]
        transforms.append(t)
    yield TFMessage(transforms=transforms)


def small():
    yield Clock()
    yield Clock(clock=Time(sec=1_700_000_000, nanosec=123_456_789))
    for v in (0.0, NAN, INF, -INF, 1e-45, -3.4e38):
        yield Float32(data=v)
    yield Bool()
    yield Bool(data=True)
    yield CollisionMonitorState()
    yield CollisionMonitorState(action_type=CollisionMonitorState.LIMIT, polygon_name=TEXT)


def obstacles():
    yield ObstacleArray()
    yield ObstacleArray(header=header(1, 'map'), obstacles=[
        Obstacle(id=f'o{i}' if i % 3 else '', polygon=polygon(i % 7, float(i)),
                 radius=FLOATS[i % len(FLOATS)]) for i in range(1200)])


def fleet():
    from geometry_msgs.msg import PoseStamped

    yield FleetRobot()
    m = FleetRobot(header=header(1, 'map'), robot_id=TEXT, session=2 ** 64 - 1, sequence=7,
                   footprint=polygon(5, 0.5), max_linear_speed=1.5, max_angular_speed=NAN)
    m.pose.position.x, m.pose.orientation.z, m.pose.orientation.w = -3.25, 0.6, 0.8
    m.twist.linear.x, m.twist.angular.z = 0.75, -INF
    m.plan.header = header(0, 'map')
    for k in range(40):
        p = PoseStamped(header=header(k, 'map'))
        p.pose.position.y = FLOATS[k % len(FLOATS)]
        p.pose.orientation.w = 1.0
        m.plan.poses.append(p)
    yield m


def reports():
    yield CollisionReport()
    yield CollisionReport(
        header=header(0, 'base_link'), colliding=True, valid=False, status='stale_source',
        min_distance=INF, nearest_obstacle_id=TEXT, time_to_collision=-1.0,
        predicted_obstacle_id='', prediction_status='ok',
        results=[ObstacleResult(id=f'r{i}', status='ok', colliding=bool(i % 2),
                                penetration_depth=FLOATS[i % len(FLOATS)], distance=NAN,
                                exact=i % 3 == 0, points_inside=2 ** 32 - 1 - i)
                 for i in range(50)])


def markers():
    yield MarkerArray()
    ms = []
    for i in range(20):
        m = Marker(header=header(i, 'map'), ns=TEXT, id=-(2 ** 31) + i, type=i % 13,
                   action=Marker.DELETEALL if i == 19 else Marker.ADD,
                   lifetime=Duration(sec=-1, nanosec=5), frame_locked=i % 2 == 1,
                   text='' if i % 2 else TEXT, mesh_resource='package://x/m.dae',
                   mesh_use_embedded_materials=True)
        m.pose.orientation.w = 1.0
        m.scale.x = 0.05
        m.color = ColorRGBA(r=1.0, g=NAN, b=0.25, a=INF)
        m.points = [Point(x=float(k), y=-float(k), z=1e-300) for k in range(i * 10)]
        m.colors = [ColorRGBA(r=0.1, g=0.2, b=0.3, a=1.0)] * i
        m.texture_resource = 'embedded://tex'
        m.texture.format = 'png'
        m.texture.data = bytes(range(i))
        m.uv_coordinates = [UVCoordinate(u=0.5, v=-0.5)] * (i % 4)
        m.mesh_file.filename = 'm.stl'
        m.mesh_file.data = bytes([255] * i)
        ms.append(m)
    yield MarkerArray(markers=ms)


def diagnostics():
    yield DiagnosticArray()
    yield DiagnosticArray(header=header(1), status=[
        DiagnosticStatus(level=bytes([i % 4]), name=f'sat_collision: {TEXT}', message='',
                         hardware_id='hw', values=[KeyValue(key=f'k{j}', value=str(j * 1.5))
                                                   for j in range(i)])
        for i in range(8)])


def lifecycle():
    yield TransitionEvent()
    e = TransitionEvent(timestamp=2 ** 64 - 1)
    e.transition.id, e.transition.label = 3, 'activate'
    e.start_state.id, e.start_state.label = 2, 'inactive'
    e.goal_state.id, e.goal_state.label = 13, 'activating'
    yield e
    yield BondStatus()
    yield BondStatus(header=header(0), id='sat_collision_node', instance_id=TEXT, active=True,
                     heartbeat_timeout=4.0, heartbeat_period=NAN)


def type_name(msg):
    module = type(msg).__module__.split('.')[0]
    return f'{module}/msg/{type(msg).__name__}'


def all_messages():
    """(topic, type, rclpy message as read back from its bytes, bytes) per message."""
    out = []
    for gen in (scans, clouds, ranges, polygons, twists, odometry, tf, small, obstacles,
                fleet, reports, markers, diagnostics, lifecycle):
        for msg in gen():
            data = serialize_message(msg)
            name = type_name(msg)
            out.append((f'/in/{name.replace("/msg/", "/")}', name,
                        deserialize_message(data, type(msg)), data))
    return out


MESSAGES = all_messages()
# A type bag-dump does not know, and a channel that is not CDR: message null, counted.
UNKNOWN = ('/chatter', 'std_msgs/msg/String', serialize_message(String(data='hi')))
NOT_CDR = ('/json', 'std_msgs/msg/Bool', b'{"data": true}')


def records():
    """(topic, type, encoding, log time, data) in file order: one log time backwards."""
    out = []
    t = 1_700_000_000_000_000_000
    for k, (topic, name, _, data) in enumerate(MESSAGES):
        out.append((topic, name, 'cdr', t + 1000 * k, data))
    # The log time of message 3 goes back (delivered in file order, counted).
    topic, name, enc, _, data = out[3]
    out[3] = (topic, name, enc, t - 5, data)
    out.append((UNKNOWN[0], UNKNOWN[1], 'cdr', t + 10 ** 9, UNKNOWN[2]))
    out.append((NOT_CDR[0], NOT_CDR[1], 'json', t + 10 ** 9 + 1, NOT_CDR[2]))
    return out


RECORDS = records()


def write_mcap(path, recs, compression=CompressionType.ZSTD, chunking=True, per_message=None):
    with open(path, 'wb') as f:
        w = Writer(f, chunk_size=16 * 1024, compression=compression, use_chunking=chunking,
                   enable_data_crcs=True)
        w.start(profile='ros2', library='test_bag_cdr')
        schemas, channels = {}, {}
        for topic, name, enc, t, data in recs:
            if name not in schemas:
                schemas[name] = w.register_schema(name=name, encoding='ros2msg',
                                                  data=f'# {name}\n'.encode())
            if topic not in channels:
                channels[topic] = w.register_channel(topic=topic, message_encoding=enc,
                                                     schema_id=schemas[name])
            if per_message:
                data = per_message(data)
            w.add_message(channel_id=channels[topic], log_time=t, data=data, publish_time=t + 1)
        w.finish()


def write_metadata(bag, files, mode=''):
    topics = {}
    for topic, name, enc, _, _ in RECORDS:
        topics.setdefault(topic, [name, enc, 0])[2] += 1
    lines = ['rosbag2_bagfile_information:', '  version: 9', '  storage_identifier: mcap',
             '  duration:', '    nanoseconds: 1000000001',
             '  starting_time:', '    nanoseconds_since_epoch: 1700000000000000000',
             f'  message_count: {len(RECORDS)}', '  topics_with_message_count:']
    for topic, (name, enc, n) in topics.items():
        lines += ['    - topic_metadata:', f'        name: {topic}', f'        type: {name}',
                  f'        serialization_format: {enc}', '        offered_qos_profiles: []',
                  '        type_description_hash: RIHS01_00',
                  f'      message_count: {n}']
    lines += [f'  compression_format: {"zstd" if mode else ""!r}',
              f'  compression_mode: {mode!r}', '  relative_file_paths:']
    lines += [f'    - {f}' for f in files]
    lines += ['  files: []', '  custom_data: ~', '  ros_distro: jazzy', '']
    (bag / 'metadata.yaml').write_text('\n'.join(lines))


def make_bag(kind, tmp):
    """The bag of `kind` under `tmp`, holding RECORDS."""
    half = len(RECORDS) // 2
    if kind in ('zstd', 'lz4', 'none', 'unchunked'):
        path = tmp / f'{kind}.mcap'
        comp = {'zstd': CompressionType.ZSTD, 'lz4': CompressionType.LZ4}.get(
            kind, CompressionType.NONE)
        write_mcap(path, RECORDS, comp, chunking=kind != 'unchunked')
        return path
    if kind == 'whole_file':
        plain = tmp / 'plain.mcap'
        write_mcap(plain, RECORDS, CompressionType.NONE)
        path = tmp / 'bag_0.mcap.zstd'
        path.write_bytes(zstandard.ZstdCompressor().compress(plain.read_bytes()))
        return path
    bag = tmp / kind
    bag.mkdir()
    if kind == 'directory':
        write_mcap(bag / 'bag_0.mcap', RECORDS[:half], CompressionType.LZ4)
        write_mcap(bag / 'bag_1.mcap', RECORDS[half:], CompressionType.ZSTD)
        write_metadata(bag, ['bag_0.mcap', 'bag_1.mcap'])
    elif kind == 'directory_file':
        for k, part in enumerate((RECORDS[:half], RECORDS[half:])):
            write_mcap(tmp / f'p{k}.mcap', part, CompressionType.NONE)
            (bag / f'bag_{k}.mcap.zstd').write_bytes(
                zstandard.ZstdCompressor().compress((tmp / f'p{k}.mcap').read_bytes()))
        write_metadata(bag, ['bag_0.mcap.zstd', 'bag_1.mcap.zstd'], 'FILE')
    elif kind == 'directory_message':
        write_mcap(bag / 'bag_0.mcap', RECORDS, CompressionType.NONE,
                   per_message=zstandard.ZstdCompressor().compress)
        write_metadata(bag, ['bag_0.mcap'], 'MESSAGE')
    return bag


def bag_dump(path, *extra):
    result = subprocess.run([binary('sat_collision'), 'bag-dump', str(path), *extra],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()], result.stderr


def element_type(typ):
    """The element's type of a rosidl field type (`sequence<float>`, `double[36]`)."""
    if typ.startswith('sequence<'):
        typ = typ[len('sequence<'):-1]
    return typ.split('[')[0].split(',')[0]


def same_float(ros, value, f32):
    if isinstance(value, str):
        return {'NaN': math.isnan(ros), 'Infinity': ros == INF,
                '-Infinity': ros == -INF}[value]
    if math.isnan(ros):
        return math.isnan(value)
    if f32:
        return numpy.float32(value) == numpy.float32(ros)
    return float(value) == ros


def compare(ros, value, typ, path, decoded=False):
    """The rclpy value `ros` (of rosidl type `typ`) against `value`: our JSON, or what
    mcap_ros2 decoded (`decoded`)."""
    if hasattr(ros, 'get_fields_and_field_types'):
        fields = ros.get_fields_and_field_types()
        if not decoded:
            assert list(value) == list(fields), path
        for name, ftyp in fields.items():
            v = getattr(value, name) if decoded else value[name]
            compare(getattr(ros, name), v, ftyp, f'{path}.{name}', decoded)
        return
    base = element_type(typ)
    if isinstance(ros, (list, tuple, array.array, numpy.ndarray)) or (
            isinstance(ros, bytes) and base != 'octet'):
        value = list(value)
        assert len(value) == len(ros), f'{path}: {len(value)} != {len(ros)}'
        for k, (r, v) in enumerate(zip(ros, value)):
            compare(r, v, base, f'{path}[{k}]', decoded)
        return
    if base == 'octet' and isinstance(ros, bytes):
        ros = ros[0]
    if isinstance(value, bytes):
        value = value[0]
    if base in ('float', 'double'):
        assert same_float(ros, value, base == 'float'), f'{path}: {value!r} != {ros!r}'
    else:
        assert value == ros and type(value) is type(ros) or (
            isinstance(ros, (int, numpy.integer)) and not isinstance(ros, bool)
            and value == ros), f'{path}: {value!r} != {ros!r}'


KINDS = ['zstd', 'lz4', 'none', 'unchunked', 'whole_file', 'directory', 'directory_file',
         'directory_message']


@pytest.mark.parametrize('kind', KINDS)
def test_bag_dump_matches_rclpy(kind, tmp_path):
    path = make_bag(kind, tmp_path)
    t0 = time.monotonic()
    lines, stderr = bag_dump(path)
    elapsed = time.monotonic() - t0
    assert len(lines) == len(RECORDS), stderr
    for k, (line, (topic, name, _, t, _)) in enumerate(zip(lines, RECORDS)):
        assert list(line) == ['log_time_ns', 'topic', 'type', 'message']
        assert (line['log_time_ns'], line['topic'], line['type']) == (t, topic, name), k
        if k < len(MESSAGES):
            compare(MESSAGES[k][2], line['message'], '', f'{kind}:{name}')
        else:
            assert line['message'] is None
    assert (f'{len(RECORDS)} messages, 1 of unknown type, 1 not decoded, 1 with a log time '
            'before the previous one') in stderr, stderr
    assert 'message encoding `json` is not cdr' in stderr
    print(f'{kind}: {len(RECORDS)} messages in {elapsed:.2f} s')


def test_rewrite_is_rclpys_bytes_and_our_schemas_decode(tmp_path):
    path = make_bag('zstd', tmp_path)
    out = tmp_path / 'rewritten.mcap'
    lines, _ = bag_dump(path, '--rewrite', str(out))
    assert len(lines) == len(RECORDS)
    with open(out, 'rb') as f:
        reader = make_reader(f, decoder_factories=[DecoderFactory()])
        assert reader.get_header().profile == 'ros2'
        got = list(reader.iter_decoded_messages(log_time_order=False))
    assert len(got) == len(MESSAGES)
    for (schema, channel, message, decoded), (topic, name, ros, data) in zip(got, MESSAGES):
        assert (channel.topic, channel.message_encoding) == (topic, 'cdr')
        assert (schema.name, schema.encoding) == (name, 'ros2msg')
        # Our encoder writes rclpy's bytes but for alignment padding, which we zero
        # (Fast-CDR leaves whatever its buffer held), and we pad nothing after the last
        # field (rclpy does for fixed-size types: a Bool is 8 bytes).
        assert 0 <= len(data) - len(message.data) <= 3, name
        assert all(a == b or a == 0 for a, b in zip(message.data, data)), name
        compare(ros, deserialize_message(message.data, type(ros)), '', f'rclpy:{name}',
                decoded=True)
        # mcap_ros2 reads them through our schema text: the same values.
        compare(ros, decoded, '', f'rewrite:{name}', decoded=True)
    # The rewritten file reads back through bag-dump: the same lines.
    again, _ = bag_dump(out)
    assert again == lines[:len(MESSAGES)]


def test_a_bad_bag_is_an_error_after_the_messages_before_it(tmp_path):
    path = make_bag('none', tmp_path)
    data = path.read_bytes()
    cut = tmp_path / 'cut.mcap'
    cut.write_bytes(data[:len(data) * 2 // 3])
    result = subprocess.run([binary('sat_collision'), 'bag-dump', str(cut)],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 2
    assert 'truncated' in result.stderr
    lines = result.stdout.splitlines()
    assert 0 < len(lines) < len(RECORDS)
    for line, (_, _, _, t, _) in zip(lines, RECORDS):
        assert json.loads(line)['log_time_ns'] == t
    empty = tmp_path / 'empty_dir'
    empty.mkdir()
    result = subprocess.run([binary('sat_collision'), 'bag-dump', str(empty)],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=120)
    assert (result.returncode, result.stdout) == (2, '')
    assert 'without metadata.yaml' in result.stderr
