"""/diagnostics over real ROS 2: diagnostic_msgs/DiagnosticArray, as diagnostic_updater
publishes it (reliable, every PERIOD s and at once when a level changes), read by an
rclpy subscription with a reliable QoS (a best-effort publisher would never match it).

One node with autostart false, its hardware_id a parameter unique to this run (the topic
is absolute: statuses are told apart by it), fed a footprint and an obstacle array at
10 Hz:
* configured (inactive): `<node>: collision` is WARN, lifecycle_state `inactive`;
* activated with fresh inputs: OK, with its key values (status `ok`, lifecycle_state
  `active`, each input's age and rate, the decision time's p50 and p99, obstacles and
  points in use), published again within every PERIOD (+ margin), and OK again each time
  while nothing changes;
* the obstacle array stopped: ERROR (status `stale_obstacles`) within its timeout and one
  period (+ margin); sent again: OK within one period (+ margin).
A second node with the velocity gate (test_gate.py's zones and sources): a second status
`<node>: velocity gate` beside the first, whose action and zone follow a stop zone
entered and left.

Only protocol deadlines are waited for (a period, an input's timeout, + MARGIN).
Run by scripts/test.sh (after `cargo build --bins`).
"""

import os

import pytest
import yaml

from satpkg_support import NODE_NAME, Recorder, Reports, RosPeer, namespace, square, start_node
from test_gate import GatePeer, params
from test_lifecycle import change_state, start_unconfigured

# diagnostic_updater's period (s), and what a deadline allows beyond the protocol's time.
PERIOD = 1.0
MARGIN = 1.0
# The node's obstacles_timeout (default).
OBSTACLES_TIMEOUT = 1.0
OK, WARN, ERROR = 0, 1, 2
COLLISION = f'{NODE_NAME}: collision'
GATE = f'{NODE_NAME}: velocity gate'


def level(status):
    """DiagnosticStatus.level (a byte: bytes of length 1 in rclpy) as an int."""
    return status.level[0] if isinstance(status.level, bytes) else int(status.level)


class Diagnostics:
    """The /diagnostics arrays holding statuses with `hardware_id`, with the monotonic
    time each arrived."""

    def __init__(self, peer, hardware_id):
        from diagnostic_msgs.msg import DiagnosticArray
        from rclpy.qos import QoSProfile, ReliabilityPolicy

        self.hardware_id = hardware_id
        qos = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE)
        # Each array as {name: status} of this node's statuses.
        self.arrays = Recorder(peer, DiagnosticArray, '/diagnostics', qos, keep=self._mine)

    def _mine(self, msg):
        return {s.name: s for s in msg.status if s.hardware_id == self.hardware_id} or None

    def mark(self):
        return self.arrays.mark()

    def wait(self, name, predicate, what, timeout, mark=None):
        """The first status `name` after `mark` (default: now) with predicate(status, values)
        (values: its key values as a dict): (arrival time, status, values, its array)."""
        def holds(array):
            status = array.get(name)
            return status is not None and predicate(status, values_of(status))

        seen = self.mark() if mark is None else mark
        try:
            at, array = self.arrays.wait(holds, f'{name!r} with {what}', timeout, seen)
        except AssertionError:
            last = [(level(a[name]), a[name].message) for a in self.arrays.since(0)[-3:]
                    if name in a]
            raise AssertionError(f'no {name!r} with {what} within {timeout} s; '
                                 f'last (level, message): {last}') from None
        return at, array[name], values_of(array[name]), array


def values_of(status):
    return {kv.key: kv.value for kv in status.values}


@pytest.fixture(scope='module')
def diag():
    hw = f'sat_diag_{os.getpid()}'
    ns = namespace('diag')
    peer = RosPeer(f'diag_peer_{os.getpid()}')
    d = Diagnostics(peer, hw)
    node = start_unconfigured(ns, '-p', f'hardware_id:={hw}')
    reports = Reports(peer, ns)
    reports.points = square(0.0, 0.0)
    reports.obstacles = [('far', square(3.0, 0.0))]
    d.ns, d.fqn, d.peer, d.node, d.reports = ns, f'{ns}/{NODE_NAME}', peer, node, reports
    try:
        yield d
    finally:
        node.kill()
        peer.close()


def test_diagnostics_inactive_is_warn(diag):
    """Also configures the module's node for the tests after it (the level's rule is the
    core's, tests/monitor/core_events/diagnostics.rs; here the edge: the lifecycle
    state's label and hardware_id over ROS 2)."""
    mark = diag.mark()
    assert change_state(diag.peer, diag.fqn, label='configure') is True
    _, status, values, _ = diag.wait(
        COLLISION, lambda s, v: v.get('lifecycle_state') == 'inactive',
        'lifecycle_state inactive', PERIOD + MARGIN, mark)
    assert level(status) == WARN, (status.message, values)
    assert status.hardware_id == diag.hardware_id


def test_diagnostics_active_with_fresh_inputs_is_ok_with_its_values(diag):
    mark = diag.mark()
    assert change_state(diag.peer, diag.fqn, label='activate') is True
    at, status, values, _ = diag.wait(
        COLLISION, lambda s, v: v.get('lifecycle_state') == 'active' and level(s) == OK,
        'OK while active', PERIOD + MARGIN, mark)
    assert values['status'] == 'ok' and values['valid'] == 'true', values
    for name in ('footprint', 'obstacles'):
        assert 0.0 <= float(values[f'{name} age']) < OBSTACLES_TIMEOUT / 2, values
        assert float(values[f'{name} rate']) > 0.0, values
    for p in ('p50', 'p99'):
        assert float(values[f'decision time {p}']) >= 0.0, values
    assert float(values['decision time p50']) <= float(values['decision time p99']), values
    assert values['obstacles'] == '1' and values['points'] == '0', values
    # Nothing changes: published again within every period, OK each time (two inputs
    # arriving together, each decided at once, are no degradation).
    for _ in range(2):
        _, status, values, _ = diag.wait(COLLISION, lambda s, v: True, 'the next status',
                                         PERIOD + MARGIN, diag.mark())
        assert level(status) == OK, (status.message, values)


# --- the velocity gate's status -----------------------------------------------------------

@pytest.fixture(scope='module')
def gate(tmp_path_factory):
    hw = f'sat_diag_gate_{os.getpid()}'
    ns = namespace('diag_gate')
    p = params(False)
    p[NODE_NAME]['ros__parameters']['hardware_id'] = hw
    path = tmp_path_factory.mktemp('diag_gate') / 'gate.yaml'
    path.write_text(yaml.safe_dump(p))
    peer = RosPeer(f'diag_gate_peer_{os.getpid()}')
    d = Diagnostics(peer, hw)
    node = start_node(ns, params_file=str(path))
    g = GatePeer(peer, ns, False)
    try:
        yield g, d
    finally:
        g.close()
        peer.close()
        node.stop()

