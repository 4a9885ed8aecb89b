//! The gate's decisions and output rules against a world whose answers
//! the test sets (the geometry behind them is tested where it lives:
//! `monitor`'s region queries, `geometry`'s escape and contact times).
//! Points inside a zone are counted here by an independent ray-crossing
//! test (`testkit::reference::inside_even_odd`).

use super::*;
use crate::geometry::{Point, Shape};
use crate::model::Cause;
use crate::monitor::SourceFault;
use sat_collision_testkit::reference::inside_even_odd;
use sat_collision_testkit::SplitMix64;

/// The world the gate asks: points in the base frame, and the answers the
/// test sets for the rest.
#[derive(Default)]
struct World {
    points: Vec<Point>,
    polygons: bool,
    invalid: Option<SourceFault>,
    contact: Option<f64>,
    escapes: bool,
}

fn outline(zone: &Shape) -> Vec<Point> {
    match zone {
        Shape::Convex(p) => p.vertices().to_vec(),
        Shape::Compound(c) => c.outline().to_vec(),
        Shape::Circle(_) => zone.outline(64),
    }
}

impl ZoneChecks for World {
    fn invalid_source(&self) -> Option<SourceFault> {
        self.invalid
    }
    fn points_inside(&self, zone: &Shape, _: &[usize], enough: usize) -> usize {
        let o = outline(zone);
        self.points
            .iter()
            .filter(|p| inside_even_odd(&o, **p))
            .count()
            .min(enough)
    }
    fn polygons_touch(&self, _: &Shape, _: &[usize]) -> bool {
        self.polygons
    }
    fn contact_time(&self, _: &Shape, _: &[usize], _: &Command, h: f64, _: usize) -> Option<f64> {
        self.contact.filter(|&t| t <= h)
    }
    fn escapes(&self, _: &Shape, _: &[usize], _: &Command, _: f64) -> bool {
        self.escapes
    }
    fn points_in(&self, zone: &Shape, _: &[usize], limit: usize, out: &mut Vec<Point>) {
        let o = outline(zone);
        out.extend(
            self.points
                .iter()
                .filter(|p| inside_even_odd(&o, **p))
                .take(limit),
        );
    }
}

fn square(name: &str, half: f64, action: Action) -> ZoneConfig {
    let points = vec![
        Point::new(half, half),
        Point::new(half, -half),
        Point::new(-half, -half),
        Point::new(-half, half),
    ];
    ZoneConfig::new(name, ZoneShape::Polygon(points), action, 1)
}

fn gate(zones: Vec<ZoneConfig>) -> Gate {
    let config = GateConfig {
        zones,
        stop_pub_timeout: 1.0,
        ..GateConfig::default()
    };
    match Gate::new(config) {
        Ok(gate) => gate,
        Err(e) => panic!("{e}"),
    }
}

fn points(n: usize, x: f64) -> Vec<Point> {
    (0..n).map(|i| Point::new(x, 0.01 * i as f64)).collect()
}

const FORWARD: Command = Command {
    x: 0.5,
    y: 0.0,
    w: 0.2,
};

#[test]
fn stop_needs_min_points() {
    let mut g = gate(vec![square("stop", 0.5, Action::Stop)]);
    let mut world = World {
        points: points(3, 0.2),
        ..World::default()
    };
    let out = g.on_command(&world, FORWARD, 0.0);
    assert_eq!(out.publish, Some(FORWARD));
    assert_eq!(out.state, GateState::CLEAR);
    world.points = points(4, 0.2);
    let out = g.on_command(&world, FORWARD, 0.1);
    assert_eq!(out.publish, Some(Command::ZERO));
    assert_eq!(out.state.action, Action::Stop);
    assert_eq!(out.state.reason, Reason::Zone(0));
    assert!(out.state_changed);
    assert_eq!(g.state_name(&out.state), "stop");
    // A polygon touching triggers it whatever min_points says.
    let world = World {
        polygons: true,
        ..World::default()
    };
    let out = g.on_command(&world, FORWARD, 0.2);
    assert_eq!(out.publish, Some(Command::ZERO));
    assert!(!out.state_changed);
}

