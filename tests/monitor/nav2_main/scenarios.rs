//! The scenarios of nav2's `collision_monitor_node_test.cpp` (navigation2
//! main, commit `a3a97043ee93d92fe8d70ec56d183933169beb1c`) driven through
//! the node's core by events ([`Rig`]), each on its parameter set as
//! ported (`collision_monitor_node_test.yaml`), with nav2's data and
//! nav2's expected commands, states and tolerances (`EPSILON`; an
//! approach's `SIMULATION_TIME_STEP` share of the command, which nav2's
//! stepped simulation needs and the exact contact time here meets).
//!
//! nav2's data, as its test publishes them: every source in `base_source`,
//! placed by an identity `base_link → base_source` and `odom → base_link`;
//! a scan of 360 ranges at `dist` from angle 0 by 1°; a range reading of
//! field of view π/10 at `dist` (its arc by `obstacles_angle` π/200, read
//! by [`range_points`]); a point cloud of two points `(dist, ±0.01)` at
//! height 0.2 (within the source's 0.1–1.0 m: the height filter is
//! `tests/monitor/sensors.rs`'s); a polygon source's square
//! `[-1, 1] × [dist, dist + 1]`.

use crate::core_events::Rig;
use crate::nav2_main::test_config;
use sat_collision::gate::{Action, Command, GateState, Reason};
use sat_collision::geometry::Point;
use sat_collision::node::{FootprintInput, Outputs, ShapeInput};
use sat_collision::sensors::{range_points, scan_points, LaserScan, RangeReading};
use std::f64::consts::PI;

/// nav2's test's `EPSILON`.
const EPSILON: f64 = 1e-5;
/// nav2's `SLOWDOWN_RATIO`, `LINEAR_LIMIT`, `ANGULAR_LIMIT`.
const SLOWDOWN_RATIO: f64 = 0.7;
const LINEAR_LIMIT: f64 = 0.4;
const ANGULAR_LIMIT: f64 = 0.09;
/// nav2's `TIME_BEFORE_COLLISION`, `SIMULATION_TIME_STEP`.
const TIME_BEFORE_COLLISION: f64 = 1.0;
const SIMULATION_TIME_STEP: f64 = 0.01;
/// nav2's `STOP_PUB_TIMEOUT`.
const STOP_PUB_TIMEOUT: f64 = 0.1;

const SOURCE_FRAME: &str = "base_source";

/// The core configured on `section`, nav2's transforms given, `sources`
/// sources sent by `sense` (all in `base_source`), not active yet.
fn inactive(section: &str, sources: usize) -> Rig {
    let mut rig = Rig::new(test_config(section), sources);
    rig.frames = vec![SOURCE_FRAME.to_owned(); sources];
    rig.static_tf("base_link", SOURCE_FRAME, 0.0, 0.0, 0.0);
    rig.static_tf("odom", "base_link", 0.0, 0.0, 0.0);
    rig
}

/// [`inactive`], activated.
fn rig(section: &str, sources: usize) -> Rig {
    let mut rig = inactive(section, sources);
    rig.set_active(true);
    rig
}

/// The range source (the second) never sends, the point cloud's obstacle
/// 2.5 m ahead; then the node is activated (nav2's test starts its node
/// first: the state here is the one in force, published at activation or
/// with the command) and a command `(x, y, w)` comes: what goes out, and
/// the state in force.
fn range_silent(section: &str, x: f64, y: f64, w: f64) -> (Rig, Option<Command>, GateState) {
    let mut rig = inactive(section, 2);
    rig.scene[0] = cloud(2.5);
    rig.sending[1] = false;
    rig.sense();
    let activated = rig.set_active(true).state;
    let (got, state) = command(&mut rig, x, y, w);
    let state = state.or(activated).expect("a state published");
    (rig, got, state)
}

