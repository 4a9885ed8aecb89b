use super::*;
use crate::gate::{
    Action, Command, Gate, GateConfig, GateState, Reason, ZoneChecks, ZoneConfig, ZoneShape,
};
use crate::geometry::{Point, Shape};
use crate::model::{Cause, Obstacle, ObstacleGeometry, Status};
use crate::monitor::{Monitor, MonitorConfig, SourceFault};
use sat_collision_testkit::SplitMix64;

// ---------------------------------------------------------------- rates

/// The reference rate: the arrivals in `[start, now]` over `now − start`,
/// where `start` is the beginning of the 100 ms bucket 49 buckets before
/// now's. Arrivals are generated away from bucket edges (see `arrivals`),
/// so how a time on an edge rounds never matters.
fn reference_rate(arrivals: &[f64], now: f64) -> f64 {
    let start = ((now * 10.0).floor() - 49.0) / 10.0;
    let n = arrivals.iter().filter(|&&a| a >= start && a <= now).count();
    n as f64 / (now - start)
}

/// Arrivals over `[0, seconds)`: runs at random rates (1 to 200 Hz) and
/// silent gaps, each time at least 4 ms from a 100 ms edge.
fn arrivals(rng: &mut SplitMix64, seconds: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let mut t = 0.0;
    while t < seconds {
        let run_end = t + rng.range(0.5, 4.0);
        if rng.chance(0.25) {
            t = run_end; // silence
            continue;
        }
        let period = 1.0 / rng.range(1.0, 200.0);
        while t < run_end.min(seconds) {
            let bucket = (t * 10.0).floor();
            let inside = (t * 10.0 - bucket).clamp(0.04, 0.96);
            out.push((bucket + inside) / 10.0);
            t += period * rng.range(0.5, 1.5);
        }
    }
    out.dedup();
    out
}

#[test]
fn rate_and_age_match_the_reference_on_random_arrivals() {
    let mut rng = SplitMix64::new(0x5eed_d1a6);
    for _ in 0..40 {
        let times = arrivals(&mut rng, 20.0);
        let mut stats = InputStats::new();
        let mut recorded = 0;
        let mut now = 0.0;
        while now < 22.0 {
            // Queries away from bucket edges too, every arrival before them
            // recorded and none after.
            now += rng.range(0.01, 0.4);
            let bucket = (now * 10.0).floor();
            let now_q = (bucket + (now * 10.0 - bucket).clamp(0.02, 0.98)) / 10.0;
            while recorded < times.len() && times[recorded] <= now_q {
                stats.record(times[recorded]);
                recorded += 1;
            }
            let expected = reference_rate(&times[..recorded], now_q);
            let rate = stats.rate(now_q);
            assert!(
                (rate - expected).abs() <= 1e-9 * expected.max(1.0),
                "now {now_q}: rate {rate}, reference {expected}"
            );
            let age = stats.age(now_q);
            match recorded {
                0 => assert_eq!(age, None),
                k => assert_eq!(age, Some(now_q - times[k - 1])),
            }
        }
    }
}

#[test]
fn a_steady_input_reads_its_rate_and_a_silent_one_fades_to_zero() {
    let mut stats = InputStats::new();
    // 20 Hz for 10 s.
    for k in 0..200 {
        stats.record(0.025 + 0.05 * k as f64);
    }
    let rate = stats.rate(10.0);
    assert!((rate - 20.0).abs() < 0.5, "{rate}");
    let age = stats.age(10.5).expect("received");
    assert!((age - 0.525).abs() < 1e-9, "{age}");
    // Silent since 9.975: half the window later about half the rate,
    // a whole window later nothing.
    let half = stats.rate(12.5);
    assert!((half - 10.0).abs() < 0.6, "{half}");
    assert_eq!(stats.rate(15.1), 0.0);
    // Times that are not finite are ignored.
    stats.record(f64::NAN);
    stats.record(f64::INFINITY);
    assert_eq!(stats.last(), Some(0.025 + 0.05 * 199.0));
    assert_eq!(stats.rate(f64::NAN), 0.0);
}

