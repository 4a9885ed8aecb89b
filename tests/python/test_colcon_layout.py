"""The colcon install layout: scripts/colcon_build.sh builds msg/ (sat_collision_msgs) and
the Rust package (colcon-ros-cargo + cargo-ament-build) into a scratch workspace (the
`colcon_workspace` fixture of conftest.py, built once per run and shared with the
`ros2 launch` test), and the install tree must be what
`ros2 launch sat_collision sat_collision.launch.py` needs. The installed node is then
started from the install tree with the installed params file.
"""

import os
import pathlib

from satpkg_support import ROOT, Proc, env_without_private_msgs, namespace

WANTED = [
    'sat_collision/lib/sat_collision/sat_collision_node',
    'sat_collision/lib/sat_collision/sat_collision_demo',
    'sat_collision/share/sat_collision/package.xml',
    'sat_collision/share/sat_collision/launch/sat_collision.launch.py',
    'sat_collision/share/sat_collision/launch/collision_monitor.launch.py',
    'sat_collision/share/sat_collision/config/sat_collision.yaml',
    'sat_collision/share/sat_collision/config/collision_monitor.yaml',
    'sat_collision/share/sat_collision/config/sat_collision.rviz',
    'sat_collision/share/sat_collision/config/zones.example.yaml',
    'sat_collision/share/ament_index/resource_index/packages/sat_collision',
    'sat_collision_msgs/share/sat_collision_msgs/package.xml',
    'sat_collision_msgs/share/ament_index/resource_index/packages/sat_collision_msgs',
    'sat_collision_msgs/share/ament_index/resource_index/rosidl_interfaces/sat_collision_msgs',
    'sat_collision_msgs/share/sat_collision_msgs/msg/CollisionReport.msg',
    'sat_collision_msgs/share/sat_collision_msgs/srv/CheckFootprint.srv',
    'sat_collision_msgs/lib/libsat_collision_msgs__rosidl_typesupport_c.so',
    'setup.bash',
    'local_setup.bash',
]


def test_install_layout(colcon_workspace):
    ws, log = colcon_workspace
    install = ws / 'install'
    missing = [p for p in WANTED if not (install / p).exists()]
    assert not missing, f'missing in {install}: {missing}\n{log}'
    for exe in ('sat_collision_node', 'sat_collision_demo'):
        assert os.access(install / 'sat_collision/lib/sat_collision' / exe, os.X_OK)
    for name in ('sat_collision.yaml', 'sat_collision.rviz', 'zones.example.yaml',
                 'collision_monitor.yaml'):
        assert (install / 'sat_collision/share/sat_collision/config' / name).read_bytes() \
            == (ROOT / 'config' / name).read_bytes()
    for name in ('sat_collision.launch.py', 'collision_monitor.launch.py'):
        assert (install / 'sat_collision/share/sat_collision/launch' / name).read_bytes() \
            == (ROOT / 'launch' / name).read_bytes()
    # colcon never descended into the repository's private folders; msg/tf2_msgs,
    # msg/nav2_msgs and msg/bond are built only where the ROS install has no tf2_msgs, no
    # nav2_msgs, no bond (the wheels have none of them).
    prefixes = [pathlib.Path(p) for p in
                env_without_private_msgs().get('AMENT_PREFIX_PATH', '').split(':') if p]
    wanted = ['sat_collision', 'sat_collision_msgs']
    for fallback in ('tf2_msgs', 'nav2_msgs', 'bond'):
        if not any((p / 'share/ament_index/resource_index/packages' / fallback).exists()
                   for p in prefixes):
            wanted.append(fallback)
    assert sorted(p.name for p in install.iterdir() if p.is_dir()) == sorted(wanted)
    if 'nav2_msgs' in wanted:
        # The fallback: upstream's two interfaces, with the bindings r2r and rclpy load.
        for rel in ('share/nav2_msgs/msg/CollisionMonitorState.msg',
                    'share/nav2_msgs/srv/Toggle.srv',
                    'share/ament_index/resource_index/rosidl_interfaces/nav2_msgs',
                    'lib/libnav2_msgs__rosidl_typesupport_c.so'):
            assert (install / 'nav2_msgs' / rel).exists(), rel
        for rel in ('msg/CollisionMonitorState.msg', 'srv/Toggle.srv'):
            assert (install / 'nav2_msgs/share/nav2_msgs' / rel).read_bytes() \
                == (ROOT / 'msg/nav2_msgs' / rel).read_bytes()
    if 'bond' in wanted:
        # The fallback: upstream bond_core's Status and Constants, with the bindings r2r and
        # rclpy load.
        for rel in ('share/ament_index/resource_index/rosidl_interfaces/bond',
                    'lib/libbond__rosidl_typesupport_c.so'):
            assert (install / 'bond' / rel).exists(), rel
        for rel in ('msg/Status.msg', 'msg/Constants.msg'):
            assert (install / 'bond/share/bond' / rel).read_bytes() \
                == (ROOT / 'msg/bond' / rel).read_bytes()


def test_installed_node_runs_with_installed_params(colcon_workspace):
    ws, _ = colcon_workspace
    install = ws / 'install'
    share = install / 'sat_collision/share/sat_collision'
    ns = namespace('colcon')
    script = (f'source "{install}/setup.bash" && '
              f'exec "{install}/sat_collision/lib/sat_collision/sat_collision_node" '
              f'--ros-args -r __ns:={ns} --params-file "{share}/config/sat_collision.yaml" '
              f'-p zones_file:="{share}/config/zones.example.yaml"')
    with Proc(['bash', '-c', script], env=env_without_private_msgs()) as node:
        node.wait_for(r'4 keep-out zones from ', timeout=30)
        node.wait_for(r'\bstarted: ', timeout=30)
        assert node.stop() == 0, node.output
