//! The flag's freshness: a footprint and a scan source fresh give a valid
//! flag; a source silent past its `source_timeout` makes the flag true
//! (`fail_safe`) with `stale_source` at the next tick, valid again as soon
//! as it sends; a footprint topic and an obstacle array the same by their
//! own timeouts.

use super::{config_of, gate_yaml, Rig, IN_FRONT, NODE, PERIOD, SOURCE_TIMEOUT, S_STOP};
use sat_collision::model::{Flag, ObstacleGeometry, Status};
use sat_collision::node::Outputs;

const VALID_CLEAR: Flag = Flag {
    colliding: false,
    valid: true,
    status: Status::Ok,
};

fn flag(out: &Outputs) -> Flag {
    out.flag.expect("a decision publishes the flag")
}

fn fail_safe(status: Status) -> Flag {
    Flag {
        colliding: true,
        valid: false,
        status,
    }
}

#[test]
fn a_source_never_received_is_no_source_data_and_the_flag_is_true() {
    let mut rig = Rig::new(config_of(&gate_yaml("")), 4);
    rig.sending[S_STOP] = false;
    rig.sense();
    let out = rig.set_active(true);
    assert_eq!(flag(&out), fail_safe(Status::NoSourceData));
    rig.sending[S_STOP] = true;
    assert_eq!(flag(&rig.sense()), VALID_CLEAR, "every source sent");
}

#[test]
fn a_scan_source_goes_stale_past_its_timeout_at_the_next_tick_and_comes_back() {
    let mut rig = Rig::gate("");
    let sent = rig.t;
    assert_eq!(flag(&rig.tick()), VALID_CLEAR);
    // Exactly at the timeout: still fresh (stale is *past* it).
    rig.t = sent + SOURCE_TIMEOUT;
    assert_eq!(flag(&rig.tick()), VALID_CLEAR, "at the timeout");
    // Past it, nothing new: the next tick says so.
    rig.t = sent + SOURCE_TIMEOUT + 1.0 / 64.0;
    assert_eq!(flag(&rig.tick()), fail_safe(Status::StaleSource));
    for _ in 0..4 {
        rig.advance(PERIOD);
        assert_eq!(flag(&rig.tick()), fail_safe(Status::StaleSource));
    }
    // Fresh again: valid at once, with the scan's own decision.
    assert_eq!(flag(&rig.sense()), VALID_CLEAR, "the sources sent again");
    assert_eq!(flag(&rig.tick()), VALID_CLEAR);
}

#[test]
fn fail_safe_false_keeps_a_stale_flag_not_colliding_but_not_valid() {
    let mut rig = Rig::gate("    fail_safe: false\n");
    rig.advance(SOURCE_TIMEOUT + PERIOD);
    assert_eq!(
        flag(&rig.tick()),
        Flag {
            colliding: false,
            valid: false,
            status: Status::StaleSource
        }
    );
}

#[test]
fn a_fresh_point_inside_the_footprint_is_a_valid_collision() {
    let mut rig = Rig::gate("");
    // In a zone, outside the robot: valid, not colliding.
    rig.scene[S_STOP] = vec![IN_FRONT];
    assert_eq!(flag(&rig.sense()), VALID_CLEAR);
    // Inside the robot's square (robot_footprint, placed from TF).
    rig.scene[S_STOP] = vec![(0.1, 0.0)];
    assert_eq!(
        flag(&rig.sense()),
        Flag {
            colliding: true,
            valid: true,
            status: Status::Ok
        }
    );
    // Stale, the point still in: the verdict is the staleness.
    rig.advance(SOURCE_TIMEOUT + PERIOD);
    assert_eq!(flag(&rig.tick()), fail_safe(Status::StaleSource));
}

/// test_diagnostics.py's scene: a footprint topic and an obstacle array,
/// no gate, no sources.
pub(super) fn footprint_and_array_yaml() -> String {
    format!(
        "{NODE}:
  ros__parameters:
    footprint_timeout: 0.5
    obstacles_timeout: 1.0
"
    )
}

pub(super) const FOOTPRINT: [(f64, f64); 4] = [(0.2, 0.2), (0.2, -0.2), (-0.2, -0.2), (-0.2, 0.2)];

