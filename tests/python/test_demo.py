"""The demo: sat_collision_node + sat_collision_demo for a few seconds.

The demo drives the robot of config/demo_scene.yaml around its loop by TF; the node gets
the arguments `sat_collision_demo --node-args` prints, as scripts/demo.sh starts it.
Within the first seconds the robot hits the circular post_1 and leaves it again, so its output must show a
"COLLISION" line (with the obstacle and depth) and a "clear" line, and the SVG snapshot
must be a well-formed SVG drawing of the scene. Both programs must stop cleanly.
"""

import re
import signal
import subprocess
import xml.etree.ElementTree as ET

from satpkg_support import ROOT, Proc, binary, namespace, start_node

SVG_NS = '{http://www.w3.org/2000/svg}'


def demo_node_args():
    """The node's arguments for the demo, as scripts/demo.sh reads them: one a line."""
    result = subprocess.run([binary('sat_collision_demo'), '--node-args'], cwd=ROOT,
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.splitlines()


def test_demo_prints_flag_changes_and_writes_an_svg(tmp_path):
    ns = namespace('demo')
    svg = tmp_path / 'demo_snapshot.svg'
    with start_node(ns, '--params-file', ROOT / 'config' / 'sat_collision.yaml',
                    *demo_node_args()) as node:
        with Proc([binary('sat_collision_demo'), '--duration', '4', '--svg', svg,
                   '--snapshot-period', '1', '--ros-args', '-r', f'__ns:={ns}']) as demo:
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