/// nav2's `publishScan(dist)`.
fn scan(dist: f64) -> Vec<(f64, f64)> {
    let ranges = vec![dist as f32; 360];
    let scan = LaserScan {
        angle_min: 0.0,
        angle_max: (2.0 * PI) as f32,
        angle_increment: (PI / 180.0) as f32,
        range_min: 0.1,
        range_max: (dist + 1.0) as f32,
        ranges: &ranges,
    };
    let mut out = Vec::new();
    scan_points(&scan, &mut out).expect("nav2's scan");
    out.iter().map(|p| (p.x, p.y)).collect()
}

/// nav2's `publishRange(dist)`, read with the test's `obstacles_angle`.
fn range(dist: f64) -> Vec<(f64, f64)> {
    let reading = RangeReading {
        field_of_view: (PI / 10.0) as f32,
        min_range: 0.1,
        max_range: (dist + 0.1) as f32,
        range: dist as f32,
    };
    let mut out = Vec::new();
    range_points(&reading, PI / 200.0, &mut out).expect("nav2's range reading");
    out.iter().map(|p| (p.x, p.y)).collect()
}

/// nav2's `publishPointCloud(dist)`: its two points, in the plane.
fn cloud(dist: f64) -> Vec<(f64, f64)> {
    vec![(dist, 0.01), (dist, -0.01)]
}

/// nav2's `publishPolygon(dist)`.
fn polygon(dist: f64) -> [(f64, f64); 4] {
    [
        (1.0, dist),
        (-1.0, dist),
        (-1.0, dist + 1.0),
        (1.0, dist + 1.0),
    ]
}

/// nav2's `publishCmdVel(x, y, w)`: the command published.
fn command(rig: &mut Rig, x: f64, y: f64, w: f64) -> (Option<Command>, Option<GateState>) {
    let out = rig.command(x, y, w);
    (out.command.map(|c| c.command), out.state)
}

/// `ASSERT_NEAR` on each component, as nav2's test (`tolerance` per
/// component, `x`, `y`, `w`).
fn assert_near(got: Option<Command>, want: (f64, f64, f64), tolerance: (f64, f64, f64)) {
    let got = got.expect("a command published");
    assert!(
        (got.x - want.0).abs() <= tolerance.0
            && (got.y - want.1).abs() <= tolerance.1
            && (got.w - want.2).abs() <= tolerance.2,
        "got {got:?}, want {want:?} within {tolerance:?}"
    );
}

fn exactly(got: Option<Command>, want: (f64, f64, f64)) {
    assert_near(got, want, (EPSILON, EPSILON, EPSILON));
}

/// nav2's `action_state_`: `action_type` and `polygon_name`.
fn zone(action: Action, index: usize) -> Option<GateState> {
    Some(GateState {
        action,
        reason: Reason::Zone(index),
    })
}

/// `testProcessStopSlowdownLimit`: three nested squares (limit 3 m,
/// slowdown 2 m, stop 1 m) over a scan. The obstacle far: the command
/// passes; in the limit zone: one ratio, min(0.4 / |v|, 0.09 / |w|); in
/// the slowdown zone (and the limit zone): slowdown's 0.7 is the more
/// restrictive; in the stop zone: zeros; far again: the command, nothing
/// acting.
#[test]
fn nav2_process_stop_slowdown_limit() {
    let mut rig = rig("stop_slowdown_limit", 1);
    let (limit, slowdown, stop) = (0, 1, 2);
    rig.scene[0] = scan(4.5);
    rig.sense();
    exactly(command(&mut rig, 0.5, 0.2, 0.1).0, (0.5, 0.2, 0.1));

    rig.scene[0] = scan(3.0);
    rig.sense();
    let (got, state) = command(&mut rig, 0.5, 0.2, 0.1);
    let speed = (0.5f64 * 0.5 + 0.2 * 0.2).sqrt();
    let ratio = (LINEAR_LIMIT / speed).min(ANGULAR_LIMIT / 0.1);
    exactly(got, (0.5 * ratio, 0.2 * ratio, 0.1 * ratio));
    assert_eq!(state, zone(Action::Limit, limit));

    rig.scene[0] = scan(1.5);
    rig.sense();
    let (got, state) = command(&mut rig, 0.5, 0.2, 0.1);
    let r = SLOWDOWN_RATIO;
    exactly(got, (0.5 * r, 0.2 * r, 0.1 * r));
    assert_eq!(state, zone(Action::Slowdown, slowdown));

    rig.scene[0] = scan(0.5);
    rig.sense();
    let (got, state) = command(&mut rig, 0.5, 0.2, 0.1);
    exactly(got, (0.0, 0.0, 0.0));
    assert_eq!(state, zone(Action::Stop, stop));

    rig.scene[0] = scan(4.5);
    rig.sense();
    let (got, state) = command(&mut rig, 0.5, 0.2, 0.1);
    exactly(got, (0.5, 0.2, 0.1));
    assert_eq!(state, Some(GateState::CLEAR));
}

