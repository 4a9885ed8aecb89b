//! Parameters at run time (test_gate.py's `test_toggle_service`,
//! `test_disabled_zone_at_run_time`, `test_disabled_source_at_run_time`,
//! test_gate_judges.py's `enabled: true` among other changes):
//! `Core::follow` reads the parameters once per revision, `Core::toggle`
//! switches the gate, a disabled gate passes commands unchanged.

use super::{goes, published, Rig, IN_FRONT, PERIOD, SOURCE_TIMEOUT, S_APPR, S_STOP};
use sat_collision::config::{NodeConfig, Value};
use sat_collision::gate::{Action, Command, GateState, Reason};
use std::cell::Cell;

const CMD: (f64, f64, f64) = (0.4, 0.05, 0.2);

fn cmd() -> Command {
    Command::new(CMD.0, CMD.1, CMD.2)
}

const DISABLED: GateState = GateState {
    action: Action::DoNothing,
    reason: Reason::Disabled,
};

/// The core's parameters with `name` set to `value`, as the node's
/// parameter server holds them after a change.
fn changed(rig: &Rig, name: &str, value: Value) -> NodeConfig {
    let mut config = rig.core.config().clone();
    config.set(name, &value).expect("a run-time parameter");
    config
}

fn stopped() -> Rig {
    let mut rig = Rig::gate("");
    rig.scene[S_STOP] = vec![IN_FRONT];
    rig.sense();
    assert_eq!(
        published(&rig.command(CMD.0, CMD.1, CMD.2)),
        Some(Command::ZERO)
    );
    rig
}

#[test]
fn follow_reads_a_new_revision_once_and_enabled_false_passes_commands_unchanged() {
    let mut rig = stopped();
    let reads = Cell::new(0);
    let off = changed(&rig, "enabled", Value::Bool(false));
    let read = || {
        reads.set(reads.get() + 1);
        off.clone()
    };
    assert!(rig.core.follow(1, read));
    assert_eq!(reads.get(), 1);
    assert!(!rig.core.config().gate.enabled);
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(
        published(&out),
        Some(cmd()),
        "disabled: the command unchanged"
    );
    assert_eq!(out.state, Some(DISABLED));
    // The same revision again: not read.
    let on = changed(&rig, "enabled", Value::Bool(true));
    let read = || {
        reads.set(reads.get() + 1);
        on.clone()
    };
    assert!(!rig.core.follow(1, read));
    assert_eq!(reads.get(), 1, "a repeated revision is not read");
    assert_eq!(published(&rig.command(CMD.0, CMD.1, CMD.2)), Some(cmd()));
    // A new revision: read, the gate armed again.
    assert!(rig.core.follow(2, || on.clone()));
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(
        published(&out),
        Some(Command::ZERO),
        "enabled again: stopped"
    );
    assert_eq!(
        out.state,
        Some(GateState {
            action: Action::Stop,
            reason: Reason::Zone(0)
        })
    );
}

#[test]
fn on_parameter_follows_then_ticks() {
    let mut rig = stopped();
    let off = changed(&rig, "enabled", Value::Bool(false));
    let mut out = Default::default();
    let now = rig.now();
    rig.core.on_parameter(7, || off, now, &mut out);
    assert_eq!(out.state, Some(DISABLED), "the tick publishes the change");
    assert!(out.flag.is_some());
}

#[test]
fn toggle_switches_the_gate_off_and_on() {
    let mut rig = stopped();
    assert_eq!(
        rig.core.toggle(false),
        "Collision monitor toggled off successfully"
    );
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(published(&out), Some(cmd()), "toggled off: unchanged");
    assert_eq!(out.state, Some(DISABLED));
    // Disabled, a source's faults are not judged either.
    rig.advance(SOURCE_TIMEOUT + PERIOD);
    assert_eq!(published(&rig.command(CMD.0, CMD.1, CMD.2)), Some(cmd()));
    // A command that is not finite is stopped even so.
    assert_eq!(
        published(&rig.command(f64::NAN, 0.0, 0.0)),
        Some(Command::ZERO)
    );
    assert_eq!(
        rig.core.toggle(true),
        "Collision monitor toggled on successfully"
    );
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(
        published(&out),
        Some(Command::ZERO),
        "on again, stale: stopped"
    );
    assert!(matches!(
        out.state,
        Some(GateState {
            reason: Reason::InvalidSource(_),
            ..
        })
    ));
    rig.sense();
    assert_eq!(
        published(&rig.command(CMD.0, CMD.1, CMD.2)),
        Some(Command::ZERO)
    );
}

#[test]
fn a_zone_or_a_source_disabled_at_run_time_stops_nothing() {
    let mut rig = stopped();
    let config = changed(&rig, "stop.enabled", Value::Bool(false));
    rig.core.follow(1, || config);
    assert_eq!(published(&rig.command(CMD.0, CMD.1, CMD.2)), Some(cmd()));
    let config = changed(&rig, "stop.enabled", Value::Bool(true));
    rig.core.follow(2, || config);
    assert_eq!(
        published(&rig.command(CMD.0, CMD.1, CMD.2)),
        Some(Command::ZERO)
    );
    let config = changed(&rig, "s_stop.enabled", Value::Bool(false));
    rig.core.follow(3, || config);
    assert_eq!(published(&rig.command(CMD.0, CMD.1, CMD.2)), Some(cmd()));
    // A disabled source is not judged: silent past its timeout, it stops
    // nothing, while an enabled one silent does.
    let config = changed(&rig, "s_appr.enabled", Value::Bool(false));
    rig.core.follow(4, || config);
    rig.sending[S_APPR] = false;
    for _ in 0..12 {
        rig.advance(PERIOD);
        rig.sense();
    }
    assert!(
        goes(&rig.command(CMD.0, CMD.1, CMD.2)),
        "s_appr disabled and silent"
    );
    let config = changed(&rig, "s_appr.enabled", Value::Bool(true));
    rig.core.follow(5, || config);
    assert_eq!(
        published(&rig.command(CMD.0, CMD.1, CMD.2)),
        Some(Command::ZERO)
    );
}
