"""The fleet across hosts (issue 32, item 4): three robots, each its own computer (a host
of tests/python/netns.py's LAN holding its node and its simulated base,
tests/python/fleet_sim.py), meeting over DDS (Fast DDS over UDPv4 only, discovery on the
subnet: lan.ros_env()) on the shared, absolute fleet topic /fleet/robots.

Each robot lives in its namespace /robot1../robot3 with its own TF (`-r /tf:=tf`, as
nav2 runs several robots: each robot's frames are `map`, `odom`, `base_footprint` on its
own /robotN/tf; `map` is shared by name, each simulator places map -> odom itself, the
identity). Each node publishes its robot (robot_id, footprint from robot_footprint, pose
by TF, twist from its odometry) and sees the other two through a fleet source, in its
flag, its prediction (collision_ahead over time_horizon H) and its velocity gate (one
stop zone ahead of the robot, the fleet its only source). Every robot is a 0.6 x 0.4 m
box driven at V on the GATED command; the bounds it publishes are VMAX and WMAX, so
every node grows a silent peer by SPREAD = VMAX + WMAX * REACH m per second of its age
(REACH: the box's corner from its centre; src/fleet/mod.rs).

The scene (map frame): robot1 at (-L, 0) heading +x and robot2 at (L, 0) heading -x
(head on through the origin), robot3 at (X3, -L) heading +y, its path crossing
robot1's. The planners (--run-file) start together once every host hears every robot
and every node judges. Everything below is checked from the records: the simulators'
poses at 50 Hz, their gated commands, the flags and reports of their node and the fleet
messages their host heard, all on the machine's monotonic clock (the hosts share it).

1. The cut. DOWN_AFTER s after the start robot3's port on the switch goes down: robot3's
   node loses robot1 and robot2, theirs lose robot3. For each node and silent peer:
   * its report's result `fleet/<id>` reads `ok` at the cut and `stale_peer` within
     [fleet_timeout - 0.02, fleet_timeout + STALE_MARGIN] s of the last stamp heard;
   * collision_ahead, false at the cut, turns true within the same window of the oldest
     last stamp: a stale peer stands still padded by its growth to the end of the
     horizon (HORIZON = max(H, the zone's time_before_collision) = 2 s; SPREAD x 2.5 s =
     5.5 m at the timeout, the peers 2.1-2.9 m from the robot's sweep), while the real
     contact is more than HORIZON away (~3.8 s: only the stale rule makes it true);
   * the gate stops the robot (a zero command) when a silent peer's footprint, where its
     last message put it, grown by SPREAD x (now - its stamp), reaches the stop zone at
     the robot's recorded pose: between the moments the node's octagon (up to
     1/cos(pi/8) of the growth) and the disc reach it (- 0.05, + STOP_MARGIN s), with
     every footprint more than FAR m from the others (~2.1-2.7 m: the growth, not the
     robots, stops it).
2. The link up, once robot3 has stood HOLD_STOPPED s: each robot drives again within
   RECOVER s (measured: robot3, which hears the others at once, 0.06-0.18 s; robot1 and
   robot2, which must hear robot3 again, 0.25-0.97 s); each planner pauses as soon as
   its robot moves.
3. The crossing: robot1 and robot2 released to meet head on at the origin, robot3 to
   reach robot1's side R3_LAG s after they touch (robot1 by then stands across its
   path, held by its gate). At each node's first collision_ahead = true the robots'
   footprints are moved on at their velocities (averaged over SMOOTH s): contact is the
   first moment two FOOTPRINTS touch (distance 0). The growth is the node's caution
   about where a peer may be, not where it is: touching the grown shape comes earlier
   and would make the check easier, so contact is never counted against it. The flag
   must come at least H before the contact, and at most H + SPREAD / FLEET_RATE / the
   closing speed + DECISION_SLACK: the node's lead over H comes from the growth between
   two fleet messages (the flag turns true at some decision between two messages; its
   lead is at least P (S/c)^2 / (1 + S/c) and at most P S/c, P = 1/FLEET_RATE, S =
   SPREAD, c the closing speed: 0.15-0.22 s head on, 0.36-0.44 s for robot3 against
   the standing robot1), less its lateness (DDS, the decision and its delivery, both
   robots' TF). Its last false must have come while the contact was still more than H
   away. Then the gate stops every robot, each with a peer really at its stop zone
   (within one fleet period's growth), and no two recorded footprints ever touch (the
   minimum distance over the run is printed; 0.39-0.42 m).

The numbers: V = 0.5 m/s, so robot1 and robot2 close at 1 m/s and H = 1 s is 1 m of
closing, far beyond the stop zone's STOP_DEPTH = 0.4 m (the flag cannot come from the
stop); each robot is released ~1.5 s or more from its horizon, so the flag must turn
from false to true on its own. VMAX = 2 m/s (a base capable of 2 m/s, driven at 0.5)
gives the node a lead over its lateness (measured leads 0.08-0.16 s head on, 0.32-0.47 s
for robot3); with 1 m/s it was 0.04-0.10 s, too close to a loaded machine's latencies.
A node that ignored the peer's motion would flag robot1 and robot2 ~0.7 s before
contact and fail. The contact is computed from what the simulators did, not from the
node.

About 12-17 s of wall time. The robots' processes run at nice -10 (PRIORITY), as a
robot runs its safety node; a run in which the machine still starved the simulators is
run once more (see the test's docstring).
"""