/// `testPolygonSource`: the same zones over a polygon source (its
/// `source_timeout` 0.1 s), its square at 4.5, 3, 1.5, 0.5 and 4.5 m. The
/// square's near edge on the limit zone's edge (3 m) is inside it, as in
/// nav2, whose sampled points on that edge count.
#[test]
fn nav2_polygon_source() {
    let mut rig = rig("polygon_source", 0);
    let (limit, slowdown, stop) = (0, 1, 2);
    let at = |rig: &mut Rig, dist: f64| {
        rig.advance(1.0 / 64.0);
        rig.polygon(0, 0, SOURCE_FRAME, &polygon(dist));
        command(rig, 0.5, 0.2, 0.1)
    };
    exactly(at(&mut rig, 4.5).0, (0.5, 0.2, 0.1));

    let (got, state) = at(&mut rig, 3.0);
    let speed = (0.5f64 * 0.5 + 0.2 * 0.2).sqrt();
    let ratio = (LINEAR_LIMIT / speed).min(ANGULAR_LIMIT / 0.1);
    exactly(got, (0.5 * ratio, 0.2 * ratio, 0.1 * ratio));
    assert_eq!(state, zone(Action::Limit, limit));

    let (got, state) = at(&mut rig, 1.5);
    let r = SLOWDOWN_RATIO;
    exactly(got, (0.5 * r, 0.2 * r, 0.1 * r));
    assert_eq!(state, zone(Action::Slowdown, slowdown));

    let (got, state) = at(&mut rig, 0.5);
    exactly(got, (0.0, 0.0, 0.0));
    assert_eq!(state, zone(Action::Stop, stop));

    let (got, state) = at(&mut rig, 4.5);
    exactly(got, (0.5, 0.2, 0.1));
    assert_eq!(state, Some(GateState::CLEAR));
}

/// `testProcessApproach`: a circle of 1 m approaching a scan. 0.2 m ahead
/// at |v| = 0.5385 m/s: the command scaled to contact in
/// `time_before_collision`; an obstacle inside the circle: zeros, even for
/// an impossible command; far again: the command.
#[test]
fn nav2_process_approach() {
    let mut rig = rig("approach", 1);
    let step = SIMULATION_TIME_STEP / TIME_BEFORE_COLLISION;
    rig.scene[0] = scan(3.0);
    rig.sense();
    exactly(command(&mut rig, 0.5, 0.2, 0.0).0, (0.5, 0.2, 0.0));

    rig.scene[0] = scan(1.2);
    rig.sense();
    let (got, state) = command(&mut rig, 0.5, 0.2, 0.0);
    let change_ratio = (0.2 / 0.538516481) / TIME_BEFORE_COLLISION;
    assert_near(
        got,
        (0.5 * change_ratio, 0.2 * change_ratio, 0.0),
        (0.5 * step, 0.2 * step, EPSILON),
    );
    assert_eq!(state, zone(Action::Approach, 0));

    rig.scene[0] = scan(0.5);
    rig.sense();
    exactly(command(&mut rig, 1e9, 0.2, 0.0).0, (0.0, 0.0, 0.0));

    rig.scene[0] = scan(3.0);
    rig.sense();
    let (got, state) = command(&mut rig, 0.5, 0.2, 0.0);
    exactly(got, (0.5, 0.2, 0.0));
    assert_eq!(state, Some(GateState::CLEAR));
}

