"""config/sat_collision.yaml and the node's parameter checks at start-up.

* the file is in the standard form, holds every parameter (and only those) with a
  comment giving its unit and range, and its values are the node's defaults;
* a node started with --params-file reads every value back through get_parameters,
  including non-default ones; run-time parameters can be changed, start-up ones not;
* every kind of bad parameter stops start-up with a non-zero exit code and a one-line
  message naming the parameter (and the range, where there is one).
"""

import re

import pytest
import yaml

from satpkg_support import (
    NODE_NAME, PARAM_NAMES, RANGES, ROOT, RUNTIME_PARAMS, fmt_num, namespace,
    ros_peer, run_node_expect_failure, start_node,
)

PARAMS_FILE = ROOT / 'config' / 'sat_collision.yaml'

assert ros_peer  # a fixture, used by name below


def load_params(path=PARAMS_FILE):
    doc = yaml.safe_load(path.read_text())
    assert list(doc) == [NODE_NAME], f'{path}: one top-level key, {NODE_NAME}'
    assert list(doc[NODE_NAME]) == ['ros__parameters']
    return doc[NODE_NAME]['ros__parameters']


def test_file_holds_every_parameter_with_a_comment():
    params = load_params()
    assert sorted(params) == sorted(PARAM_NAMES)
    lines = PARAMS_FILE.read_text().splitlines()
    for name in PARAM_NAMES:
        (at,) = [i for i, line in enumerate(lines) if re.match(rf'\s+{name}:', line)]
        comment = []
        for line in reversed(lines[:at]):
            if not line.strip().startswith('#'):
                break
            comment.append(line)
        text = ' '.join(comment)
        assert comment, f'{name} has no comment above it'
        if name in RANGES:
            lo, hi = RANGES[name]
            assert f'[{fmt_num(lo)}, {fmt_num(hi)}]' in text, f'{name}: range missing in {text!r}'
        kind = 'run time' if name in RUNTIME_PARAMS else 'start-up only'
        assert kind in text, f'{name}: the comment should say "{kind}"'


def test_params_file_values_read_back_and_are_the_defaults(ros_peer, tmp_path):
    params = load_params()
    # The same file with every value changed: proves the file is what the node reads.
    changed = {
        'footprint_timeout': 2.5,
        'obstacles_timeout': 0.0,
        'fail_safe': False,
        'padding': 0.125,
        'publish_rate': 20.0,
        'markers_rate': 0.0,
        'zones_file': str(ROOT / 'config' / 'zones.example.yaml'),
        'robot_footprint': '[[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]',
        'robot_radius': 0.4,
        'exact_range': 2.0,
        'max_service_checks': 5000.0,
        'global_frame': 'odom',
        'base_frame': 'base_link',
        'transform_tolerance': 0.5,
        'input_reliability': 'reliable',
        # The fleet: this robot published on a topic of its own.
        'robot_id': 'robot7',
        'fleet_topic': '/fleet/robots_of_pfile',
        'fleet_frame': 'odom',
        'fleet_rate': 5.0,
        'fleet_timeout': 1.5,
        'fleet_clock_tolerance': 0.5,
        'max_linear_speed': 0.8,
        'max_angular_speed': 1.25,
        'velocity_topic': 'odom',
        'velocity_type': 'twist_stamped',
        'time_horizon': 3.5,
        'velocity_timeout': 0.25,
        'observation_sources': ['front'],
        'source_timeout': 4.0,
        'min_points': 3,
        # The gate's (nav2's collision monitor names); base_frame_id given with
        # base_frame must be the same frame.
        'base_frame_id': 'base_link',
        'odom_frame_id': 'odom_combined',
        'cmd_vel_in_topic': 'cmd_vel_nav',
        'cmd_vel_out_topic': 'cmd_vel_safe',
        'state_topic': 'collision_monitor_state',
        'enable_stamped_cmd_vel': True,
        'base_shift_correction': False,
        'stop_pub_timeout': 2.0,
        'enabled': False,
        'polygons': ['PolygonStop'],
        # Lifecycle and diagnostics: this node then waits unconfigured (its parameters
        # read back all the same).
        'autostart': False,
        'bond_heartbeat_period': 0.5,
        'hardware_id': 'robot7',
    }
    assert sorted(changed) == sorted(PARAM_NAMES)
    assert all(changed[n] != params[n] for n in PARAM_NAMES)
    custom = tmp_path / 'custom.yaml'
    # The source listed in observation_sources needs its type, the zone in polygons its
    # type, action and shape.
    zone = {'type': 'polygon', 'action_type': 'stop',
            'points': '[[0.3, 0.3], [0.3, -0.3], [0.0, -0.3], [0.0, 0.3]]'}
    custom.write_text(yaml.safe_dump(
        {NODE_NAME: {'ros__parameters': {**changed, 'front': {'type': 'scan'},
                                         'PolygonStop': zone}}}))

    ns_file, ns_custom, ns_plain = namespace('pfile'), namespace('pcustom'), namespace('pplain')
    with start_node(ns_file, params_file=PARAMS_FILE), \
            start_node(ns_custom, params_file=custom), \
            start_node(ns_plain):
        got_file = ros_peer.get_parameters(f'{ns_file}/{NODE_NAME}', PARAM_NAMES)
        got_custom = ros_peer.get_parameters(f'{ns_custom}/{NODE_NAME}', PARAM_NAMES)
        got_plain = ros_peer.get_parameters(f'{ns_plain}/{NODE_NAME}', PARAM_NAMES)

        for name in PARAM_NAMES:
            assert got_file[name] == params[name], name
            assert type(got_file[name]) is type(params[name]), name
            assert got_custom[name] == changed[name], name
        # config/sat_collision.yaml holds the defaults.
        assert got_plain == got_file

        # Run time: the documented parameters change, the others are refused.
        node = f'{ns_file}/{NODE_NAME}'
        ok, reason = ros_peer.set_parameter(node, 'padding', 0.05)
        assert ok, reason
        assert ros_peer.get_parameters(node, ['padding']) == {'padding': 0.05}
        ok, reason = ros_peer.set_parameter(node, 'padding', 9.0)
        assert not ok and '[0, 5]' in reason, reason
        for name in RUNTIME_PARAMS:
            value = {'fail_safe': False, 'max_service_checks': 2.0, 'min_points': 2,
                     'enabled': False}.get(name, 0.5)
            ok, reason = ros_peer.set_parameter(node, name, value)
            assert ok, f'{name}: {reason}'
        for name in set(PARAM_NAMES) - set(RUNTIME_PARAMS):
            ok, reason = ros_peer.set_parameter(node, name, params[name])
            assert not ok and 'start-up only' in reason, f'{name}: {reason}'