#[test]
fn after_time_jumps_back_future_buckets_do_not_count() {
    let mut stats = InputStats::new();
    for k in 0..100 {
        stats.record(100.0 + 0.05 * k as f64);
    }
    // ROS time restarts at 0: the arrivals at 100 s are not in the window.
    assert_eq!(stats.rate(1.0), 0.0);
    assert_eq!(stats.age(1.0), Some(0.0));
    for k in 0..20 {
        stats.record(0.025 + 0.05 * k as f64);
    }
    // The window: from the bucket at -3.9 s to now.
    let expected = 20.0 / (1.0 + 3.9);
    assert!((stats.rate(1.0) - expected).abs() < 1e-9);
    let age = stats.age(1.0).expect("received");
    assert!((age - 0.025).abs() < 1e-9, "{age}");
}

// ---------------------------------------------------------- percentiles

/// Nearest rank by its definition: the smallest duration `x` such that at
/// least `p` % of the durations are at most `x`.
fn nearest_rank(durations: &[f64], p: usize) -> f64 {
    let mut sorted = durations.to_vec();
    sorted.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    let n = sorted.len();
    *sorted
        .iter()
        .find(|&&x| sorted.iter().filter(|&&y| y <= x).count() * 100 >= p * n)
        .expect("p ≤ 100")
}

#[test]
fn percentiles_match_a_sort_on_random_durations() {
    let mut rng = SplitMix64::new(0xdec1_5104);
    for case in 0..60 {
        let mut times = DecisionTimes::new();
        let mut kept: Vec<(f64, f64)> = Vec::new();
        let mut now = rng.range(0.0, 100.0);
        // Up to about 800 decisions per second, bursts and pauses; some
        // cases quantised so that ties occur.
        let quantum = if case % 3 == 0 { 1e-4 } else { 0.0 };
        for _ in 0..rng.int(1, 3000) {
            now += if rng.chance(0.02) {
                rng.range(0.5, 2.0)
            } else {
                rng.range(0.0, 0.0025)
            };
            let mut d = -rng.unit().max(1e-12).ln() * 1e-3;
            if quantum > 0.0 {
                d = (d / quantum).round() * quantum;
            }
            times.record(now, d);
            kept.push((now, d));
            if rng.chance(0.05) {
                let at = now + rng.range(0.0, 0.3);
                let window: Vec<f64> = kept
                    .iter()
                    .filter(|&&(t, _)| t > at - 1.0 && t <= at)
                    .map(|&(_, d)| d)
                    .collect();
                let expected = (!window.is_empty())
                    .then(|| (nearest_rank(&window, 50), nearest_rank(&window, 99)));
                assert_eq!(times.percentiles(at), expected, "case {case} at {at}");
            }
        }
    }
}

#[test]
fn a_burst_beyond_the_ring_keeps_the_newest_decisions() {
    let mut rng = SplitMix64::new(7);
    let mut times = DecisionTimes::new();
    let n = DECISION_SAMPLES + 1500;
    let samples: Vec<(f64, f64)> = (0..n)
        .map(|k| (10.0 + 0.5 * k as f64 / n as f64, rng.range(0.0, 0.01)))
        .collect();
    for &(t, d) in &samples {
        times.record(t, d);
    }
    let newest: Vec<f64> = samples[n - DECISION_SAMPLES..]
        .iter()
        .map(|s| s.1)
        .collect();
    assert_eq!(
        times.percentiles(10.6),
        Some((nearest_rank(&newest, 50), nearest_rank(&newest, 99)))
    );
    // A second later, none of them.
    assert_eq!(times.percentiles(11.6), None);
    // Bad durations are ignored.
    times.record(12.0, f64::NAN);
    times.record(12.0, -1.0);
    times.record(f64::INFINITY, 1.0);
    assert_eq!(times.percentiles(12.0), None);
    times.record(12.0, 0.002);
    assert_eq!(times.percentiles(12.0), Some((0.002, 0.002)));
    // The window is (now − 1 s, now]: a second old is out, a later one too.
    times.record(12.5, 0.004);
    assert_eq!(times.percentiles(13.0), Some((0.004, 0.004)));
    assert_eq!(times.percentiles(12.4), Some((0.002, 0.002)));
}

