"""The node as a managed (lifecycle) node over real ROS 2: the `ros2 lifecycle` command line,
a lifecycle manager that behaves as nav2's (tests/python/lifecycle_manager.py: its
services, the state it expects after each transition, the bond), and the outputs that
only an active node sends.

* `ros2 lifecycle` (a sourced regular install's, or ../shared/ros2_cli, as
  test_launch_file.py; skipped, saying why, without either) on a node started with
  autostart false: `nodes` lists it, `list` and `list -a` give rcl_lifecycle's transitions
  (the table below, from rcl_lifecycle/src/default_state_machine.c), `get` reads
  unconfigured, then `set` walks configure, activate, deactivate, activate, deactivate,
  cleanup, configure, shutdown, the state read after each (get_state; `ros2 lifecycle get`
  the first time each state is reached: each `ros2` call costs 1-4 s) and the available
  transitions before each; ~/transition_event carries each step (into the transition
  state, then out of it), and the process ends with exit code 0.
* The manager on one node: startup (configure then activate, each checked by get_state;
  the bond formed: the node's heartbeat with its name, a UUID instance id, 4 s / 0.1 s),
  the collision flag only while active; pause (no flag, no report, check_footprint answers
  `inactive`, the node's bond says active=false), resume (a new instance id), reset
  (unconfigured) then startup again, shutdown (answered; exit code 0).
* A node killed with SIGKILL: the manager finds its bond broken by the missing heartbeat
  within bond_timeout (+ margin); one stopped with SIGINT: broken at once by the node's
  active=false (cause `sister_dead`, not the timeout), exit code 0.
* A failing configure (zones_file: a malformed YAML file) answers success false, the
  node stays unconfigured with the reason logged; a transition not available from the
  current state (activate from unconfigured, by id or by label) answers false.
* Standalone (autostart at its default): the gate's node is active without a manager;
  deactivated (by label), cmd_vel_out stops and check_footprint answers `inactive`;
  activated again (by id), commands pass; with bond_heartbeat_period 0 it never sends a
  bond Status.

Only protocol deadlines are waited for (bond_timeout, a period); "nothing is published"
is read over a quiet window of QUIET s (ten publish periods) after the transition's answer.
Run by scripts/test.sh (after `cargo build --bins`).
"""

import os
import shutil
import signal
import time
import uuid

import pytest
import yaml

from lifecycle_manager import (
    ACTIVATE, ACTIVE, CLEANUP, CONFIGURE, DEACTIVATE, FINALIZED, INACTIVE, UNCONFIGURED,
    UNCONFIGURED_SHUTDOWN, LifecycleManager,
)
from satpkg_support import (  # noqa: F401
    NODE_NAME, ROOT, Proc, Recorder, Reports, RosPeer, binary, namespace, ros_peer, square,
    start_node,
)

if not os.environ.get('ROS_DOMAIN_ID'):
    # Before rclpy creates a context: separate runs must not hear each other.
    os.environ['ROS_DOMAIN_ID'] = str(1 + os.getpid() % 100)

from test_dds_profile import launch_python  # noqa: E402
from test_launch_file import ros2, ros2_until  # noqa: E402

assert ros_peer and launch_python  # fixtures, used by name below

# The manager's bond timeout in these tests (nav2's default, and the launch files').
BOND_TIMEOUT = 4.0
# What a deadline allows beyond the protocol's own time (delivery, a loaded machine).
MARGIN = 1.5
# The window over which "nothing is published" is read: ten publish periods (10 Hz).
QUIET = 1.0
# The node's bond (nav2_util::LifecycleNode): heartbeat_timeout 4 s, period the
# parameter bond_heartbeat_period (default 0.1 s).
NODE_HEARTBEAT_TIMEOUT, NODE_HEARTBEAT_PERIOD = 4.0, 0.1


def start_unconfigured(ns, *ros_args):
    """The node with autostart false: it waits unconfigured (no log line to wait for:
    whoever talks to it waits for its services)."""
    return Proc([binary(NODE_NAME), '--ros-args', '-r', f'__ns:={ns}', '-p', 'autostart:=false',
                 *ros_args])


