"""A gate alone, as a new user starts it from nav2's configuration (issue 34, items 6
and 7), over real ROS 2: rclpy peers send commands at 20 Hz and a scan in the base
frame, and read `cmd_vel_out_topic`, the `collision` flag and `/diagnostics`.

One node: nav2's parameters as nav2's files give them (a scan source, a circle stop
zone of 1 m, `base_shift_correction` and `odom_frame_id` left at nav2's defaults), no
robot footprint or radius, nothing on `footprint`, and no TF at all (no `odom`):
* item 6, a source in the base frame needs no transform: with nothing within 5 m,
  every command passes unchanged; a point inside the zone stops it;
* item 7, a gate alone is healthy: `<node>: collision` reads OK, with the message that
  the flag is not judged (status `no_footprint`, valid false), while the gate's status
  reads OK; the flag is never false (never a "clear" the node cannot judge).

The rules themselves are tested in the core (`tests/monitor/core_events/base_frame.rs`,
`gate_only.rs`); here is the node over ROS 2, as the issue's user ran it.

Run by scripts/test.sh (after `cargo build --bins`).
"""

import time

import pytest

from test_diagnostics import COLLISION, GATE, MARGIN, OK, PERIOD, level
from test_gate import BASE, is_zero, passes
from test_gate_judges import CMD, Judge, Started, hw

# The message of the collision status of a gate alone (diagnostics::NOT_JUDGED).
NOT_JUDGED = 'no footprint configured: the collision flag is not judged (gate only)'


@pytest.fixture(scope='module')
def alone(tmp_path_factory):
    tag = 'alone'
    body = {
        'publish_rate': 20.0,
        'base_frame_id': BASE,
        'cmd_vel_in_topic': 'cmd_in',
        'cmd_vel_out_topic': 'cmd_out',
        'state_topic': 'gate_state',
        'stop_pub_timeout': 3600.0,
        'hardware_id': hw(tag),
        'observation_sources': ['scan'],
        'scan': {'type': 'scan', 'topic': 'scan'},
        'polygons': ['stop'],
        'stop': {'type': 'circle', 'radius': 1.0, 'action_type': 'stop', 'min_points': 1},
    }
    started = Started(tmp_path_factory, tag, body, ['scan'], judge=Judge)
    try:
        yield started.judge
    finally:
        started.close()


def test_a_scan_in_the_base_frame_passes_commands_without_odom(alone):
    j = alone
    j.put('scan', [(6.0, 0.0)])
    j.gate(CMD, passes(CMD), 'the command unchanged: nothing within 5 m, no TF needed')
    # 30 commands at 20 Hz: every one out unchanged (the run: 30 of 30 zeros).
    with j.cond:
        seen = len(j.outputs)
    for _ in range(30):
        j.command(*CMD)
        time.sleep(0.05)
    time.sleep(0.2)
    with j.cond:
        out = [j.twist_of(m) for _, m in j.outputs[seen:]]
    assert len(out) >= 25, f'{len(out)} outputs for 30 commands'
    assert all(passes(CMD)(t) for t in out), [(t.linear.x, t.angular.z) for t in out]
    # The zone still judges the scan: a point 0.5 m ahead stops the robot.
    j.put('scan', [(0.5, 0.0)])
    j.gate(CMD, is_zero, 'zeros: a point inside the 1 m stop zone')
    j.put('scan', [(6.0, 0.0)])
    j.gate(CMD, passes(CMD), 'the command unchanged again')


def test_a_gate_alone_reads_healthy_and_its_flag_is_never_clear(alone):
    j = alone
    j.put('scan', [(6.0, 0.0)])
    j.gate(CMD, passes(CMD), 'the command unchanged')
    mark = j.diag.mark()
    flags = j.flags.mark()
    _, status, values, _ = j.diag.wait(
        COLLISION, lambda s, v: True, 'a collision status', PERIOD + MARGIN, mark)
    assert (level(status), status.message) == (OK, NOT_JUDGED), (level(status), values)
    assert values['status'] == 'no_footprint' and values['valid'] == 'false', values
    # Over the next periods: OK each time, the gate's status OK, the flag true always.
    for _ in range(2):
        _, status, _, array = j.diag.wait(
            COLLISION, lambda s, v: True, 'the next status', PERIOD + MARGIN, j.diag.mark())
        assert (level(status), status.message) == (OK, NOT_JUDGED), status.message
        assert GATE in array and level(array[GATE]) == OK, array.get(GATE)
        assert array[GATE].message == 'clear', array[GATE].message
    got = [v for _, v in j.flags.items[flags:]]
    assert got and all(got), f'the flag of a gate alone (never false): {got[-20:]}'


def test_an_exclusion_zone_added_over_the_service_hides_the_obstacle(alone):
    """nav2 main's exclusion zones: `~/<source>/add_exclusion_zone` masks the scan's
    points inside the zone (the gate passes), `remove_exclusion_zone` brings them back
    (zeros again); a description the node refuses changes nothing. The rules are tested
    in the core (tests/monitor/core_events/exclusion.rs)."""
    from geometry_msgs.msg import Point32
    try:
        from nav2_msgs.srv import AddExclusionZone, RemoveExclusionZone
    except ImportError:  # a regular Jazzy install's nav2_msgs: no services (build.rs)
        pytest.skip("this ROS install's nav2_msgs has no AddExclusionZone")

    j = alone
    add, remove = f'{j.fqn}/scan/add_exclusion_zone', f'{j.fqn}/scan/remove_exclusion_zone'
    j.put('scan', [(0.5, 0.0)])
    try:
        j.gate(CMD, is_zero, 'zeros: a point inside the 1 m stop zone')
        request = AddExclusionZone.Request()
        request.zone.zone_name = 'dock'
        request.zone.type = 'polygon'
        request.zone.points = [Point32(x=x, y=y) for x, y in
                               [(0.4, -0.1), (0.6, -0.1), (0.6, 0.1), (0.4, 0.1)]]
        response = j.peer.call(AddExclusionZone, add, request)
        assert response.success, response.message
        assert response.message == "Added zone 'dock' to source 'scan'"
        j.gate(CMD, passes(CMD), 'the command unchanged: the point is in the zone')
        again = j.peer.call(AddExclusionZone, add, request)
        assert not again.success and 'already has' in again.message, again.message
        response = j.peer.call(RemoveExclusionZone, remove,
                               RemoveExclusionZone.Request(zone_name='dock'))
        assert response.success, response.message
        j.gate(CMD, is_zero, 'zeros again: the zone removed')
    finally:
        j.peer.call(RemoveExclusionZone, remove, RemoveExclusionZone.Request(remove_all=True))
        j.put('scan', [(6.0, 0.0)])
