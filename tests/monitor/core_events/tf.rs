//! TF and the gate (test_gate_judges.py's polygon "in a frame TF does not
//! know", test_tf.py's fail-safe rule): a scan in a frame with no transform
//! to the base frame stops the gate for an invalid source and makes the
//! flag true; once the transform is in the buffer the command passes, and
//! the scan's points are judged where the transform puts them.

use super::{goes, published, Rig, BASE, PERIOD, S_STOP};
use sat_collision::gate::{Action, Command, GateState, Reason};
use sat_collision::model::{Cause, Status};
use sat_collision::monitor::{SourceFault, DEFAULT_TRANSFORM_TOLERANCE};
use sat_collision::node::TfSample;

const CMD: (f64, f64, f64) = (0.3, 0.0, 0.0);

fn stopped(cause: Cause) -> GateState {
    GateState {
        action: Action::Stop,
        reason: Reason::InvalidSource(SourceFault {
            source: Some(S_STOP),
            cause,
        }),
    }
}

#[test]
fn a_source_tf_cannot_place_stops_the_gate_until_the_transform_arrives() {
    let mut rig = Rig::gate("");
    rig.frames[S_STOP] = "laser".to_owned();
    // Short of the stop zone (x in [0.3, 0.6]) read in the laser frame;
    // inside it once the laser is mounted 0.1 m ahead of the base.
    rig.scene[S_STOP] = vec![(0.25, 0.0)];
    let out = rig.sense();
    let flag = out.flag.expect("the flag");
    assert!(flag.colliding && !flag.valid, "{flag:?}");
    // No transform at all yet: the frames cannot be related.
    assert_eq!(flag.status, Status::FrameMismatch);
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(published(&out), Some(Command::ZERO));
    assert_eq!(out.state, Some(stopped(Cause::FrameMismatch)));
    // A tree that does not hold the laser: unavailable. The state's name
    // ("invalid source") is the same: not published again.
    rig.static_tf("odom", BASE, 1.0, 2.0, 0.0);
    let out = rig.tick();
    let flag = out.flag.expect("the flag");
    assert!(flag.colliding && !flag.valid, "{flag:?}");
    assert_eq!(flag.status, Status::TransformUnavailable);
    assert_eq!(published(&out), Some(Command::ZERO));
    assert_eq!(out.state, None);
    let state = rig.core.gate().expect("a gate").state();
    assert_eq!(state, stopped(Cause::TransformUnavailable));
    // The transform arrives: the next decision places the scan.
    rig.static_tf(BASE, "laser", 0.1, 0.0, 0.0);
    let out = rig.tick();
    let flag = out.flag.expect("the flag");
    assert!(flag.valid && !flag.colliding, "{flag:?}");
    // (0.35, 0) in the base frame: the stop zone's, no longer a fault.
    let by_zone = GateState {
        action: Action::Stop,
        reason: Reason::Zone(0),
    };
    assert_eq!(out.state, Some(by_zone));
    assert_eq!(published(&out), Some(Command::ZERO));
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(published(&out), Some(Command::ZERO));
    assert_eq!(out.state, None);
    // In the zone read in the laser frame, beyond it in the base's: clear.
    rig.scene[S_STOP] = vec![(0.55, 0.0)];
    rig.sense();
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert!(goes(&out), "{out:?}");
    assert_eq!(out.state, Some(GateState::CLEAR));
}

#[test]
fn a_rotated_mount_is_applied_to_the_points() {
    let mut rig = Rig::gate("");
    rig.frames[S_STOP] = "laser".to_owned();
    // A laser looking backwards at the base's origin: its x is the base's -x.
    rig.static_tf(BASE, "laser", 0.0, 0.0, std::f64::consts::PI);
    rig.scene[S_STOP] = vec![(-0.45, 0.0)];
    rig.sense();
    assert_eq!(
        published(&rig.command(CMD.0, CMD.1, CMD.2)),
        Some(Command::ZERO),
        "(-0.45, 0) in the laser is (0.45, 0) in the base"
    );
    rig.scene[S_STOP] = vec![(0.45, 0.0)];
    rig.sense();
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)), "behind the robot");
}

/// test_tf.py's `test_tf_that_stops_fails_safe_within_tolerance_and_one_period`:
/// the laser's transform is dynamic (a robot arm, a tilting mount); its
/// publisher stops while the scans go on. Past `transform_tolerance` the
/// next decision is fail-safe (`stale_transform`) and the gate stops for
/// the source; the transform back, commands pass.
#[test]
fn a_dynamic_transform_that_stops_fails_safe_past_transform_tolerance() {
    let mut rig = Rig::gate("");
    rig.frames[S_STOP] = "laser".to_owned();
    let publish = |rig: &mut Rig| {
        let sample = TfSample {
            parent: Some(BASE),
            child: Some("laser"),
            stamp: rig.t,
            translation: [0.1, 0.0, 0.0],
            rotation: [0.0, 0.0, 0.0, 1.0],
        };
        let arrival = rig.arrival();
        let tf = std::sync::Arc::clone(rig.core.tf());
        let mut buffer = tf.lock().expect("the TF buffer");
        buffer.take([sample], false, arrival);
    };
    for _ in 0..8 {
        rig.advance(PERIOD);
        publish(&mut rig);
        rig.sense();
        assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)), "TF and scans");
    }
    let stopped_at = rig.t;
    let mut first_fault = None;
    while rig.t < stopped_at + 1.0 {
        rig.advance(PERIOD);
        // The scans go on (stamped now), the transform does not.
        rig.sense();
        let out = rig.tick();
        let flag = out.flag.expect("the flag");
        let late = rig.t - stopped_at > DEFAULT_TRANSFORM_TOLERANCE + PERIOD;
        match flag.valid {
            true => assert!(!late, "still valid {} s after", rig.t - stopped_at),
            false => {
                assert!(flag.colliding);
                assert_eq!(flag.status, Status::StaleTransform);
                first_fault.get_or_insert(rig.t - stopped_at);
            }
        }
    }
    let after = first_fault.expect("fail-safe once the transform is stale");
    assert!(
        after > DEFAULT_TRANSFORM_TOLERANCE,
        "stale {after} s after: too early"
    );
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(published(&out), Some(Command::ZERO));
    assert_eq!(
        rig.core.gate().expect("a gate").state(),
        stopped(Cause::StaleTransform)
    );
    publish(&mut rig);
    rig.sense();
    assert!(
        goes(&rig.command(CMD.0, CMD.1, CMD.2)),
        "the transform back"
    );
}
