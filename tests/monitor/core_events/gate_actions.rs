//! The gate's actions over time, as test_gate.py drives them over ROS: a
//! stop zone's zeros, the re-check's zeros for `stop_pub_timeout` then
//! silence, a slowdown zone's ratio, a limit zone's caps, an approach
//! zone's contact time, and the state published once per change.

use super::{
    assert_close, goes, published, Rig, ANGULAR_LIMIT, IN_FRONT, LINEAR_LIMIT, PERIOD,
    SLOWDOWN_RATIO, STOP_PUB_TIMEOUT, S_APPR, S_LIMIT, S_SLOW, S_STOP, TIME_BEFORE_COLLISION,
};
use sat_collision::gate::{Action, Command, GateState, Reason};
use sat_collision::node::{GatedCommand, ZonePolygons};

const CMD: (f64, f64, f64) = (0.4, 0.05, 0.2);

fn cmd() -> Command {
    Command::new(CMD.0, CMD.1, CMD.2)
}

fn zone(action: Action, index: usize) -> GateState {
    GateState {
        action,
        reason: Reason::Zone(index),
    }
}

#[test]
fn a_clear_scene_passes_the_command_unchanged_with_its_own_stamp() {
    let mut rig = Rig::gate("");
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(
        out.command,
        Some(GatedCommand {
            command: cmd(),
            restamp: None
        })
    );
    assert_eq!(out.state, None, "clear from the start: no change");
}

#[test]
fn a_stop_zone_publishes_zeros_then_the_recheck_zeros_for_stop_pub_timeout_then_silence() {
    let mut rig = Rig::gate("");
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)));
    rig.scene[S_STOP] = vec![IN_FRONT];
    rig.sense();
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(
        published(&out),
        Some(Command::ZERO),
        "a point in the stop zone"
    );
    assert_eq!(out.state, Some(zone(Action::Stop, 0)));
    let first = rig.t;
    // The controller goes quiet: the re-checks go on with zeros, restamped
    // now, for stop_pub_timeout after the first zero; then silence.
    let (mut zeros, mut silent) = (0, 0);
    while rig.t < first + STOP_PUB_TIMEOUT + 1.0 {
        rig.advance(PERIOD);
        rig.sense();
        let out = rig.tick();
        assert_eq!(out.state, None, "still the same stop");
        match rig.t - first <= STOP_PUB_TIMEOUT {
            true => {
                let want = GatedCommand {
                    command: Command::ZERO,
                    restamp: Some(rig.t),
                };
                assert_eq!(out.command, Some(want), "at {}", rig.t - first);
                zeros += 1;
            }
            false => {
                assert_eq!(out.command, None, "silent at {}", rig.t - first);
                silent += 1;
            }
        }
    }
    assert_eq!(zeros, 16, "1 s of re-checks at 16 Hz");
    assert!(silent >= 15, "{silent}");
    // Commands in the silence get nothing either.
    assert_eq!(rig.command(CMD.0, CMD.1, CMD.2).command, None);
    // Clear: a re-check never speeds up an old command; the next command
    // passes, and the state goes back once.
    rig.scene[S_STOP].clear();
    rig.sense();
    let out = rig.tick();
    assert_eq!(out.command, None, "the re-check waits for a command");
    assert_eq!(out.state, Some(GateState::CLEAR));
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(published(&out), Some(cmd()));
    assert_eq!(out.state, None);
}

#[test]
fn the_recheck_stops_a_robot_whose_controller_went_quiet() {
    let mut rig = Rig::gate("");
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)));
    rig.advance(PERIOD);
    let out = rig.tick();
    assert_eq!(
        out.command, None,
        "nothing more restrictive: the re-check is quiet"
    );
    assert_eq!(out.zone_polygons, ZonePolygons::All);
    rig.scene[S_STOP] = vec![IN_FRONT];
    rig.sense();
    rig.advance(PERIOD);
    let out = rig.tick();
    assert_eq!(
        out.command,
        Some(GatedCommand {
            command: Command::ZERO,
            restamp: Some(rig.t)
        })
    );
    assert_eq!(out.state, Some(zone(Action::Stop, 0)));
}

#[test]
fn a_slowdown_zone_scales_the_command_by_its_ratio() {
    let mut rig = Rig::gate("");
    rig.scene[S_SLOW] = vec![IN_FRONT];
    rig.sense();
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(published(&out), Some(cmd().scaled(SLOWDOWN_RATIO)));
    assert_eq!(out.state, Some(zone(Action::Slowdown, 1)));
    assert!(out
        .notices
        .iter()
        .any(|n| n.text == "Robot to slowdown for 25 percents due to slow polygon"));
    rig.scene[S_SLOW].clear();
    rig.sense();
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(published(&out), Some(cmd()));
    assert_eq!(out.state, Some(GateState::CLEAR));
}