/// `testProcessApproachRotation`: an approach zone whose shape is the
/// robot's footprint from `footprint` (a 2 m square), a range sensor, the
/// robot turning in place at π/4 rad/s. The reading 2 m ahead: beyond the
/// square's corners (√2 m), the command passes; 1.4 m ahead: a corner
/// reaches the arc's second point (`min_points` 2) after about 0.63 rad, so
/// the turn is scaled to about π/5 rad/s (nav2's tolerance: the share of a
/// simulation step); inside the square: zeros; far again: the command.
#[test]
fn nav2_process_approach_rotation() {
    let mut rig = rig("approach_rotation", 1);
    let corners = [(1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0)];
    let footprint = ShapeInput::Polygon(FootprintInput {
        frame_id: "base_link".to_owned(),
        stamp: rig.t,
        points: corners.iter().map(|&(x, y)| Point::new(x, y)).collect(),
        rejected: None,
    });
    let mut shapes = vec![Some(footprint)];
    let mut out = Outputs::default();
    let now = rig.now();
    rig.core.on_zone_shapes(&mut shapes, now, &mut out);
    let turn = PI / 4.0;
    let step = SIMULATION_TIME_STEP / TIME_BEFORE_COLLISION;

    rig.scene[0] = range(2.0);
    rig.sense();
    exactly(command(&mut rig, 0.0, 0.0, turn).0, (0.0, 0.0, turn));

    rig.scene[0] = range(1.4);
    rig.sense();
    let (got, state) = command(&mut rig, 0.0, 0.0, turn);
    assert_near(got, (0.0, 0.0, PI / 5.0), (EPSILON, EPSILON, turn * step));
    assert_eq!(state, zone(Action::Approach, 0));

    rig.scene[0] = range(0.5);
    rig.sense();
    exactly(command(&mut rig, 0.0, 0.0, turn).0, (0.0, 0.0, 0.0));

    rig.scene[0] = range(2.5);
    rig.sense();
    let (got, state) = command(&mut rig, 0.0, 0.0, turn);
    exactly(got, (0.0, 0.0, turn));
    assert_eq!(state, Some(GateState::CLEAR));
}

/// `testCrossOver`: a slowdown square of 2 m and an approach circle of
/// 1 m, over a point cloud and a range sensor. Both 2.5 m ahead at 3 m/s:
/// the approach (contact 1.5 m ahead: ratio 0.5); the range 1.5 m ahead at
/// 0.1 m/s: inside the slowdown zone and far in time, so slowdown; the
/// same at 1 m/s: contact in 0.5 s, the approach's 0.5 is more restrictive
/// than the slowdown's 0.7.
#[test]
fn nav2_cross_over() {
    let mut rig = rig("cross_over", 2);
    let step = SIMULATION_TIME_STEP / TIME_BEFORE_COLLISION;
    let (slowdown, approach) = (0, 1);
    rig.scene = vec![cloud(2.5), range(2.5)];
    rig.sense();
    let (got, state) = command(&mut rig, 3.0, 0.0, 0.0);
    let change_ratio = (1.5 / 3.0) / TIME_BEFORE_COLLISION;
    assert_near(
        got,
        (3.0 * change_ratio, 0.0, 0.0),
        (3.0 * step, EPSILON, EPSILON),
    );
    assert_eq!(state, zone(Action::Approach, approach));

    rig.scene[1] = range(1.5);
    rig.sense();
    let (got, state) = command(&mut rig, 0.1, 0.0, 0.0);
    exactly(got, (0.1 * SLOWDOWN_RATIO, 0.0, 0.0));
    assert_eq!(state, zone(Action::Slowdown, slowdown));

    let (got, state) = command(&mut rig, 1.0, 0.0, 0.0);
    let change_ratio = (0.5 / 1.0) / TIME_BEFORE_COLLISION;
    assert_near(
        got,
        (1.0 * change_ratio, 0.0, 0.0),
        (1.0 * step, EPSILON, EPSILON),
    );
    assert_eq!(state, zone(Action::Approach, approach));
}