def _file(tmp_path, body):
    path = tmp_path / 'params.yaml'
    path.write_text(f'{NODE_NAME}:\n  ros__parameters:\n' + body)
    return path


# (id, params file body or None, extra --ros-args, strings the message must contain)
BAD = [
    ('out_of_range_file', '    padding: 7.5\n', [],
     ['padding', '7.5', 'outside the allowed range [0, 5]']),
    ('out_of_range_cli', None, ['-p', 'publish_rate:=0.0'],
     ['publish_rate', '[0.1, 1000]']),
    ('negative_timeout', '    obstacles_timeout: -1.0\n', [],
     ['obstacles_timeout', '[0, 3600]']),
    ('wrong_type_number', '    footprint_timeout: "soon"\n', [],
     ['footprint_timeout', 'expected a number in [0, 3600], got string']),
    ('wrong_type_bool', '    fail_safe: 1\n', [],
     ['fail_safe', 'expected a bool, got integer']),
    ('wrong_type_string', '    zones_file: 5\n', [],
     ['zones_file', 'expected a string, got integer']),
    ('wrong_type_array', '    markers_rate: [1.0, 2.0]\n', [],
     ['markers_rate', '[0, 100]', 'double array']),
    ('wrong_type_use_sim_time', '    use_sim_time: "yes"\n', [],
     ['use_sim_time', 'expected a bool']),
    ('footprint_too_few_points', '    robot_footprint: "[[0.0, 0.0], [1.0, 0.0]]"\n', [],
     ['robot_footprint', 'not a usable footprint', '3 distinct points']),
    ('footprint_self_intersecting',
     '    robot_footprint: "[[0, 0], [1, 1], [1, 0], [0, 1]]"\n', [],
     ['robot_footprint', 'self-intersecting']),
    ('footprint_not_nav2_form', '    robot_footprint: "0.5, 0.3; -0.5, 0.3"\n', [],
     ['robot_footprint', 'expected "[[x, y], [x, y], ...]"']),
    ('robot_radius_out_of_range', '    robot_radius: 12.0\n', [],
     ['robot_radius', '[0, 10]']),
    ('typo_in_name', '    paddng: 0.1\n', [],
     ['paddng', 'unknown parameter', 'did you mean `padding`']),
    ('unknown_name_cli', None, ['-p', 'colour:=red'],
     ['colour', 'unknown parameter', 'footprint_timeout']),
    ('min_points_not_whole', '    min_points: 2.5\n', [],
     ['min_points', '2.5 is not a whole number: expected an integer in [1, 1000000]']),
    ('observation_sources_not_a_list', '    observation_sources: "scan"\n', [],
     ['observation_sources', 'expected a list of strings, got string']),
    ('source_without_type', '    observation_sources: ["scan"]\n', [],
     ['scan.type', 'source scan (in observation_sources) has no type']),
    ('source_listed_twice',
     '    observation_sources: ["scan", "scan"]\n    scan:\n      type: "scan"\n', [],
     ['observation_sources', 'source "scan" is listed twice']),
    ('source_name_not_a_token', '    observation_sources: ["front-laser"]\n', [],
     ['observation_sources', "'-' is not allowed"]),
    ('source_typo_in_suffix',
     '    base_frame: "base_link"\n'
     '    observation_sources: ["cloud"]\n    cloud:\n      type: "pointcloud"\n'
     '      min_heigth: 0.1\n', [],
     ['cloud.min_heigth', 'did you mean `cloud.min_height`']),
    ('pointcloud_without_base_frame',
     '    observation_sources: ["cloud"]\n    cloud:\n      type: "pointcloud"\n', [],
     ['cloud.type', 'needs base_frame']),
    ('source_typo_in_name',
     '    observation_sources: ["scan"]\n    scan:\n      type: "scan"\n'
     '    scna:\n      topic: "scan"\n', [],
     ['scna.topic', 'did you mean `scan.topic`']),
    ('source_bad_type',
     '    observation_sources: ["map"]\n    map:\n      type: "grid_map"\n', [],
     ['map.type', 'must be scan, pointcloud, range, polygon, costmap or fleet']),
    # navigation2 #5264: a pointcloud read through point_cloud_transport; nav2's
    # params file lists "raw, zlib, draco, zstd". No point_cloud_transport here:
    # a compressed transport stops start-up, naming why, never read as raw.
    *[(f'pointcloud_transport_{transport}',
       '    base_frame: "base_link"\n'
       '    observation_sources: ["cloud"]\n    cloud:\n      type: "pointcloud"\n'
       f'      transport_type: "{transport}"\n', [],
       ['cloud.transport_type', f'"{transport}" is not supported',
        'no point_cloud_transport', 'transport_type: raw'])
      for transport in ['zlib', 'draco', 'zstd']],
    ('source_value_out_of_range',
     '    observation_sources: ["scan"]\n    scan:\n      type: "scan"\n'
     '      source_timeout: -1.0\n', [],
     ['scan.source_timeout', 'outside the allowed range [0, 3600]']),
]


