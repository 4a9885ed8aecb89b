"""package.xml, the Cargo metadata for cargo-ament-build, and config/sat_collision.rviz."""

import re
import tomllib

import yaml

from satpkg_support import ROOT


def test_package_xml_is_a_valid_ament_cargo_package():
    from catkin_pkg.package import parse_package

    pkg = parse_package(str(ROOT / 'package.xml'))  # validates, e-mail addresses included
    assert pkg.name == 'sat_collision'
    assert pkg.package_format == 3
    assert pkg.get_build_type() == 'ament_cargo'
    cargo = tomllib.loads((ROOT / 'Cargo.toml').read_text())
    assert pkg.version == cargo['package']['version']
    depends = {d.name for d in pkg.build_depends} & {d.name for d in pkg.exec_depends}
    for needed in ('sat_collision_msgs', 'std_msgs', 'geometry_msgs', 'visualization_msgs',
                   'rcl_interfaces', 'tf2_msgs', 'nav2_msgs', 'lifecycle_msgs',
                   'diagnostic_msgs', 'bond'):
        assert needed in depends, needed
    exec_only = {d.name for d in pkg.exec_depends}
    assert {'launch_ros', 'rviz2'} <= exec_only
    # Every interface package r2r generates bindings for (env.sh's IDL_PACKAGE_FILTER)
    # is a dependency, so that colcon orders the build right.
    env_sh = (ROOT / 'scripts' / 'env.sh').read_text()
    idl = re.search(r'_SAT_IDL_FILTER="([^"]+)"', env_sh).group(1).split(';')
    assert set(idl) <= depends, set(idl) - depends


def test_cargo_metadata_installs_launch_and_config():
    cargo = tomllib.loads((ROOT / 'Cargo.toml').read_text())
    share = cargo['package']['metadata']['ros']['install_to_share']
    assert set(share) == {'launch', 'config'}
    for d in share:
        assert (ROOT / d).is_dir()
    # Installed with their folders: both launch files and what they load by default.
    for f in ('launch/sat_collision.launch.py', 'launch/collision_monitor.launch.py',
              'config/sat_collision.yaml', 'config/collision_monitor.yaml',
              'config/fastdds_large_data.xml', 'config/sat_collision.rviz'):
        assert f.split('/')[0] in share and (ROOT / f).is_file(), f


def test_rviz_config():
    rviz = yaml.safe_load((ROOT / 'config' / 'sat_collision.rviz').read_text())
    manager = rviz['Visualization Manager']
    assert manager['Global Options']['Fixed Frame'] == 'map'
    displays = {d['Name']: d for d in manager['Displays']}
    assert {d['Class'] for d in displays.values()} == {
        'rviz_default_plugins/Grid', 'rviz_default_plugins/MarkerArray',
        'rviz_default_plugins/Polygon'}
    markers = displays['Collision markers']
    polygon = displays['Footprint']
    # The velocity gate's: nav2's zone topics (config/collision_monitor.yaml) and its
    # points, under either node name.
    gate_topics = {d['Topic']['Value'] for n, d in displays.items() if n.startswith('Gate')}
    assert gate_topics == {'polygon_stop', 'polygon_slowdown',
                           'sat_collision_node/collision_points_marker',
                           'collision_monitor/collision_points_marker'}
    # Relative topic names: they follow the namespace RViz2 is started in.
    assert markers['Topic']['Value'] == 'collision_markers'
    assert polygon['Topic']['Value'] == 'footprint'
    assert all(d['Enabled'] for d in displays.values())
    # Every marker namespace the node publishes is listed and on.
    markers_rs = (ROOT / 'src' / 'ros' / 'markers.rs').read_text()
    namespaces = set(re.findall(r'pub const NS_\w+: &str = "(\w+)";', markers_rs))
    assert namespaces and set(markers['Namespaces']) == namespaces
    assert all(markers['Namespaces'].values())
    assert manager['Views']['Current']['Class'] == 'rviz_default_plugins/TopDownOrtho'
    panels = {p['Class'] for p in rviz['Panels']}
    assert 'rviz_common/Displays' in panels


def test_zones_example_is_in_the_scene_format():
    zones = yaml.safe_load((ROOT / 'config' / 'zones.example.yaml').read_text())
    assert zones['frame_id'] == 'map'
    assert 'footprint' not in zones
    kinds = {('circle' if 'circle' in z else 'polygon') for z in zones['obstacles']}
    assert kinds == {'circle', 'polygon'}