/// `testSourceTimeout`: the range source configured and never published
/// is not valid: zeros, state stop "invalid source".
#[test]
fn nav2_source_timeout() {
    let (_, got, state) = range_silent("cross_over", 3.0, 3.0, 3.0);
    exactly(got, (0.0, 0.0, 0.0));
    assert_eq!(state.action, Action::Stop);
    assert!(
        matches!(state.reason, Reason::InvalidSource(_)),
        "{state:?}"
    );
}

/// `testSourceTimeoutOverride`, where this node differs from nav2: with
/// `source_timeout: 0.0` nav2 skips the source's validity check (a source
/// that cannot give data, the never published range here, is passed over)
/// and approaches the point cloud's obstacle. Here 0 means "never stale":
/// a source that never sent still cannot be judged, and the gate stops
/// (docs/nav2.md, `source_timeout`).
#[test]
fn nav2_source_timeout_override_still_stops_for_a_source_that_never_sent() {
    let (mut rig, got, state) = range_silent("source_timeout_override", 3.0, 0.0, 0.0);
    exactly(got, (0.0, 0.0, 0.0));
    assert!(
        matches!(state.reason, Reason::InvalidSource(_)),
        "{state:?}"
    );
    // Once it has sent, it never goes stale: the approach, as nav2's.
    rig.scene[1] = range(2.5);
    rig.sending[1] = true;
    rig.sense();
    rig.advance(100.0);
    let step = SIMULATION_TIME_STEP / TIME_BEFORE_COLLISION;
    let (got, state) = command(&mut rig, 3.0, 0.0, 0.0);
    assert_near(got, (1.5, 0.0, 0.0), (3.0 * step, EPSILON, EPSILON));
    assert_eq!(state, zone(Action::Approach, 1));
}

/// `testCeasePublishZeroVel`: inside the approach circle (2 m): zeros,
/// state approach; after `stop_pub_timeout` (0.1 s) no more zeros for a
/// command; the obstacle gone: the command; inside the stop zone: zeros,
/// then silence after `stop_pub_timeout` again.
#[test]
fn nav2_cease_publish_zero_vel() {
    let mut rig = rig("cease_publish_zero_vel", 1);
    let (stop, approach) = (0, 1);
    rig.scene[0] = scan(1.5);
    rig.sense();
    let (got, state) = command(&mut rig, 0.5, 0.2, 0.1);
    exactly(got, (0.0, 0.0, 0.0));
    assert_eq!(state, zone(Action::Approach, approach));

    rig.advance(STOP_PUB_TIMEOUT + 1.0 / 64.0);
    assert_eq!(command(&mut rig, 0.5, 0.2, 0.1).0, None, "silence");

    rig.scene[0] = scan(3.0);
    rig.sense();
    let (got, state) = command(&mut rig, 0.5, 0.2, 0.1);
    exactly(got, (0.5, 0.2, 0.1));
    assert_eq!(state, Some(GateState::CLEAR));

    rig.scene[0] = scan(0.5);
    rig.sense();
    let (got, state) = command(&mut rig, 0.5, 0.2, 0.1);
    exactly(got, (0.0, 0.0, 0.0));
    assert_eq!(state, zone(Action::Stop, stop));

    rig.advance(STOP_PUB_TIMEOUT + 1.0 / 64.0);
    assert_eq!(command(&mut rig, 0.5, 0.2, 0.1).0, None, "silence");
}