#[test]
fn slowdown_and_limit_scale_the_whole_twist() {
    let mut slow = square("slow", 0.5, Action::Slowdown);
    slow.slowdown_ratio = 0.3;
    let mut g = gate(vec![slow]);
    let world = World {
        points: points(4, 0.2),
        ..World::default()
    };
    let out = g.on_command(&world, FORWARD, 0.0);
    assert_eq!(out.publish, Some(FORWARD.scaled(0.3)));
    assert_eq!(out.state.action, Action::Slowdown);

    let mut rng = SplitMix64::new(22);
    for _ in 0..2000 {
        let mut limit = square("limit", 0.5, Action::Limit);
        limit.linear_limit = rng.range(0.0, 1.0);
        limit.angular_limit = rng.range(0.0, 1.0);
        let (lin, ang) = (limit.linear_limit, limit.angular_limit);
        let mut g = gate(vec![limit]);
        let c = Command::new(
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
        );
        let Some(out) = g.on_command(&world, c, 0.0).publish else {
            // Only a zero output may fall silent, and only after a while.
            panic!("silence on the first command");
        };
        assert!(out.speed() <= lin + 1e-12 && out.w.abs() <= ang + 1e-12);
        // Curvature kept: the output is the command times one ratio, the
        // largest that meets both limits.
        let ratio = (1.0f64).min(lin / c.speed()).min(ang / c.w.abs());
        for (a, b) in [(out.x, c.x), (out.y, c.y), (out.w, c.w)] {
            assert!(
                (a - b * ratio).abs() <= 1e-12 * (1.0 + b.abs()),
                "{out:?} {c:?}"
            );
        }
    }
}

#[test]
fn the_most_restrictive_zone_wins_and_the_first_on_a_tie() {
    let mut slow = square("slow", 1.0, Action::Slowdown);
    slow.slowdown_ratio = 0.5;
    let mut slower = square("slower", 0.8, Action::Slowdown);
    slower.slowdown_ratio = 0.2;
    let mut same = square("same", 0.8, Action::Slowdown);
    same.slowdown_ratio = 0.2;
    let mut g = gate(vec![slow, slower, same]);
    let world = World {
        points: points(4, 0.5),
        ..World::default()
    };
    let out = g.on_command(&world, FORWARD, 0.0);
    assert_eq!(out.publish, Some(FORWARD.scaled(0.2)));
    assert_eq!(out.state.reason, Reason::Zone(1));
    // Points only in the big zone: only it acts.
    let world = World {
        points: points(4, 0.9),
        ..World::default()
    };
    let out = g.on_command(&world, FORWARD, 0.1);
    assert_eq!(out.state.reason, Reason::Zone(0));
    assert_eq!(out.publish, Some(FORWARD.scaled(0.5)));
}

#[test]
fn approach_keeps_the_contact_time_before_collision_away() {
    let mut approach = square("approach", 0.3, Action::Approach);
    approach.time_before_collision = 2.0;
    let mut g = gate(vec![approach]);
    let world = World {
        contact: Some(0.5),
        ..World::default()
    };
    let out = g.on_command(&world, FORWARD, 0.0);
    assert_eq!(out.publish, Some(FORWARD.scaled(0.25)));
    assert_eq!(out.state.action, Action::Approach);
    let world = World::default();
    let out = g.on_command(&world, FORWARD, 0.1);
    assert_eq!(out.publish, Some(FORWARD));
    assert!(out.state_changed);
    assert_eq!(out.state, GateState::CLEAR);
}

