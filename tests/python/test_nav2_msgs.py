"""nav2_msgs' fallback interfaces: CollisionMonitorState and Toggle (the velocity gate's
interfaces: nav2's collision monitor's state topic and ~/toggle service), Costmap,
CostmapMetaData, ExclusionZoneDescription, AddExclusionZone and RemoveExclusionZone are
upstream's, hashes included.

Where the ROS install has no nav2_msgs (the PyPI wheels), msg/nav2_msgs (those seven
interfaces only) is built by scripts/setup.sh and scripts/colcon_build.sh; a regular
install's own nav2_msgs is used otherwise. Either way, what rclpy loads here must be
upstream's:
* msg/nav2_msgs's .msg/.srv files are upstream's, byte for byte (git blob ids);
* the type hashes announced on the wire (topic endpoint info, as test_tf.py does for
  TFMessage; the service's event topic), held by the type support (its C functions) and
  answered by a node's ~/get_type_description service equal upstream's RIHS01 hashes;
* an rclpy publisher/subscriber round trip of CollisionMonitorState and a Toggle call
  against an rclpy server (the package is usable from Python);
* scripts/env_lib.sh builds the fallback exactly when the prefix has no nav2_msgs, and the
  msg/ build's key says which.
"""

import os
import threading

import pytest

from fallback_msgs import (
    TIMEOUT, assert_built_only_where_missing, assert_files_are_upstreams,
    assert_type_support_hashes, two_peers, wait_until,
)
from satpkg_support import ROOT, namespace

if not os.environ.get('ROS_DOMAIN_ID'):
    # Before rclpy creates a context: separate runs must not hear each other.
    os.environ['ROS_DOMAIN_ID'] = str(1 + os.getpid() % 100)

# Upstream's type hashes. CollisionMonitorState's and Toggle's (navigation2, branch jazzy,
# nav2_msgs 1.3.13) were recorded when this test was written, two independent ways that agree:
# 1. computed with rosidl's own tooling (rosidl_adapter.convert_to_idl, then
#    rosidl_generator_type_description.generate_type_hash, rosidl 4.6.6 from the Jazzy
#    wheels) from upstream's files as `git show jazzy:nav2_msgs/msg/CollisionMonitorState.msg`
#    (and srv/Toggle.srv) print them in navigation2's repository (commit
#    f4108e5b1c2bce804a1aa0c7be6673a8eb4a1501), not from this repository's copies; the
#    service's event type refers to Jazzy's builtin_interfaces/msg/Time and
#    service_msgs/msg/ServiceEventInfo (whose hashes the wheels' .json files give);
# 2. rosidl_generator_c's output (collision_monitor_state__description.c,
#    toggle__description.c) of a nav2_msgs build published on GitHub.
# The other five come from navigation2's branch main (nav2_msgs 1.5.0, commit
# a3a97043ee93d92fe8d70ec56d183933169beb1c), recorded the same two ways: 1. from
# `git show <commit>:nav2_msgs/msg/Costmap.msg` (and the four others) with the same tooling
# (the referenced types, builtin_interfaces/msg/Time, std_msgs/msg/Header and
# geometry_msgs' Pose, Point, Quaternion and Point32, have the same definitions in Jazzy
# and on main); 2. rosidl_generator_c's output published on GitHub: a nav2_msgs build's
# exclusion_zone_description__description.c and add_exclusion_zone__description.c, and
# the EXPECTED_HASH of Costmap and CostmapMetaData in another package's description.c
# (none was found for RemoveExclusionZone: its hashes rest on the first way alone).
# RIHS01 hashes the fields only (names, types, default values), not comments or constants.
UPSTREAM_HASHES = {
    'nav2_msgs/msg/CollisionMonitorState':
        'RIHS01_848f43f40716d6b3ac12a698cc3974a7eb2bf00158c5fca7bb93a128850d5a1e',
    'nav2_msgs/srv/Toggle':
        'RIHS01_b2bdc685d2421a1d0151247de7cdfde358ae2b5f4826a6f4b57128c1d0c3f13c',
    'nav2_msgs/srv/Toggle_Request':
        'RIHS01_cfab1b7d178e141328aac9d82dd02397edff337776265d19a23f2c2d0ee1134d',
    'nav2_msgs/srv/Toggle_Response':
        'RIHS01_0592b15505fa7165ad556e510700210a341d1a9bab872012fa7f3c861c778e26',
    'nav2_msgs/srv/Toggle_Event':
        'RIHS01_903275e1353b24261c21b1a70cbf2df38f322cb81d42a293416df559c6d23ebd',
    'nav2_msgs/msg/Costmap':
        'RIHS01_d51bf7aecafdbb3f8f98215de648abe6d53f8db69156d6e143125d2ad2bf0027',
    'nav2_msgs/msg/CostmapMetaData':
        'RIHS01_1a41ec8428d50c3b4cd3f9055e1adb0eaec72fb39ae11686b59218f6e0884cbd',
    'nav2_msgs/msg/ExclusionZoneDescription':
        'RIHS01_f9addbb3b5a21a61856c9914d745c8cd6fdc9839f58d8e91e928c38ec9e1db19',
    'nav2_msgs/srv/AddExclusionZone':
        'RIHS01_1c408a3fcf9adfc27e7f9886b0c842547cb8a7b07fe14b06c1fa3e82563b0861',
    'nav2_msgs/srv/AddExclusionZone_Request':
        'RIHS01_01079181dba1c7f0db224690e0c2d5b827180e273f45636e2378481517554404',
    'nav2_msgs/srv/AddExclusionZone_Response':
        'RIHS01_a19f5d48ad7f6565886d0e09950e221dc6e7abbbeabaf0078b0acff92b5b1479',
    'nav2_msgs/srv/AddExclusionZone_Event':
        'RIHS01_eec94536a57ef809e867927384e9a00af7adea888bc161a696fc4b033b2a80d6',
    'nav2_msgs/srv/RemoveExclusionZone':
        'RIHS01_0a80d5985c6958971e32327c1d528fcc79ad0577f76c534bed5665fa831aae2d',
    'nav2_msgs/srv/RemoveExclusionZone_Request':
        'RIHS01_73e0a51b67dc77dd5c59624de4616ccd61a917f4c26260b4226e7b93529d2f53',
    'nav2_msgs/srv/RemoveExclusionZone_Response':
        'RIHS01_cde0b4876f7e4cd4e54d91804dbb37fc992808901feee1394e3b5f87010ab6bf',
    'nav2_msgs/srv/RemoveExclusionZone_Event':
        'RIHS01_5130c2df5af96a92bde01370225053e3194bc19f1f6697914ad54565dc39c97b',
}