def get_state(peer, fqn):
    from lifecycle_msgs.srv import GetState

    state = peer.call(GetState, f'{fqn}/get_state', GetState.Request()).current_state
    return state.id, state.label


def change_state(peer, fqn, transition_id=0, label=''):
    from lifecycle_msgs.srv import ChangeState

    request = ChangeState.Request()
    request.transition.id = transition_id
    request.transition.label = label
    return peer.call(ChangeState, f'{fqn}/change_state', request).success


def check_footprint(peer, ns):
    """check_footprint for a square at the origin: (valid, status)."""
    from geometry_msgs.msg import Point32, Pose
    from sat_collision_msgs.srv import CheckFootprint

    request = CheckFootprint.Request()
    request.footprint.points = [Point32(x=x, y=y, z=0.0) for x, y in square(0.0, 0.0)]
    request.poses = [Pose()]
    response = peer.call(CheckFootprint, f'{ns}/check_footprint', request)
    return response.valid, response.status


def bond_recorder(peer, ns):
    from bond.msg import Status

    return Recorder(peer, Status, f'{ns}/bond', qos=100)


def transition_events(peer, fqn):
    from lifecycle_msgs.msg import TransitionEvent

    return Recorder(peer, TransitionEvent, f'{fqn}/transition_event')


def quiet_after(recorders, t, what):
    """After monotonic time t (a transition's answer): wait QUIET s, then nothing that
    arrived in that window beyond a settle of a tenth of it (what was already on the way)."""
    time.sleep(QUIET)
    for name, rec in recorders.items():
        late = rec.after(t + QUIET / 10)
        assert not late, f'{name} published {len(late)} times {what}: {late[:3]}'


# --- rcl_lifecycle's state machine (default_state_machine.c) ----------------------------------

def rcl_transition_graph():
    """{(label, id, start label, goal label)} of rcl_lifecycle's default state machine."""
    from lifecycle_msgs.msg import Transition as T

    return {
        ('configure', T.TRANSITION_CONFIGURE, 'unconfigured', 'configuring'),
        ('transition_success', T.TRANSITION_ON_CONFIGURE_SUCCESS, 'configuring', 'inactive'),
        ('transition_failure', T.TRANSITION_ON_CONFIGURE_FAILURE, 'configuring', 'unconfigured'),
        ('transition_error', T.TRANSITION_ON_CONFIGURE_ERROR, 'configuring', 'errorprocessing'),
        ('cleanup', T.TRANSITION_CLEANUP, 'inactive', 'cleaningup'),
        ('transition_success', T.TRANSITION_ON_CLEANUP_SUCCESS, 'cleaningup', 'unconfigured'),
        ('transition_failure', T.TRANSITION_ON_CLEANUP_FAILURE, 'cleaningup', 'inactive'),
        ('transition_error', T.TRANSITION_ON_CLEANUP_ERROR, 'cleaningup', 'errorprocessing'),
        ('activate', T.TRANSITION_ACTIVATE, 'inactive', 'activating'),
        ('transition_success', T.TRANSITION_ON_ACTIVATE_SUCCESS, 'activating', 'active'),
        ('transition_failure', T.TRANSITION_ON_ACTIVATE_FAILURE, 'activating', 'inactive'),
        ('transition_error', T.TRANSITION_ON_ACTIVATE_ERROR, 'activating', 'errorprocessing'),
        ('deactivate', T.TRANSITION_DEACTIVATE, 'active', 'deactivating'),
        ('transition_success', T.TRANSITION_ON_DEACTIVATE_SUCCESS, 'deactivating', 'inactive'),
        ('transition_failure', T.TRANSITION_ON_DEACTIVATE_FAILURE, 'deactivating', 'active'),
        ('transition_error', T.TRANSITION_ON_DEACTIVATE_ERROR, 'deactivating', 'errorprocessing'),
        ('shutdown', T.TRANSITION_UNCONFIGURED_SHUTDOWN, 'unconfigured', 'shuttingdown'),
        ('shutdown', T.TRANSITION_INACTIVE_SHUTDOWN, 'inactive', 'shuttingdown'),
        ('shutdown', T.TRANSITION_ACTIVE_SHUTDOWN, 'active', 'shuttingdown'),
        ('transition_success', T.TRANSITION_ON_SHUTDOWN_SUCCESS, 'shuttingdown', 'finalized'),
        ('transition_failure', T.TRANSITION_ON_SHUTDOWN_FAILURE, 'shuttingdown', 'finalized'),
        ('transition_error', T.TRANSITION_ON_SHUTDOWN_ERROR, 'shuttingdown', 'errorprocessing'),
        ('transition_success', T.TRANSITION_ON_ERROR_SUCCESS, 'errorprocessing', 'unconfigured'),
        ('transition_failure', T.TRANSITION_ON_ERROR_FAILURE, 'errorprocessing', 'finalized'),
        ('transition_error', T.TRANSITION_ON_ERROR_ERROR, 'errorprocessing', 'finalized'),
    }


