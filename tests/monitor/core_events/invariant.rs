//! The invariant (issue 29): while the clock has a fault, a source is
//! stale or was never received, or a polygon source's polygon cannot be
//! used, a command is published only as zeros; the flag is true and not
//! valid. Scenarios first (test_gate_judges.py's), then random sequences
//! of events against a reference written here from the rules.

use super::{config_of, goes, published, Rig, BASE, IN_FRONT, NODE, PERIOD, SOURCE_TIMEOUT};
use sat_collision::gate::{Action, Command, GateState, Reason};
use sat_collision::model::{Cause, Status};
use sat_collision::monitor::SourceFault;
use sat_collision::node::Outputs;
use sat_collision_testkit::SplitMix64;

const CMD: (f64, f64, f64) = (0.3, 0.0, 0.0);

/// test_gate_judges.py's `poly` scene: a scan `front` and a polygon source
/// `people`, both feeding a stop zone in front of the robot.
fn polygon_yaml() -> String {
    format!(
        "{NODE}:
  ros__parameters:
    base_frame_id: {BASE}
    robot_footprint: \"[[0.2, 0.2], [0.2, -0.2], [-0.2, -0.2], [-0.2, 0.2]]\"
    base_shift_correction: false
    stop_pub_timeout: 10.0
    source_timeout: {SOURCE_TIMEOUT}
    observation_sources: [front, people]
    front: {{type: scan, topic: front}}
    people: {{type: polygon, topic: people}}
    polygons: [stop]
    stop: {{type: polygon, points: \"[[0.6, 0.3], [0.6, -0.3], [0.3, -0.3], [0.3, 0.3]]\",
            action_type: stop, min_points: 1, sources_names: [front, people]}}
"
    )
}

/// A polygon's vertices.
type Points = [(f64, f64)];

const FRONT: usize = 0;
const PEOPLE: usize = 1;
/// A valid polygon away from the zone and the robot.
const OUTSIDE: [(f64, f64); 4] = [(2.0, 2.0), (2.3, 2.0), (2.3, 2.3), (2.0, 2.3)];
/// A valid polygon in the stop zone.
const INSIDE: [(f64, f64); 4] = [(0.35, -0.1), (0.5, -0.1), (0.5, 0.1), (0.35, 0.1)];
const BOWTIE: [(f64, f64); 4] = [(2.0, 2.0), (2.3, 2.3), (2.3, 2.0), (2.0, 2.3)];
const SEGMENT: [(f64, f64); 2] = [(2.0, 2.0), (2.3, 2.0)];
const VERTEX: [(f64, f64); 1] = [(2.0, 2.0)];

fn stopped_for(source: Option<usize>, cause: Cause) -> GateState {
    GateState {
        action: Action::Stop,
        reason: Reason::InvalidSource(SourceFault { source, cause }),
    }
}

fn assert_zeros(out: &Outputs, what: &str) {
    assert_eq!(published(out), Some(Command::ZERO), "{what}");
}

#[test]
fn a_clock_fault_stops_the_gate_and_makes_the_flag_true() {
    let mut rig = Rig::gate("");
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)));
    for cause in [Cause::ClockStalled, Cause::NoClock] {
        rig.clock_fault = Some(cause);
        // The re-check stops a robot whose controller went quiet.
        let out = rig.tick();
        assert_zeros(&out, "the re-check on a clock fault");
        assert_eq!(out.state, Some(stopped_for(None, cause)));
        let flag = out.flag.expect("the flag");
        assert!(flag.colliding && !flag.valid, "{flag:?}");
        assert_eq!(flag.status, Status::from(cause));
        for _ in 0..8 {
            rig.advance(PERIOD);
            // The sources keep sending: only the clock is wrong.
            rig.sense();
            assert_zeros(
                &rig.command(CMD.0, CMD.1, CMD.2),
                "a command on a clock fault",
            );
            let out = rig.tick();
            assert!(!goes(&out), "{out:?}");
        }
        rig.clock_fault = None;
        let out = rig.command(CMD.0, CMD.1, CMD.2);
        assert!(goes(&out), "the clock back: {out:?}");
        assert_eq!(out.state, Some(GateState::CLEAR));
    }
}

