//! The same events in give the same outputs out: two cores fed one random
//! sequence (scans, commands, ticks, clock faults, silences, parameter
//! changes, TF, deactivation) answer with equal outputs, compared as
//! their `Debug` text, event by event, and equal statuses at the end.

use super::{goes, published, Rig, NODE};
use sat_collision::config::Value;
use sat_collision::model::Cause;
use sat_collision::node::{Outputs, StatusContext};
use sat_collision_testkit::SplitMix64;

/// One event, drawn once and fed to both cores.
#[derive(Clone, Debug)]
enum Event {
    Advance(f64),
    Scene(usize, Vec<(f64, f64)>),
    Silent(usize, bool),
    Sense,
    Refused(usize),
    Command(f64, f64, f64),
    Tick,
    Clock(Option<Cause>),
    Enabled(u64, bool),
    Toggle(bool),
    Laser,
    Active(bool),
}

fn draw(rng: &mut SplitMix64, revision: &mut u64) -> Event {
    match rng.below_usize(24) {
        0..=3 => Event::Advance(rng.below_usize(12) as f64 / 64.0),
        4..=5 => {
            let points = (0..rng.below_usize(4))
                .map(|_| (rng.range(-1.5, 1.5), rng.range(-1.0, 1.0)))
                .collect();
            Event::Scene(rng.below_usize(4), points)
        }
        6 => Event::Silent(rng.below_usize(4), rng.chance(0.7)),
        7..=9 => Event::Sense,
        10 => Event::Refused(rng.below_usize(4)),
        11..=15 => Event::Command(
            rng.range(-1.0, 1.0),
            rng.range(-0.2, 0.2),
            rng.range(-1.0, 1.0),
        ),
        16..=18 => Event::Tick,
        19 => Event::Clock(match rng.below_usize(3) {
            0 => Some(Cause::ClockStalled),
            1 => Some(Cause::NoClock),
            _ => None,
        }),
        20 => {
            *revision += 1;
            Event::Enabled(*revision, rng.chance(0.7))
        }
        21 => Event::Toggle(rng.chance(0.7)),
        22 => Event::Laser,
        _ => Event::Active(rng.chance(0.8)),
    }
}

/// Feeds `event`; the outputs of a command or a tick.
fn apply(rig: &mut Rig, event: &Event) -> Option<Outputs> {
    match event {
        Event::Advance(dt) => rig.advance(*dt),
        Event::Scene(index, points) => rig.scene[*index].clone_from(points),
        Event::Silent(index, sending) => rig.sending[*index] = *sending,
        Event::Sense => {
            rig.sense();
        }
        Event::Refused(index) => {
            rig.refused(*index, Cause::InvalidSource);
        }
        Event::Command(x, y, w) => return Some(rig.command(*x, *y, *w)),
        Event::Tick => return Some(rig.tick()),
        Event::Clock(cause) => rig.clock_fault = *cause,
        Event::Enabled(revision, on) => {
            let mut config = rig.core.config().clone();
            config.set("enabled", &Value::Bool(*on)).expect("enabled");
            rig.core.follow(*revision, || config);
        }
        Event::Toggle(on) => {
            rig.core.toggle(*on);
        }
        Event::Laser => rig.static_tf("base", "laser", 0.1, 0.0, 0.3),
        Event::Active(on) => {
            rig.set_active(*on);
        }
    }
    None
}

#[test]
fn the_same_events_give_the_same_outputs() {
    let (mut passed, mut zeros, mut silent, mut states) = (0, 0, 0, 0);
    for seed in 0..20 {
        let mut rng = SplitMix64::new(seed);
        let mut a = Rig::gate("");
        let mut b = Rig::gate("");
        // One source in a frame TF learns late.
        a.frames[1] = "laser".to_owned();
        b.frames[1] = "laser".to_owned();
        let mut revision = 0;
        for step in 0..300 {
            let event = draw(&mut rng, &mut revision);
            let before = a.log.len();
            let out = apply(&mut a, &event);
            apply(&mut b, &event);
            assert_eq!(
                a.log[before..],
                b.log[before..],
                "seed {seed} step {step}: {event:?}"
            );
            if let Some(out) = out {
                match published(&out) {
                    None => silent += 1,
                    Some(_) if goes(&out) => passed += 1,
                    Some(_) => zeros += 1,
                }
                states += usize::from(out.state.is_some());
            }
        }
        assert_eq!(a.log, b.log);
        let context = StatusContext {
            node_name: NODE,
            hardware_id: "",
            lifecycle_state: "active",
            reports_skipped: 0,
        };
        let t = a.t;
        let sa = format!("{:?}", a.core.statuses(&context, t));
        let sb = format!("{:?}", b.core.statuses(&context, t));
        assert_eq!(sa, sb, "seed {seed}: the statuses");
    }
    // Not vacuous: every kind of answer happened.
    assert!(passed > 100, "{passed} passed");
    assert!(zeros > 100, "{zeros} zeros");
    assert!(silent > 100, "{silent} silent");
    assert!(states > 50, "{states} state changes");
}