PRIMARY = {'unconfigured': 1, 'inactive': 2, 'active': 3, 'finalized': 4}
# lifecycle_msgs/msg/State: every state's id.
STATE_IDS = dict(PRIMARY, configuring=10, cleaningup=11, shuttingdown=12, activating=13,
                 deactivating=14, errorprocessing=15)


def available_from(state):
    """What get_available_transitions answers in primary state `state`: the transitions
    of the graph that start there."""
    return {t for t in rcl_transition_graph() if t[2] == state}


def parse_list(out):
    """`ros2 lifecycle list` output: {(label, id, start, goal)}."""
    import re

    found = re.findall(r'^- (\w+) \[(\d+)\]\n\tStart: (\w+)\n\tGoal: (\w+)$', out, re.M)
    assert len(found) == out.count('\n- ') + out.startswith('- '), out
    return {(label, int(i), start, goal) for label, i, start, goal in found}


# --- `ros2 lifecycle` ---------------------------------------------------------------------

@pytest.fixture(scope='module')
def cli_env(launch_python):
    _, env = launch_python
    if shutil.which('ros2', path=env['PATH']) is None:
        pytest.skip(f'no ros2 on {env["PATH"]}')
    rc, out = ros2(env, 'lifecycle', '--help')
    if rc != 0:
        pytest.skip(f'no `ros2 lifecycle`: {out[-500:]}')
    return env


def lifecycle_cli(env, *args, timeout=30.0):
    """`ros2 lifecycle ARGS... --no-daemon`: (exit code, output). Without the daemon each
    call discovers the graph for --spin-time (0.5 s) first and may not see the node yet
    ('Node not found', before any service is called): then it is run again."""
    deadline = time.monotonic() + timeout
    while True:
        rc, out = ros2(env, 'lifecycle', *args[:1], '--no-daemon', *args[1:])
        if out.strip() != 'Node not found' or time.monotonic() > deadline:
            return rc, out


# The walk: (transition label, state `get` reads after it). Every label once through the
# command line (each `ros2` call costs 1-4 s here); the state machine's every path is
# lifecycle::Machine's (src/lifecycle/tests.rs) and the node's change_state tests'.
WALK = [('configure', 'inactive'), ('activate', 'active'), ('deactivate', 'inactive'),
        ('cleanup', 'unconfigured'), ('shutdown', 'finalized')]