pub(super) fn far_obstacle() -> Vec<(String, ObstacleGeometry)> {
    let square = [(3.0, 0.0), (3.5, 0.0), (3.5, 0.5), (3.0, 0.5)];
    let points = square
        .iter()
        .map(|&(x, y)| sat_collision::geometry::Point::new(x, y))
        .collect();
    vec![("far".to_owned(), ObstacleGeometry::Polygon(points))]
}

#[test]
fn a_footprint_topic_and_an_obstacle_array_go_stale_by_their_own_timeouts() {
    let mut rig = Rig::new(config_of(&footprint_and_array_yaml()), 0);
    rig.set_active(true);
    assert_eq!(flag(&rig.tick()), fail_safe(Status::NoFootprint));
    rig.footprint("odom", &FOOTPRINT);
    assert_eq!(flag(&rig.obstacles("odom", far_obstacle())), VALID_CLEAR);
    let start = rig.t;
    // The obstacles keep coming, the footprint stops: stale past 0.5 s.
    rig.t = start + 0.5;
    rig.obstacles("odom", far_obstacle());
    assert_eq!(
        flag(&rig.tick()),
        VALID_CLEAR,
        "the footprint at its timeout"
    );
    rig.t = start + 0.5 + 1.0 / 64.0;
    assert_eq!(flag(&rig.tick()), fail_safe(Status::StaleFootprint));
    assert_eq!(flag(&rig.footprint("odom", &FOOTPRINT)), VALID_CLEAR);
    // The footprint keeps coming, the obstacles stop (last at start + 0.5).
    rig.t = start + 1.5;
    rig.footprint("odom", &FOOTPRINT);
    assert_eq!(
        flag(&rig.tick()),
        VALID_CLEAR,
        "the obstacles at their timeout"
    );
    rig.t = start + 1.5 + 1.0 / 64.0;
    rig.footprint("odom", &FOOTPRINT);
    assert_eq!(flag(&rig.tick()), fail_safe(Status::StaleObstacles));
    assert_eq!(flag(&rig.obstacles("odom", far_obstacle())), VALID_CLEAR);
}

/// test_sources.py's `test_stale_malformed_unplaced_and_disabled_sources`:
/// each source stale by its own `source_timeout`, by arrival or by stamp.
#[test]
fn each_source_is_stale_by_its_own_timeout_by_arrival_or_by_stamp() {
    let yaml = format!(
        "{NODE}:
  ros__parameters:
    base_frame: base
    robot_footprint: \"[[0.2, 0.2], [0.2, -0.2], [-0.2, -0.2], [-0.2, 0.2]]\"
    source_timeout: 2.0
    observation_sources: [front, rear]
    front: {{type: scan, topic: front, source_timeout: 0.5}}
    rear: {{type: scan, topic: rear}}
"
    );
    let mut rig = Rig::new(config_of(&yaml), 2);
    rig.set_active(true);
    assert_eq!(flag(&rig.sense()), VALID_CLEAR);
    // front stops: stale after its own 0.5 s, not rear's 2 s.
    rig.sending[0] = false;
    let last = rig.t;
    while rig.t < last + 0.5 {
        rig.advance(PERIOD);
        assert_eq!(flag(&rig.sense()), VALID_CLEAR, "{} s", rig.t - last);
    }
    rig.advance(1.0 / 64.0);
    assert_eq!(flag(&rig.sense()), fail_safe(Status::StaleSource));
    rig.sending[0] = true;
    assert_eq!(flag(&rig.sense()), VALID_CLEAR);
    // Arriving now, measured 0.75 s ago: stale by its stamp for front
    // (0.5 s), not for rear (2 s).
    rig.stamp_lag = 0.75;
    assert_eq!(flag(&rig.sense()), fail_safe(Status::StaleSource));
    rig.sending[0] = false;
    rig.advance(PERIOD);
    let out = rig.sense();
    assert_eq!(flag(&out), fail_safe(Status::StaleSource), "front's last");
    assert!(
        out.notices
            .iter()
            .all(|n| !n.text.contains("0.750 s before it arrived")),
        "rear's stamp within its timeout: no warning"
    );
    rig.sending[0] = true;
    rig.stamp_lag = 0.0;
    assert_eq!(flag(&rig.sense()), VALID_CLEAR);
}