// --------------------------------------------------- the collision status

fn square(half: f64, cx: f64) -> Vec<Point> {
    vec![
        Point::new(cx - half, -half),
        Point::new(cx + half, -half),
        Point::new(cx + half, half),
        Point::new(cx - half, half),
    ]
}

/// A monitor (timeouts 1 s) and the stats the edge would keep beside it.
struct Node {
    monitor: Monitor,
    footprint: InputStats,
    obstacles: InputStats,
    decisions: DecisionTimes,
}

impl Node {
    fn new() -> Self {
        Node {
            monitor: Monitor::new(MonitorConfig::default()),
            footprint: InputStats::new(),
            obstacles: InputStats::new(),
            decisions: DecisionTimes::new(),
        }
    }

    fn footprint(&mut self, now: f64) {
        self.monitor.set_footprint("map", &square(0.5, 0.0), now);
        self.footprint.record(now);
        self.decisions.record(now, 0.001);
    }

    fn obstacles(&mut self, now: f64) {
        let wall = Obstacle::new("wall", &ObstacleGeometry::Polygon(square(0.5, 3.0)));
        self.monitor.set_obstacles("map", vec![wall], now);
        self.obstacles.record(now);
        self.decisions.record(now, 0.003);
    }

    fn status(&mut self, now: f64, skipped: u64) -> DiagnosticStatus {
        let flag = self.monitor.flag(now);
        let timeout = self.monitor.config().footprint_timeout;
        let inputs = [
            InputHealth::of("footprint", &self.footprint, timeout, now),
            InputHealth::of("obstacles", &self.obstacles, timeout, now),
        ];
        let health = CollisionHealth {
            lifecycle_state: "active",
            active: true,
            valid: flag.valid,
            status: flag.status,
            gate_only: false,
            overloaded: false,
            inputs: &inputs,
            decision_times: self.decisions.percentiles(now),
            reports_skipped: skipped,
            obstacles: self.monitor.obstacles().len(),
            points: 0,
        };
        collision_status(&health, "/collision_monitor", "robot_1")
    }
}

#[test]
fn stale_is_error_late_is_warn_recovery_is_ok() {
    let mut node = Node::new();
    node.footprint(0.0);
    node.obstacles(0.0);
    let ok = node.status(0.3, 0);
    assert_eq!((ok.level, ok.message.as_str()), (Level::Ok, "ok"));
    assert_eq!(ok.name, "/collision_monitor: collision");
    assert_eq!(ok.hardware_id, "robot_1");

    // Obstacles refreshed, the footprint 0.7 s old of its 1 s: late.
    node.obstacles(0.6);
    let late = node.status(0.7, 0);
    assert_eq!(late.level, Level::Warn);
    assert_eq!(late.message, "ok; footprint late");
    assert_eq!(late.value("valid"), Some("true"));

    // 1.2 s old: stale, the verdict is not valid.
    let stale = node.status(1.2, 0);
    assert_eq!(stale.level, Level::Error);
    assert_eq!(stale.message, "stale_footprint");
    assert_eq!(stale.value("status"), Some("stale_footprint"));
    assert_eq!(stale.value("valid"), Some("false"));

    // A new footprint (and obstacles): back to OK.
    node.footprint(1.3);
    node.obstacles(1.3);
    let recovered = node.status(1.4, 0);
    assert_eq!(
        (recovered.level, recovered.message.as_str()),
        (Level::Ok, "ok")
    );

    // Reports skipped: degraded.
    let skipping = node.status(1.4, 3);
    assert_eq!(skipping.level, Level::Warn);
    assert_eq!(skipping.message, "ok; reports skipped");
    assert_eq!(skipping.value("reports skipped"), Some("3"));
}