# Git blob ids of upstream's files (`git rev-parse jazzy:nav2_msgs/<path>` in navigation2's
# repository for the first two, `git rev-parse a3a97043ee93:nav2_msgs/<path>` (main) for the
# others): msg/nav2_msgs's copies must be these bytes.
UPSTREAM_BLOBS = {
    'msg/CollisionMonitorState.msg': '7c356e1cd44169760a1c2e45e72652423be8b4c0',
    'srv/Toggle.srv': 'c4ed478ca6b2b00d4fc2c814413baf17961c40e8',
    'msg/Costmap.msg': '4c3e90ca70cd59d7afe0ff33b574addf2893a488',
    'msg/CostmapMetaData.msg': '0c74b661017da97b4a71e0ab51a6213d1475b8c9',
    'msg/ExclusionZoneDescription.msg': '0131996884fede87b531cbdc73f1a48b05efee2e',
    'srv/AddExclusionZone.srv': 'e6816fafe938f5598a90cfdd1c02f990af015721',
    'srv/RemoveExclusionZone.srv': '2f71bd0b0c06066a15e39913a830fbaecbf405ef',
}

PACKAGE = ROOT / 'msg' / 'nav2_msgs'


@pytest.fixture
def peers():
    """Two rclpy nodes, each with its own context and background executor."""
    yield from two_peers('nav2_msgs')
# --- the package's files --------------------------------------------------------------------

def test_interface_files_are_upstreams_byte_for_byte():
    assert_files_are_upstreams(PACKAGE, UPSTREAM_BLOBS)


def test_package_is_an_interface_package_named_nav2_msgs():
    from catkin_pkg.package import parse_package

    pkg = parse_package(str(PACKAGE / 'package.xml'))
    assert pkg.name == 'nav2_msgs'
    assert [str(lic) for lic in pkg.licenses] == ['Apache-2.0']
    assert pkg.get_build_type() == 'ament_cmake'
    assert 'rosidl_interface_packages' in [g.name for g in pkg.member_of_groups]
    assert 'fallback subset' in pkg.description
    cmake = (PACKAGE / 'CMakeLists.txt').read_text()
    assert 'project(nav2_msgs NONE)' in cmake
    listed = cmake.split('rosidl_generate_interfaces(${PROJECT_NAME}', 1)[1].split(')', 1)[0]
    files, dependencies = listed.split('DEPENDENCIES')
    assert sorted(files.split()) == sorted(f'"{rel}"' for rel in UPSTREAM_BLOBS)
    # What Costmap, CostmapMetaData and ExclusionZoneDescription refer to, found by CMake
    # and declared in package.xml.
    wanted = ['builtin_interfaces', 'geometry_msgs', 'std_msgs']
    assert sorted(dependencies.split()) == wanted
    for dep in wanted:
        assert f'find_package({dep} REQUIRED)' in cmake
    assert sorted(d.name for d in pkg.build_depends if d.name in wanted) == wanted
    assert sorted(d.name for d in pkg.exec_depends if d.name in wanted) == wanted


# --- scripts/env_lib.sh: the fallback exactly where nav2_msgs is missing ----------------------

def test_fallback_is_built_only_where_the_install_has_no_nav2_msgs(tmp_path):
    assert_built_only_where_missing('_sat_needs_nav2_msgs', 'nav2_msgs', tmp_path)