#[test]
fn invalid_sources_and_commands_stop_disabled_passes() {
    let mut g = gate(vec![square("stop", 0.5, Action::Stop)]);
    let world = World {
        invalid: Some(SourceFault {
            source: Some(0),
            cause: Cause::StaleSource,
        }),
        ..World::default()
    };
    let out = g.on_command(&world, FORWARD, 0.0);
    assert_eq!(out.publish, Some(Command::ZERO));
    assert_eq!(g.state_name(&out.state), "invalid source");
    assert_eq!(out.state.action, Action::Stop);

    g.set_enabled(false);
    let out = g.on_command(&world, FORWARD, 0.1);
    assert_eq!(out.publish, Some(FORWARD));
    assert_eq!(out.state.reason, Reason::Disabled);
    // A command that is not finite never passes, disabled or not.
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        for c in [
            Command::new(bad, 0.0, 0.0),
            Command::new(0.0, bad, 0.0),
            Command::new(0.0, 0.0, bad),
        ] {
            let out = g.on_command(&World::default(), c, 0.2);
            assert_eq!(out.publish, Some(Command::ZERO));
            assert_eq!(g.state_name(&out.state), "invalid command");
        }
    }
    // ... and the re-check keeps the robot stopped until a good command.
    let out = g.on_timer(&World::default(), 0.3);
    assert_eq!(out.publish, Some(Command::ZERO));
    let out = g.on_command(&World::default(), FORWARD, 0.4);
    assert_eq!(out.publish, Some(FORWARD));
}

#[test]
fn zeros_for_stop_pub_timeout_then_silence() {
    let mut g = gate(vec![square("stop", 0.5, Action::Stop)]);
    let blocked = World {
        points: points(4, 0.2),
        ..World::default()
    };
    assert_eq!(
        g.on_command(&blocked, FORWARD, 10.0).publish,
        Some(Command::ZERO)
    );
    assert_eq!(
        g.on_command(&blocked, FORWARD, 10.5).publish,
        Some(Command::ZERO)
    );
    assert_eq!(
        g.on_command(&blocked, FORWARD, 11.0).publish,
        Some(Command::ZERO)
    );
    assert_eq!(g.on_command(&blocked, FORWARD, 11.01).publish, None);
    assert_eq!(g.on_timer(&blocked, 11.5).publish, None);
    // Clear again: the command passes, and a new stop starts a new run.
    assert_eq!(
        g.on_command(&World::default(), FORWARD, 12.0).publish,
        Some(FORWARD)
    );
    assert_eq!(
        g.on_command(&blocked, FORWARD, 20.0).publish,
        Some(Command::ZERO)
    );
    // A zero command is a stop too.
    let mut g = gate(vec![]);
    assert_eq!(
        g.on_command(&World::default(), Command::ZERO, 0.0).publish,
        Some(Command::ZERO)
    );
    assert_eq!(
        g.on_command(&World::default(), Command::ZERO, 2.0).publish,
        None
    );
}

#[test]
fn silence_only_ever_follows_a_zero() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..200 {
        let mut stop = square("stop", 0.5, Action::Stop);
        stop.trigger_consecutive = 1 + rng.below_usize(3) as u32;
        stop.release_consecutive = 1 + rng.below_usize(3) as u32;
        let mut slow = square("slow", 1.0, Action::Slowdown);
        slow.slowdown_ratio = 0.4;
        let mut g = gate(vec![stop, slow]);
        let mut now = 0.0;
        let mut last: Option<Command> = None;
        for _ in 0..100 {
            now += rng.range(0.0, 0.6);
            let world = World {
                points: points(4, rng.range(0.0, 1.5)),
                invalid: rng.chance(0.05).then_some(SourceFault {
                    source: Some(0),
                    cause: Cause::NoSourceData,
                }),
                ..World::default()
            };
            // A re-check publishes only what is more restrictive: its
            // `None` is "nothing new", not silence.
            let timer = rng.chance(0.3);
            let out = if timer {
                g.on_timer(&world, now)
            } else {
                let c = match rng.below(4) {
                    0 => Command::ZERO,
                    1 => Command::new(f64::NAN, 0.0, 0.0),
                    _ => Command::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0)),
                };
                g.on_command(&world, c, now)
            };
            match out.publish {
                Some(c) => last = Some(c),
                None if timer => {}
                None => assert!(last.is_none_or(|c| c.is_zero()), "silence after {last:?}"),
            }
        }
    }
}