def test_ros2_lifecycle_cli_walks_every_transition(cli_env, ros_peer):
    ns = namespace('lc_cli')
    fqn = f'{ns}/{NODE_NAME}'
    events = transition_events(ros_peer, fqn)
    with start_unconfigured(ns) as node:
        ros2_until(cli_env, ['lifecycle', 'nodes', '--no-daemon'],
                   lambda out: fqn in out.split(), f'{fqn} among the lifecycle nodes')
        rc, out = lifecycle_cli(cli_env, 'get', fqn)
        assert rc == 0 and out.strip() == 'unconfigured [1]', out
        rc, out = lifecycle_cli(cli_env, 'list', fqn)
        assert rc == 0 and parse_list(out) == available_from('unconfigured'), out
        rc, out = lifecycle_cli(cli_env, 'list', '-a', fqn)
        assert rc == 0 and parse_list(out) == rcl_transition_graph(), out

        graph = rcl_transition_graph()
        expected_events = []
        state = 'unconfigured'
        seen = {state}
        for label, goal in WALK:
            # Every step also checks get_available_transitions from where it starts.
            assert {(t.transition.label, t.transition.id, t.start_state.label,
                     t.goal_state.label) for t in available(ros_peer, fqn)} == \
                available_from(state), state
            rc, out = lifecycle_cli(cli_env, 'set', fqn, label)
            assert rc == 0 and out.strip() == 'Transitioning successful', (label, out)
            (step,) = [t for t in graph if t[0] == label and t[2] == state]
            (done,) = [t for t in graph if t[0] == 'transition_success' and t[2] == step[3]]
            assert done[3] == goal
            expected_events += [step, done]
            state = goal
            if label == 'shutdown':
                break
            # get_state after each (rclpy: each `ros2` call costs 1-4 s here), and `ros2
            # lifecycle get` the first time each primary state is reached.
            assert get_state(ros_peer, fqn) == (PRIMARY[goal], goal), label
            if goal not in seen:
                seen.add(goal)
                rc, out = lifecycle_cli(cli_env, 'get', fqn)
                assert rc == 0 and out.strip() == f'{goal} [{PRIMARY[goal]}]', (label, out)

        # shutdown: answered (above), then the process ends cleanly.
        assert node.wait_exit(30) == 0, node.output
        events.wait(lambda m: m.goal_state.label == 'finalized', 'finalized event', 5)
        # rcl_lifecycle publishes the start and goal states (the transition field is left
        # empty by rcl_lifecycle_com_interface_publish_notification).
        got = [(m.start_state.id, m.start_state.label, m.goal_state.id, m.goal_state.label)
               for m in events.since(0)]
        assert got == [(STATE_IDS[start], start, STATE_IDS[goal], goal)
                       for _, _, start, goal in expected_events], got


def available(peer, fqn):
    from lifecycle_msgs.srv import GetAvailableTransitions

    return peer.call(GetAvailableTransitions, f'{fqn}/get_available_transitions',
                     GetAvailableTransitions.Request()).available_transitions


# --- nav2's lifecycle manager -------------------------------------------------------------

class Managed:
    """One node with autostart false, fed a footprint and obstacles (its collision flag
    and report collected), a manager for it, the bond topic recorded."""

    def __init__(self, tag):
        self.ns = namespace(tag)
        self.fqn = f'{self.ns}/{NODE_NAME}'
        self.peer = RosPeer(f'lc_{tag}_{os.getpid()}')
        self.bond = bond_recorder(self.peer, self.ns)
        self.node = start_unconfigured(self.ns)
        self.reports = Reports(self.peer, self.ns)
        self.reports.points = square(0.0, 0.0)
        self.reports.obstacles = [('near', square(0.3, 0.0))]
        self.report_rec = Recorder(self.peer, _report_type(), f'{self.ns}/collision_report')
        self.flag_rec = Recorder(self.peer, _bool_type(), f'{self.ns}/collision')
        self.manager = None

    def manage(self, **options):
        self.manager = LifecycleManager(self.peer, self.ns, [NODE_NAME],
                                        bond_timeout=BOND_TIMEOUT, **options)
        return self.manager

    def node_statuses(self, mark=0):
        """The bond Status messages the node sent (not the manager's)."""
        mine = {b.instance_id for b in self.manager.bonds_made}
        return [m for m in self.bond.since(mark) if m.instance_id not in mine]

    def close(self):
        if self.manager is not None:
            self.manager.close()
        self.node.kill()
        self.peer.close()


