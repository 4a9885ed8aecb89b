"""bond's Status and Constants (the heartbeat nav2's lifecycle manager listens to on the
node's `bond` topic) are upstream bond_core's, type hashes included; lifecycle_msgs and
diagnostic_msgs (the lifecycle services, /diagnostics) are there for Python too.

Where the ROS install has no bond (the PyPI wheels), msg/bond (upstream's Status.msg and
Constants.msg) is built by scripts/setup.sh and scripts/colcon_build.sh; a regular
install's own bond is used otherwise. Either way, what rclpy loads here must be upstream's:
* msg/bond's .msg files are upstream's, byte for byte (git blob ids);
* the type hashes held by the type support (its C functions) and announced on the wire
  (topic endpoint info) equal upstream Jazzy's RIHS01 hashes, and those recorded hashes
  equal an independent RIHS01 computation written here from the fields alone;
* an rclpy publisher/subscriber round trip of Status (the package is usable from Python);
* scripts/env_lib.sh builds the fallback exactly when the prefix has no bond, and the
  msg/ build's key says which.
"""

import hashlib
import json
import os
import struct
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

# Upstream's type hashes (bond_core, bond 4.x: the Jazzy release is 4.1.2, and Status.msg /
# Constants.msg are unchanged since bond 2.0.0), recorded when this test was written:
# computed with rosidl's own tooling (rosidl_adapter.msg.convert_msg_to_idl, then
# rosidl_generator_type_description.generate_type_hash, rosidl 4.6.6 from the Jazzy wheels)
# from upstream's files as `git show ros2:bond/msg/Status.msg` (and Constants.msg) print
# them in bond_core's repository (commit e6d0fc2cf132584778f7bc33a7a4c5c307964d94; the same
# text as docs.ros.org's Jazzy bond/msg/Status page), not from this repository's copies;
# Status refers to Jazzy's std_msgs/msg/Header and builtin_interfaces/msg/Time (whose
# hashes the wheels' .json files give). test_recorded_hashes_match_an_independent_rihs01
# recomputes them here without rosidl. RIHS01 hashes the fields only (names, types), not
# comments or constants: Constants, a message of constants only, hashes as the one field
# rosidl gives a message without fields, `uint8 structure_needs_at_least_one_member`.
UPSTREAM_HASHES = {
    'bond/msg/Status':
        'RIHS01_87eaccffa254ffffadc0b61600452e8251740f06c25659a2dbda4927fdb1f70a',
    'bond/msg/Constants':
        'RIHS01_347874ac7a49af69eb313fc911d72cd59152a5a157b6577cafad31ad43a8d63e',
}

# Git blob ids of upstream's files (`git rev-parse ros2:bond/msg/<file>` in bond_core's
# repository): msg/bond's copies must be these bytes.
UPSTREAM_BLOBS = {
    'msg/Constants.msg': '89cf2bfc5a76cf1beac0a869b82e57484abbd9ee',
    'msg/Status.msg': '29fd95303241868061ea853ef809098c8c4ebbd3',
}

PACKAGE = ROOT / 'msg' / 'bond'


@pytest.fixture
def peers():
    """Two rclpy nodes, each with its own context and background executor."""
    yield from two_peers('bond_msgs')
# --- the package's files --------------------------------------------------------------------

def test_interface_files_are_upstreams_byte_for_byte():
    assert_files_are_upstreams(PACKAGE, UPSTREAM_BLOBS)


