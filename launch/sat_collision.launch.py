"""Start sat_collision_node, and RViz2 with the package's view if asked.

    ros2 launch sat_collision sat_collision.launch.py
    ros2 launch sat_collision sat_collision.launch.py params_file:=/path/to/my.yaml \
        namespace:=robot1 use_sim_time:=true use_rviz:=true log_level:=debug

Arguments:
    params_file   parameters of sat_collision_node (default: the installed
                  share/sat_collision/config/sat_collision.yaml)
    namespace     namespace of the node (and of RViz2), '' = none
    use_sim_time  'true': use /clock (ROS time) for freshness
    use_rviz      'true': also start rviz2 -d share/sat_collision/config/sat_collision.rviz
    log_level     debug, info, warn, error or fatal
    use_namespaced_tf  'true': read TF from tf and tf_static inside `namespace`
                  (nav2's convention for namespaced robots) instead of /tf and
                  /tf_static
    dds_profile   Fast DDS XML profile of the node (default: $FASTRTPS_DEFAULT_PROFILES_FILE
                  when it is set, else the installed
                  share/sat_collision/config/fastdds_large_data.xml); '' = none set here
                  (the node keeps the environment it inherits). See below.
    use_lifecycle_manager  'true': the node is started as a managed (lifecycle) node that
                  waits unconfigured (autostart: false), and brought up beside it. See below.
    robot_id      this robot's id on the fleet topic (docs/fleet.md), given to the node as
                  its parameter robot_id (over the params file's); default: the namespace
                  without its slashes, so `namespace:=robot1` publishes robot1 ('' with no
                  namespace: not published).

Fast DDS profile (dds_profile): when the RMW is Fast DDS (RMW_IMPLEMENTATION unset or
empty, the default of ROS 2 Jazzy, rmw_fastrtps_cpp or rmw_fastrtps_dynamic_cpp) and
dds_profile is not '', the node is started with FASTRTPS_DEFAULT_PROFILES_FILE (read by
Fast DDS 2.x, Jazzy's) and FASTDDS_DEFAULT_PROFILES_FILE (Fast DDS 3.x) set to it; other
RMWs (Cyclone DDS, ...) get nothing. Only the node's environment changes (a scoped group:
not RViz2's, not the including launch file's). The installed profile gives the
participant a 16 MiB shared-memory segment and 8 MiB UDP socket buffers, so that
multi-MB best-effort point clouds arrive (see the file's comments and BENCHMARKS.md "Big
point clouds over DDS"). It holds no QoS: RMW_FASTRTPS_USE_QOS_FROM_XML is not needed.
Over shared memory the SENDER's segment is what counts: run the sensor driver with the
same profile (e.g. export FASTRTPS_DEFAULT_PROFILES_FILE=$(ros2 pkg prefix --share
sat_collision)/config/fastdds_large_data.xml before launching it; this launch file then
keeps that value for the node too). Over UDP (another machine) the node's own receive
buffer counts, which this argument sets (the kernel caps it at net.core.rmem_max).

Lifecycle (use_lifecycle_manager): by default (false) the node configures and activates
itself at start-up (its parameter autostart, default true), as it always did; the launch
passes nothing. With 'true' the node is started with autostart: false (a launch_ros
LifecycleNode) and is brought up by
* nav2's lifecycle manager when the package nav2_lifecycle_manager is installed: the node
  lifecycle_manager_sat_collision_node in the same namespace, node_names:
  [sat_collision_node], autostart: true, bond_timeout: 4.0 s (nav2's default). It
  configures then activates the node, and resets it when its bond heartbeat stops;
* otherwise launch itself, with launch_ros's lifecycle events: a ChangeState event
  `configure`, then `activate` once the node has gone from configuring to inactive
  (only after a configure: a later deactivate by hand is left alone). Without a manager
  nothing watches the bond.

Topic remappings: REMAPPINGS below lists every topic and the service of the node
(node-relative names on the left). The defaults keep the node's own names; change the
right-hand side to connect it to other topics, e.g. nav2's footprint:
    ('footprint', 'local_costmap/published_footprint')
Relative names resolve inside `namespace`; names starting with '/' do not.
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
    LaunchConfiguration, NotEqualsSubstitution, PathJoinSubstitution, PythonExpression,
)
from launch_ros.actions import LifecycleNode, Node
from launch_ros.event_handlers import OnStateTransition
from launch_ros.events.lifecycle import ChangeState
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare
from lifecycle_msgs.msg import Transition

PACKAGE = 'sat_collision'
NODE_NAME = 'sat_collision_node'

# use_lifecycle_manager:=true: nav2's lifecycle manager (when installed) and its bond
# timeout (nav2's default, seconds).
NAV2_LIFECYCLE_MANAGER = 'nav2_lifecycle_manager'
BOND_TIMEOUT = 4.0

# The variables naming a Fast DDS XML profile file: Fast DDS 2.x (ROS 2 Jazzy) reads the
# first, Fast DDS 3.x (Kilted and later) the second.
DDS_PROFILE_VARIABLES = ('FASTRTPS_DEFAULT_PROFILES_FILE', 'FASTDDS_DEFAULT_PROFILES_FILE')
# RMW_IMPLEMENTATION values that mean Fast DDS ('': the distribution's default, Fast DDS
# in Jazzy).
FASTDDS_RMWS = ('', 'rmw_fastrtps_cpp', 'rmw_fastrtps_dynamic_cpp')

# (name used by sat_collision_node, name it is connected to)
REMAPPINGS = [
    # in: geometry_msgs/PolygonStamped, the robot's footprint in the obstacles' frame
    ('footprint', 'footprint'),
    # in: sat_collision_msgs/ObstacleArray, replaces the whole obstacle set
    ('obstacles', 'obstacles'),
    # in: geometry_msgs/PolygonInstanceStamped, one obstacle each (expires on its own)
    ('obstacle_instances', 'obstacle_instances'),
    # out: std_msgs/Bool, the fail-safe collision flag
    ('collision', 'collision'),
    # out: sat_collision_msgs/CollisionReport
    ('collision_report', 'collision_report'),
    # out: visualization_msgs/MarkerArray
    ('collision_markers', 'collision_markers'),
    # out: std_msgs/Bool, contact predicted along the velocity (with velocity_topic)
    ('collision_ahead', 'collision_ahead'),
    # service: sat_collision_msgs/srv/CheckFootprint
    ('check_footprint', 'check_footprint'),
    # service: sat_collision_msgs/srv/CheckPath
    ('check_path', 'check_path'),
]


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
    use_rviz = LaunchConfiguration('use_rviz')
    log_level = LaunchConfiguration('log_level')
    use_namespaced_tf = LaunchConfiguration('use_namespaced_tf')
    dds_profile = LaunchConfiguration('dds_profile')
    use_lifecycle_manager = LaunchConfiguration('use_lifecycle_manager')
    robot_id = LaunchConfiguration('robot_id')

    share = FindPackageShare(PACKAGE)

    declare_params_file = DeclareLaunchArgument(
        'params_file',
        default_value=PathJoinSubstitution([share, 'config', 'sat_collision.yaml']),
        description='Full path to the parameters file of sat_collision_node',
    )
    declare_namespace = DeclareLaunchArgument(
        'namespace',
        default_value='',
        description='Namespace of sat_collision_node and RViz2 (empty: none)',
    )
    declare_use_sim_time = DeclareLaunchArgument(
        'use_sim_time',
        default_value='false',
        choices=['true', 'false', 'True', 'False'],
        description='Use simulation time (/clock) if true',
    )
    declare_use_rviz = DeclareLaunchArgument(
        'use_rviz',
        default_value='false',
        choices=['true', 'false', 'True', 'False'],
        description='Start RViz2 with config/sat_collision.rviz if true',
    )
    declare_log_level = DeclareLaunchArgument(
        'log_level',
        default_value='info',
        choices=['debug', 'info', 'warn', 'error', 'fatal'],
        description='Log level of the started nodes',
    )

    declare_use_namespaced_tf = DeclareLaunchArgument(
        'use_namespaced_tf',
        default_value='false',
        choices=['true', 'false', 'True', 'False'],
        description='Read TF from tf and tf_static in the namespace (not /tf, /tf_static)',
    )

    declare_dds_profile = DeclareLaunchArgument(
        'dds_profile',
        default_value=EnvironmentVariable(
            DDS_PROFILE_VARIABLES[0],
            default_value=PathJoinSubstitution([share, 'config', 'fastdds_large_data.xml'])),
        # (--show-args prints the default as EnvVar(...) alone: the fallback is said here.)
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

    declare_robot_id = DeclareLaunchArgument(
        'robot_id',
        default_value=PythonExpression(["'", namespace, "'.strip('/')"]),
        description="This robot's id on the fleet topic (default: the namespace without "
                    "its slashes; '' = not published)",
    )

    sim_time = ParameterValue(use_sim_time, value_type=bool)
    robot = ParameterValue(robot_id, value_type=str)
    # /tf and /tf_static are absolute (tf2's listener); a namespaced robot's TF lives
    # in its namespace.
    namespaced = ["'", use_namespaced_tf, "'.lower() == 'true'"]
    tf_remappings = [
        ('/tf', PythonExpression(["'tf' if "] + namespaced + [" else '/tf'"])),
        ('/tf_static', PythonExpression(["'tf_static' if "] + namespaced + [" else '/tf_static'"])),
    ]

    node_options = dict(
        package=PACKAGE,
        executable='sat_collision_node',
        name=NODE_NAME,
        namespace=namespace,
        output='screen',
        emulate_tty=True,
        remappings=REMAPPINGS + tf_remappings,
        arguments=['--ros-args', '--log-level', log_level],
    )
    managed = IfCondition(use_lifecycle_manager)
    # Standalone (the default): the node's own autostart, as it always was.
    collision_node = Node(
        condition=UnlessCondition(use_lifecycle_manager),
        parameters=[params_file, {'use_sim_time': sim_time, 'robot_id': robot}],
        **node_options,
    )
    # Managed: waits unconfigured for the lifecycle manager (or launch's events).
    managed_collision_node = LifecycleNode(
        condition=managed,
        parameters=[params_file, {'use_sim_time': sim_time, 'autostart': False,
                                  'robot_id': robot}],
        **node_options,
    )

    rmw = EnvironmentVariable('RMW_IMPLEMENTATION', default_value='')
    uses_fastdds = AnySubstitution(*(EqualsSubstitution(rmw, name) for name in FASTDDS_RMWS))
    set_profile = IfCondition(AllSubstitution(uses_fastdds, NotEqualsSubstitution(dds_profile, '')))
    # Scoped: the variables reach the node only.
    collision_node_with_profile = GroupAction(
        [SetEnvironmentVariable(name, dds_profile, condition=set_profile)
         for name in DDS_PROFILE_VARIABLES] + [collision_node, managed_collision_node],
        scoped=True,
        forwarding=True,
    )

    rviz = Node(
        condition=IfCondition(use_rviz),
        package='rviz2',
        executable='rviz2',
        name='rviz2',
        namespace=namespace,
        output='screen',
        parameters=[{'use_sim_time': sim_time}],
        arguments=[
            '-d', PathJoinSubstitution([share, 'config', 'sat_collision.rviz']),
            '--ros-args', '--log-level', log_level,
        ],
    )

    return LaunchDescription([
        declare_params_file,
        declare_namespace,
        declare_use_sim_time,
        declare_use_rviz,
        declare_log_level,
        declare_use_namespaced_tf,
        declare_dds_profile,
        declare_use_lifecycle_manager,
        declare_robot_id,
        collision_node_with_profile,
        *lifecycle_bringup(managed_collision_node, namespace, sim_time, managed,
                           ['--ros-args', '--log-level', log_level]),
        rviz,
    ])