def _report_type():
    from sat_collision_msgs.msg import CollisionReport

    return CollisionReport


def _bool_type():
    from std_msgs.msg import Bool

    return Bool


@pytest.fixture(scope='module')
def managed():
    m = Managed('lc_managed')
    try:
        # get_state waits 1 s, not nav2's 2 s: after shutdown the process is gone.
        m.manage(get_state_timeout=1.0)
        yield m
    finally:
        m.close()


def _node_instance(m, bond, heartbeats=2):
    """The node's instance id on `bond` (the manager's bond made by one activate), once it
    has sent `heartbeats` active heartbeats on it."""
    deadline = time.monotonic() + NODE_HEARTBEAT_TIMEOUT
    while True:
        with bond.cond:
            active = [msg for _, msg in bond.sister if msg.active]
        if len(active) >= heartbeats:
            ids = {msg.instance_id for msg in active}
            assert len(ids) == 1, ids
            return ids.pop(), active
        assert time.monotonic() < deadline, f'{len(active)} heartbeats from the node'
        time.sleep(0.05)


def test_manager_startup_configures_activates_and_bonds(managed):
    m = managed
    assert m.manager.get_state(NODE_NAME) == UNCONFIGURED
    assert m.manager.startup(), m.manager.messages
    assert m.manager.transitions == [(NODE_NAME, CONFIGURE, True, INACTIVE, True),
                                     (NODE_NAME, ACTIVATE, True, ACTIVE, True)]
    assert m.manager.is_active()
    (bond,) = m.manager.bonds.values()
    instance, heartbeats = _node_instance(m, bond)
    assert str(uuid.UUID(instance)) == instance.lower(), instance
    assert instance != bond.instance_id
    for msg in heartbeats:
        assert msg.id == NODE_NAME and msg.active
        assert msg.heartbeat_timeout == pytest.approx(NODE_HEARTBEAT_TIMEOUT)
        assert msg.heartbeat_period == pytest.approx(NODE_HEARTBEAT_PERIOD)
    # Active: the flag and the report (the footprint overlaps `near`).
    m.flag_rec.wait(lambda msg: msg.data is True, 'collision flag', 5, m.flag_rec.mark())
    m.report_rec.wait(lambda r: r.valid and r.colliding, 'a valid colliding report', 5,
                      m.report_rec.mark())


def test_manager_pause_stops_outputs_and_the_bond(managed):
    m = managed
    (bond,) = m.manager.bonds.values()
    instance, _ = _node_instance(m, bond)
    assert m.manager.pause(), m.manager.messages
    answered = time.monotonic()
    assert m.manager.transitions[-1] == (NODE_NAME, DEACTIVATE, True, INACTIVE, True)
    assert not m.manager.bonds and not m.manager.is_active()
    # The node's bond says active=false (it ends that instance's heartbeat).
    m.bond.wait(lambda s: s.instance_id == instance and not s.active,
                "the node's active=false", NODE_HEARTBEAT_TIMEOUT)
    assert check_footprint(m.peer, m.ns) == (False, 'inactive')
    quiet_after({'collision': m.flag_rec, 'collision_report': m.report_rec}, answered,
                'while inactive')
    sent = [s for s in m.node_statuses() if s.instance_id == instance]
    last_active = max(i for i, s in enumerate(sent) if s.active)
    assert all(not s.active for s in sent[last_active + 1:]) and len(sent) > last_active + 1
    late = [s for s in m.bond.after(answered + QUIET / 10) if s.instance_id == instance
            and s.active]
    assert not late, 'heartbeats after deactivate'


def test_manager_resume_makes_a_new_bond(managed):
    m = managed
    before = {s.instance_id for s in m.node_statuses()}
    assert m.manager.resume(), m.manager.messages
    assert m.manager.transitions[-1] == (NODE_NAME, ACTIVATE, True, ACTIVE, True)
    (bond,) = m.manager.bonds.values()
    instance, _ = _node_instance(m, bond)
    assert instance not in before, 'a fresh instance id per activation'
    assert not bond.is_broken()
    m.flag_rec.wait(lambda msg: msg.data is True, 'collision flag', 5, m.flag_rec.mark())


