"""Static keep-out zones (parameter zones_file, config/zones.example.yaml).

A good file's zones appear in every collision_report (they are obstacles that never
expire, enough for a valid report on their own) and collide when the footprint enters
them; a bad file (unreadable, malformed YAML, an invalid zone) stops start-up with a
message naming the file and the line.
"""

import time

import yaml

from satpkg_support import (
    ROOT, Reports, colliding_ids, namespace, ros_peer, run_node_expect_failure, square,
    start_node,
)

ZONES = ROOT / 'config' / 'zones.example.yaml'

assert ros_peer  # a fixture, used by name below


def test_good_zones_file_zones_are_reported_and_collide(ros_peer):
    zone_ids = [z['id'] for z in yaml.safe_load(ZONES.read_text())['obstacles']]
    assert len(zone_ids) >= 3
    ns = namespace('zones')
    with start_node(ns, '-p', f'zones_file:={ZONES}') as node:
        node.wait_for(rf'{len(zone_ids)} keep-out zones from {ZONES}')
        reports = Reports(ros_peer, ns)

        # Clear of every zone: a valid report (the zones alone are obstacle
        # information), listing every zone, nothing colliding.
        reports.points = square(2.0, 0.0)
        r = reports.wait(lambda r: r.valid and not r.colliding, 'valid and clear')
        assert sorted(x.id for x in r.results) == sorted(zone_ids)
        assert all(x.status == 'ok' for x in r.results), r.results
        assert r.status == 'ok' and r.min_distance > 0.0

        # Into the convex dock, the concave workcell corner's leg, the circular pillar.
        for where, zone in [((6.4, 0.0), 'charging_dock'),
                            ((-2.75, 3.5), 'workcell_corner'),
                            ((3.0, -3.0), 'pillar_a')]:
            reports.points = square(*where)
            r = reports.wait(lambda r, z=zone: r.valid and colliding_ids(r) == [z],
                             f'only {zone} colliding')
            assert r.colliding
            hit = next(x for x in r.results if x.id == zone)
            assert hit.penetration_depth > 0.0

        # Zones never expire: still there after obstacles_timeout (1 s) has passed.
        time.sleep(1.5)
        reports.points = square(6.4, 0.0)
        r = reports.wait(lambda r: r.valid and colliding_ids(r) == ['charging_dock'],
                         'charging_dock colliding after the timeout')


def write(tmp_path, text, name='zones.yaml'):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_malformed_zones_yaml_stops_startup_with_file_and_line(tmp_path):
    path = write(tmp_path, 'frame_id: map\nobstacles:\n  - id: a\n'
                           '    polygon: [[0, 0], [1, 0]  [0, 1]]\n')
    rc, output = run_node_expect_failure('-p', f'zones_file:={path}')
    assert rc != 0, output
    assert f'zones_file: {path}:4:' in output, output


def test_self_intersecting_zone_stops_startup_with_file_and_line(tmp_path):
    path = write(tmp_path, 'frame_id: map\nobstacles:\n'
                           '  - id: fine\n    polygon: [[5, 5], [6, 5], [5, 6]]\n'
                           '  - id: bowtie\n    polygon: [[0, 0], [1, 1], [1, 0], [0, 1]]\n')
    rc, output = run_node_expect_failure('-p', f'zones_file:={path}')
    assert rc != 0, output
    assert f'zones_file: {path}:5: zone `bowtie`' in output, output
    assert 'self-intersecting' in output, output


def test_invalid_circle_zone_stops_startup(tmp_path):
    path = write(tmp_path, 'obstacles:\n  - {id: post, circle: {center: [1, 1], radius: -0.2}}\n')
    rc, output = run_node_expect_failure('-p', f'zones_file:={path}')
    assert rc != 0, output
    assert f'zones_file: {path}:2: zone `post`' in output, output


def test_unknown_key_in_zones_file_stops_startup(tmp_path):
    path = write(tmp_path, 'frame_id: map\nobstacles:\n  - id: a\n    polygn: [[0, 0], [1, 0], [0, 1]]\n')
    rc, output = run_node_expect_failure('-p', f'zones_file:={path}')
    assert rc != 0, output
    assert f'zones_file: {path}:4:' in output and 'polygn' in output, output


def test_missing_zones_file_stops_startup(tmp_path):
    path = tmp_path / 'missing.yaml'
    rc, output = run_node_expect_failure('-p', f'zones_file:={path}')
    assert rc != 0, output
    assert f'zones_file: {path}' in output, output