#[test]
fn the_values_come_in_a_stable_order() {
    let mut node = Node::new();
    node.footprint(0.0);
    node.obstacles(0.5);
    node.footprint(0.8);
    let status = node.status(1.0, 0);
    let keys: Vec<&str> = status.values.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "status",
            "valid",
            "lifecycle_state",
            "footprint age",
            "footprint rate",
            "obstacles age",
            "obstacles rate",
            "decision time p50",
            "decision time p99",
            "reports skipped",
            "obstacles",
            "points",
        ]
    );
    assert_eq!(status.value("lifecycle_state"), Some("active"));
    assert_eq!(status.value("footprint age"), Some("0.200"));
    assert_eq!(status.value("obstacles age"), Some("0.500"));
    // Two footprints and one obstacle array within the window, from the
    // bucket at -3.9 s to now: 4.9 s.
    assert_eq!(status.value("footprint rate"), Some("0.41"));
    assert_eq!(status.value("obstacles rate"), Some("0.20"));
    // Decisions in (0, 1]: 1 ms (the footprint at 0.8) and 3 ms.
    assert_eq!(status.value("decision time p50"), Some("1.000"));
    assert_eq!(status.value("decision time p99"), Some("3.000"));
    assert_eq!(status.value("obstacles"), Some("1"));
    assert_eq!(status.value("points"), Some("0"));
}