def test_manager_reset_then_startup(managed):
    m = managed
    assert m.manager.reset(), m.manager.messages
    assert m.manager.transitions[-2:] == [(NODE_NAME, DEACTIVATE, True, INACTIVE, True),
                                          (NODE_NAME, CLEANUP, True, UNCONFIGURED, True)]
    assert m.manager.get_state(NODE_NAME) == UNCONFIGURED
    assert m.manager.startup(), m.manager.messages
    assert m.manager.get_state(NODE_NAME) == ACTIVE
    _node_instance(m, m.manager.bonds[NODE_NAME])
    m.flag_rec.wait(lambda msg: msg.data is True, 'collision flag', 5, m.flag_rec.mark())


def test_manager_shutdown_ends_the_node_cleanly(managed):
    m = managed
    n = len(m.manager.transitions)
    assert m.manager.shutdown()
    steps = m.manager.transitions[n:]
    assert steps[:2] == [(NODE_NAME, DEACTIVATE, True, INACTIVE, True),
                         (NODE_NAME, CLEANUP, True, UNCONFIGURED, True)], steps
    # shutdown answered true; the state read after it is finalized, unless the process
    # had already ended (then get_state finds no service: None).
    (name, transition, success, state, _) = steps[2]
    assert (transition, success) == (UNCONFIGURED_SHUTDOWN, True) and state in (FINALIZED, None)
    assert m.node.wait_exit(30) == 0, m.node.output
    assert m.manager.failures == []


def _started_and_bonded(tag):
    m = Managed(tag)
    m.manage(service_wait=1.0, response_timeout=1.0)
    assert m.manager.startup(), m.manager.messages
    # The heartbeat timer runs from the node's second heartbeat on (bondcpp).
    _node_instance(m, m.manager.bonds[NODE_NAME])
    return m


def test_manager_finds_a_killed_node_by_its_missing_heartbeat():
    m = _started_and_bonded('lc_kill')
    try:
        killed = time.monotonic()
        m.node.kill()
        at, name, cause, broken_at = m.manager.wait_failure(BOND_TIMEOUT + MARGIN)
        assert (name, cause) == (NODE_NAME, 'heartbeat_timeout'), m.manager.messages
        assert broken_at - killed <= BOND_TIMEOUT + MARGIN
        # nav2: then the whole stack is reset (the dead node's transitions fail).
        m.manager.wait_message('Managed nodes have been reset', 30)
        assert not m.manager.is_active()
    finally:
        m.close()


def test_manager_finds_a_clean_exit_at_once_by_active_false():
    m = _started_and_bonded('lc_sigint')
    try:
        stopped = time.monotonic()
        assert m.node.stop(signal.SIGINT) == 0, m.node.output
        at, name, cause, broken_at = m.manager.wait_failure(BOND_TIMEOUT + MARGIN)
        # Not the timeout: the node's own active=false.
        assert (name, cause) == (NODE_NAME, 'sister_dead'), m.manager.messages
        assert broken_at - stopped < BOND_TIMEOUT
        m.manager.wait_message('Managed nodes have been reset', 30)
    finally:
        m.close()


# --- configure failing, transitions refused -------------------------------------------------