#[test]
fn the_re_check_stops_a_robot_whose_controller_went_quiet() {
    let mut slow = square("slow", 1.0, Action::Slowdown);
    slow.slowdown_ratio = 0.5;
    let mut g = gate(vec![square("stop", 0.5, Action::Stop), slow]);
    let clear = World::default();
    assert_eq!(g.on_command(&clear, FORWARD, 0.0).publish, Some(FORWARD));
    // Nothing changed: nothing to publish.
    let out = g.on_timer(&clear, 0.1);
    assert_eq!(out.publish, None);
    assert!(!out.state_changed);
    // Something in the slowdown zone: the slower command at once.
    let near = World {
        points: points(4, 0.8),
        ..World::default()
    };
    let out = g.on_timer(&near, 0.2);
    assert_eq!(out.publish, Some(FORWARD.scaled(0.5)));
    assert!(out.state_changed);
    // A source going stale: a stop at once.
    let stale = World {
        invalid: Some(SourceFault {
            source: Some(0),
            cause: Cause::StaleSource,
        }),
        ..World::default()
    };
    let out = g.on_timer(&stale, 0.3);
    assert_eq!(out.publish, Some(Command::ZERO));
    assert_eq!(g.state_name(&out.state), "invalid source");
    // Clear again: the state follows, but an old command is not resumed.
    let out = g.on_timer(&clear, 0.4);
    assert_eq!(out.publish, None);
    assert_eq!(out.state, GateState::CLEAR);
    assert!(out.state_changed);
    assert_eq!(g.on_command(&clear, FORWARD, 0.5).publish, Some(FORWARD));
}

#[test]
fn debounce_counts_checks_in_a_row() {
    let mut stop = square("stop", 0.5, Action::Stop);
    stop.trigger_consecutive = 3;
    stop.release_consecutive = 2;
    let mut g = gate(vec![stop]);
    let blocked = World {
        points: points(4, 0.2),
        ..World::default()
    };
    let clear = World::default();
    let mut run = |world: &World, t: f64| g.on_command(world, FORWARD, t).publish;
    assert_eq!(run(&blocked, 0.0), Some(FORWARD));
    assert_eq!(run(&blocked, 0.1), Some(FORWARD));
    assert_eq!(run(&clear, 0.2), Some(FORWARD)); // The streak is broken.
    assert_eq!(run(&blocked, 0.3), Some(FORWARD));
    assert_eq!(run(&blocked, 0.4), Some(FORWARD));
    assert_eq!(run(&blocked, 0.5), Some(Command::ZERO)); // Third in a row.
    assert_eq!(run(&clear, 0.6), Some(Command::ZERO)); // Held: one clear check.
    assert_eq!(run(&blocked, 0.7), Some(Command::ZERO));
    assert_eq!(run(&clear, 0.8), Some(Command::ZERO));
    assert_eq!(run(&clear, 0.9), Some(FORWARD)); // Two clear in a row.
}