import json
import math
import os
import sys
import time
from pathlib import Path

import yaml

from netns import Lan, fastdds_shm_segments, require_netns
from satpkg_support import NODE_NAME, ROOT, binary

SIM = Path(__file__).resolve().with_name('fleet_sim.py')
PYTHON = os.environ.get('SAT_COLLISION_PYTHON') or sys.executable

N = 3
V = 0.5  # m/s, every robot's planner
VMAX = 2.0  # m/s, the published bound (max_linear_speed)
WMAX = 0.5  # rad/s (max_angular_speed)
HALF_L, HALF_W = 0.3, 0.2  # the box: [-0.3, 0.3] x [-0.2, 0.2] in base_footprint
FOOTPRINT = [(HALF_L, HALF_W), (HALF_L, -HALF_W), (-HALF_L, -HALF_W), (-HALF_L, HALF_W)]
REACH = math.hypot(HALF_L, HALF_W)
SPREAD = VMAX + WMAX * REACH  # m/s: how fast a silent peer grows
STOP_DEPTH, STOP_HALF_W = 0.4, 0.4  # the stop zone: ahead of the front, wider than the box
STOP_ZONE = [(HALF_L + STOP_DEPTH, STOP_HALF_W), (HALF_L + STOP_DEPTH, -STOP_HALF_W),
             (HALF_L, -STOP_HALF_W), (HALF_L, STOP_HALF_W)]
H = 1.0  # s, time_horizon
STOP_TBC = 2.0  # s, the stop zone's time_before_collision (its allow_escape look-ahead)
HORIZON = max(H, STOP_TBC)  # s: the fleet's prediction horizon (a stale peer's padding)
FLEET_RATE = 10.0  # Hz
FLEET_TIMEOUT = 0.5  # s
PUBLISH_RATE = 20.0  # Hz
L = 3.0  # m, each robot's start from the origin

DOWN_AFTER = 0.8  # s after the release
HOLD_STOPPED = 0.5  # s robot3 stands, stopped, before its link comes back
FAR = 1.0  # m: the stops of phase 1 come from the growth, with the robots this far apart
STALE_MARGIN = 0.25  # s: a tick (0.05), the report's publication and delivery
STOP_MARGIN = 0.25  # s after the growth reaches the zone: a gate check (commands at
#                     20 Hz, ticks at 20 Hz), the zero's delivery, a simulator step
RECOVER = 2.0  # s from the link up to every robot driving again (bound)
R3_LAG = 2.0  # s: robot3 meets robot1's side this long after robot1 meets robot2
DECISION_SLACK = 0.1  # s: two decision periods (publish_rate), for the earliest flag
CMD_TIMEOUT = 0.25  # s: the simulators' watchdog (a gated command older counts as zero)
SMOOTH = 0.3  # s over which a robot's velocity is taken from its poses
STARVED = 0.1  # s between two simulator steps (5 at 50 Hz): the machine starved the test
STILL = 1.0  # s at rest that ends the crossing
# The robots' processes (node and simulator) run at a raised priority, as a robot runs
# its safety node: the timings need them on time on a shared machine, not more CPU than
# they use (about 0.75 of a core for the six). The test runs as root (namespaces).
PRIORITY = ['nice', '-n', '-10']