def test_package_is_an_interface_package_named_bond_with_upstreams_license():
    from catkin_pkg.package import parse_package

    pkg = parse_package(str(PACKAGE / 'package.xml'))
    assert pkg.name == 'bond'
    assert [str(lic) for lic in pkg.licenses] == ['BSD-3-Clause']
    assert pkg.get_build_type() == 'ament_cmake'
    assert 'rosidl_interface_packages' in [g.name for g in pkg.member_of_groups]
    assert {'std_msgs', 'builtin_interfaces'} <= {d.name for d in pkg.build_depends}
    # Upstream's BSD-3-Clause notice travels with the copies.
    notice = (PACKAGE / 'LICENSE').read_text()
    assert 'Copyright (c) 2009, Willow Garage, Inc.' in notice
    assert 'Neither the name of the Willow Garage, Inc. nor the names of its' in notice
    cmake = (PACKAGE / 'CMakeLists.txt').read_text()
    assert 'project(bond NONE)' in cmake
    listed = cmake.split('rosidl_generate_interfaces(${PROJECT_NAME}', 1)[1].split(')', 1)[0]
    files = [w for w in listed.split() if w.startswith('"')]
    assert sorted(files) == sorted(f'"{rel}"' for rel in UPSTREAM_BLOBS)


# --- scripts/env_lib.sh: the fallback exactly where bond is missing ---------------------------

def test_fallback_is_built_only_where_the_install_has_no_bond(tmp_path):
    assert_built_only_where_missing('_sat_needs_bond_msgs', 'bond', tmp_path)


# --- the hashes themselves: an independent RIHS01 -------------------------------------------

# type_description_interfaces/msg/FieldType ids (REP-2011).
_NESTED, _UINT8, _INT32, _UINT32, _FLOAT, _BOOLEAN, _STRING = 1, 3, 6, 7, 10, 15, 17


def _field(name, type_id, nested=''):
    return {'name': name, 'type': {'type_id': type_id, 'capacity': 0, 'string_capacity': 0,
                                   'nested_type_name': nested}}


def _rihs01(top, referenced):
    """REP-2011's RIHS01: sha256 of the type description (fields without default values,
    referenced types sorted by name) as compact JSON with ', ' and ': ' separators."""
    description = {'type_description': top,
                   'referenced_type_descriptions': sorted(referenced,
                                                          key=lambda t: t['type_name'])}
    text = json.dumps(description, separators=(', ', ': '), ensure_ascii=True)
    return 'RIHS01_' + hashlib.sha256(text.encode()).hexdigest()


def test_recorded_hashes_match_an_independent_rihs01():
    time_ = {'type_name': 'builtin_interfaces/msg/Time',
             'fields': [_field('sec', _INT32), _field('nanosec', _UINT32)]}
    header = {'type_name': 'std_msgs/msg/Header',
              'fields': [_field('stamp', _NESTED, 'builtin_interfaces/msg/Time'),
                         _field('frame_id', _STRING)]}
    status = {'type_name': 'bond/msg/Status',
              'fields': [_field('header', _NESTED, 'std_msgs/msg/Header'),
                         _field('id', _STRING), _field('instance_id', _STRING),
                         _field('active', _BOOLEAN), _field('heartbeat_timeout', _FLOAT),
                         _field('heartbeat_period', _FLOAT)]}
    constants = {'type_name': 'bond/msg/Constants',
                 'fields': [_field('structure_needs_at_least_one_member', _UINT8)]}
    assert _rihs01(status, [header, time_]) == UPSTREAM_HASHES['bond/msg/Status']
    assert _rihs01(constants, []) == UPSTREAM_HASHES['bond/msg/Constants']


# --- the type support -------------------------------------------------------------------------

def test_type_support_holds_upstreams_type_hashes():
    """The hashes rmw announces come from these functions of the generated C library of
    the bond found on the library path (the fallback's, or the install's own)."""
    assert_type_support_hashes('libbond__rosidl_generator_c.so', UPSTREAM_HASHES)


# --- from Python ------------------------------------------------------------------------------

def test_constants_are_upstreams():
    from bond.msg import Constants

    assert Constants.DEAD_PUBLISH_PERIOD == pytest.approx(0.05)
    assert Constants.DEFAULT_CONNECT_TIMEOUT == 10.0
    assert Constants.DEFAULT_HEARTBEAT_TIMEOUT == 4.0
    assert Constants.DEFAULT_DISCONNECT_TIMEOUT == 2.0
    assert Constants.DEFAULT_HEARTBEAT_PERIOD == 1.0
    assert Constants.DISABLE_HEARTBEAT_TIMEOUT_PARAM == '/bond_disable_heartbeat_timeout'


