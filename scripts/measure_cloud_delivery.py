#!/usr/bin/env python3
"""Measure how many sensor_msgs/PointCloud2 messages arrive between two processes.

A publisher process (the sensor driver) sends COUNT clouds of POINTS points (x, y, z,
intensity as float32: 16 bytes a point) at RATE Hz; a subscriber process (the node)
receives them. Both use the sensor-data QoS (best effort, volatile, keep last); the
subscriber's depth is --depth. Each cloud's header stamp is the time it was published;
latency is arrival (in the subscriber's callback, after deserialization) minus that stamp.

    source scripts/env.sh
    python3 scripts/measure_cloud_delivery.py --points 200000                 # Fast DDS defaults
    python3 scripts/measure_cloud_delivery.py --points 200000 \\
        --profile config/fastdds_large_data.xml --runs 5                      # the profile
    python3 scripts/measure_cloud_delivery.py --points 24000 --rate 30 --json

--profile PATH sets FASTRTPS_DEFAULT_PROFILES_FILE (the variable Fast DDS 2.x, ROS 2
Jazzy's, reads) and FASTDDS_DEFAULT_PROFILES_FILE (Fast DDS 3.x's) for the processes of
--profile-side (default both); without it neither variable is set (Fast DDS defaults; a
DEFAULT_FASTRTPS_PROFILES.xml in the working directory is not read either: the children
run in a temporary directory). Other variables (ROS_DOMAIN_ID, RMW_IMPLEMENTATION,
ROS_AUTOMATIC_DISCOVERY_RANGE, RMW_FASTRTPS_PUBLICATION_MODE, ...) are passed on as they
are; --publication-mode sets RMW_FASTRTPS_PUBLICATION_MODE for the publisher only.

--udp-only measures the path between two machines on this one: both processes get a copy
of the profile (or of Fast DDS's defaults) whose participants use only its UDPv4
transports, and ROS_AUTOMATIC_DISCOVERY_RANGE=SUBNET (with LOCALHOST, rmw_fastrtps would
add a shared-memory transport of its own).

Reported per run: clouds delivered of those sent (intact ones: width, point_step and data
length as sent), the longest run of consecutive lost clouds (what a freshness timeout must
cover), latency p50 / p99 / max in ms, and the time the publish call took (p50 / max).
Exit status 0 when every run finished (whatever was lost), 1 on a failure to run (no
discovery within --match-timeout, a child that died, ...), 2 on bad arguments.

Each run starts two fresh processes, so runs do not share DDS participants; on a shared
machine run several (--runs) and read the range.
"""

import argparse
import json
import os
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET

TOPIC = 'measure_cloud_delivery/points'  # + _<parent pid>: concurrent measurements stay apart
POINT_STEP = 16  # x, y, z, intensity: float32 each
PROFILE_VARS = ('FASTRTPS_DEFAULT_PROFILES_FILE', 'FASTDDS_DEFAULT_PROFILES_FILE')
FASTDDS_NS = 'http://www.eprosima.com/XMLSchemas/fastRTPS_Profiles'
UDP_ONLY_DEFAULT = f'''<?xml version="1.0" encoding="UTF-8"?>
<dds xmlns="{FASTDDS_NS}"><profiles>
  <transport_descriptors><transport_descriptor>
    <transport_id>udp_default</transport_id><type>UDPv4</type>
  </transport_descriptor></transport_descriptors>
  <participant profile_name="udp_only" is_default_profile="true"><rtps>
    <useBuiltinTransports>false</useBuiltinTransports>
    <userTransports><transport_id>udp_default</transport_id></userTransports>
  </rtps></participant>
</profiles></dds>
'''


# --- the two children -----------------------------------------------------------------------

def _say(tag, payload=None):
    """One line to the parent: TAG or TAG <json>."""
    line = tag if payload is None else f'{tag} {json.dumps(payload)}'
    sys.stdout.write(line + '\n')
    sys.stdout.flush()


