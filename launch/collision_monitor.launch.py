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
    use_lifecycle_manager  'true': the node waits unconfigured (autostart: false) and is
                  brought up as nav2 brings up its collision monitor. See below.

TF: /tf and /tf_static are remapped to tf and tf_static, as nav2's
nav2_collision_monitor/launch/collision_monitor_node.launch.py does: inside `namespace`
the node reads the namespace's TF (nav2's convention for namespaced robots), without one
/tf and /tf_static.

Lifecycle (use_lifecycle_manager): by default (false) the node configures and activates
itself at start-up (its parameter autostart, default true) and the launch passes nothing.
With 'true' the node (a launch_ros LifecycleNode) is started with autostart: false and
brought up by
* nav2's lifecycle manager when the package nav2_lifecycle_manager is installed, as nav2's
  launch file starts it: lifecycle_manager_collision_monitor in the same namespace,
  node_names: [collision_monitor], autostart: true, bond_timeout: 4.0 s (nav2's default);
  it configures then activates the node and resets it when its bond heartbeat stops;
* otherwise launch itself, with launch_ros's lifecycle events: `configure`, then
  `activate` once the node has gone from configuring to inactive. Nothing then watches
  the bond.
The same rule as launch/sat_collision.launch.py (the same functions).

What differs from nav2's launch file: the lifecycle manager only on request (nav2 always
starts one; this node is active once started unless use_lifecycle_manager is true), no
composition (use_composition, container_name: the node is its own process), the
parameters file is passed as is (nav2 rewrites it under the namespace with RewrittenYaml;
sat_collision_node applies the section named by its node name, collision_monitor, in any
namespace), and use_sim_time defaults to false (nav2's launch file defaults to true, for
Gazebo).
"""

from ament_index_python.packages import get_package_prefix, PackageNotFoundError
from launch import LaunchDescription
from launch.actions import (
    DeclareLaunchArgument, EmitEvent, GroupAction, LogInfo, RegisterEventHandler,
    SetEnvironmentVariable,
)
from launch.conditions import IfCondition, UnlessCondition
from launch.events import matches_action
from launch.substitutions import (
    AllSubstitution, AnySubstitution, EnvironmentVariable, EqualsSubstitution,
    LaunchConfiguration, NotEqualsSubstitution, PathJoinSubstitution,
)
from launch_ros.actions import LifecycleNode, Node
from launch_ros.event_handlers import OnStateTransition
from launch_ros.events.lifecycle import ChangeState
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare
from lifecycle_msgs.msg import Transition

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

# use_lifecycle_manager:=true: nav2's lifecycle manager (when installed) and its bond
# timeout (nav2's default, seconds).
NAV2_LIFECYCLE_MANAGER = 'nav2_lifecycle_manager'
BOND_TIMEOUT = 4.0


def installed(package):
    """Whether `package` is in the ament index (an installed ROS package)."""
    try:
        get_package_prefix(package)
    except PackageNotFoundError:
        return False
    return True


def lifecycle_bringup(node, namespace, sim_time, condition, arguments=()):
    """What configures and activates `node` (NODE_NAME, a LifecycleNode started with
    autostart: false) under `condition`: nav2's lifecycle manager when it is installed
    (started with `arguments`), otherwise launch's own lifecycle events (configure; activate
    once configuring has reached inactive). The same function in both launch files."""
    if installed(NAV2_LIFECYCLE_MANAGER):
        return [Node(
            condition=condition,
            package=NAV2_LIFECYCLE_MANAGER,
            executable='lifecycle_manager',
            name=f'lifecycle_manager_{NODE_NAME}',
            namespace=namespace,
            output='screen',
            emulate_tty=True,
            parameters=[{'use_sim_time': sim_time, 'autostart': True,
                         'node_names': [NODE_NAME], 'bond_timeout': BOND_TIMEOUT}],
            arguments=list(arguments),
        )]
    activate = RegisterEventHandler(
        OnStateTransition(
            target_lifecycle_node=node, start_state='configuring', goal_state='inactive',
            entities=[
                LogInfo(msg=f'{NODE_NAME} is configured (inactive): activating it'),
                EmitEvent(event=ChangeState(lifecycle_node_matcher=matches_action(node),
                                            transition_id=Transition.TRANSITION_ACTIVATE)),
            ],
        ),
        condition=condition,
    )
    configure = EmitEvent(
        event=ChangeState(lifecycle_node_matcher=matches_action(node),
                          transition_id=Transition.TRANSITION_CONFIGURE),
        condition=condition,
    )
    return [activate, configure]


def generate_launch_description():
    params_file = LaunchConfiguration('params_file')
    namespace = LaunchConfiguration('namespace')
    use_sim_time = LaunchConfiguration('use_sim_time')
    dds_profile = LaunchConfiguration('dds_profile')
    use_lifecycle_manager = LaunchConfiguration('use_lifecycle_manager')

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

    declare_use_lifecycle_manager = DeclareLaunchArgument(
        'use_lifecycle_manager',
        default_value='false',
        choices=['true', 'false', 'True', 'False'],
        description='Start the node unconfigured (autostart: false) and bring it up with '
                    "nav2's lifecycle manager (when installed; otherwise launch's lifecycle "
                    'events) if true',
    )

    sim_time = ParameterValue(use_sim_time, value_type=bool)
    node_options = dict(
        package=PACKAGE,
        executable='sat_collision_node',
        name=NODE_NAME,
        namespace=namespace,
        output='screen',
        emulate_tty=True,
        remappings=REMAPPINGS,
    )
    managed = IfCondition(use_lifecycle_manager)
    # Standalone (the default): the node's own autostart.
    collision_monitor = Node(
        condition=UnlessCondition(use_lifecycle_manager),
        parameters=[params_file, {'use_sim_time': sim_time}],
        **node_options,
    )
    # Managed: waits unconfigured for the lifecycle manager (or launch's events).
    managed_collision_monitor = LifecycleNode(
        condition=managed,
        parameters=[params_file, {'use_sim_time': sim_time, 'autostart': False}],
        **node_options,
    )

    rmw = EnvironmentVariable('RMW_IMPLEMENTATION', default_value='')
    uses_fastdds = AnySubstitution(*(EqualsSubstitution(rmw, name) for name in FASTDDS_RMWS))
    set_profile = IfCondition(AllSubstitution(uses_fastdds, NotEqualsSubstitution(dds_profile, '')))
    # Scoped: the variables reach the node only.
    collision_monitor_with_profile = GroupAction(
        [SetEnvironmentVariable(name, dds_profile, condition=set_profile)
         for name in DDS_PROFILE_VARIABLES] + [collision_monitor, managed_collision_monitor],
        scoped=True,
        forwarding=True,
    )

    return LaunchDescription([
        declare_params_file,
        declare_namespace,
        declare_use_sim_time,
        declare_dds_profile,
        declare_use_lifecycle_manager,
        collision_monitor_with_profile,
        *lifecycle_bringup(managed_collision_monitor, namespace, sim_time, managed),
    ])