fn health<'a>(inputs: &'a [InputHealth<'a>]) -> CollisionHealth<'a> {
    CollisionHealth {
        lifecycle_state: "active",
        active: true,
        valid: true,
        status: Status::Ok,
        gate_only: false,
        overloaded: false,
        inputs,
        decision_times: None,
        reports_skipped: 0,
        obstacles: 0,
        points: 0,
    }
}

#[test]
fn each_collision_rule_decides_its_level() {
    let fresh = InputHealth {
        name: "scan",
        age: Some(0.1),
        rate: 10.0,
        timeout: 0.5,
    };
    let inputs = [fresh];
    let level = |h: &CollisionHealth| collision_status(h, "n", "").level;
    assert_eq!(level(&health(&inputs)), Level::Ok);

    // Late by more than half its timeout: WARN; exactly half: not late.
    let late = [InputHealth {
        age: Some(0.26),
        ..fresh
    }];
    assert_eq!(level(&health(&late)), Level::Warn);
    let half = [InputHealth {
        age: Some(0.25),
        ..fresh
    }];
    assert_eq!(level(&health(&half)), Level::Ok);
    // No timeout, or never received: not late.
    let untimed = [InputHealth {
        age: Some(100.0),
        timeout: 0.0,
        ..fresh
    }];
    assert_eq!(level(&health(&untimed)), Level::Ok);
    let never = [InputHealth { age: None, ..fresh }];
    let status = collision_status(&health(&never), "n", "");
    assert_eq!(status.level, Level::Ok);
    assert_eq!(status.value("scan age"), Some("never"));
    assert_eq!(status.value("decision time p50"), Some("none"));

    // Overloaded: ERROR even when valid, and said when not the status.
    let overloaded = CollisionHealth {
        overloaded: true,
        ..health(&inputs)
    };
    let status = collision_status(&overloaded, "n", "");
    assert_eq!(
        (status.level, status.message.as_str()),
        (Level::Error, "ok; overloaded")
    );
    let deciding = CollisionHealth {
        valid: false,
        status: Status::Overloaded,
        ..overloaded
    };
    let status = collision_status(&deciding, "n", "");
    assert_eq!(
        (status.level, status.message.as_str()),
        (Level::Error, "overloaded")
    );

    // Not valid: ERROR, late inputs not mentioned.
    let invalid = CollisionHealth {
        valid: false,
        status: Status::StaleSource,
        ..health(&late)
    };
    let status = collision_status(&invalid, "n", "");
    assert_eq!(
        (status.level, status.message.as_str()),
        (Level::Error, "stale_source")
    );

    // Not active: WARN whatever the verdict, the state as the message.
    for (state, message) in [
        ("unconfigured", "unconfigured"),
        ("inactive", "inactive"),
        ("", "inactive"),
    ] {
        let inactive = CollisionHealth {
            lifecycle_state: state,
            active: false,
            ..invalid
        };
        let status = collision_status(&inactive, "n", "");
        assert_eq!(
            (status.level, status.message.as_str()),
            (Level::Warn, message)
        );
    }
}

/// A gate with no footprint configured, none arrived: OK (WARN with an
/// input late), not judged, the verdict's values as they are; every other
/// cause, an overload, or a node that is not a gate alone: ERROR.
#[test]
fn a_gate_alone_without_a_footprint_is_ok_and_says_the_flag_is_not_judged() {
    let fresh = InputHealth {
        name: "scan",
        age: Some(0.1),
        rate: 10.0,
        timeout: 0.5,
    };
    let inputs = [fresh];
    let alone = CollisionHealth {
        valid: false,
        status: Status::NoFootprint,
        gate_only: true,
        ..health(&inputs)
    };
    let status = collision_status(&alone, "n", "");
    assert_eq!(
        (status.level, status.message.as_str()),
        (Level::Ok, NOT_JUDGED)
    );
    assert_eq!(status.value("status"), Some("no_footprint"));
    assert_eq!(status.value("valid"), Some("false"));
    let late = [InputHealth {
        age: Some(0.26),
        ..fresh
    }];
    let status = collision_status(
        &CollisionHealth {
            inputs: &late,
            ..alone
        },
        "n",
        "",
    );
    assert_eq!(status.level, Level::Warn);
    assert_eq!(status.message, format!("{NOT_JUDGED}; scan late"));
    for error in [
        CollisionHealth {
            gate_only: false,
            ..alone
        },
        CollisionHealth {
            status: Status::ClockStalled,
            ..alone
        },
        CollisionHealth {
            status: Status::StaleFootprint,
            ..alone
        },
        CollisionHealth {
            overloaded: true,
            ..alone
        },
    ] {
        assert_eq!(
            collision_status(&error, "n", "").level,
            Level::Error,
            "{error:?}"
        );
    }
    let inactive = CollisionHealth {
        active: false,
        lifecycle_state: "inactive",
        ..alone
    };
    assert_eq!(collision_status(&inactive, "n", "").level, Level::Warn);
}

#[test]
fn levels_are_diagnostic_msgs_bytes() {
    let bytes: Vec<u8> = [Level::Ok, Level::Warn, Level::Error, Level::Stale]
        .iter()
        .map(|l| l.as_byte())
        .collect();
    assert_eq!(bytes, [0, 1, 2, 3]);
    assert_eq!(Level::Error.as_str(), "ERROR");
    assert!(Level::Warn < Level::Error);
}

// ------------------------------------------------------- the gate status

/// A world with `inside` points in every zone, and maybe an invalid source.
struct Crowd {
    inside: usize,
    invalid: Option<SourceFault>,
}

impl ZoneChecks for Crowd {
    fn invalid_source(&self) -> Option<SourceFault> {
        self.invalid
    }
    fn points_inside(&self, _: &Shape, _: &[usize], enough: usize) -> usize {
        self.inside.min(enough)
    }
    fn polygons_touch(&self, _: &Shape, _: &[usize]) -> bool {
        false
    }
    fn contact_time(&self, _: &Shape, _: &[usize], _: &Command, _: f64, _: usize) -> Option<f64> {
        (self.inside > 0).then_some(0.0)
    }
    fn escapes(&self, _: &Shape, _: &[usize], _: &Command, _: f64) -> bool {
        false
    }
    fn points_in(&self, _: &Shape, _: &[usize], _: usize, _: &mut Vec<Point>) {}
}

fn stop_gate() -> Gate {
    let zone = ZoneConfig::new(
        "front",
        ZoneShape::Polygon(square(0.5, 0.5)),
        Action::Stop,
        1,
    );
    match Gate::new(GateConfig {
        zones: vec![zone],
        ..GateConfig::default()
    }) {
        Ok(gate) => gate,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn a_stop_is_the_gate_working_blindness_is_an_error() {
    let forward = Command::new(0.5, 0.0, 0.0);
    let mut gate = stop_gate();
    let status =
        |gate: &Gate, active| gate_status(&GateHealth::of(gate, active, Some(0.05)), "/cm", "hw");

    gate.on_command(
        &Crowd {
            inside: 0,
            invalid: None,
        },
        forward,
        0.0,
    );
    let clear = status(&gate, true);
    assert_eq!((clear.level, clear.message.as_str()), (Level::Ok, "clear"));
    assert_eq!(clear.name, "/cm: velocity gate");
    let values: Vec<(&str, &str)> = clear
        .values
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        values,
        [
            ("action", "none"),
            ("zone", ""),
            ("state", ""),
            ("enabled", "true"),
            ("last command age", "0.050"),
        ]
    );

    // A stop in a zone: OK, nav2's meaning.
    gate.on_command(
        &Crowd {
            inside: 5,
            invalid: None,
        },
        forward,
        0.1,
    );
    let stop = status(&gate, true);
    assert_eq!(
        (stop.level, stop.message.as_str()),
        (Level::Ok, "stop: front")
    );
    assert_eq!(stop.value("zone"), Some("front"));
    assert_eq!(stop.value("state"), Some("front"));
    assert_eq!(stop.value("action"), Some("stop"));

    // A source it cannot use: a stop, and an ERROR.
    let blind = Crowd {
        inside: 0,
        invalid: Some(SourceFault {
            source: Some(0),
            cause: Cause::StaleSource,
        }),
    };
    gate.on_command(&blind, forward, 0.2);
    let invalid = status(&gate, true);
    assert_eq!(invalid.level, Level::Error);
    assert_eq!(invalid.message, "stop: invalid source (stale_source)");
    assert_eq!(invalid.value("zone"), Some(""));
    assert_eq!(invalid.value("state"), Some("invalid source"));

    // A command that is not finite: ERROR, even disabled.
    gate.set_enabled(false);
    gate.on_command(&blind, Command::new(f64::NAN, 0.0, 0.0), 0.3);
    let refused = status(&gate, true);
    assert_eq!(refused.level, Level::Error);
    assert_eq!(refused.message, "stop: invalid command");

    // Disabled: WARN.
    gate.on_command(&blind, forward, 0.4);
    let disabled = status(&gate, true);
    assert_eq!(
        (disabled.level, disabled.message.as_str()),
        (Level::Warn, "disabled")
    );
    assert_eq!(disabled.value("enabled"), Some("false"));

    // Inactive: WARN, whatever the state.
    let inactive = status(&gate, false);
    assert_eq!(
        (inactive.level, inactive.message.as_str()),
        (Level::Warn, "inactive")
    );
}

#[test]
fn the_gate_status_reads_its_fields() {
    let health = GateHealth {
        active: true,
        enabled: true,
        state: GateState {
            action: Action::Slowdown,
            reason: Reason::Zone(1),
        },
        zone: "side",
        state_name: "side",
        last_command_age: None,
    };
    let status = gate_status(&health, "n", "");
    assert_eq!(
        (status.level, status.message.as_str()),
        (Level::Ok, "slowdown: side")
    );
    assert_eq!(status.value("last command age"), Some("never"));
}

// --------------------------------------------------------- publication

#[test]
fn publication_every_period_and_at_once_on_a_level_change() {
    let mut publication = Publication::default();
    let ok = [Level::Ok, Level::Ok];
    assert!(publication.due(0.0, &ok));
    publication.published(0.0, &ok);
    // Same levels: not before a period.
    assert!(!publication.due(0.0, &ok));
    assert!(!publication.due(0.999, &ok));
    assert!(publication.due(1.0, &ok));
    // A level changed: at once.
    let warn = [Level::Ok, Level::Warn];
    assert!(publication.due(0.3, &warn));
    publication.published(0.3, &warn);
    assert!(!publication.due(0.5, &warn));
    // Back to the previous level: a change too.
    assert!(publication.due(0.5, &ok));
    // A status more or fewer: a change.
    assert!(publication.due(0.5, &[Level::Ok]));
    // The period counts from the last publication.
    assert!(!publication.due(1.2, &warn));
    assert!(publication.due(1.3, &warn));
    // Time went back: at once.
    assert!(publication.due(0.1, &warn));

    // A period that is not one falls back to 1 s.
    assert_eq!(Publication::new(0.0).period(), PUBLISH_PERIOD);
    assert_eq!(Publication::new(f64::NAN).period(), PUBLISH_PERIOD);
    assert_eq!(Publication::new(0.5).period(), 0.5);
}