/// `testPolygonNotEnabled` and `testSourceNotEnabled`: the stop zone
/// stops the robot; `Stop.enabled` (or `Scan.enabled`) set false at run
/// time, the command passes and nothing acts.
#[test]
fn nav2_polygon_and_source_not_enabled() {
    for name in ["Stop.enabled", "Scan.enabled"] {
        let mut rig = rig("stop", 1);
        rig.scene[0] = scan(0.5);
        rig.sense();
        let (got, state) = command(&mut rig, 0.5, 0.2, 0.1);
        exactly(got, (0.0, 0.0, 0.0));
        assert_eq!(state, zone(Action::Stop, 0), "{name}");

        let mut config = rig.core.config().clone();
        config
            .set(name, &sat_collision::config::Value::Bool(false))
            .expect("a run-time parameter");
        assert!(rig.core.follow(1, || config));
        rig.advance(1.0 / 64.0);
        rig.sense();
        let (got, state) = command(&mut rig, 0.5, 0.2, 0.1);
        exactly(got, (0.5, 0.2, 0.1));
        assert_eq!(state, Some(GateState::CLEAR), "{name}");
    }
}

/// `testProcessNonActive`: configured, not active: no command out.
#[test]
fn nav2_process_non_active() {
    let mut rig = Rig::new(test_config("stop"), 1);
    rig.scene[0] = scan(3.0);
    rig.sense();
    assert_eq!(command(&mut rig, 1.0, 0.0, 0.0).0, None);
}

/// `testVelocityPolygonStop`: a velocity polygon with a forward shape (4 m
/// square, 0–0.5 m/s) and a backward one (2 m square, -0.5–0 m/s), over a
/// point cloud. The obstacle at 4.5 m: forward passes; at 3 m: stop; the
/// command backward: the backward shape, clear, the command passes; the
/// obstacle 1.5 m behind: stop.
#[test]
fn nav2_velocity_polygon_stop() {
    let mut rig = rig("velocity_polygon_stop", 1);
    rig.scene[0] = cloud(4.5);
    rig.sense();
    exactly(command(&mut rig, 0.4, 0.0, 0.1).0, (0.4, 0.0, 0.1));

    rig.scene[0] = cloud(3.0);
    rig.sense();
    let (got, state) = command(&mut rig, 0.4, 0.0, 0.1);
    exactly(got, (0.0, 0.0, 0.0));
    assert_eq!(state, zone(Action::Stop, 0));

    let (got, state) = command(&mut rig, -0.4, 0.0, 0.1);
    exactly(got, (-0.4, 0.0, 0.1));
    assert_eq!(state, Some(GateState::CLEAR));

    rig.scene[0] = cloud(-1.5);
    rig.sense();
    let (got, state) = command(&mut rig, -0.4, 0.0, 0.1);
    exactly(got, (0.0, 0.0, 0.0));
    assert_eq!(state, zone(Action::Stop, 0));
}

/// `testSourceAssociatedToPolygon`: a stop zone over the range source
/// only (`sources_names`) and a slowdown zone over all, the same square;
/// the scan's obstacle inside, the range's far: slowdown, not stop.
#[test]
fn nav2_source_associated_to_polygon() {
    let mut rig = rig("source_associated_to_polygon", 2);
    rig.scene = vec![scan(0.5), range(4.5)];
    rig.sense();
    let (got, state) = command(&mut rig, 0.5, 0.0, 0.0);
    exactly(got, (0.5 * SLOWDOWN_RATIO, 0.0, 0.0));
    assert_eq!(state, zone(Action::Slowdown, 1));
}