def test_lifecycle_and_diagnostic_msgs_import():
    """The interfaces of the node's lifecycle services, ~/transition_event and /diagnostics,
    with rcl_lifecycle's and diagnostic_msgs' constants."""
    from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
    from lifecycle_msgs.msg import State, Transition, TransitionDescription, TransitionEvent
    from lifecycle_msgs.srv import (ChangeState, GetAvailableStates,
                                    GetAvailableTransitions, GetState)

    assert (State.PRIMARY_STATE_UNCONFIGURED, State.PRIMARY_STATE_INACTIVE,
            State.PRIMARY_STATE_ACTIVE, State.PRIMARY_STATE_FINALIZED) == (1, 2, 3, 4)
    assert (Transition.TRANSITION_CONFIGURE, Transition.TRANSITION_CLEANUP,
            Transition.TRANSITION_ACTIVATE, Transition.TRANSITION_DEACTIVATE) == (1, 2, 3, 4)
    assert (DiagnosticStatus.OK, DiagnosticStatus.WARN, DiagnosticStatus.ERROR,
            DiagnosticStatus.STALE) == (b'\x00', b'\x01', b'\x02', b'\x03')
    event = TransitionEvent(transition=Transition(id=3, label='activate'),
                            start_state=State(id=2, label='inactive'),
                            goal_state=State(id=3, label='active'))
    assert event.goal_state.label == 'active'
    status = DiagnosticStatus(level=DiagnosticStatus.WARN, name='n: collision',
                              hardware_id='hw', values=[KeyValue(key='k', value='v')])
    assert DiagnosticArray(status=[status]).status[0].values[0].key == 'k'
    assert ChangeState.Request().transition.id == 0
    assert GetState.Response().current_state.id == 0
    assert GetAvailableStates.Response().available_states == []
    assert GetAvailableTransitions.Response().available_transitions == []
    assert TransitionDescription().transition.label == ''


def test_status_round_trip_with_upstreams_type_hash(peers):
    from bond.msg import Status
    from rclpy.qos import QoSProfile, ReliabilityPolicy

    a, b = peers
    topic = f'{namespace("bond")}/bond'
    qos = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
    pub = a.node.create_publisher(Status, topic, qos)
    got, cond = [], threading.Condition()

    def on_status(msg):
        with cond:
            got.append(msg)
            cond.notify_all()

    b.node.create_subscription(Status, topic, on_status, qos)
    wait_until(lambda: pub.get_subscription_count() > 0, 'subscriber')

    sent = Status(id='collision_monitor', instance_id='0f8fad5b-d9cb-469f-a165-70867728950e',
                  active=True, heartbeat_timeout=4.0, heartbeat_period=0.1)
    sent.header.stamp.sec = 7
    sent.header.frame_id = 'f'
    pub.publish(sent)
    with cond:
        assert cond.wait_for(lambda: got, TIMEOUT), 'no Status arrived'
    msg = got[0]
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec, msg.header.frame_id) == (7, 0, 'f')
    assert (msg.id, msg.instance_id) == (sent.id, sent.instance_id)
    assert (msg.active, msg.heartbeat_timeout) == (True, 4.0)
    # float32 on the wire: 0.1 comes back as float32(0.1).
    assert msg.heartbeat_period == struct.unpack('<f', struct.pack('<f', 0.1))[0]

    # What each side announces on the wire.
    pubs = b.node.get_publishers_info_by_topic(topic)
    subs = a.node.get_subscriptions_info_by_topic(topic)
    assert pubs and subs
    for info in pubs + subs:
        assert info.topic_type == 'bond/msg/Status'
        assert str(info.topic_type_hash) == UPSTREAM_HASHES['bond/msg/Status']