def _die_with_parent():
    """PR_SET_PDEATHSIG: the kernel kills this child if the parent dies first."""
    try:
        import ctypes

        ctypes.CDLL('libc.so.6', use_errno=True).prctl(1, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def _node(name):
    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    context = rclpy.context.Context()
    rclpy.init(context=context)
    node = rclpy.create_node(name, context=context)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(node)
    return rclpy, context, node, executor


def _wait_line(expected, timeout):
    """Block until the parent writes the line `expected` on stdin (False on EOF/timeout)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([sys.stdin], [], [], 0.2)
        if ready:
            line = sys.stdin.readline()
            if not line:
                return False
            if line.strip() == expected:
                return True
    return False


def _sensor_qos(depth):
    from rclpy.qos import QoSProfile, qos_profile_sensor_data

    qos = QoSProfile(**{k: getattr(qos_profile_sensor_data, k) for k in (
        'history', 'reliability', 'durability')}, depth=depth)
    return qos


def run_subscriber(args):
    from sensor_msgs.msg import PointCloud2

    rclpy, context, node, executor = _node('measure_cloud_subscriber')
    received = []  # (stamp ns, arrival ns, intact)
    lock = threading.Lock()

    def on_cloud(msg):
        arrival = time.time_ns()
        stamp = msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec
        intact = (msg.width == args.points and msg.height == 1
                  and msg.point_step == POINT_STEP and len(msg.data) == args.points * POINT_STEP)
        with lock:
            received.append((stamp, arrival, intact))

    node.create_subscription(PointCloud2, args.topic, on_cloud, _sensor_qos(args.depth))
    stop = threading.Event()

    def spin():
        while not stop.is_set() and context.ok():
            executor.spin_once(timeout_sec=0.05)

    spinner = threading.Thread(target=spin, daemon=True)
    spinner.start()
    deadline = time.monotonic() + args.match_timeout
    while node.count_publishers(args.topic) < 1:
        if time.monotonic() > deadline:
            _say('ERROR', {'what': 'subscriber: no publisher matched'})
            return 1
        time.sleep(0.05)
    _say('MATCHED')
    if not _wait_line('STOP', args.count / args.rate + 120):
        _say('ERROR', {'what': 'subscriber: no STOP from the parent'})
        return 1
    time.sleep(args.drain)
    stop.set()
    spinner.join(5)
    with lock:
        _say('RESULT', {'received': received})
    executor.shutdown()
    node.destroy_node()
    rclpy.shutdown(context=context)
    return 0


def run_publisher(args):
    import array

    from sensor_msgs.msg import PointCloud2, PointField

    rclpy, context, node, executor = _node('measure_cloud_publisher')
    publisher = node.create_publisher(PointCloud2, args.topic, _sensor_qos(args.pub_depth))
    msg = PointCloud2()
    msg.header.frame_id = 'measure_cloud'
    msg.height = 1
    msg.width = args.points
    msg.fields = [PointField(name=n, offset=4 * i, datatype=PointField.FLOAT32, count=1)
                  for i, n in enumerate(('x', 'y', 'z', 'intensity'))]
    msg.is_bigendian = False
    msg.point_step = POINT_STEP
    msg.row_step = POINT_STEP * args.points
    msg.is_dense = True
    # Contents do not matter to the transport (DDS does not compress); random bytes.
    msg.data = array.array('B', os.urandom(POINT_STEP * args.points))
    deadline = time.monotonic() + args.match_timeout
    while publisher.get_subscription_count() < 1:
        if time.monotonic() > deadline:
            _say('ERROR', {'what': 'publisher: no subscription matched'})
            return 1
        executor.spin_once(timeout_sec=0.05)
    _say('MATCHED')
    if not _wait_line('GO', args.match_timeout + 30):
        _say('ERROR', {'what': 'publisher: no GO from the parent'})
        return 1
    period_ns = int(1e9 / args.rate)
    start = time.monotonic_ns()
    stamps, publish_ns = [], []
    for i in range(args.count):
        due = start + i * period_ns
        wait = due - time.monotonic_ns()
        if wait > 0:
            time.sleep(wait / 1e9)
        now = time.time_ns()
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(now, 1_000_000_000)
        t0 = time.monotonic_ns()
        publisher.publish(msg)
        publish_ns.append(time.monotonic_ns() - t0)
        stamps.append(now)
    elapsed = (time.monotonic_ns() - start) / 1e9
    _say('RESULT', {'stamps': stamps, 'publish_ns': publish_ns, 'elapsed_s': elapsed})
    # Stay (the participant, its shared-memory segment) until the subscriber has drained.
    _wait_line('EXIT', args.drain + 120)
    executor.shutdown()
    node.destroy_node()
    rclpy.shutdown(context=context)
    return 0


# --- the parent ---------------------------------------------------------------------------

class Child:
    """A child process (this script, --role ROLE) talking line by line on stdin/stdout."""

    def __init__(self, role, args, env, cwd):
        argv = [sys.executable, os.path.abspath(__file__), '--role', role,
                '--points', str(args.points), '--count', str(args.count),
                '--rate', str(args.rate), '--depth', str(args.depth),
                '--pub-depth', str(args.pub_depth), '--drain', str(args.drain),
                '--match-timeout', str(args.match_timeout), '--topic', args.topic]
        self.role = role
        self.lines = []
        self.cond = threading.Condition()
        self.proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, bufsize=1, start_new_session=True,
                                     preexec_fn=_die_with_parent)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            with self.cond:
                self.lines.append(line.rstrip('\n'))
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def expect(self, tag, timeout):
        """The payload of the first line TAG [json] (None for a bare TAG)."""
        deadline = time.monotonic() + timeout
        seen = 0
        with self.cond:
            while True:
                for line in self.lines[seen:]:
                    head, _, rest = line.partition(' ')
                    if head == tag:
                        return json.loads(rest) if rest else None
                    if head == 'ERROR':
                        raise RuntimeError(f'{self.role}: {rest}\n' + self.output())
                seen = len(self.lines)
                left = deadline - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and not self.reader.is_alive()):
                    raise RuntimeError(f'{self.role}: no {tag} within {timeout:.0f} s (exit '
                                       f'code {self.proc.poll()})\n' + self.output())
                self.cond.wait(min(left, 0.2))

    def output(self):
        with self.cond:
            return '\n'.join(f'  [{self.role}] {line}' for line in self.lines
                             if not line.startswith('RESULT '))

    def send(self, line):
        try:
            self.proc.stdin.write(line + '\n')
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def close(self, timeout=10):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(10)


def udp_only_profile(profile, out_path):
    """Write a copy of `profile` (None: Fast DDS's defaults) whose participants keep only
    their UDPv4 transports; return its path. ValueError when nothing of UDP would be left."""
    if profile is None:
        with open(out_path, 'w') as f:
            f.write(UDP_ONLY_DEFAULT)
        return out_path
    ET.register_namespace('', FASTDDS_NS)
    tree = ET.parse(profile)
    q = f'{{{FASTDDS_NS}}}'
    kinds = {d.findtext(f'{q}transport_id'): d.findtext(f'{q}type')
             for d in tree.iter(f'{q}transport_descriptor')}
    participants = list(tree.iter(f'{q}participant'))
    for participant in participants:
        users = participant.find(f'{q}rtps/{q}userTransports')
        builtin = participant.findtext(f'{q}rtps/{q}useBuiltinTransports', 'true')
        if users is None or builtin.strip() != 'false':
            raise ValueError(f'{profile}: participant {participant.get("profile_name")!r} '
                             'does not list its transports (userTransports, '
                             'useBuiltinTransports false): cannot make it UDP-only')
        for tid in list(users):
            if kinds.get(tid.text) != 'UDPv4':
                users.remove(tid)
        if not len(users):
            raise ValueError(f'{profile}: participant {participant.get("profile_name")!r} '
                             'has no UDPv4 transport')
    if not participants:
        raise ValueError(f'{profile}: no participant profile')
    tree.write(out_path, encoding='UTF-8', xml_declaration=True)
    return out_path


def child_env(args, role):
    env = dict(os.environ)
    for var in PROFILE_VARS:
        env.pop(var, None)
    profile = args.udp_profile or (os.path.abspath(args.profile) if args.profile else None)
    if profile and args.profile_side in ('both', role):
        for var in PROFILE_VARS:
            env[var] = profile
    if args.udp_only:
        env['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'SUBNET'
    if role == 'publisher' and args.publication_mode:
        env['RMW_FASTRTPS_PUBLICATION_MODE'] = args.publication_mode
    env['PYTHONUNBUFFERED'] = '1'
    return env


def percentile(values, q):
    """The q-th percentile (0..100) by linear interpolation between closest ranks."""
    if not values:
        return None
    s = sorted(values)
    pos = (len(s) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def summarize(sent, received, args):
    """Delivery and latency of one run, from the publisher's and subscriber's records."""
    index = {stamp: i for i, stamp in enumerate(sent['stamps'])}
    arrived = [False] * len(sent['stamps'])
    latencies, malformed, unknown = [], 0, 0
    for stamp, arrival, intact in received:
        i = index.get(stamp)
        if i is None:
            unknown += 1
            continue
        if not intact:
            malformed += 1
            continue
        arrived[i] = True
        latencies.append((arrival - stamp) / 1e6)
    longest = run = 0
    for ok in arrived:
        run = 0 if ok else run + 1
        longest = max(longest, run)
    ms = [p / 1e6 for p in sent['publish_ns']]

    def rnd(x):
        return None if x is None else round(x, 2)

    return {
        'points': args.points, 'bytes': args.points * POINT_STEP, 'sent': len(arrived),
        'delivered': sum(arrived), 'malformed': malformed, 'unknown': unknown,
        'longest_loss_run': longest,
        'latency_ms': {'p50': rnd(percentile(latencies, 50)),
                       'p99': rnd(percentile(latencies, 99)),
                       'max': rnd(max(latencies) if latencies else None)},
        'publish_ms': {'p50': rnd(percentile(ms, 50)), 'max': rnd(max(ms) if ms else None)},
        'achieved_rate_hz': rnd((len(arrived) - 1) / sent['elapsed_s'])
        if sent['elapsed_s'] > 0 and len(arrived) > 1 else None,
    }


def one_run(args):
    with tempfile.TemporaryDirectory(prefix='measure_cloud_') as cwd:
        args.udp_profile = (udp_only_profile(args.profile, os.path.join(cwd, 'udp_only.xml'))
                            if args.udp_only else None)
        sub = Child('subscriber', args, child_env(args, 'subscriber'), cwd)
        pub = None
        try:
            pub = Child('publisher', args, child_env(args, 'publisher'), cwd)
            sub.expect('MATCHED', args.match_timeout + 30)
            pub.expect('MATCHED', args.match_timeout + 30)
            time.sleep(args.settle)
            pub.send('GO')
            sent = pub.expect('RESULT', args.count / args.rate * 10 + 60)
            sub.send('STOP')
            received = sub.expect('RESULT', args.drain + 60)['received']
            pub.send('EXIT')
        finally:
            sub.close()
            if pub is not None:
                pub.close()
    return summarize(sent, received, args)


def describe_env(args):
    return {
        'profile': os.path.abspath(args.profile) if args.profile else None,
        'profile_side': args.profile_side if args.profile else None,
        'rmw_implementation': os.environ.get('RMW_IMPLEMENTATION') or 'default (rmw_fastrtps_cpp)',
        'udp_only': args.udp_only,
        'discovery_range': 'SUBNET' if args.udp_only
        else os.environ.get('ROS_AUTOMATIC_DISCOVERY_RANGE') or 'default (SUBNET)',
        'publication_mode': args.publication_mode
        or os.environ.get('RMW_FASTRTPS_PUBLICATION_MODE') or 'default (SYNCHRONOUS)',
        'ros_domain_id': os.environ.get('ROS_DOMAIN_ID') or '0',
        'depth': args.depth, 'pub_depth': args.pub_depth, 'rate_hz': args.rate,
        'count': args.count,
    }


def print_text(setting, runs):
    print(f"{runs[0]['points']} points ({runs[0]['bytes'] / 1e6:.2f} MB) x {setting['count']} at "
          f"{setting['rate_hz']:g} Hz; profile: {setting['profile'] or 'none (defaults)'}"
          + (f" ({setting['profile_side']})" if setting['profile'] else '')
          + ('; UDP only' if setting['udp_only'] else '')
          + f"; discovery range: {setting['discovery_range']}; publication mode: "
          f"{setting['publication_mode']}; depth {setting['depth']}")
    def ms(x):
        return '-' if x is None else f'{x} ms'

    for i, r in enumerate(runs, 1):
        lat = r['latency_ms']
        print(f"  run {i}: delivered {r['delivered']:>3}/{r['sent']}  longest loss run "
              f"{r['longest_loss_run']:>2}  latency p50 {ms(lat['p50'])}  p99 {ms(lat['p99'])}  "
              f"max {ms(lat['max'])}  publish p50 {ms(r['publish_ms']['p50'])} max "
              f"{ms(r['publish_ms']['max'])}  rate {r['achieved_rate_hz']} Hz"
              + (f"  malformed {r['malformed']}" if r['malformed'] else ''))
    if len(runs) > 1:
        d = [r['delivered'] for r in runs]
        p50 = [r['latency_ms']['p50'] for r in runs if r['latency_ms']['p50'] is not None]
        p99 = [r['latency_ms']['p99'] for r in runs if r['latency_ms']['p99'] is not None]
        line = f"  range: delivered {min(d)}-{max(d)}/{runs[0]['sent']}"
        if p50:
            line += f"  p50 {min(p50)}-{max(p50)} ms  p99 {min(p99)}-{max(p99)} ms"
        print(line)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--points', type=int, default=24000,
                   help='points per cloud, 16 bytes each (default 24000 = 384 kB)')
    p.add_argument('--count', type=int, default=20, help='clouds per run (default 20)')
    p.add_argument('--rate', type=float, default=10.0, help='clouds per second (default 10)')
    p.add_argument('--profile', metavar='PATH',
                   help='Fast DDS XML profile for the processes (default: none, Fast DDS defaults)')
    p.add_argument('--profile-side', choices=('both', 'publisher', 'subscriber'), default='both',
                   help='which process gets --profile (default both)')
    p.add_argument('--publication-mode', choices=('SYNCHRONOUS', 'ASYNCHRONOUS', 'AUTO'),
                   help='RMW_FASTRTPS_PUBLICATION_MODE of the publisher '
                   "(default: the environment's)")
    p.add_argument('--udp-only', action='store_true',
                   help='UDPv4 transports only (the path between machines), '
                   'discovery range SUBNET')
    p.add_argument('--depth', type=int, default=1,
                   help='keep-last depth of the subscription (default 1)')
    p.add_argument('--pub-depth', type=int, default=5,
                   help='keep-last depth of the publisher (default 5, the sensor-data QoS)')
    p.add_argument('--runs', type=int, default=1,
                   help='repetitions, fresh processes each (default 1)')
    p.add_argument('--json', action='store_true', help='print one JSON object instead of text')
    p.add_argument('--drain', type=float, default=1.0,
                   help='seconds the subscriber keeps listening after the last cloud (default 1)')
    p.add_argument('--settle', type=float, default=0.5,
                   help='seconds between discovery and the first cloud (default 0.5)')
    p.add_argument('--match-timeout', type=float, default=30.0,
                   help='seconds to wait for discovery (default 30)')
    p.add_argument('--role', choices=('subscriber', 'publisher'), help=argparse.SUPPRESS)
    p.add_argument('--topic', default=f'{TOPIC}_{os.getpid()}', help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    for name in ('points', 'count', 'depth', 'pub_depth', 'runs'):
        if getattr(args, name) < 1:
            p.error(f'--{name.replace("_", "-")} must be at least 1')
    for name in ('rate', 'match_timeout'):
        if not getattr(args, name) > 0:
            p.error(f'--{name.replace("_", "-")} must be positive')
    for name in ('drain', 'settle'):
        if not getattr(args, name) >= 0:
            p.error(f'--{name} must not be negative')
    if args.points * POINT_STEP > 2**31 - 1:
        p.error('--points: a cloud must stay under 2 GiB')
    if args.profile and not os.path.isfile(args.profile):
        p.error(f'--profile: no file {args.profile}')
    if args.udp_only and args.role is None:
        try:
            with tempfile.TemporaryDirectory() as tmp:
                udp_only_profile(args.profile, os.path.join(tmp, 'check.xml'))
        except (ValueError, ET.ParseError) as e:
            p.error(f'--udp-only: {e}')
    args.udp_profile = None
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.role == 'subscriber':
        return run_subscriber(args)
    if args.role == 'publisher':
        return run_publisher(args)
    setting = describe_env(args)
    runs = []
    try:
        for _ in range(args.runs):
            runs.append(one_run(args))
    except RuntimeError as e:
        print(f'measure_cloud_delivery: {e}', file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({'setting': setting, 'runs': runs}, indent=1))
    else:
        print_text(setting, runs)
    return 0


if __name__ == '__main__':
    sys.exit(main())