X3 = -0.5  # m: robot3's path, x = X3, crosses robot1's
STARTS = {'robot1': (-L, 0.0, 0.0), 'robot2': (L, 0.0, math.pi),
          'robot3': (X3, -L, math.pi / 2)}
CUT = 'robot3'


# --- planar geometry (convex polygons as lists of (x, y)) ---------------------------------

def placed(points, x, y, yaw):
    c, s = math.cos(yaw), math.sin(yaw)
    return [(x + px * c - py * s, y + px * s + py * c) for px, py in points]


def _seg_point(p, a, b):
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    den = dx * dx + dy * dy
    t = 0.0 if den == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / den))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _overlap(a, b):
    """Separating axis test: whether convex polygons a and b share a point."""
    for poly in (a, b):
        for i in range(len(poly)):
            p, q = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = q[1] - p[1], p[0] - q[0]
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) < min(pb) or max(pb) < min(pa):
                return False
    return True


def distance(a, b):
    """Distance between convex polygons a and b (0 when they touch or overlap)."""
    if _overlap(a, b):
        return 0.0
    best = math.inf
    for poly, other in ((a, b), (b, a)):
        for p in poly:
            for i in range(len(other)):
                best = min(best, _seg_point(p, other[i], other[(i + 1) % len(other)]))
    return best


# --- the records --------------------------------------------------------------------------

def read_record(path):
    out = []
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                pass  # the last line may be half written
    return out


class Record:
    """A simulator's record read as it grows: each read() parses only the complete lines
    added since the last one (the test polls it at 20 Hz)."""

    def __init__(self, path):
        self.path, self.offset, self.rows = path, 0, []

    def read(self):
        if self.path.exists():
            with open(self.path, 'rb') as f:
                f.seek(self.offset)
                data = f.read()
            end = data.rfind(b'\n') + 1
            self.rows.extend(json.loads(line) for line in data[:end].splitlines())
            self.offset += end
        return self.rows


def poses(rec):
    return [r for r in rec if r['kind'] == 'pose']


def _step_pose(ps, t):
    lo, hi = 0, len(ps) - 1
    if t < ps[0]['t']:
        return ps[0]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ps[mid]['t'] <= t:
            lo = mid
        else:
            hi = mid - 1
    p = ps[lo]
    dt = t - p['t']
    c, s = math.cos(p['yaw']), math.sin(p['yaw'])
    return dict(p, t=t, x=p['x'] + p['vx'] * c * dt, y=p['y'] + p['vx'] * s * dt)


def pose_at(ps, t):
    """The recorded pose at time t (the last step at or before t, moved on by its
    velocity to t: nobody turns here), with `v`, its velocity in map averaged over the
    SMOOTH s before t (a robot the gate holds creeps in steps of a few centimetres: its
    motion is that average, not the step it is in)."""
    p, q = _step_pose(ps, t), _step_pose(ps, t - SMOOTH)
    return dict(p, v=((p['x'] - q['x']) / SMOOTH, (p['y'] - q['y']) / SMOOTH))


def footprint_of(p, dt=0.0):
    """The footprint at pose p moved on by its velocity (`v`) for dt s."""
    vx, vy = p.get('v', (0.0, 0.0))
    return placed(FOOTPRINT, p['x'] + vx * dt, p['y'] + vy * dt, p['yaw'])