#[test]
fn a_source_never_received_or_stale_publishes_only_zeros() {
    let mut rig = Rig::new(config_of(&polygon_yaml()), 1);
    rig.sense();
    // The polygon source has never sent: activation says so at once.
    let out = rig.set_active(true);
    assert_eq!(
        out.state,
        Some(stopped_for(Some(PEOPLE), Cause::NoSourceData))
    );
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_zeros(&out, "the polygon source never sent");
    assert_eq!(out.state, None, "published once, at activation");
    rig.polygon(PEOPLE, 0, BASE, &OUTSIDE);
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)), "the control");
    // The scan goes quiet (the polygon keeps coming).
    for _ in 0..9 {
        rig.advance(PERIOD);
        rig.polygon(PEOPLE, 0, BASE, &OUTSIDE);
    }
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_zeros(&out, "the scan stale");
    assert_eq!(
        out.state,
        Some(stopped_for(Some(FRONT), Cause::StaleSource))
    );
    assert_eq!(rig.tick().flag.map(|f| f.status), Some(Status::StaleSource));
    rig.sense();
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)), "the scan back");
    // A scan refused (malformed): the source is invalid until a good one.
    rig.refused(FRONT, Cause::InvalidSource);
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_zeros(&out, "a malformed scan");
    assert_eq!(
        out.state,
        Some(stopped_for(Some(FRONT), Cause::InvalidSource))
    );
    rig.sense();
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)), "a good scan again");
}

#[test]
fn a_polygon_source_the_gate_cannot_use_stops_it() {
    let mut rig = Rig::new(config_of(&polygon_yaml()), 1);
    rig.sense();
    rig.set_active(true);
    let control = |rig: &mut Rig, what: &str| {
        rig.advance(PERIOD);
        rig.sense();
        let out = rig.polygon(PEOPLE, 0, BASE, &OUTSIDE);
        assert_eq!(
            out.flag.map(|f| (f.colliding, f.valid)),
            Some((false, true))
        );
        let out = rig.command(CMD.0, CMD.1, CMD.2);
        assert_eq!(
            published(&out),
            Some(Command::new(CMD.0, CMD.1, CMD.2)),
            "{what}"
        );
    };
    control(&mut rig, "after nothing");
    let faults: [(&str, &Points, &str); 4] = [
        ("nowhere", &INSIDE, "in a frame TF does not know"),
        (BASE, &BOWTIE, "crossing itself"),
        (BASE, &SEGMENT, "2 vertices"),
        (BASE, &VERTEX, "1 vertex"),
    ];
    for (frame, points, what) in faults {
        rig.advance(PERIOD);
        rig.sense();
        let out = rig.polygon(PEOPLE, 0, frame, points);
        let flag = out.flag.expect("the flag");
        assert!(flag.colliding && !flag.valid, "{what}: {flag:?}");
        let out = rig.command(CMD.0, CMD.1, CMD.2);
        assert_zeros(&out, what);
        match out.state {
            Some(GateState {
                action: Action::Stop,
                reason:
                    Reason::InvalidSource(SourceFault {
                        source: Some(PEOPLE),
                        ..
                    }),
            }) => {}
            other => panic!("{what}: {other:?}"),
        }
        control(&mut rig, what);
    }
    // A valid polygon in the zone: a stop by the zone, not a fault.
    let out = rig.polygon(PEOPLE, 0, BASE, &INSIDE);
    assert_eq!(out.flag.map(|f| f.valid), Some(true));
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_zeros(&out, "a polygon in the zone");
    assert_eq!(
        out.state,
        Some(GateState {
            action: Action::Stop,
            reason: Reason::Zone(0)
        })
    );
    control(&mut rig, "the polygon outside again");
    // Silent past its source_timeout (the scan keeps coming).
    let last = rig.t;
    while rig.t <= last + SOURCE_TIMEOUT {
        rig.advance(PERIOD);
        rig.sense();
    }
    // The re-check finds it and publishes the state (and the zeros of a
    // stop along the last command).
    let out = rig.tick();
    assert_zeros(&out, "the re-check, the polygon source silent");
    assert!(
        matches!(
            out.state,
            Some(GateState {
                reason: Reason::InvalidSource(SourceFault {
                    source: Some(PEOPLE),
                    ..
                }),
                ..
            })
        ),
        "{:?}",
        out.state
    );
    assert_zeros(
        &rig.command(CMD.0, CMD.1, CMD.2),
        "the polygon source silent",
    );
    control(&mut rig, "sent again");
}

/// What the reference knows of the polygon source's one polygon.
#[derive(Clone, Copy, Debug)]
struct Polygon {
    received: f64,
    usable: bool,
    in_zone: bool,
}

/// The rules, written here: a source is usable when its last data
/// arrived within its timeout and could be used; the polygon source when
/// its polygon is so; the clock when it has no fault.
#[derive(Debug, Default)]
struct Reference {
    t: f64,
    clock_fault: bool,
    scan: Option<(f64, bool)>,
    scan_in_zone: bool,
    polygon: Option<Polygon>,
}

impl Reference {
    fn fresh(&self, received: f64) -> bool {
        self.t - received <= SOURCE_TIMEOUT
    }

    fn judged(&self) -> bool {
        let scan = self.scan.is_some_and(|(at, ok)| ok && self.fresh(at));
        let polygon = self
            .polygon
            .is_some_and(|p| p.usable && self.fresh(p.received));
        !self.clock_fault && scan && polygon
    }

