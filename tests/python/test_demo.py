"""The demo: sat_collision_node + sat_collision_demo for a few seconds.

The demo drives the robot of config/demo_scene.yaml around its loop by TF (/tf_static
map -> odom, /tf odom -> base_link) and publishes the obstacles in map; the node is
started with the arguments `sat_collision_demo --node-args` prints (base_frame:=base_link,
global_frame:=map, robot_footprint), as scripts/demo.sh starts it, and places the
footprint itself. Within the first seconds the robot hits the circular post_1 and leaves
it again, so the demo's output must show a "COLLISION" line (with the obstacle and depth)
and a "clear" line, and the SVG snapshot must be a well-formed SVG drawing of the scene.
An rclpy peer checks what the node publishes meanwhile: reports in map, valid both
colliding and clear, and the footprint drawn (markers, map) where the demo's loop puts the
robot, through odom's offset. Both programs must stop cleanly.

How long the demo takes to its first flag line (docs/demo-time.md) is measured by
scripts/demo_time.sh, not here; what is tested here is what that time rests on and that
holds on any machine: a second set-up only checks (it installs and builds nothing), and
the release profile leaves unoptimised only the code generators that r2r links into the
binaries without calling them, never a crate the node or the CLI runs.
"""

import json
import math
import os
import re
import signal
import subprocess
import threading
import tomllib
import xml.etree.ElementTree as ET

import yaml

from satpkg_support import ROOT, NODE_NAME, Proc, binary, namespace, ros_peer, start_node

assert ros_peer  # a fixture, used by name below

if not os.environ.get('ROS_DOMAIN_ID'):
    # Before rclpy creates a context: separate runs must not hear each other.
    os.environ['ROS_DOMAIN_ID'] = str(1 + os.getpid() % 100)

SVG_NS = '{http://www.w3.org/2000/svg}'
SCENE = ROOT / 'config' / 'demo_scene.yaml'
# The demo's loop in map (CENTRE and RADII in src/bin/sat_collision_demo.rs).
CENTRE, RADII = (2.0, 1.0), (2.4, 1.3)