def contact_time(own, others, limit=20.0):
    """The first dt >= 0 at which footprint `own` (a pose_at) touches one of `others`,
    every robot moving on at its velocity, and the speed at which they close then (the
    gap's decrease per second over the 0.05 s before): (dt, speed); (inf, 0) if they do
    not touch within `limit`."""
    def gap(dt):
        a = footprint_of(own, dt)
        return min(distance(a, footprint_of(o, dt)) for o in others)
    if gap(0.0) == 0.0:
        return 0.0, 0.0
    step, dt = 0.01, 0.0
    while dt < limit:
        if gap(dt + step) == 0.0:
            lo, hi = dt, dt + step
            for _ in range(30):
                mid = (lo + hi) / 2
                lo, hi = (lo, mid) if gap(mid) == 0.0 else (mid, hi)
            return hi, gap(max(0.0, hi - 0.05)) / min(hi, 0.05)
        dt += step
    return math.inf, 0.0


def wait_records(records, predicate, what, timeout, procs):
    """Polls the Records until `predicate({name: rows})`; returns those rows."""
    deadline = time.monotonic() + timeout
    while True:
        recs = {name: record.read() for name, record in records.items()}
        if predicate(recs):
            return recs
        if time.monotonic() > deadline:
            last = {name: poses(rec)[-1:] for name, rec in recs.items()}
            logs = '\n'.join(f'--- {p.args[3:5]}:\n{p.output[-2500:]}' for p in procs)
            raise AssertionError(f'{what}: not within {timeout} s; last poses {last}\n{logs}')
        time.sleep(0.05)


def starved(folder):
    """The longest interval between two steps of a simulator (50 Hz) in the records of
    `folder` once the robots started: beyond STARVED s the machine did not give the
    processes of the test the time they need, and its timings say nothing of the node."""
    late = 0.0
    for path in folder.glob('robot*.jsonl'):
        rec = read_record(path)
        go = next((r['t'] for r in rec if r['kind'] == 'run' and r['on']), math.inf)
        ps = [r['t'] for r in rec if r['kind'] == 'pose' and r['t'] >= go]
        late = max([late] + [b - a for a, b in zip(ps, ps[1:])])
    return late


# --- the robots ---------------------------------------------------------------------------

def node_params(robot_id):
    cm = yaml.safe_load((ROOT / 'config/collision_monitor.yaml').read_text())
    cm = cm['collision_monitor']['ros__parameters']
    return {
        'global_frame': 'map',
        'base_frame_id': 'base_footprint',
        'odom_frame_id': 'odom',
        'robot_footprint': json.dumps([list(p) for p in FOOTPRINT]),
        'publish_rate': PUBLISH_RATE,
        'velocity_topic': 'odom',
        'velocity_type': 'odometry',
        'time_horizon': H,
        'robot_id': robot_id,
        'fleet_topic': '/fleet/robots',
        'fleet_frame': 'map',
        'fleet_rate': FLEET_RATE,
        'fleet_timeout': FLEET_TIMEOUT,
        'max_linear_speed': VMAX,
        'max_angular_speed': WMAX,
        'cmd_vel_in_topic': cm['cmd_vel_in_topic'],
        'cmd_vel_out_topic': cm['cmd_vel_out_topic'],
        'observation_sources': ['fleet'],
        'fleet': {'type': 'fleet'},
        'polygons': ['PolygonStop'],
        'PolygonStop': {'type': 'polygon', 'points': json.dumps([list(p) for p in STOP_ZONE]),
                        'action_type': 'stop', 'min_points': 1, 'sources_names': ['fleet'],
                        'time_before_collision': STOP_TBC},
    }, cm


def start_robot(host, robot_id, tmp_path, env):
    ns = f'/{robot_id}'
    params, cm = node_params(robot_id)
    path = tmp_path / f'{robot_id}.yaml'
    path.write_text(yaml.safe_dump({NODE_NAME: {'ros__parameters': params}}))
    node = host.popen([*PRIORITY, binary(NODE_NAME), '--ros-args', '-r', f'__ns:={ns}',
                       '-r', '/tf:=tf', '-r', '/tf_static:=tf_static',
                       '--params-file', str(path)], env=env)
    record = tmp_path / f'{robot_id}.jsonl'
    x, y, yaw = STARTS[robot_id]
    sim = host.popen([*PRIORITY, PYTHON, SIM, '--ns', ns, '--out', record, '--x', x, '--y', y,
                      '--yaw', yaw, '--vx', V, '--footprint', json.dumps(FOOTPRINT),
                      '--cmd-in', cm['cmd_vel_in_topic'], '--cmd-out', cm['cmd_vel_out_topic'],
                      '--cmd-timeout', CMD_TIMEOUT, '--run-file', tmp_path / f'run_{robot_id}',
                      '--fleet-topic', '/fleet/robots', '--report-topic', 'collision_report',
                      '--footprint-topic', ''],
                     env=env)
    return node, sim, record