    fn clear(&self) -> bool {
        !self.scan_in_zone && !self.polygon.is_some_and(|p| p.in_zone)
    }
}

#[derive(Debug, Default)]
struct Tally {
    passed: usize,
    zeros_on_a_fault: usize,
    silent_on_a_fault: usize,
}

fn run(seed: u64, steps: usize, tally: &mut Tally) {
    let mut rng = SplitMix64::new(seed);
    let mut rig = Rig::new(config_of(&polygon_yaml()), 1);
    rig.set_active(true);
    let mut r = Reference {
        t: rig.t,
        ..Reference::default()
    };
    for step in 0..steps {
        // Multiples of 1/64 s: exact sums, the timeout's boundary met.
        rig.advance(rng.below_usize(9) as f64 / 64.0);
        r.t = rig.t;
        if rng.chance(0.05) {
            r.clock_fault = !r.clock_fault;
            let cause = [Cause::ClockStalled, Cause::NoClock][rng.below_usize(2)];
            rig.clock_fault = r.clock_fault.then_some(cause);
        }
        let out = match rng.below_usize(10) {
            0..=1 => {
                if rng.chance(0.1) {
                    r.scan = Some((rig.t, false));
                    rig.refused(FRONT, Cause::InvalidSource)
                } else {
                    r.scan_in_zone = rng.chance(0.2);
                    rig.scene[FRONT] = match r.scan_in_zone {
                        true => vec![IN_FRONT],
                        false => vec![(2.0, -1.0)],
                    };
                    r.scan = Some((rig.t, true));
                    rig.sense()
                }
            }
            2..=4 => {
                let (frame, points, usable, in_zone): (_, &Points, _, _) = match rng.below_usize(12)
                {
                    0 => ("nowhere", &OUTSIDE, false, false),
                    1 => (BASE, &BOWTIE, false, false),
                    2 => (BASE, &SEGMENT, false, false),
                    3 => (BASE, &INSIDE, true, true),
                    _ => (BASE, &OUTSIDE, true, false),
                };
                r.polygon = Some(Polygon {
                    received: rig.t,
                    usable,
                    in_zone,
                });
                rig.polygon(PEOPLE, 0, frame, points)
            }
            5 => rig.tick(),
            _ => {
                let x = rng.range(0.05, 0.5);
                let out = rig.command(x, 0.0, 0.1);
                if r.judged() && r.clear() {
                    assert_eq!(
                        published(&out),
                        Some(Command::new(x, 0.0, 0.1)),
                        "seed {seed} step {step}: judged and clear, {r:?}"
                    );
                }
                out
            }
        };
        if !r.judged() {
            assert!(
                !goes(&out),
                "seed {seed} step {step}: a command passed on a fault: {out:?} {r:?}"
            );
            if let Some(flag) = out.flag {
                assert!(
                    flag.colliding && !flag.valid,
                    "seed {seed} step {step}: {flag:?}"
                );
            }
            match published(&out) {
                Some(_) => tally.zeros_on_a_fault += 1,
                None => tally.silent_on_a_fault += 1,
            }
        }
        if goes(&out) {
            tally.passed += 1;
        }
    }
}

#[test]
fn random_sequences_never_pass_a_command_the_core_cannot_judge() {
    let mut tally = Tally::default();
    for seed in 0..60 {
        run(seed, 200, &mut tally);
    }
    println!("{tally:?}");
    assert!(tally.passed > 500, "too few commands passed: {tally:?}");
    assert!(
        tally.zeros_on_a_fault > 500,
        "too few zeros on a fault: {tally:?}"
    );
    assert!(tally.silent_on_a_fault > 500, "{tally:?}");
}

#[test]
fn a_backward_jump_of_the_clock_stops_the_gate_until_the_sources_send_again() {
    let mut rig = Rig::gate("");
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)));
    // ROS time jumps back (a bag looped, a simulator reset): a new
    // generation; everything received before it is from before the jump.
    rig.generation += 1;
    rig.t = 0.25;
    let out = rig.tick();
    let flag = out.flag.expect("the flag");
    assert!(flag.colliding && !flag.valid, "{flag:?}");
    assert_eq!(flag.status, Status::ClockJumpedBack);
    assert_zeros(&out, "the re-check after the jump");
    assert!(matches!(
        out.state,
        Some(GateState {
            reason: Reason::InvalidSource(SourceFault {
                cause: Cause::ClockJumpedBack,
                ..
            }),
            ..
        })
    ));
    assert_zeros(
        &rig.command(CMD.0, CMD.1, CMD.2),
        "a command after the jump",
    );
    // Every source sends in the new generation: valid again.
    let flag = rig.sense().flag.expect("the flag");
    assert!(flag.valid && !flag.colliding, "{flag:?}");
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)));
}
