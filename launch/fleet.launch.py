"""One robot of a fleet: sat_collision_node in the robot's namespace with config/fleet.yaml.

    ros2 launch sat_collision fleet.launch.py robot:=robot1
    ros2 launch sat_collision fleet.launch.py robot:=robot2 params_file:=/path/to/my.yaml

Arguments:
    robot         the robot's namespace and its id on the fleet topic (required)
    params_file   parameters of sat_collision_node (default: the installed
                  share/sat_collision/config/fleet.yaml)
    use_sim_time  'true': use /clock (ROS time)

It includes launch/sat_collision.launch.py with namespace:=<robot>, robot_id:=<robot> and
use_namespaced_tf:=true (each robot's TF in its namespace, nav2's convention; the fleet
shares the frame `map` by name and the absolute topic /fleet/robots). See docs/fleet.md.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    robot = LaunchConfiguration('robot')
    params_file = LaunchConfiguration('params_file')
    use_sim_time = LaunchConfiguration('use_sim_time')
    share = FindPackageShare('sat_collision')
    return LaunchDescription([
        DeclareLaunchArgument(
            'robot',
            description="The robot's namespace and its id on the fleet topic (e.g. robot1)",
        ),
        DeclareLaunchArgument(
            'params_file',
            default_value=PathJoinSubstitution([share, 'config', 'fleet.yaml']),
            description='Full path to the parameters file of sat_collision_node',
        ),
        DeclareLaunchArgument(
            'use_sim_time',
            default_value='false',
            choices=['true', 'false', 'True', 'False'],
            description='Use simulation (/clock) time if true',
        ),
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(
                PathJoinSubstitution([share, 'launch', 'sat_collision.launch.py'])),
            launch_arguments={
                'namespace': robot,
                'robot_id': robot,
                'params_file': params_file,
                'use_sim_time': use_sim_time,
                'use_namespaced_tf': 'true',
            }.items(),
        ),
    ])