#[test]
fn a_limit_zone_caps_the_speed_and_the_turn_rate_keeping_the_path() {
    let mut rig = Rig::gate("");
    rig.scene[S_LIMIT] = vec![IN_FRONT];
    rig.sense();
    // Speed 0.5 over 0.2: ratio 0.4; turn 0.2 within 0.3.
    let out = rig.command(0.4, 0.3, 0.2);
    let got = published(&out).expect("published");
    assert_close(
        got,
        Command::new(0.4, 0.3, 0.2).scaled(0.4),
        1e-12,
        "limited",
    );
    assert!(got.speed() <= LINEAR_LIMIT + 1e-12);
    assert_eq!(out.state, Some(zone(Action::Limit, 2)));
    // A turn over its limit: ratio 0.3 / 0.9.
    let out = rig.command(0.1, 0.0, 0.9);
    let want = Command::new(0.1, 0.0, 0.9).scaled(ANGULAR_LIMIT / 0.9);
    assert_close(published(&out).expect("published"), want, 1e-12, "turn");
    assert_eq!(out.state, None, "still the limit zone");
    // Within both limits: unchanged.
    let out = rig.command(0.1, 0.0, 0.1);
    assert_eq!(published(&out), Some(Command::new(0.1, 0.0, 0.1)));
}

#[test]
fn an_approach_zone_keeps_the_contact_time_before_collision_away() {
    let mut rig = Rig::gate("");
    // A point 1.2 m ahead: the robot's front edge (x = 0.2) is 1 m away.
    rig.scene[S_APPR] = vec![(1.2, 0.0)];
    rig.sense();
    let out = rig.command(1.0, 0.0, 0.0);
    let ratio = (1.0 / 1.0) / TIME_BEFORE_COLLISION;
    let got = published(&out).expect("published");
    assert_close(got, Command::new(ratio, 0.0, 0.0), 1e-6, "approach");
    assert_eq!(out.state, Some(zone(Action::Approach, 3)));
    // Slow enough: contact beyond time_before_collision, the command passes.
    let out = rig.command(0.4, 0.0, 0.0);
    assert_eq!(published(&out), Some(Command::new(0.4, 0.0, 0.0)));
    assert_eq!(out.state, Some(GateState::CLEAR));
    // Backing away: no contact ahead.
    let out = rig.command(-1.0, 0.0, 0.0);
    assert_eq!(published(&out), Some(Command::new(-1.0, 0.0, 0.0)));
}

#[test]
fn the_more_restrictive_zone_wins() {
    let mut rig = Rig::gate("");
    rig.scene[S_SLOW] = vec![IN_FRONT];
    rig.scene[S_APPR] = vec![(0.5, 0.0)];
    rig.sense();
    // Fast: contact in 0.3 s, ratio 0.15 < 0.25: the approach.
    let out = rig.command(1.0, 0.0, 0.0);
    assert_close(
        published(&out).expect("published"),
        Command::new(0.3 / TIME_BEFORE_COLLISION, 0.0, 0.0),
        1e-6,
        "approach",
    );
    assert_eq!(out.state, Some(zone(Action::Approach, 3)));
    // Slow: contact beyond the horizon: the slowdown.
    let out = rig.command(0.05, 0.0, 0.0);
    assert_eq!(
        published(&out),
        Some(Command::new(0.05 * SLOWDOWN_RATIO, 0.0, 0.0))
    );
    assert_eq!(out.state, Some(zone(Action::Slowdown, 1)));
}

#[test]
fn the_state_is_published_once_per_change() {
    let mut rig = Rig::gate("");
    let mark = rig.log.len();
    let mut states = Vec::new();
    let mut step = |rig: &mut Rig, command: bool| {
        rig.advance(PERIOD);
        let sensed = rig.sense();
        assert_eq!(sensed.state, None, "a scan never publishes the state");
        let out = match command {
            true => rig.command(CMD.0, CMD.1, CMD.2),
            false => rig.tick(),
        };
        if let Some(state) = out.state {
            states.push(state);
        }
    };
    for i in 0..6 {
        step(&mut rig, i % 2 == 0);
    }
    rig.scene[S_STOP] = vec![IN_FRONT];
    for i in 0..6 {
        step(&mut rig, i % 2 == 0);
    }
    rig.scene[S_SLOW] = vec![IN_FRONT];
    for i in 0..6 {
        step(&mut rig, i % 2 == 1);
    }
    rig.scene[S_STOP].clear();
    for i in 0..6 {
        step(&mut rig, i % 2 == 0);
    }
    rig.scene[S_SLOW].clear();
    for i in 0..6 {
        step(&mut rig, i % 2 == 1);
    }
    assert_eq!(
        states,
        [
            zone(Action::Stop, 0),
            zone(Action::Slowdown, 1),
            GateState::CLEAR
        ],
        "the stop, the slowdown once the stop zone is clear (the stop wins over it), clear"
    );
    let lines = rig.log[mark..]
        .iter()
        .filter(|o| o.contains("Robot to"))
        .count();
    assert_eq!(lines, 3, "one log line per change");
}

#[test]
fn a_command_that_is_not_finite_is_stopped_then_a_finite_one_passes() {
    let mut rig = Rig::gate("");
    let out = rig.command(f64::NAN, 0.0, 0.1);
    assert_eq!(published(&out), Some(Command::ZERO));
    assert_eq!(
        out.state,
        Some(GateState {
            action: Action::Stop,
            reason: Reason::InvalidCommand
        })
    );
    assert_eq!(published(&rig.command(CMD.0, CMD.1, CMD.2)), Some(cmd()));
}