def test_failing_configure_answers_false_and_stays_unconfigured(ros_peer, tmp_path):
    from lifecycle_msgs.msg import Transition as T

    bad = tmp_path / 'zones.yaml'
    bad.write_text('frame_id: map\nobstacles:\n  - id: a\n    polygon: [[0, 0], [1, 0]  [0, 1]]\n')
    ns = namespace('lc_badconf')
    fqn = f'{ns}/{NODE_NAME}'
    events = transition_events(ros_peer, fqn)
    with start_unconfigured(ns, '-p', f'zones_file:={bad}') as node:
        assert get_state(ros_peer, fqn) == (UNCONFIGURED, 'unconfigured')
        # Not available from unconfigured: refused, by id and by label.
        assert change_state(ros_peer, fqn, T.TRANSITION_ACTIVATE) is False
        assert change_state(ros_peer, fqn, label='activate') is False
        assert change_state(ros_peer, fqn, T.TRANSITION_CONFIGURE) is False
        assert get_state(ros_peer, fqn) == (UNCONFIGURED, 'unconfigured')
        node.wait_for(rf'zones_file: {bad}:4:', timeout=5)
        events.wait(lambda m: m.transition.id == T.TRANSITION_ON_CONFIGURE_FAILURE
                    and m.goal_state.label == 'unconfigured', 'transition_failure', 5)
        assert node.proc.poll() is None, 'the node is still there, unconfigured'
        # Unconfigured, a start-up parameter may be set: the next configure reads it.
        good = ROOT / 'config' / 'zones.example.yaml'
        ok, reason = ros_peer.set_parameter(fqn, 'zones_file', str(good))
        assert ok, reason
        # One that shapes which parameters exist stays fixed until a restart.
        ok, reason = ros_peer.set_parameter(fqn, 'observation_sources', ['scan'])
        assert not ok and 'restart' in reason, reason
        assert change_state(ros_peer, fqn, T.TRANSITION_CONFIGURE) is True
        assert get_state(ros_peer, fqn) == (INACTIVE, 'inactive')
        node.wait_for(r'keep-out zones from ', timeout=5)
        # Configured: refused again, with the way out in the reason.
        ok, reason = ros_peer.set_parameter(fqn, 'zones_file', str(bad))
        assert not ok and 'start-up only' in reason and 'unconfigured' in reason, reason
        assert node.stop(signal.SIGINT) == 0, node.output


# --- standalone: autostart, the gate's outputs --------------------------------------------

@pytest.fixture(scope='module')
def gate_node(tmp_path_factory):
    from test_gate import GatePeer, params

    ns = namespace('lc_gate')
    p = params(False)
    p[NODE_NAME]['ros__parameters']['bond_heartbeat_period'] = 0.0
    path = tmp_path_factory.mktemp('lc_gate') / 'gate.yaml'
    path.write_text(yaml.safe_dump(p))
    peer = RosPeer(f'lc_gate_peer_{os.getpid()}')
    bond = bond_recorder(peer, ns)
    node = start_node(ns, params_file=str(path))
    g = GatePeer(peer, ns, False)
    try:
        yield g, node, bond
    finally:
        g.close()
        peer.close()
        node.stop()


def test_autostart_default_active_and_gate_outputs_only_while_active(gate_node):
    from test_gate import passes

    from lifecycle_msgs.msg import Transition as T

    g, node, bond = gate_node
    fqn = f'{g.ns}/{NODE_NAME}'
    cmd = (0.3, 0.0, 0.1)
    # autostart (default true): active with no manager, as before.
    assert get_state(g.peer, fqn) == (ACTIVE, 'active')
    g.gate(cmd, passes(cmd), 'the command passed while active', 30)
    # Deactivated by label (the id 0 is ignored when a label is given).
    assert change_state(g.peer, fqn, label='deactivate') is True
    answered = time.monotonic()
    assert get_state(g.peer, fqn) == (INACTIVE, 'inactive')
    assert check_footprint(g.peer, g.ns) == (False, 'inactive')
    until = answered + QUIET
    while time.monotonic() < until:
        g.command(*cmd)
        time.sleep(0.05)
    late = [msg for at, msg in g.outputs if at > answered + QUIET / 10]
    assert not late, f'cmd_vel_out while inactive: {late[:3]}'
    # Activated again by id: commands pass.
    assert change_state(g.peer, fqn, T.TRANSITION_ACTIVATE) is True
    g.gate(cmd, passes(cmd), 'the command passed once active again', 15)
    # bond_heartbeat_period 0: no bond.
    assert bond.since(0) == []