@pytest.mark.parametrize('case', BAD, ids=[c[0] for c in BAD])
def test_bad_parameter_stops_startup(case, tmp_path):
    _, body, extra, expected = case
    params_file = _file(tmp_path, body) if body is not None else None
    rc, output = run_node_expect_failure(*extra, params_file=params_file)
    assert rc != 0, output
    assert 'started:' not in output, output
    assert 'panicked' not in output, output
    for text in expected:
        assert text in output, f'{text!r} not in:\n{output}'


def test_unparseable_params_file_stops_startup(tmp_path):
    # rcl itself cannot load a list of mixed types: the message names the file and line.
    path = _file(tmp_path, '    padding: 0.1\n    markers_rate: [1, "a"]\n')
    rc, output = run_node_expect_failure(params_file=path)
    assert rc != 0, output
    assert 'panicked' not in output, output
    assert str(path) in output and 'line_num 4' in output, output


def test_missing_params_file_stops_startup(tmp_path):
    path = tmp_path / 'nowhere.yaml'
    rc, output = run_node_expect_failure(params_file=path)
    assert rc != 0, output
    assert 'panicked' not in output, output
    assert str(path) in output, output


# The sources of nav2 Jazzy's nav2_collision_monitor/params/collision_monitor_params.yaml,
# as they are there, both listed (with nav2 main's pointcloud transport_type, #5264);
# a nav2-only name on the scan source; nav2's
# base_frame_id (where cloud heights are compared) as base_frame.
NAV2_SOURCES = """\
    base_frame: "base_footprint"
    source_timeout: 5.0
    observation_sources: ["scan", "pointcloud"]
    scan:
      type: "scan"
      topic: "scan"
      enabled: True
      transport_type: "raw"
    pointcloud:
      type: "pointcloud"
      topic: "/intel_realsense_r200_depth/points"
      min_height: 0.1
      max_height: 0.5
      use_global_height: False
      enabled: True
      transport_type: "raw"
"""