#[test]
fn velocity_zones_choose_their_shape_by_the_command() {
    let shape = |name: &str, half: f64, lin: (f64, f64)| VelocityShape {
        name: name.to_owned(),
        points: vec![
            Point::new(half, half),
            Point::new(half, -half),
            Point::new(-half, -half),
            Point::new(-half, half),
        ],
        linear_min: lin.0,
        linear_max: lin.1,
        theta_min: -1.0,
        theta_max: 1.0,
        direction_start: -std::f64::consts::PI,
        direction_end: std::f64::consts::PI,
    };
    let zone = ZoneConfig::new(
        "velocity",
        ZoneShape::Velocity {
            holonomic: false,
            shapes: vec![
                shape("fast", 1.0, (0.3, 1.0)),
                shape("slow", 0.4, (-1.0, 0.3)),
            ],
        },
        Action::Stop,
        1,
    );
    let mut g = gate(vec![zone]);
    let world = World {
        points: points(4, 0.7),
        ..World::default()
    };
    assert_eq!(g.zone_shape(0), None);
    // Fast: the big shape holds the points.
    let fast = Command::new(0.5, 0.0, 0.0);
    assert_eq!(g.on_command(&world, fast, 0.0).publish, Some(Command::ZERO));
    let slow = Command::new(0.1, 0.0, 0.0);
    assert_eq!(g.on_command(&world, slow, 0.1).publish, Some(slow));
    // A command no shape covers keeps the previous choice (nav2).
    let odd = Command::new(0.1, 0.0, 5.0);
    assert_eq!(g.on_command(&world, odd, 0.2).publish, Some(odd));

    // Holonomic: speed and direction; a range that wraps through pi.
    let mut back = shape("back", 1.0, (0.1, 1.0));
    back.direction_start = 2.5;
    back.direction_end = -2.5;
    let zone = ZoneConfig::new(
        "holonomic",
        ZoneShape::Velocity {
            holonomic: true,
            shapes: vec![back],
        },
        Action::Stop,
        1,
    );
    let mut g = gate(vec![zone]);
    let forward = Command::new(0.5, 0.0, 0.0);
    assert_eq!(g.on_command(&world, forward, 0.0).publish, Some(forward));
    assert_eq!(g.zone_shape(0), None);
    let backward = Command::new(-0.5, 0.01, 0.0);
    assert_eq!(
        g.on_command(&world, backward, 0.1).publish,
        Some(Command::ZERO)
    );
}

#[test]
fn dynamic_zones_act_once_they_have_a_shape() {
    let mut zone = ZoneConfig::new("dyn", ZoneShape::Dynamic { circle: false }, Action::Stop, 1);
    zone.polygon_sub_topic = "zone".to_owned();
    let mut g = gate(vec![zone, square("fixed", 0.1, Action::Stop)]);
    let world = World {
        points: points(4, 0.3),
        ..World::default()
    };
    // No shape yet: the zone cannot be checked, the robot stops.
    let out = g.on_command(&world, FORWARD, 0.0);
    assert_eq!(out.publish, Some(Command::ZERO));
    assert_eq!(out.state.reason, Reason::NoZoneShape(0));
    assert_eq!(g.state_name(&out.state), "invalid zone");
    assert_eq!(g.zone_without_shape(), Some(0));
    // Disabled, a zone without a shape stops nothing.
    assert!(g.set_zone_enabled("dyn", false));
    assert_eq!(g.on_command(&world, FORWARD, 0.05).publish, Some(FORWARD));
    assert!(g.set_zone_enabled("dyn", true));
    let Ok(shape) = Shape::circle(Point::origin(), 0.5) else {
        panic!("circle");
    };
    assert!(g.set_zone_shape(0, shape.clone()));
    assert!(!g.set_zone_shape(1, shape));
    assert_eq!(g.zone_without_shape(), None);
    let out = g.on_command(&world, FORWARD, 0.1);
    assert_eq!(out.publish, Some(Command::ZERO));
    assert_eq!(out.state.reason, Reason::Zone(0));
    assert!(g.set_zone_enabled("dyn", false));
    assert!(!g.set_zone_enabled("nope", false));
    assert_eq!(g.on_command(&world, FORWARD, 0.2).publish, Some(FORWARD));
}

#[test]
fn allow_escape_lets_a_trapped_robot_leave() {
    let mut stop = square("stop", 0.5, Action::Stop);
    stop.allow_escape = true;
    let mut g = gate(vec![stop.clone()]);
    let mut world = World {
        points: points(4, 0.2),
        escapes: true,
        ..World::default()
    };
    let back = Command::new(-0.3, 0.0, 0.0);
    assert_eq!(g.on_command(&world, back, 0.0).publish, Some(back));
    world.escapes = false;
    assert_eq!(
        g.on_command(&world, FORWARD, 0.1).publish,
        Some(Command::ZERO)
    );
    // Without allow_escape the same world stops everything.
    stop.allow_escape = false;
    let mut g = gate(vec![stop]);
    world.escapes = true;
    assert_eq!(g.on_command(&world, back, 0.0).publish, Some(Command::ZERO));
}