def moving_since(rec, t):
    """The first pose after t driving at V, or None."""
    return next((p for p in poses(rec) if p['t'] > t and p['vx'] == V), None)


def at_rest(rec, since, still):
    """Whether the robot has not moved for `still` s, all after `since`."""
    ps = [p for p in poses(rec) if p['t'] > since]
    if not ps or ps[-1]['t'] - ps[0]['t'] < still:
        return False
    return all(p['vx'] == 0.0 for p in ps if p['t'] >= ps[-1]['t'] - still)


def test_three_robots_across_hosts_cross_stop_and_fail_safe_on_a_cut_link(tmp_path):
    """The scene, then the checks (see the module's docstring). A failure in a run whose
    simulators were starved (a step more than STARVED s after the one before: the
    machine is too loaded for these timings) is reported and the scene is run once more;
    a failure without starvation, or twice, fails."""
    require_netns()
    t_start = time.monotonic()
    for attempt in (1, 2):
        folder = tmp_path / f'run{attempt}'
        folder.mkdir()
        try:
            check(*scene(folder))
            break
        except AssertionError as e:
            late = starved(folder)
            if late <= STARVED or attempt == 2:
                if late > STARVED:
                    e.args = (f'{e.args[0]}\n(a simulator step {late:.3f} s late: the '
                              'machine is too loaded for this test)',)
                raise
            print(f'\nrun {attempt} failed with the simulators starved (a step {late:.3f} s '
                  f'late): once more. The failure:\n{str(e)[:3000]}')
    print(f'test wall time {time.monotonic() - t_start:.2f} s')