def demo_node_args(*extra):
    """The node's arguments for the demo, as scripts/demo.sh reads them: one a line."""
    result = subprocess.run([binary('sat_collision_demo'), '--node-args', *map(str, extra)],
                            cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.splitlines()


class Watch:
    """On a RosPeer: every collision_report of namespace `ns` (frame, valid, colliding,
    status) and the footprint outlines of its collision_markers (frame, points)."""

    def __init__(self, peer, ns):
        from sat_collision_msgs.msg import CollisionReport
        from visualization_msgs.msg import MarkerArray

        self.lock = threading.Lock()
        self.reports, self.footprints = [], []
        self.subs = [
            peer.node.create_subscription(CollisionReport, f'{ns}/collision_report',
                                          self._on_report, 100),
            peer.node.create_subscription(MarkerArray, f'{ns}/collision_markers',
                                          self._on_markers, 100),
        ]

    def _on_report(self, msg):
        with self.lock:
            self.reports.append((msg.header.frame_id, msg.valid, msg.colliding, msg.status))

    def _on_markers(self, msg):
        with self.lock:
            for m in msg.markers:
                if m.ns == 'footprint' and m.action == m.ADD and len(m.points) >= 4:
                    self.footprints.append((m.header.frame_id,
                                            [(p.x, p.y) for p in m.points]))


def test_node_args_name_the_frames_and_the_scene_footprint():
    args = demo_node_args()
    assert args[0::2] == ['-p'] * 3, args
    params = dict(a.split(':=', 1) for a in args[1::2])
    assert params.keys() == {'base_frame', 'global_frame', 'robot_footprint'}, args
    assert params['base_frame'] == 'base_link'
    assert params['global_frame'] == 'map'
    # Quoted, so that rcl (which reads a -p value as YAML) passes it on as a string.
    footprint = params['robot_footprint']
    assert footprint.startswith('"') and footprint.endswith('"'), footprint
    scene = yaml.safe_load(SCENE.read_text())
    assert yaml.safe_load(footprint[1:-1]) == scene['footprint']


def test_node_args_refuse_a_scene_in_a_robot_frame(tmp_path):
    scene = yaml.safe_load(SCENE.read_text())
    scene['frame_id'] = 'odom'
    path = tmp_path / 'odom_scene.yaml'
    path.write_text(yaml.safe_dump(scene))
    result = subprocess.run([binary('sat_collision_demo'), '--node-args', '--scene', path],
                            cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'map frame' in result.stderr, result.stderr


def on_loop(x, y):
    """How far (x, y) is off the demo's ellipse, roughly in metres."""
    u, v = (x - CENTRE[0]) / RADII[0], (y - CENTRE[1]) / RADII[1]
    return abs(math.hypot(u, v) - 1.0) * min(RADII)


def test_demo_drives_the_node_by_tf_prints_flag_changes_and_writes_an_svg(tmp_path, ros_peer):
    ns = namespace('demo')
    svg = tmp_path / 'demo_snapshot.svg'
    watch = Watch(ros_peer, ns)
    with start_node(ns, '--params-file', ROOT / 'config' / 'sat_collision.yaml',
                    *demo_node_args()) as node:
        assert 'placed in base_link from TF (the footprint topic is not used)' \
            in node.output, node.output
        assert ros_peer.get_parameters(f'{ns}/{NODE_NAME}', ['robot_footprint']) == {
            'robot_footprint': '[[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]'}
        with Proc([binary('sat_collision_demo'), '--duration', '4', '--svg', svg,
                   '--snapshot-period', '1', '--ros-args', '-r', f'__ns:={ns}']) as demo:
            demo.wait_for(r'^demo: driving the footprint', timeout=30)
            # Nobody publishes a footprint topic: the footprint comes from TF.
            assert ros_peer.node.count_publishers(f'{ns}/footprint') == 0
            rc = demo.wait_exit(timeout=60)
            out = demo.output
        assert rc == 0, out
        # The node is still fine, and stops cleanly on SIGINT.
        assert node.proc.poll() is None, node.output
        assert node.stop(signal.SIGINT) == 0, node.output

    collisions = re.findall(r'^\[\s*[\d.]+ s\] COLLISION: (\w+) depth (\d+\.\d+) m', out, re.M)
    clears = re.findall(r'^\[\s*[\d.]+ s\] clear: nearest (\w+) at (\d+\.\d+) m', out, re.M)
    assert collisions, f'no COLLISION line in:\n{out}'
    assert clears, f'no clear line in:\n{out}'
    assert ('post_1' in {c[0] for c in collisions}), out
    # The robot starts inside post_1; a collision met on the way may first show as a
    # touch (depth 0.000 at 50 Hz of TF).
    assert all(float(depth) >= 0 for _, depth in collisions), out
    assert any(float(depth) > 0 for name, depth in collisions if name == 'post_1'), out
    # The first COLLISION comes before a clear line: the flag changed both ways.
    first_collision = out.index('COLLISION:')
    assert 'clear: nearest' in out[first_collision:], out
    # A node started with --node-args' arguments needs no advice.
    assert '\ndemo: the node' not in out, out
    # No transform trouble on the way (before the first valid report the node may wait
    # for TF, obstacles or both; after the demo stops, TF goes stale).
    assert not re.search(r'NOT VALID \((transform_conflict|invalid_transform)\)', out), out

    with watch.lock:
        reports, footprints = list(watch.reports), list(watch.footprints)
    valid = [r for r in reports if r[1]]
    # The report is in map (global_frame), and the flag went both ways on valid input
    # with the footprint placed from TF.
    assert valid, f'no valid report: {reports[-5:]}'
    assert {frame for frame, *_ in valid} == {'map'}, set(r[0] for r in valid)
    assert any(colliding for _, _, colliding, _ in valid), 'never a valid collision'
    assert any(not colliding for _, _, colliding, _ in valid), 'never valid and clear'
    assert {status for _, _, _, status in valid} == {'ok'}
    assert not {'transform_conflict', 'invalid_transform'} & {r[3] for r in reports}, reports

    # The footprint the node drew, in map: the demo's 1.0 x 0.6 m robot, its centre on the
    # loop (map -> odom -> base_link composed: without odom's offset of about 0.58 m it
    # would be off the loop), its long side along the loop.
    assert footprints, 'no footprint marker'
    assert {frame for frame, _ in footprints} == {'map'}
    for _, ring in footprints:
        corners = ring[:-1] if ring[0] == ring[-1] else ring
        assert len(corners) == 4, ring
        sides = sorted(math.dist(corners[k], corners[(k + 1) % 4]) for k in range(4))
        assert [round(s, 3) for s in sides] == [0.6, 0.6, 1.0, 1.0], ring
        cx = sum(x for x, _ in corners) / 4
        cy = sum(y for _, y in corners) / 4
        assert on_loop(cx, cy) < 0.05, (cx, cy)

    root = ET.parse(svg).getroot()
    assert root.tag == f'{SVG_NS}svg'
    assert float(root.get('width')) > 0 and float(root.get('height')) > 0
    drawn = list(root.iter(f'{SVG_NS}polygon')) + list(root.iter(f'{SVG_NS}circle')) \
        + list(root.iter(f'{SVG_NS}path'))
    assert len(drawn) >= 5, 'the snapshot should draw the footprint and the obstacles'
    text = ' '.join(t.text or '' for t in root.iter(f'{SVG_NS}text'))
    for obstacle in ('shelf_3', 'post_1', 'loading_bay', 'pallet_7'):
        assert obstacle in text, f'{obstacle} not labelled in the SVG'
    assert not (tmp_path / 'demo_snapshot.svg.partial').exists()


def test_demo_stops_cleanly_on_sigterm_and_sigint():
    # Without a node: the demo then prints no flag lines, but runs and stops all the same.
    for sig in (signal.SIGTERM, signal.SIGINT):
        ns = namespace(f'demo_sig{int(sig)}')
        with Proc([binary('sat_collision_demo'), '--ros-args', '-r', f'__ns:={ns}']) as demo:
            demo.wait_for(r'^demo: driving the footprint', timeout=30)
            assert demo.stop(sig) == 0, demo.output


def test_a_second_setup_only_checks():
    # The set-up is in place (scripts/test.sh ran it): running it again installs, fixes and
    # builds nothing, and leaves the venv's and the message build's stamps as they were.
    ros2 = ROOT / '.ros2'
    stamps = [p for p in [ros2 / 'venv' / '.sat_collision_stamp',
                          *ros2.glob('msgs/*/.sat_collision_stamp')] if p.exists()]
    assert stamps, 'no set-up stamps in .ros2'
    before = {p: p.stat().st_mtime_ns for p in stamps}
    result = subprocess.run([ROOT / 'scripts' / 'setup.sh'], cwd=ROOT, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, SAT_ENV_QUIET='0'))
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith('[setup] ready: '), result.stdout
    assert not result.stderr, result.stderr
    assert {p: p.stat().st_mtime_ns for p in stamps} == before


# r2r's code generation, which its build-time crates (r2r_common, and r2r_msg_gen's own
# generators) use and the node never calls: the edges from r2r's crates to them.
CODEGEN_EDGES = {('r2r', 'r2r_common'), ('r2r_actions', 'r2r_common'),
                 ('r2r_msg_gen', 'r2r_common'), ('r2r_rcl', 'r2r_common'),
                 ('r2r_msg_gen', 'syn'), ('r2r_msg_gen', 'quote'),
                 ('r2r_msg_gen', 'proc-macro2'), ('r2r_msg_gen', 'rayon')}


def test_release_profile_leaves_only_build_time_crates_unoptimised():
    # Cargo.toml builds r2r's code generators without optimisation in release (they were
    # most of the demo's build time): each of them must be linked only through r2r's
    # code-generation edges, never reached by the code the binaries run.
    profile = tomllib.loads((ROOT / 'Cargo.toml').read_text())['profile']
    release = profile['release']
    unoptimised = {name for name, over in release.get('package', {}).items()
                   if over.get('opt-level', release.get('opt-level', 3)) in (0, '0')}
    assert unoptimised, 'no unoptimised package in [profile.release.package]'
    assert release.get('opt-level', 3) == 3
    host = re.search(r'^host: (\S+)$', subprocess.run(
        ['rustc', '-vV'], capture_output=True, text=True, check=True).stdout, re.M).group(1)
    meta = json.loads(subprocess.run(
        ['cargo', 'metadata', '--format-version', '1', '--filter-platform', host],
        cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=True,
        timeout=300).stdout)
    name = {p['id']: p['name'] for p in meta['packages']}
    proc_macro = {p['id'] for p in meta['packages']
                  if any('proc-macro' in t['kind'] for t in p['targets'])}
    deps = {n['id']: [d['pkg'] for d in n['deps']
                      if any(k['kind'] is None for k in d['dep_kinds'])]
            for n in meta['resolve']['nodes']}
    root = next(i for i, n in name.items() if n == 'sat_collision')

    def linked(skip_codegen):
        """The crates linked into the binaries (proc macros run in the compiler)."""
        seen, todo = {root}, [root]
        while todo:
            i = todo.pop()
            for d in deps[i]:
                if d in seen or d in proc_macro or \
                        (skip_codegen and (name[i], name[d]) in CODEGEN_EDGES):
                    continue
                seen.add(d)
                todo.append(d)
        return {name[i] for i in seen}

    run_time, everything = linked(True), linked(False)
    assert 'r2r' in run_time and 'bindgen' in everything - run_time
    assert not unoptimised & run_time, sorted(unoptimised & run_time)
    assert unoptimised <= everything, sorted(unoptimised - everything)
    # The benchmarks keep their own debug information for perf and callgrind.
    assert profile.get('bench', {}).get('debug') == 1
