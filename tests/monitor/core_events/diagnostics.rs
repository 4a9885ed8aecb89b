//! The `/diagnostics` statuses' levels from the core
//! (`Core::statuses`), as test_diagnostics.py reads them over ROS: the
//! collision status WARN while inactive, OK while active and valid (with
//! its values), ERROR while active and not valid, OK again; the gate's OK
//! for a zone doing its job, ERROR when it stops for a source it cannot
//! use, WARN while inactive or disabled.

use super::freshness::{far_obstacle, footprint_and_array_yaml, FOOTPRINT};
use super::{config_of, gate_yaml, Rig, IN_FRONT, NODE, PERIOD, SOURCE_TIMEOUT, S_STOP};
use sat_collision::diagnostics::{DiagnosticStatus, Level};
use sat_collision::node::StatusContext;

const HARDWARE_ID: &str = "sat_core_events";

fn statuses(rig: &mut Rig) -> Vec<DiagnosticStatus> {
    let lifecycle_state = match rig.core.is_active() {
        true => "active",
        false => "inactive",
    };
    let context = StatusContext {
        node_name: NODE,
        hardware_id: HARDWARE_ID,
        lifecycle_state,
        reports_skipped: 0,
    };
    let t = rig.t;
    rig.core.statuses(&context, t)
}

fn collision(rig: &mut Rig) -> DiagnosticStatus {
    let all = statuses(rig);
    let status = all[0].clone();
    assert_eq!(status.name, format!("{NODE}: collision"));
    assert_eq!(status.hardware_id, HARDWARE_ID);
    status
}

fn gate(rig: &mut Rig) -> DiagnosticStatus {
    let all = statuses(rig);
    assert_eq!(all.len(), 2, "a gate's status beside the collision status");
    assert_eq!(all[1].name, format!("{NODE}: velocity gate"));
    all[1].clone()
}

#[test]
fn the_collision_status_is_warn_inactive_ok_when_valid_error_when_not() {
    let mut rig = Rig::new(config_of(&footprint_and_array_yaml()), 0);
    rig.footprint("odom", &FOOTPRINT);
    rig.obstacles("odom", far_obstacle());
    let status = collision(&mut rig);
    assert_eq!(
        (status.level, status.message.as_str()),
        (Level::Warn, "inactive")
    );
    assert_eq!(status.value("lifecycle_state"), Some("inactive"));
    assert_eq!(statuses(&mut rig).len(), 1, "no gate, no gate status");

    rig.set_active(true);
    let status = collision(&mut rig);
    assert_eq!((status.level, status.message.as_str()), (Level::Ok, "ok"));
    assert_eq!(status.value("status"), Some("ok"));
    assert_eq!(status.value("valid"), Some("true"));
    assert_eq!(status.value("footprint age"), Some("0.000"));
    assert_eq!(status.value("obstacles age"), Some("0.000"));
    assert_eq!(status.value("obstacles"), Some("1"));
    assert_eq!(status.value("points"), Some("0"));

    // The obstacles stop; the footprint keeps coming.
    let last = rig.t;
    while rig.t <= last + 1.0 {
        rig.advance(PERIOD);
        rig.footprint("odom", &FOOTPRINT);
    }
    let status = collision(&mut rig);
    assert_eq!(status.level, Level::Error, "{status:?}");
    assert_eq!(status.value("status"), Some("stale_obstacles"));
    assert_eq!(status.value("valid"), Some("false"));
    rig.obstacles("odom", far_obstacle());
    let status = collision(&mut rig);
    assert_eq!((status.level, status.message.as_str()), (Level::Ok, "ok"));

    // Valid but an input later than half its timeout: WARN.
    rig.advance(0.5625);
    rig.footprint("odom", &FOOTPRINT);
    let status = collision(&mut rig);
    assert_eq!(status.level, Level::Warn, "{status:?}");
    assert_eq!(status.message, "ok; obstacles late");

    rig.set_active(false);
    let status = collision(&mut rig);
    assert_eq!(status.level, Level::Warn);
    assert_eq!(status.message, "inactive");
}

#[test]
fn the_gate_status_is_ok_for_a_zone_error_for_a_source_it_cannot_use() {
    let mut rig = Rig::new(config_of(&gate_yaml("")), 4);
    rig.sense();
    let status = gate(&mut rig);
    assert_eq!(
        (status.level, status.message.as_str()),
        (Level::Warn, "inactive")
    );

    rig.set_active(true);
    rig.command(0.3, 0.0, 0.0);
    let status = gate(&mut rig);
    assert_eq!(
        (status.level, status.message.as_str()),
        (Level::Ok, "clear")
    );
    assert_eq!(status.value("action"), Some("none"));
    assert_eq!(status.value("last command age"), Some("0.000"));
    assert_eq!(collision(&mut rig).level, Level::Ok);

    // A zone doing its job is no fault.
    rig.scene[S_STOP] = vec![IN_FRONT];
    rig.sense();
    rig.command(0.3, 0.0, 0.0);
    let status = gate(&mut rig);
    assert_eq!(
        (status.level, status.message.as_str()),
        (Level::Ok, "stop: stop")
    );
    assert_eq!(status.value("zone"), Some("stop"));
    assert_eq!(status.value("state"), Some("stop"));

    // The sources go stale: the re-check stops for an invalid source.
    rig.scene[S_STOP].clear();
    rig.advance(SOURCE_TIMEOUT + PERIOD);
    rig.tick();
    let status = gate(&mut rig);
    assert_eq!(status.level, Level::Error, "{status:?}");
    assert_eq!(status.message, "stop: invalid source (stale_source)");
    assert_eq!(status.value("state"), Some("invalid source"));
    let status = collision(&mut rig);
    assert_eq!(status.level, Level::Error);
    assert_eq!(status.value("status"), Some("stale_source"));

    // Disabled (~/toggle): WARN, commands pass.
    rig.sense();
    rig.core.toggle(false);
    rig.command(0.3, 0.0, 0.0);
    let status = gate(&mut rig);
    assert_eq!(
        (status.level, status.message.as_str()),
        (Level::Warn, "disabled")
    );
    assert_eq!(status.value("enabled"), Some("false"));
    rig.core.toggle(true);
    rig.command(0.3, 0.0, 0.0);
    assert_eq!(gate(&mut rig).level, Level::Ok);

    rig.set_active(false);
    let status = gate(&mut rig);
    assert_eq!(
        (status.level, status.message.as_str()),
        (Level::Warn, "inactive")
    );
}