def scene(tmp_path):
    """The LAN, the robots, the three phases: the records and the times the checks
    need."""
    t0 = time.monotonic()
    names = sorted(STARTS)
    run = {name: tmp_path / f'run_{name}' for name in names}
    t = {'t0': t0}
    with Lan(N) as lan:
        env = lan.ros_env()
        procs, records = [], {}
        for host, name in zip(lan.hosts, names):
            node, sim, record = start_robot(host, name, tmp_path, env)
            procs += [node, sim]
            records[name] = Record(record)
        for p in procs[::2]:
            p.wait_for(r'\bstarted: ', timeout=30)
        for p in procs[1::2]:
            p.wait_for('^READY$', timeout=30)
        t['started'] = time.monotonic()
        # Over UDPv4 only: no process of the LAN maps Fast DDS's shared memory.
        for p in procs:
            assert fastdds_shm_segments(p.proc.pid) == [], p.args

        def ready(recs):
            for rec in recs.values():
                heard = {r['id'] for r in rec if r['kind'] == 'fleet'}
                judged = [r for r in rec if r['kind'] == 'collision']
                if heard != set(names) or not judged or judged[-1]['data']:
                    return False
            return True
        wait_records(records, ready, 'every host hearing every robot, every node judging',
                     30, procs)

        # 1. Go, then the cut.
        t['go'] = time.monotonic()
        for name in names:
            run[name].touch()
        time.sleep(DOWN_AFTER)
        cut_host = lan.hosts[names.index(CUT)]
        t['down'] = time.monotonic()
        cut_host.link_down()
        wait_records(records, lambda recs: at_rest(recs[CUT], t['down'], HOLD_STOPPED),
                     f'{CUT} stopped while cut off', 8, procs)
        t['up'] = time.monotonic()
        cut_host.link_up()
        # 2. Each robot drives again; its planner then pauses (the crossing starts from
        # where they stand).
        again = {}
        deadline = time.monotonic() + RECOVER + 1.0
        while len(again) < N and time.monotonic() < deadline:
            for name in names:
                if name not in again:
                    p = moving_since(records[name].read(), t['up'])
                    if p is not None:
                        again[name] = p['t']
                        run[name].unlink()
            time.sleep(0.02)
        assert len(again) == N, f'driving again after the link came up: {again}'
        t['again'] = max(again.values())
        recs = wait_records(
            records, lambda recs: all(at_rest(rec, t['again'], 0.3) for rec in recs.values()),
            'every robot paused', 5, procs)

        # 3. The crossing: robot1 and robot2 released to meet head on at the origin,
        # robot3 to reach robot1's side R3_LAG s after their contact (robot1 stands
        # there by then, held by the gate, across robot3's path).
        left = {}
        for name in names:
            p = poses(recs[name])[-1]
            left[name] = -(p['x'] * math.cos(p['yaw']) + p['y'] * math.sin(p['yaw']))
        d12 = max(left['robot1'], left['robot2'])
        at = {'robot1': (d12 - left['robot1']) / V, 'robot2': (d12 - left['robot2']) / V,
              'robot3': (d12 - HALF_L) / V + R3_LAG - (left['robot3'] - HALF_L - HALF_W) / V}
        first_at = min(at.values())
        t['cross'] = time.monotonic()
        released = {}
        for name in sorted(names, key=lambda n: at[n]):
            time.sleep(max(0.0, t['cross'] + at[name] - first_at - time.monotonic()))
            run[name].touch()
            released[name] = time.monotonic()
        t['released'] = max(released.values())
        wait_records(records,
                     lambda recs: all(at_rest(rec, t['released'], STILL) for rec in recs.values()),
                     'every robot stopped at the crossing', 15, procs)
        t['end'] = time.monotonic()
        for p in procs:
            assert p.proc.poll() is None, p.output[-3000:]
    for name, (node, sim) in zip(names, zip(procs[::2], procs[1::2])):
        (tmp_path / f'{name}_node.log').write_text(node.output)
        (tmp_path / f'{name}_sim.log').write_text(sim.output)
        # No fleet message refused (by the edge or the rules) in the whole run.
        refused = [line for line in node.lines if 'fleet message' in line]
        assert not refused, refused[:5]
    t['closed'] = time.monotonic()
    recs = {name: read_record(record.path) for name, record in records.items()}
    (tmp_path / 'times.json').write_text(json.dumps(
        {'t': t, 'again': again, 'released': released, 'left': left}))
    print(f'\nrecords in {tmp_path}')
    return recs, t, again, released, left


def flags(rec, kind, lo=-math.inf, hi=math.inf):
    return [r for r in rec if r['kind'] == kind and lo < r['t'] <= hi]


def heard(rec, robot_id, before):
    """The last fleet message from `robot_id` this host heard before `before`."""
    return [r for r in rec if r['kind'] == 'fleet' and r['id'] == robot_id
            and r['t'] <= before][-1]


def growth_reaches_zone(rec, peers, since, wall, factor=1.0):
    """The first time after `since` at which one of `peers` (fleet records: where its
    last message put it, and its stamp) grown by factor x SPREAD x its age reaches the
    stop zone at this robot's recorded pose; inf if never within the record."""
    for p in poses(rec):
        if p['t'] <= since:
            continue
        zone = placed(STOP_ZONE, p['x'], p['y'], p['yaw'])
        for m in peers:
            age = p['t'] - (m['stamp'] - wall)
            if distance(zone, placed(FOOTPRINT, m['x'], m['y'], m['yaw'])) <= factor * SPREAD * age:
                return p['t']
    return math.inf


def others_of(name):
    return [n for n in sorted(STARTS) if n != name]


