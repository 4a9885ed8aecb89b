"""Start sat_collision_node as nav2's collision monitor (the velocity gate).

    ros2 launch sat_collision collision_monitor.launch.py
    ros2 launch sat_collision collision_monitor.launch.py params_file:=/path/to/my.yaml \
        namespace:=robot1 use_sim_time:=true

The node runs under nav2's node name, collision_monitor, with nav2's parameters file layout
(config/collision_monitor.yaml: the `collision_monitor` section of nav2_collision_monitor's
params/collision_monitor_params.yaml), so that it stands in for nav2_collision_monitor's
collision_monitor node: cmd_vel_in_topic -> zones checked against the sources ->
cmd_vel_out_topic, the state on state_topic (nav2_msgs/msg/CollisionMonitorState) and the
service ~/toggle (nav2_msgs/srv/Toggle).

Arguments:
    params_file   parameters of the node (default: the installed
                  share/sat_collision/config/collision_monitor.yaml)
    namespace     namespace of the node, '' = none
    use_sim_time  'true': use /clock (ROS time)
    dds_profile   Fast DDS XML profile of the node (default: $FASTRTPS_DEFAULT_PROFILES_FILE
                  when it is set, else the installed
                  share/sat_collision/config/fastdds_large_data.xml); '' = none set here.
                  The same rule as launch/sat_collision.launch.py (read its documentation):
                  set only when the RMW is Fast DDS, and only in the node's environment.

TF: /tf and /tf_static are remapped to tf and tf_static, as nav2's
nav2_collision_monitor/launch/collision_monitor_node.launch.py does: inside `namespace`
the node reads the namespace's TF (nav2's convention for namespaced robots), without one
/tf and /tf_static.

What differs from nav2's launch file: no lifecycle manager (sat_collision_node is not a
lifecycle node: it is active once started), no composition (use_composition,
container_name: the node is its own process), the parameters file is passed as is (nav2
rewrites it under the namespace with RewrittenYaml; sat_collision_node applies the section
named by its node name, collision_monitor, in any namespace), and use_sim_time defaults to
false (nav2's launch file defaults to true, for Gazebo).
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, GroupAction, SetEnvironmentVariable
from launch.conditions import IfCondition
from launch.substitutions import (
    AllSubstitution, AnySubstitution, EnvironmentVariable, EqualsSubstitution,
    LaunchConfiguration, NotEqualsSubstitution, PathJoinSubstitution,
)
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare

PACKAGE = 'sat_collision'
# nav2's node name: its parameters file's section, its service ~/toggle.
NODE_NAME = 'collision_monitor'

# As launch/sat_collision.launch.py: the variables naming a Fast DDS XML profile file (Fast
# DDS 2.x, ROS 2 Jazzy, reads the first; Fast DDS 3.x the second) and the RMW_IMPLEMENTATION
# values that mean Fast DDS ('': the distribution's default, Fast DDS in Jazzy).
DDS_PROFILE_VARIABLES = ('FASTRTPS_DEFAULT_PROFILES_FILE', 'FASTDDS_DEFAULT_PROFILES_FILE')
FASTDDS_RMWS = ('', 'rmw_fastrtps_cpp', 'rmw_fastrtps_dynamic_cpp')

# nav2's remappings (collision_monitor_node.launch.py): TF inside the namespace.
REMAPPINGS = [('/tf', 'tf'), ('/tf_static', 'tf_static')]


def generate_launch_description():
    params_file = LaunchConfiguration('params_file')
    namespace = LaunchConfiguration('namespace')
    use_sim_time = LaunchConfiguration('use_sim_time')
    dds_profile = LaunchConfiguration('dds_profile')

    share = FindPackageShare(PACKAGE)

    declare_params_file = DeclareLaunchArgument(
        'params_file',
        default_value=PathJoinSubstitution([share, 'config', 'collision_monitor.yaml']),
        description='Full path to the parameters file of the collision monitor',
    )
    declare_namespace = DeclareLaunchArgument(
        'namespace',
        default_value='',
        description='Namespace of the collision monitor (empty: none)',
    )
    declare_use_sim_time = DeclareLaunchArgument(
        'use_sim_time',
        default_value='false',
        choices=['true', 'false', 'True', 'False'],
        description='Use simulation time (/clock) if true',
    )
    declare_dds_profile = DeclareLaunchArgument(
        'dds_profile',
        default_value=EnvironmentVariable(
            DDS_PROFILE_VARIABLES[0],
            default_value=PathJoinSubstitution([share, 'config', 'fastdds_large_data.xml'])),
        description='Fast DDS XML profile of the node, set only with a Fast DDS RMW (default: '
                    '$FASTRTPS_DEFAULT_PROFILES_FILE if set, else the installed '
                    "config/fastdds_large_data.xml; '': none set)",
    )

    collision_monitor = Node(
        package=PACKAGE,
        executable='sat_collision_node',
        name=NODE_NAME,
        namespace=namespace,
        output='screen',
        emulate_tty=True,
        parameters=[params_file, {'use_sim_time': ParameterValue(use_sim_time, value_type=bool)}],
        remappings=REMAPPINGS,
    )

    rmw = EnvironmentVariable('RMW_IMPLEMENTATION', default_value='')
    uses_fastdds = AnySubstitution(*(EqualsSubstitution(rmw, name) for name in FASTDDS_RMWS))
    set_profile = IfCondition(AllSubstitution(uses_fastdds, NotEqualsSubstitution(dds_profile, '')))
    # Scoped: the variables reach the node only.
    collision_monitor_with_profile = GroupAction(
        [SetEnvironmentVariable(name, dds_profile, condition=set_profile)
         for name in DDS_PROFILE_VARIABLES] + [collision_monitor],
        scoped=True,
        forwarding=True,
    )

    return LaunchDescription([
        declare_params_file,
        declare_namespace,
        declare_use_sim_time,
        declare_dds_profile,
        collision_monitor_with_profile,
    ])
