//! The lifecycle's switch of the outputs (test_lifecycle.py's
//! `test_autostart_default_active_and_gate_outputs_only_while_active`):
//! before activation and after deactivation nothing is published (no
//! flag, no command, no state, no zone), commands are dropped; activation
//! publishes at once.

use super::{config_of, gate_yaml, goes, published, Rig, IN_FRONT, PERIOD, S_STOP};
use sat_collision::gate::{Action, Command, GateState, Reason};
use sat_collision::node::{Outputs, ZonePolygons};

const CMD: (f64, f64, f64) = (0.3, 0.0, 0.1);

fn assert_silent(out: &Outputs, what: &str) {
    assert!(out.is_empty(), "{what}: {out:?}");
    assert_eq!(out.command, None, "{what}");
    assert_eq!(out.state, None, "{what}");
    assert_eq!(out.flag, None, "{what}");
    assert!(!out.report, "{what}");
}

/// Every kind of event while inactive: nothing but notices.
fn inactive_events(rig: &mut Rig, what: &str) {
    for _ in 0..4 {
        rig.advance(PERIOD);
        assert_silent(&rig.sense(), what);
        assert_silent(&rig.command(CMD.0, CMD.1, CMD.2), what);
        assert_silent(&rig.tick(), what);
    }
    // A stale source and a clock fault change nothing.
    rig.advance(1.0);
    assert_silent(&rig.tick(), what);
    assert_silent(&rig.command(f64::NAN, 0.0, 0.0), what);
}

#[test]
fn nothing_is_published_before_activation_and_activation_publishes_at_once() {
    let mut rig = Rig::new(config_of(&gate_yaml("")), 4);
    inactive_events(&mut rig, "configured, not active");
    rig.sense();
    let out = rig.set_active(true);
    let flag = out.flag.expect("activation publishes the flag at once");
    assert!(flag.valid && !flag.colliding, "{flag:?}");
    assert!(out.report);
    assert_eq!(out.zone_polygons, ZonePolygons::All);
    assert!(out.zone_points);
    // The commands taken while inactive were dropped: none is re-checked
    // into an output.
    assert_eq!(out.command, None);
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)));
}

#[test]
fn activation_publishes_the_state_of_an_obstacle_that_came_while_inactive() {
    let mut rig = Rig::new(config_of(&gate_yaml("")), 4);
    rig.scene[S_STOP] = vec![IN_FRONT];
    inactive_events(&mut rig, "an obstacle in the stop zone");
    rig.sense();
    let out = rig.set_active(true);
    assert_eq!(
        out.state,
        Some(GateState {
            action: Action::Stop,
            reason: Reason::Zone(0)
        })
    );
    assert_eq!(
        published(&rig.command(CMD.0, CMD.1, CMD.2)),
        Some(Command::ZERO)
    );
}

#[test]
fn nothing_is_published_after_deactivation_until_activated_again() {
    let mut rig = Rig::gate("");
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)));
    assert_silent(&rig.set_active(false), "deactivated");
    assert!(!rig.core.is_active());
    inactive_events(&mut rig, "deactivated");
    // An obstacle while inactive stops no one yet (nothing is published).
    rig.scene[S_STOP] = vec![IN_FRONT];
    assert_silent(&rig.sense(), "deactivated, an obstacle");
    assert_silent(&rig.tick(), "deactivated, an obstacle");
    // Activated again: published at once, the obstacle's stop with it.
    let out = rig.set_active(true);
    assert!(out.flag.is_some());
    assert_eq!(out.zone_polygons, ZonePolygons::All);
    assert_eq!(
        published(&out),
        Some(Command::ZERO),
        "the re-check along the last command stops it"
    );
    assert_eq!(
        published(&rig.command(CMD.0, CMD.1, CMD.2)),
        Some(Command::ZERO)
    );
    rig.scene[S_STOP].clear();
    rig.sense();
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)));
}