def test_sources_from_a_nav2_params_file(ros_peer, tmp_path):
    ns = namespace('psources')
    node = f'{ns}/{NODE_NAME}'
    with start_node(ns, params_file=_file(tmp_path, NAV2_SOURCES)):
        # Declared: each source's parameters of its type, and only those.
        names = ros_peer.list_parameters(node)
        scan = ['scan.enabled', 'scan.exclusion_zones', 'scan.source_timeout', 'scan.topic',
                'scan.type']
        cloud = ['pointcloud.enabled', 'pointcloud.exclusion_zones', 'pointcloud.max_height',
                 'pointcloud.min_height',
                 'pointcloud.min_range', 'pointcloud.source_timeout', 'pointcloud.topic',
                 'pointcloud.transport_type', 'pointcloud.type',
                 'pointcloud.use_global_height']
        # The name nav2 reads and this node ignores stays as given, not declared.
        assert [n for n in names if n.startswith('scan.')] == sorted(
            scan + ['scan.transport_type']), names
        assert [n for n in names if n.startswith('pointcloud.')] == cloud, names
        assert 'scan.min_height' not in names and 'pointcloud.obstacles_angle' not in names
        assert {'observation_sources', 'source_timeout', 'min_points'} <= set(names)

        got = ros_peer.get_parameters(node, [
            'observation_sources', 'source_timeout', 'min_points', 'scan.type', 'scan.topic',
            'scan.enabled', 'scan.source_timeout', 'pointcloud.topic',
            'pointcloud.min_height', 'pointcloud.max_height', 'pointcloud.min_range',
            'pointcloud.use_global_height', 'pointcloud.source_timeout',
            'pointcloud.transport_type'])
        assert got == {
            'observation_sources': ['scan', 'pointcloud'],
            'source_timeout': 5.0,
            'min_points': 1,
            'scan.type': 'scan',
            'scan.topic': 'scan',
            'scan.enabled': True,
            # The node's source_timeout is each source's default.
            'scan.source_timeout': 5.0,
            'pointcloud.topic': '/intel_realsense_r200_depth/points',
            'pointcloud.min_height': 0.1,
            'pointcloud.max_height': 0.5,
            'pointcloud.min_range': 0.0,
            'pointcloud.use_global_height': False,
            'pointcloud.source_timeout': 5.0,
            # nav2 main's (#5264), and its only accepted value here.
            'pointcloud.transport_type': 'raw',
        }, got
        assert type(got['min_points']) is int
        described = ros_peer.describe_parameters(node, ['pointcloud.min_height', 'scan.type'])
        assert '[-100, 100]' in described['pointcloud.min_height'], described
        assert 'required' in described['scan.type'], described

        # Run time: `enabled` changes; the others are read at start-up only.
        ok, reason = ros_peer.set_parameter(node, 'scan.enabled', False)
        assert ok, reason
        assert ros_peer.get_parameters(node, ['scan.enabled']) == {'scan.enabled': False}
        ok, reason = ros_peer.set_parameter(node, 'scan.enabled', 'no')
        assert not ok and 'expected a bool, got string' in reason, reason
        ok, reason = ros_peer.set_parameter(node, 'scan.topic', 'front_scan')
        assert not ok and 'start-up only' in reason, reason
        assert ros_peer.get_parameters(node, ['scan.topic']) == {'scan.topic': 'scan'}
        for name, value in [('pointcloud.min_height', 0.2), ('scan.type', 'range'),
                            ('observation_sources', ['scan'])]:
            ok, reason = ros_peer.set_parameter(node, name, value)
            assert not ok and 'start-up only' in reason, f'{name}: {reason}'
        ok, reason = ros_peer.set_parameter(node, 'min_points', 4)
        assert ok, reason
        ok, reason = ros_peer.set_parameter(node, 'min_points', 2.5)
        assert not ok and 'not a whole number' in reason, reason
        assert ros_peer.get_parameters(node, ['min_points']) == {'min_points': 4}
        # Not a scan source's parameter.
        ok, _ = ros_peer.set_parameter(node, 'scan.min_height', 0.2)
        assert not ok
