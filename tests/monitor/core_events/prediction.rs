//! `collision_ahead` from the core (test_motion.py's
//! `test_collision_ahead_turns_true_before_collision` and
//! `test_a_velocity_stamped_seconds_ago_is_stale`): published after the
//! flag at each decision while `velocity_topic` is set; true when the
//! footprint moved along the velocity meets an obstacle within
//! `time_horizon` (2 s), and (`fail_safe`) when the velocity cannot be
//! used: none yet, stamped long ago, gone quiet past `velocity_timeout`.

use super::{config_of, Rig, NODE};
use sat_collision::geometry::Point;
use sat_collision::model::ObstacleGeometry;
use sat_collision::node::{Outputs, VelocityInput};

/// The robot 1 m by 0.6 m (its front at x = 0.5), in `map`.
const ROBOT: [(f64, f64); 4] = [(0.5, 0.3), (-0.5, 0.3), (-0.5, -0.3), (0.5, -0.3)];

fn yaml() -> String {
    format!(
        "{NODE}:
  ros__parameters:
    velocity_topic: vel
    velocity_type: twist_stamped
    velocity_timeout: 0.5
    obstacles_timeout: 30.0
    footprint_timeout: 0.5
"
    )
}

/// A wall across the robot's way, from `x` to `x + 0.2`, in `map`.
fn wall(x: f64) -> Vec<(String, ObstacleGeometry)> {
    let corners = [(x, -2.0), (x + 0.2, -2.0), (x + 0.2, 2.0), (x, 2.0)];
    let points = corners.iter().map(|&(x, y)| Point::new(x, y)).collect();
    vec![("wall".to_owned(), ObstacleGeometry::Polygon(points))]
}

fn velocity(rig: &mut Rig, vx: f64, lag: f64) -> Outputs {
    let input = VelocityInput {
        frame_id: "map".to_owned(),
        stamp: rig.t - lag,
        linear: (vx, 0.0),
        angular: 0.0,
        rejected: false,
    };
    let mut out = Outputs::default();
    let (arrival, now) = (rig.arrival(), rig.now());
    rig.core.on_velocity(&input, arrival, now, &mut out);
    out
}

/// The footprint arrives (a decision): the flag (valid, clear) and
/// `collision_ahead`.
fn ahead(rig: &mut Rig) -> bool {
    let out = rig.footprint("map", &ROBOT);
    let flag = out.flag.expect("the flag");
    assert!(flag.valid && !flag.colliding, "{flag:?}");
    out.ahead.expect("collision_ahead with the flag")
}

#[test]
fn collision_ahead_is_true_within_the_horizon_and_false_beyond() {
    let mut rig = Rig::new(config_of(&yaml()), 0);
    rig.set_active(true);
    rig.obstacles("map", wall(1.5));
    // No velocity yet: fail-safe.
    assert!(ahead(&mut rig), "no velocity yet");
    // 1 m/s: the front (0.5) meets the wall (1.5) in 1 s, within 2 s.
    let out = velocity(&mut rig, 1.0, 0.0);
    assert!(
        out.is_empty(),
        "a velocity publishes nothing itself: {out:?}"
    );
    assert!(ahead(&mut rig), "contact in 1 s");
    // 0.4 m/s: in 2.5 s, beyond the horizon.
    velocity(&mut rig, 0.4, 0.0);
    assert!(!ahead(&mut rig), "contact in 2.5 s");
    // Backing away.
    velocity(&mut rig, -1.0, 0.0);
    assert!(!ahead(&mut rig), "backing away");
    // Quiet past velocity_timeout: fail-safe again.
    rig.advance(0.5 + 1.0 / 64.0);
    rig.obstacles("map", wall(1.5));
    assert!(ahead(&mut rig), "the velocity stale");
}

#[test]
fn a_velocity_stamped_seconds_ago_is_stale_not_a_prediction_along_an_old_motion() {
    let mut rig = Rig::new(config_of(&yaml()), 0);
    rig.set_active(true);
    // Far: no contact within the horizon at 1 m/s.
    rig.obstacles("map", wall(5.0));
    let out = velocity(&mut rig, 1.0, 5.0);
    assert!(
        out.notices
            .iter()
            .any(|n| n.key == Some("velocity") && n.text.contains("5.000 s before it arrived")),
        "{:?}",
        out.notices
    );
    assert!(ahead(&mut rig), "stale: fail-safe");
    velocity(&mut rig, 1.0, 0.0);
    assert!(!ahead(&mut rig), "stamped now: predicted, clear");
}

#[test]
fn nothing_ahead_is_published_while_inactive_or_without_a_velocity_topic() {
    let mut rig = Rig::new(config_of(&yaml()), 0);
    rig.obstacles("map", wall(1.5));
    velocity(&mut rig, 1.0, 0.0);
    let out = rig.footprint("map", &ROBOT);
    assert_eq!(out.ahead, None, "inactive");
    let no_velocity = format!("{NODE}:\n  ros__parameters:\n    obstacles_timeout: 30.0\n");
    let mut rig = Rig::new(config_of(&no_velocity), 0);
    rig.set_active(true);
    rig.obstacles("map", wall(1.5));
    let out = rig.footprint("map", &ROBOT);
    assert!(out.flag.is_some());
    assert_eq!(out.ahead, None, "no velocity_topic: no prediction");
}
