//! A gate alone is healthy (issue 34, item 7): a velocity gate with no
//! footprint configured (zones in `polygons`, no `robot_footprint` or
//! `robot_radius`, nothing on the `footprint` topic: nav2's
//! configuration) reads OK on `/diagnostics`' collision status, with the
//! message that the flag is not judged, while the gate works; the flag
//! itself is never claimed clear (not valid, `no_footprint`, true with
//! `fail_safe`). A real fault still reads ERROR (a clock that cannot
//! judge; a footprint that arrived and went stale), an input late WARN,
//! and a node with a robot shape is judged as before.

use super::base_frame::{nav2_yaml, rig};
use super::{config_of, goes, Rig, NODE, PERIOD, SOURCE_TIMEOUT};
use sat_collision::diagnostics::{DiagnosticStatus, Level, NOT_JUDGED};
use sat_collision::model::{Cause, Status};
use sat_collision::node::StatusContext;

const CMD: (f64, f64, f64) = (0.3, 0.0, 0.0);

/// `<node>: collision` and `<node>: velocity gate` now.
fn statuses(rig: &mut Rig) -> (DiagnosticStatus, DiagnosticStatus) {
    let context = StatusContext {
        node_name: NODE,
        hardware_id: "",
        lifecycle_state: if rig.core.is_active() {
            "active"
        } else {
            "inactive"
        },
        reports_skipped: 0,
    };
    let t = rig.t;
    let all = rig.core.statuses(&context, t);
    assert_eq!(all.len(), 2, "{all:?}");
    (all[0].clone(), all[1].clone())
}

/// One period: a fresh scan, the re-check, a command; whether it moved.
fn period(rig: &mut Rig) -> bool {
    rig.advance(PERIOD);
    rig.sense();
    rig.tick();
    goes(&rig.command(CMD.0, CMD.1, CMD.2))
}

#[test]
fn a_gate_with_no_footprint_configured_reads_ok_and_never_clear() {
    let mut rig = rig("");
    for _ in 0..16 {
        assert!(period(&mut rig), "{:?}", rig.log.last());
        let flag = rig.tick().flag.expect("the flag");
        // Never a false clear: not judged, so not valid and (fail_safe)
        // colliding.
        assert!(flag.colliding && !flag.valid, "{flag:?}");
        assert_eq!(flag.status, Status::NoFootprint);
        let (collision, gate) = statuses(&mut rig);
        assert_eq!(
            (collision.level, collision.message.as_str()),
            (Level::Ok, NOT_JUDGED)
        );
        assert_eq!(collision.value("status"), Some("no_footprint"));
        assert_eq!(collision.value("valid"), Some("false"));
        assert_eq!(collision.value("footprint age"), Some("never"));
        assert_eq!((gate.level, gate.message.as_str()), (Level::Ok, "clear"));
    }

    // A source late by more than half its timeout: WARN, said.
    rig.advance(0.5 * SOURCE_TIMEOUT + PERIOD);
    rig.tick();
    let (collision, _) = statuses(&mut rig);
    assert_eq!(collision.level, Level::Warn, "{collision:?}");
    assert_eq!(collision.message, format!("{NOT_JUDGED}; scan late"));

    // Stale: the gate's ERROR, and the collision status's too. The flag
    // is not judged, but a source the node cannot judge is a fault that
    // `no_footprint` (first in precedence) must not hide.
    rig.advance(SOURCE_TIMEOUT);
    rig.tick();
    let (collision, gate) = statuses(&mut rig);
    assert_eq!(gate.level, Level::Error, "{gate:?}");
    assert_eq!(gate.message, "stop: invalid source (stale_source)");
    assert_eq!(
        (collision.level, collision.message.as_str()),
        (Level::Error, "stale_source")
    );
    assert_eq!(collision.value("status"), Some("stale_source"));

    // A clock that cannot judge is a fault of the node: ERROR.
    rig.sense();
    rig.clock_fault = Some(Cause::ClockStalled);
    rig.tick();
    let (collision, gate) = statuses(&mut rig);
    assert_eq!(
        (collision.level, collision.message.as_str()),
        (Level::Error, "clock_stalled")
    );
    assert_eq!(gate.level, Level::Error);
    rig.clock_fault = None;
    assert!(period(&mut rig));
    assert_eq!(statuses(&mut rig).0.level, Level::Ok);

    // Inactive: WARN, as every node.
    rig.set_active(false);
    let (collision, _) = statuses(&mut rig);
    assert_eq!(
        (collision.level, collision.message.as_str()),
        (Level::Warn, "inactive")
    );
}

#[test]
fn a_gate_alone_whose_sources_never_sent_is_no_ok() {
    // The rig of `base_frame`, without its first scan.
    let mut rig = Rig::new(config_of(&nav2_yaml("")), 1);
    rig.set_active(true);
    rig.tick();
    let (collision, _) = statuses(&mut rig);
    // Nothing received at all: the obstacle information is missing, said
    // rather than hidden by `no_footprint`.
    assert_eq!(
        (collision.level, collision.message.as_str()),
        (Level::Error, "no_obstacles"),
        "{collision:?}"
    );
}

#[test]
fn a_footprint_that_arrives_is_judged_by_the_usual_rules() {
    let mut rig = rig("");
    assert!(period(&mut rig));
    assert_eq!(statuses(&mut rig).0.message, NOT_JUDGED);
    // Someone publishes a footprint: the flag is judged from then on.
    let square = [(0.2, 0.2), (0.2, -0.2), (-0.2, -0.2), (-0.2, 0.2)];
    let flag = rig.footprint(super::BASE, &square).flag.expect("the flag");
    assert!(flag.valid && !flag.colliding, "{flag:?}");
    let (collision, _) = statuses(&mut rig);
    assert_eq!(
        (collision.level, collision.message.as_str()),
        (Level::Ok, "ok")
    );
    // It stops: stale_footprint is a fault, ERROR.
    for _ in 0..20 {
        assert!(period(&mut rig));
    }
    let flag = rig.tick().flag.expect("the flag");
    assert_eq!(flag.status, Status::StaleFootprint);
    let (collision, gate) = statuses(&mut rig);
    assert_eq!(
        (collision.level, collision.message.as_str()),
        (Level::Error, "stale_footprint")
    );
    assert_eq!(gate.level, Level::Ok);
}

#[test]
fn a_node_with_a_robot_shape_is_no_gate_alone() {
    // robot_radius with base_frame: the footprint from TF, judged.
    let mut rig = rig("    robot_radius: 0.3\n");
    assert!(period(&mut rig));
    let (collision, _) = statuses(&mut rig);
    assert_eq!(
        (collision.level, collision.message.as_str()),
        (Level::Ok, "ok")
    );
    // robot_footprint without a base frame to place it from TF (no gate
    // either): a footprint is expected on the topic; none is an ERROR.
    let yaml = format!(
        "{NODE}:\n  ros__parameters:\n    robot_footprint: \"[[0.2, 0.2], [0.2, -0.2], [-0.2, -0.2], [-0.2, 0.2]]\"\n"
    );
    let mut rig = Rig::new(super::config_of(&yaml), 0);
    rig.set_active(true);
    let context = StatusContext {
        node_name: NODE,
        hardware_id: "",
        lifecycle_state: "active",
        reports_skipped: 0,
    };
    let t = rig.t;
    let collision = rig.core.statuses(&context, t).remove(0);
    assert_eq!(
        (collision.level, collision.value("status")),
        (Level::Error, Some("no_footprint"))
    );
}