def check(recs, t, again, released, left):
    names = sorted(recs)
    wall = time.time() - time.monotonic()  # one clock for every host: the machine's
    ps = {n: poses(recs[n]) for n in names}
    rel = lambda x: f'{x - t["t0"]:.3f}'  # noqa: E731
    lines, bad = [], []

    def expect(ok, what):
        (lines if ok else bad).append(what)

    # --- 1. the cut: every node's silent peers (the cut robot's two; the cut robot, for
    # the other two) --------------------------------------------------------------------
    for n in names:
        rec = recs[n]
        silent = [heard(rec, m, t['down']) for m in (others_of(n) if n == CUT else [CUT])]
        oldest = min(m['stamp'] - wall for m in silent)
        ahead = flags(rec, 'collision_ahead', t['go'], t['up'])
        before = [r for r in ahead if r['t'] <= t['down']]
        expect(before and not before[-1]['data'],
               f'{n}: collision_ahead false at the cut ({before[-1:]})')
        first = next((r for r in ahead if r['data'] and r['t'] > t['down']), None)
        expect(first is not None, f'{n}: collision_ahead true after the cut')
        if first is not None:
            at = first['t']
            tc, _ = contact_time(pose_at(ps[n], at), [pose_at(ps[o], at) for o in others_of(n)])
            # Where the stale rule puts the silent peers: standing at their last pose,
            # grown for their age plus the horizon; this robot's footprint swept on by
            # its velocity over that horizon.
            own = pose_at(ps[n], oldest + FLEET_TIMEOUT)
            reach = min(distance(footprint_of(own, k * H / 50),
                                 placed(FOOTPRINT, m['x'], m['y'], m['yaw']))
                        for m in silent for k in range(51))
            lines.append(f'{n}: collision_ahead true {at - t["down"]:.3f} s after the cut, '
                         f'{at - oldest:.3f} s after the oldest last stamp of its silent '
                         f'peers; contact (real motion) {tc:.3f} s away; a stale peer '
                         f'{reach:.3f} m from its sweep (padding at the timeout '
                         f'{SPREAD * (FLEET_TIMEOUT + HORIZON):.3f} m)')
            expect(FLEET_TIMEOUT - 0.02 <= at - oldest <= FLEET_TIMEOUT + STALE_MARGIN,
                   f'{n}: collision_ahead true {at - oldest:.3f} s after the last stamp '
                   f'heard, within [{FLEET_TIMEOUT} - 0.02, {FLEET_TIMEOUT} + {STALE_MARGIN}]')
            expect(tc > HORIZON, f'{n}: the real contact {tc:.3f} s away (> {HORIZON} s): '
                   'true only by the stale rule')
            expect(reach < SPREAD * (FLEET_TIMEOUT + HORIZON),
                   f'{n}: the scene puts a stale peer within its padding at the timeout')
        outs = [r for r in rec if r['kind'] == 'cmd_out' and t['down'] < r['t'] <= t['up']]
        stop = next((r for r in outs if r['vx'] == 0.0), None)
        expect(stop is not None, f'{n}: the gate stops it during the cut (a zero command)')
        if stop is None:
            continue
        hi = growth_reaches_zone(rec, silent, t['down'], wall)
        lo = growth_reaches_zone(rec, silent, t['down'], wall, 1 / math.cos(math.pi / 8))
        gap = min(distance(footprint_of(pose_at(ps[n], stop['t'])),
                           footprint_of(pose_at(ps[o], stop['t']))) for o in others_of(n))
        lines.append(f'{n}: stopped {stop["t"] - t["down"]:.3f} s after the cut; the growth '
                     f'reaches its zone {hi - t["down"]:.3f} s after (octagon '
                     f'{lo - t["down"]:.3f}); footprints {gap:.3f} m apart')
        expect(lo - 0.05 <= stop['t'] <= hi + STOP_MARGIN,
               f'{n}: the stop at {rel(stop["t"])} within [{rel(lo)} - 0.05, '
               f'{rel(hi)} + {STOP_MARGIN}]')
        expect(gap > FAR, f'{n}: footprints {gap:.3f} m apart at the stop (> {FAR})')
    # The report's per-peer results (`fleet/<robot id>`), where the node has them: each
    # silent peer reads ok until the cut and stale_peer from fleet_timeout after its
    # last stamp on.
    for n in names:
        # (recorded on every change of the fleet's results)
        reports = [r for r in recs[n] if r['kind'] == 'report' and r['t'] <= t['up']]
        if not any('/' in k for r in reports for k in r['fleet']):
            lines.append(f'{n}: the report has no per-peer results (only '
                         f'{sorted({k for r in reports for k in r["fleet"]})})')
            continue
        for m in (others_of(n) if n == CUT else [CUT]):
            key = f'fleet/{m}'
            stamp = heard(recs[n], m, t['down'])['stamp'] - wall
            at_cut = [r for r in reports if r['t'] <= t['down']]
            expect(at_cut and at_cut[-1]['fleet'].get(key) == 'ok',
                   f'{n}: {key} reads ok at the cut ({at_cut[-1:]})')
            stale = next((r for r in reports if r['t'] > t['down']
                          and r['fleet'].get(key) == 'stale_peer'), None)
            expect(stale is not None, f'{n}: {key} reads stale_peer after the cut')
            if stale is not None:
                lines.append(f'{n}: {key} stale_peer {stale["t"] - stamp:.3f} s after its '
                             'last stamp')
                expect(FLEET_TIMEOUT - 0.02 <= stale['t'] - stamp
                       <= FLEET_TIMEOUT + STALE_MARGIN,
                       f'{n}: {key} stale_peer {stale["t"] - stamp:.3f} s after its last '
                       f'stamp, within [{FLEET_TIMEOUT} - 0.02, {FLEET_TIMEOUT} + '
                       f'{STALE_MARGIN}]')
    # --- 2. the recovery --------------------------------------------------------------
    for n in names:
        lines.append(f'{n}: driving again {again[n] - t["up"]:.3f} s after the link came up')
    for n in names:
        expect(again[n] - t['up'] <= RECOVER, f'{n} drives again within {RECOVER} s')
    # --- 3. the crossing ----------------------------------------------------------------
    for n in names:
        ahead = flags(recs[n], 'collision_ahead', released[n], t['end'])
        first = next((r for r in ahead if r['data']), None)
        expect(first is not None, f'{n}: collision_ahead true in the crossing')
        if first is None:
            continue
        own = pose_at(ps[n], first['t'])
        tc, speed = contact_time(own, [pose_at(ps[o], first['t']) for o in others_of(n)])
        # The node's own lead over H: at most the growth of one fleet period over the
        # closing speed (the peer's last message just before the horizon is reached),
        # and a decision or two.
        early = SPREAD / FLEET_RATE / max(speed, 1e-6) + DECISION_SLACK
        # The last false before it: the contact was then still beyond the horizon.
        clear = [r for r in ahead if not r['data'] and r['t'] < first['t']]
        tc0 = (contact_time(pose_at(ps[n], clear[-1]['t']),
                            [pose_at(ps[o], clear[-1]['t']) for o in others_of(n)])[0]
               if clear else -1.0)
        lines.append(f'{n}: collision_ahead true {tc:.3f} s before contact (H {H}, closing '
                     f'at {speed:.3f} m/s); last false {tc0:.3f} s before it')
        expect(H <= tc <= H + early, f'{n}: collision_ahead true {tc:.3f} s before contact, '
               f'within [{H}, {H} + {early:.3f}]')
        expect(H < tc0 < math.inf, f'{n}: collision_ahead false while the contact was '
               f'beyond H ({tc0:.3f} s)')
    md, where = math.inf, None
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for p in ps[a]:
                d = distance(footprint_of(p), footprint_of(pose_at(ps[b], p['t'])))
                if d < md:
                    md, where = d, (a, b, rel(p['t']))
    lines.append(f'minimum distance between footprints {md:.3f} m ({where})')
    expect(md > 0.0, 'the robots never touch')
    for n in names:
        p = ps[n][-1]
        zone = placed(STOP_ZONE, p['x'], p['y'], p['yaw'])
        d = min(distance(zone, footprint_of(ps[o][-1])) for o in names if o != n)
        lines.append(f'{n}: stopped at ({p["x"]:.3f}, {p["y"]:.3f}), a peer {d:.3f} m from '
                     f'its stop zone')
        # Stopped by a peer really there: within one fleet period's growth of the zone.
        expect(d <= SPREAD * (1 / FLEET_RATE + 0.05),
               f'{n}: a peer {d:.3f} m from its stop zone once stopped')
    lines.append('times: ' + ', '.join(f'{k} {v - t["t0"]:.2f}' for k, v in t.items()))
    print('\n'.join(lines))
    assert not bad, '\n'.join(bad)
