//! Zones' own parameters in the core (test_gate.py's
//! `test_stop_needs_min_points`, `test_allow_escape_trapped_robot`, and
//! the rule part of `test_zone_polygons_and_points_markers`): `min_points`,
//! `allow_escape`, the points inside each zone and the zones' shapes that
//! the markers and `PolygonStamped`s draw.

use super::{config_of, goes, published, Rig, BASE, NODE, SOURCE_TIMEOUT};
use sat_collision::gate::Command;

const CMD: (f64, f64, f64) = (0.3, 0.0, 0.0);
const S_STOP: usize = 0;
const S_ESC: usize = 1;

/// A stop zone in front needing 3 points, and a stop zone that is the
/// robot's square (±0.3 m) letting it escape.
fn zones_yaml() -> String {
    format!(
        "{NODE}:
  ros__parameters:
    base_frame_id: {BASE}
    robot_footprint: \"[[0.1, 0.1], [0.1, -0.1], [-0.1, -0.1], [-0.1, 0.1]]\"
    base_shift_correction: false
    source_timeout: {SOURCE_TIMEOUT}
    observation_sources: [s_stop, s_esc]
    s_stop: {{type: scan, topic: s_stop}}
    s_esc: {{type: scan, topic: s_esc}}
    polygons: [stop, escape]
    stop: {{type: polygon, points: \"[[0.6, 0.3], [0.6, -0.3], [0.3, -0.3], [0.3, 0.3]]\",
            action_type: stop, min_points: 3, sources_names: [s_stop], visualize: true}}
    escape: {{type: polygon, points: \"[[0.3, 0.3], [0.3, -0.3], [-0.3, -0.3], [-0.3, 0.3]]\",
              action_type: stop, allow_escape: true, time_before_collision: 1.0,
              min_points: 1, sources_names: [s_esc]}}
"
    )
}

fn active() -> Rig {
    let mut rig = Rig::new(config_of(&zones_yaml()), 2);
    rig.sense();
    rig.set_active(true);
    rig
}

#[test]
fn a_stop_zone_needs_min_points() {
    let mut rig = active();
    rig.scene[S_STOP] = vec![(0.4, 0.0), (0.45, 0.05)];
    rig.sense();
    assert!(
        goes(&rig.command(CMD.0, CMD.1, CMD.2)),
        "two points of three"
    );
    rig.scene[S_STOP].push((0.5, -0.05));
    rig.sense();
    assert_eq!(
        published(&rig.command(CMD.0, CMD.1, CMD.2)),
        Some(Command::ZERO),
        "three points"
    );
}

#[test]
fn allow_escape_lets_a_trapped_robot_back_away_but_not_drive_on() {
    let mut rig = active();
    rig.scene[S_ESC] = vec![(0.2, 0.0)];
    rig.sense();
    let back = Command::new(-0.3, 0.0, 0.0);
    assert_eq!(
        published(&rig.command(back.x, back.y, back.w)),
        Some(back),
        "backing away"
    );
    assert_eq!(
        published(&rig.command(CMD.0, CMD.1, CMD.2)),
        Some(Command::ZERO),
        "driving at the point"
    );
    assert_eq!(
        published(&rig.command(back.x, back.y, back.w)),
        Some(back),
        "backing away again"
    );
}

#[test]
fn the_points_inside_each_zone_and_its_shape_are_what_is_drawn() {
    let mut rig = active();
    let inside = [(0.4, 0.0), (0.45, 0.1), (0.5, -0.1)];
    rig.scene[S_STOP] = inside.to_vec();
    rig.scene[S_STOP].push((2.0, 0.0));
    rig.sense();
    let out = rig.tick();
    assert!(out.zone_points, "the markers are due at a re-check");
    let mut points = Vec::new();
    rig.core.zone_points(0, 100, &mut points);
    let mut drawn: Vec<(f64, f64)> = points.iter().map(|p| (p.x, p.y)).collect();
    drawn.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    assert_eq!(
        drawn, inside,
        "the points in the stop zone, in the base frame"
    );
    rig.core.zone_points(0, 2, &mut points);
    assert_eq!(points.len(), 2, "at most max");
    rig.core.zone_points(1, 100, &mut points);
    assert!(points.is_empty(), "nothing in the escape zone");
    rig.core.zone_points(7, 100, &mut points);
    assert!(points.is_empty(), "no such zone");
    // The zone's shape, drawn from its outline: its four vertices in the
    // base frame.
    let shape = rig.core.zone_shape(0).expect("a fixed zone has its shape");
    let mut outline: Vec<(f64, f64)> = shape.outline(16).iter().map(|p| (p.x, p.y)).collect();
    outline.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    assert_eq!(outline, [(0.3, -0.3), (0.3, 0.3), (0.6, -0.3), (0.6, 0.3)]);
}