# --- over ROS 2 ------------------------------------------------------------------------------

def test_collision_monitor_state_round_trip_with_upstreams_type_hash(peers):
    from nav2_msgs.msg import CollisionMonitorState
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

    a, b = peers
    topic = f'{namespace("nav2")}/collision_monitor_state'
    # nav2's collision monitor publishes its state reliable and transient local.
    qos = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
    pub = a.node.create_publisher(CollisionMonitorState, topic, qos)
    got, cond = [], threading.Condition()

    def on_state(msg):
        with cond:
            got.append(msg)
            cond.notify_all()

    b.node.create_subscription(CollisionMonitorState, topic, on_state, qos)
    wait_until(lambda: pub.get_subscription_count() > 0, 'subscriber')

    assert (CollisionMonitorState.DO_NOTHING, CollisionMonitorState.STOP,
            CollisionMonitorState.SLOWDOWN, CollisionMonitorState.APPROACH,
            CollisionMonitorState.LIMIT) == (0, 1, 2, 3, 4)
    sent = CollisionMonitorState(action_type=CollisionMonitorState.SLOWDOWN,
                                 polygon_name='PolygonSlow')
    pub.publish(sent)
    with cond:
        assert cond.wait_for(lambda: got, TIMEOUT), 'no CollisionMonitorState arrived'
    assert got[0] == sent and got[0].polygon_name == 'PolygonSlow' and got[0].action_type == 2

    # What each side announces on the wire.
    pubs = b.node.get_publishers_info_by_topic(topic)
    subs = a.node.get_subscriptions_info_by_topic(topic)
    want = UPSTREAM_HASHES['nav2_msgs/msg/CollisionMonitorState']
    assert pubs and subs
    for info in pubs + subs:
        assert info.topic_type == 'nav2_msgs/msg/CollisionMonitorState'
        assert str(info.topic_type_hash) == want


def test_toggle_call_against_an_rclpy_server_with_upstreams_type_hashes(peers):
    from nav2_msgs.srv import Toggle
    from rclpy.qos import qos_profile_system_default
    from rclpy.service_introspection import ServiceIntrospectionState
    from type_description_interfaces.srv import GetTypeDescription

    server, client = peers
    name = f'{namespace("nav2")}/toggle'
    state = {'enabled': False}

    def on_toggle(request, response):
        state['enabled'] = request.enable
        response.success = True
        response.message = 'enabled' if request.enable else 'disabled'
        return response

    service = server.node.create_service(Toggle, name, on_toggle)
    # The event topic (<service>/_service_event, Toggle_Event) carries the event type's hash.
    service.configure_introspection(server.node.get_clock(), qos_profile_system_default,
                                    ServiceIntrospectionState.METADATA)

    for enable in (True, False, True):
        response = client.call(Toggle, name, Toggle.Request(enable=enable))
        assert response.success is True
        assert response.message == ('enabled' if enable else 'disabled')
        assert state['enabled'] is enable

    event_topic = f'{name}/_service_event'
    wait_until(lambda: client.node.get_publishers_info_by_topic(event_topic), 'event publisher')
    (info,) = client.node.get_publishers_info_by_topic(event_topic)
    assert info.topic_type == 'nav2_msgs/srv/Toggle_Event'
    assert str(info.topic_type_hash) == UPSTREAM_HASHES['nav2_msgs/srv/Toggle_Event']

    # The server node's ~/get_type_description answers for the service type it registered,
    # found by upstream's hash; another hash finds nothing (the check discriminates).
    describe = f'/{server.node.get_name()}/get_type_description'
    request = GetTypeDescription.Request(type_name='nav2_msgs/srv/Toggle',
                                         type_hash=UPSTREAM_HASHES['nav2_msgs/srv/Toggle'])
    answer = client.call(GetTypeDescription, describe, request)
    assert answer.successful, answer.failure_reason
    top = answer.type_description.type_description
    assert top.type_name == 'nav2_msgs/srv/Toggle'
    assert [f.name for f in top.fields] == ['request_message', 'response_message',
                                            'event_message']
    referenced = {t.type_name: [f.name for f in t.fields]
                  for t in answer.type_description.referenced_type_descriptions}
    assert referenced['nav2_msgs/srv/Toggle_Request'] == ['enable']
    assert referenced['nav2_msgs/srv/Toggle_Response'] == ['success', 'message']
    wrong = GetTypeDescription.Request(
        type_name='nav2_msgs/srv/Toggle',
        type_hash=UPSTREAM_HASHES['nav2_msgs/msg/CollisionMonitorState'])
    assert not client.call(GetTypeDescription, describe, wrong).successful


# --- the type support -------------------------------------------------------------------------

def test_type_support_holds_upstreams_type_hashes():
    """The hashes rmw announces come from these functions of the generated C library of
    the nav2_msgs found on the library path (the fallback's, or the install's own)."""
    assert_type_support_hashes('libnav2_msgs__rosidl_generator_c.so', UPSTREAM_HASHES)