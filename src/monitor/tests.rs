use super::*;
use crate::geometry::{Point, Shape, Vector};
use crate::model::ObstacleGeometry;
use crate::model::{Cause, Flag, Obstacle, Rejection, Status};
use nalgebra::Isometry2;
use std::sync::Arc;

pub(crate) fn square(cx: f64, cy: f64, half: f64) -> Vec<Point> {
    vec![
        Point::new(cx - half, cy - half),
        Point::new(cx + half, cy - half),
        Point::new(cx + half, cy + half),
        Point::new(cx - half, cy + half),
    ]
}

fn obstacle(id: &str, points: Vec<Point>) -> Obstacle {
    Obstacle::new(id, &ObstacleGeometry::Polygon(points))
}

fn ready_monitor() -> Monitor {
    ready_monitor_with(&MonitorConfig::default())
}

fn ready_monitor_with(config: &MonitorConfig) -> Monitor {
    let mut m = Monitor::new(config.clone());
    m.set_footprint("map", &square(0.0, 0.0, 0.5), 0.0);
    m.set_obstacles("map", vec![obstacle("far", square(3.0, 0.0, 0.5))], 0.0);
    m
}

#[test]
fn clear_scene_is_valid_and_clear() {
    let r = ready_monitor().evaluate(0.5);
    assert!(r.valid);
    assert_eq!(r.status, "ok");
    assert!(!r.colliding);
    assert!((r.min_distance - 2.0).abs() < 1e-9);
    assert_eq!(r.nearest_obstacle_id, "far");
}

#[test]
fn nothing_received_is_fail_safe() {
    let r = Monitor::new(MonitorConfig::default()).evaluate(0.0);
    assert!(!r.valid);
    assert_eq!(r.status, "no_footprint");
    assert!(r.colliding);
}

#[test]
fn without_fail_safe_the_flag_follows_geometry() {
    let mut m = Monitor::new(MonitorConfig {
        fail_safe: false,
        ..Default::default()
    });
    m.set_footprint("map", &square(0.0, 0.0, 0.5), 0.0);
    let r = m.evaluate(0.0);
    assert_eq!(r.status, "no_obstacles");
    assert!(!r.valid);
    assert!(!r.colliding);
}

#[test]
fn stale_footprint_then_stale_obstacles() {
    let mut m = ready_monitor();
    let r = m.evaluate(1.5);
    assert_eq!(r.status, "stale_footprint");
    assert!(r.colliding);
    m.set_footprint("map", &square(0.0, 0.0, 0.5), 1.5);
    assert_eq!(m.evaluate(1.6).status, "stale_obstacles");
    m.set_obstacles("map", vec![], 1.6);
    let r = m.evaluate(1.7);
    assert!(r.valid, "{r:?}");
    assert!(!r.colliding);
    assert_eq!(r.min_distance, f64::INFINITY);
}

#[test]
fn zero_timeout_never_goes_stale() {
    let mut m = ready_monitor();
    m.set_config(MonitorConfig {
        footprint_timeout: 0.0,
        obstacles_timeout: 0.0,
        ..Default::default()
    });
    assert!(m.evaluate(1e6).valid);
}

#[test]
fn nan_footprint_is_invalid() {
    let mut m = ready_monitor();
    m.set_footprint(
        "map",
        &[
            Point::new(0.0, 0.0),
            Point::new(f64::NAN, 0.0),
            Point::new(0.0, 1.0),
        ],
        0.0,
    );
    let r = m.evaluate(0.0);
    assert_eq!(r.status, "invalid_footprint");
    assert!(r.colliding);
    assert!(r.outcomes.is_empty());
}

#[test]
fn frame_mismatch_is_reported() {
    let mut m = ready_monitor();
    m.set_obstacles("odom", vec![obstacle("far", square(3.0, 0.0, 0.5))], 0.0);
    let r = m.evaluate(0.0);
    assert_eq!(r.status, "frame_mismatch");
    assert!(r.colliding);
}

#[test]
fn invalid_obstacle_gets_its_own_status_and_fails_safe() {
    let mut m = ready_monitor();
    let bow_tie = vec![
        Point::new(2.0, 0.0),
        Point::new(3.0, 1.0),
        Point::new(3.0, 0.0),
        Point::new(2.0, 1.0),
    ];
    m.set_obstacles(
        "map",
        vec![
            obstacle("far", square(3.0, 0.0, 0.5)),
            obstacle("bad", bow_tie),
        ],
        0.0,
    );
    let r = m.evaluate(0.0);
    assert_eq!(r.outcomes[0].status, "ok");
    assert_eq!(r.outcomes[1].status, "self_intersecting");
    assert_eq!(r.status, "invalid_obstacle");
    assert!(!r.valid);
    assert!(r.colliding);
}

#[test]
fn collision_is_reported_with_nearest_deepest() {
    let mut m = ready_monitor();
    m.set_obstacles(
        "map",
        vec![
            obstacle("shallow", square(0.95, 0.0, 0.5)),
            obstacle("deep", square(0.6, 0.0, 0.5)),
            obstacle("far", square(3.0, 0.0, 0.5)),
        ],
        0.0,
    );
    let r = m.evaluate(0.0);
    assert!(r.valid);
    assert!(r.colliding);
    assert_eq!(r.min_distance, 0.0);
    assert_eq!(r.nearest_obstacle_id, "deep");
    assert!(r.outcomes[1].colliding());
}

/// `flag` is `evaluate`'s decision in every state the monitor can be
/// in, with and without fail-safe, with and without padding.
#[test]
fn flag_is_the_decision_of_evaluate() {
    let bow_tie = vec![
        Point::new(2.0, 0.0),
        Point::new(3.0, 1.0),
        Point::new(3.0, 0.0),
        Point::new(2.0, 1.0),
    ];
    let touching = square(1.0, 0.0, 0.5);
    type SetUp = Box<dyn Fn(&mut Monitor)>;
    let states: Vec<(&str, SetUp)> = vec![
        ("nothing", Box::new(|_| {})),
        (
            "footprint only",
            Box::new(|m| m.set_footprint("map", &square(0.0, 0.0, 0.5), 0.0)),
        ),
        ("clear", Box::new(|m| *m = ready_monitor_with(m.config()))),
        (
            "touching",
            Box::new(move |m| {
                *m = ready_monitor_with(m.config());
                m.set_obstacles("map", vec![obstacle("t", touching.clone())], 0.0);
            }),
        ),
        (
            "gap within padding",
            Box::new(|m| {
                *m = ready_monitor_with(m.config());
                m.set_obstacles("map", vec![obstacle("g", square(1.05, 0.0, 0.5))], 0.0);
            }),
        ),
        (
            "frame mismatch while colliding",
            Box::new(|m| {
                *m = ready_monitor_with(m.config());
                m.set_obstacles("odom", vec![obstacle("c", square(0.5, 0.0, 0.5))], 0.0);
            }),
        ),
        (
            "invalid obstacle",
            Box::new(move |m| {
                *m = ready_monitor_with(m.config());
                m.set_obstacles("map", vec![obstacle("bad", bow_tie.clone())], 0.0);
            }),
        ),
        (
            "invalid footprint",
            Box::new(|m| {
                *m = ready_monitor_with(m.config());
                m.set_footprint("map", &[Point::new(0.0, 0.0)], 0.0);
            }),
        ),
    ];
    let mut seen = std::collections::HashSet::new();
    for fail_safe in [true, false] {
        for padding in [0.0, 0.1] {
            for (name, set_up) in &states {
                let mut m = Monitor::new(MonitorConfig {
                    fail_safe,
                    padding,
                    ..Default::default()
                });
                set_up(&mut m);
                for now in [0.5, 5.0] {
                    let r = m.evaluate(now);
                    let want = Flag {
                        colliding: r.colliding,
                        valid: r.valid,
                        status: r.status,
                    };
                    assert_eq!(m.flag(now), want, "{name}, {fail_safe}, {padding}, {now}");
                    seen.insert((want.status.as_str(), want.colliding, fail_safe));
                }
            }
        }
    }
    // The states above do reach every branch.
    for expected in [
        ("ok", false, true),
        ("ok", true, false),
        // Obstacles in a frame that cannot be placed have no geometry:
        // without fail-safe the flag does not guess.
        ("frame_mismatch", false, false),
        ("frame_mismatch", true, true),
        ("invalid_obstacle", false, false),
        ("invalid_footprint", true, true),
        ("no_footprint", true, true),
        ("no_obstacles", false, false),
        ("stale_footprint", true, true),
    ] {
        assert!(seen.contains(&expected), "{expected:?} not reached");
    }
}

#[test]
fn instances_expire_one_by_one_and_zones_never() {
    let mut m = Monitor::new(MonitorConfig::default());
    m.set_zones("map", vec![obstacle("zone", square(-3.0, 0.0, 0.5))]);
    m.set_footprint("map", &square(0.0, 0.0, 0.5), 0.0);
    m.upsert_instance("map", obstacle("a", square(2.0, 0.0, 0.5)), 0.0);
    m.upsert_instance("map", obstacle("b", square(0.0, 2.0, 0.5)), 0.8);
    assert_eq!(m.obstacles().len(), 3);
    assert_eq!(m.expire_instances(1.5), 1);
    let ids: Vec<&str> = m.obstacles().iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids, ["zone", "b"]);
    m.upsert_instance("map", obstacle("b", square(0.0, 0.8, 0.5)), 1.5);
    assert_eq!(m.obstacles().len(), 2);
    m.set_footprint("map", &square(0.0, 0.0, 0.5), 1.5);
    let r = m.evaluate(1.5);
    assert!(r.valid, "{r:?}");
    assert!(r.colliding);
    assert_eq!(r.nearest_obstacle_id, "b");
    assert_eq!(m.expire_instances(10.0), 1);
    m.set_footprint("map", &square(0.0, 0.0, 0.5), 10.0);
    let r = m.evaluate(10.0);
    assert!(r.valid);
    assert_eq!(m.obstacles().len(), 1);
}

/// The freshness rule: arrival within the timeout and, for a non-zero
/// stamp, the stamp within the timeout of now, either way.
#[test]
fn freshness_is_by_arrival_and_by_a_non_zero_stamp() {
    // timeout 1 s; (received, stamp, now) -> stale
    for (received, stamp, now, stale) in [
        (10.0, 0.0, 10.9, false),  // unstamped: arrival alone
        (10.0, 0.0, 11.1, true),   // unstamped, arrived too long ago
        (10.0, 9.5, 10.4, false),  // stamped 0.9 s ago
        (10.0, 5.0, 10.0, true),   // arrived now, stamped 5 s ago
        (10.0, 10.0, 11.1, true),  // stamped now, arrived too long ago
        (10.0, 10.9, 10.0, false), // a little ahead
        (10.0, 15.0, 10.0, true),  // far ahead
        (10.0, -3.0, 10.0, true),  // a negative stamp is a stamp
    ] {
        assert_eq!(
            is_stale(1.0, now, received, stamp),
            stale,
            "{received} {stamp} {now}"
        );
        assert!(!is_stale(0.0, now, received, stamp), "0: never");
    }
}

/// The footprint: stamped 5 s before it arrived, it is stale
/// however recently it arrived; so are an array, a velocity and an
/// instance stamped so, and the unstamped ones are judged by arrival.
#[test]
fn inputs_stamped_before_their_timeout_are_stale_on_arrival() {
    let mut m = ready_monitor();
    m.set_footprint_at("map", 95.0, &square(0.0, 0.0, 0.5), 100.0);
    m.set_obstacles("map", vec![obstacle("far", square(3.0, 0.0, 0.5))], 100.0);
    let r = m.evaluate(100.0);
    assert_eq!(
        (r.valid, r.status.as_str(), r.colliding),
        (false, "stale_footprint", true)
    );
    assert_eq!(
        m.flag(100.0),
        Flag {
            colliding: true,
            valid: false,
            status: Status::StaleFootprint
        }
    );
    m.set_footprint_at("map", 99.5, &square(0.0, 0.0, 0.5), 100.0);
    assert_eq!(m.evaluate(100.0).status, "ok");
    assert_eq!(m.evaluate(100.6).status, "stale_footprint", "by stamp");
    m.set_footprint_at("map", 0.0, &square(0.0, 0.0, 0.5), 100.0);
    assert_eq!(m.evaluate(100.9).status, "ok", "unstamped: by arrival");

    m.set_obstacles_at(
        "map",
        95.0,
        vec![obstacle("far", square(3.0, 0.0, 0.5))],
        100.0,
    );
    assert_eq!(m.evaluate(100.0).status, "stale_obstacles");
    let robot = Shape::polygon(&square(0.0, 0.0, 0.5)).unwrap();
    let answer = m.check_trajectory(&robot, &[Isometry2::identity()], 0.0, 100.0);
    assert_eq!(
        (answer.valid, answer.status),
        (false, Status::StaleObstacles)
    );
    m.set_obstacles_at(
        "map",
        99.8,
        vec![obstacle("far", square(3.0, 0.0, 0.5))],
        100.0,
    );
    assert_eq!(m.evaluate(100.0).status, "ok");

    // An instance stamped 5 s ago: dropped at once; stamped 0.5 s ago:
    // it expires 1 s after its stamp, not after its arrival.
    assert!(!m.upsert_instance_at("map", 95.0, obstacle("old", square(0.0, 0.0, 0.2)), 100.0));
    assert_eq!(m.expire_instances(100.0), 1);
    assert!(m.upsert_instance_at("map", 99.5, obstacle("i", square(0.0, 0.0, 0.2)), 100.0));
    assert_eq!(m.obstacle_set().next_expiry(1.0), Some(100.5));
    assert_eq!(m.expire_instances(100.4), 0);
    assert_eq!(m.expire_instances(100.6), 1);

    // The velocity: stamped (odometry, twist_stamped) by its stamp too.
    m.set_obstacles("map", vec![obstacle("far", square(3.0, 0.0, 0.5))], 100.0);
    let config = MonitorConfig {
        base_frame: "map".into(),
        ..m.config().clone()
    };
    m.set_config(config);
    m.set_velocity_at("", 95.0, Vector::new(0.1, 0.0), 0.0, 100.0);
    let p = m.predict(&NoTransforms, 100.0);
    assert_eq!((p.status, p.ahead), (Status::StaleVelocity, true));
    m.set_velocity_at("", 99.9, Vector::new(0.1, 0.0), 0.0, 100.0);
    assert_eq!(m.predict(&NoTransforms, 100.0).status, Status::Ok);
    m.set_velocity_at("", 0.0, Vector::new(0.1, 0.0), 0.0, 100.0);
    assert_eq!(m.predict(&NoTransforms, 100.4).status, Status::Ok);
}

/// A velocity that names no frame, without `base_frame`: whose motion
/// it is is unknown, and it is never applied to another frame.
#[test]
fn a_velocity_of_no_known_frame_is_not_predicted() {
    let mut m = ready_monitor();
    m.set_velocity("", Vector::new(1.0, 0.0), 0.0, 0.0);
    let p = m.predict(&NoTransforms, 0.1);
    assert_eq!((p.status, p.ahead), (Status::UnknownVelocityFrame, true));
    assert!(p.sweep.is_none() && p.impact.is_none());
    // Without fail-safe: not valid, and no guess either.
    let mut config = m.config().clone();
    config.fail_safe = false;
    m.set_config(config.clone());
    let p = m.predict(&NoTransforms, 0.1);
    assert_eq!((p.status, p.ahead), (Status::UnknownVelocityFrame, false));
    // With base_frame (here the footprint's frame), it is that frame's.
    config.base_frame = "map".into();
    m.set_config(config);
    let p = m.predict(&NoTransforms, 0.1);
    assert_eq!(p.status, Status::Ok);
    assert!(p.ahead, "the obstacle 1.5 m ahead within 2 s at 1 m/s");
}

#[test]
fn trajectory_check_fails_safe_on_stale_obstacles() {
    let m = ready_monitor();
    let robot = Shape::polygon(&square(0.0, 0.0, 0.5)).unwrap();
    let poses: Vec<_> = (0..5)
        .map(|k| nalgebra::Isometry2::new(nalgebra::Vector2::new(k as f64 * 0.5, 0.0), 0.0))
        .collect();
    let fresh = m.check_trajectory(&robot, &poses, 0.0, 0.5);
    assert!(fresh.valid);
    assert_eq!(fresh.check.first_collision, Some(4));
    assert_eq!(fresh.check.colliding, [false, false, false, false, true]);
    assert!((fresh.check.distance[0] - 2.0).abs() < 1e-9);
    let padded = m.check_trajectory(&robot, &poses, 0.6, 0.5);
    assert_eq!(padded.check.first_collision, Some(3));
    let stale = m.check_trajectory(&robot, &poses, 0.0, 5.0);
    assert!(!stale.valid);
    assert_eq!(stale.status, "stale_obstacles");
    assert!(stale.check.colliding.iter().all(|&c| c));
    assert_eq!(stale.check.first_collision, Some(0));
}

#[test]
fn circle_convention_in_messages() {
    let g = ObstacleGeometry::from_points_and_radius(vec![Point::new(1.0, 2.0)], 0.3);
    assert!(matches!(g.to_shape(), Ok(Shape::Circle(_))));
    let g = ObstacleGeometry::from_points_and_radius(vec![Point::new(1.0, 2.0)], -0.3);
    assert_eq!(
        Status::from(&g.to_shape().map(|_| ()).unwrap_err()),
        "invalid_radius"
    );
    let g = ObstacleGeometry::from_points_and_radius(vec![Point::new(1.0, 2.0)], 0.0);
    assert_eq!(
        Status::from(&g.to_shape().map(|_| ()).unwrap_err()),
        "too_few_points"
    );
}

#[test]
fn clock_causes_come_first() {
    let mut m = ready_monitor();
    m.set_clock(0, Some(Cause::NoClock));
    let r = m.evaluate(0.5);
    assert_eq!(
        (r.valid, r.status.as_str(), r.colliding),
        (false, "no_clock", true)
    );
    assert_eq!(m.flag(0.5).status, "no_clock");
    m.set_clock(0, Some(Cause::ClockStalled));
    assert_eq!(m.evaluate(0.5).status, "clock_stalled");
    m.set_clock(0, None);
    assert_eq!(m.evaluate(0.5).status, "ok");
}

/// After a backward jump, inputs received before it are not trusted
/// until they arrive anew: their times mean nothing any more.
#[test]
fn inputs_from_before_a_clock_jump_are_not_trusted() {
    let mut m = ready_monitor();
    m.set_clock(1, None);
    assert_eq!(m.evaluate(0.2).status, "clock_jumped_back");
    m.set_footprint("map", &square(0.0, 0.0, 0.5), 0.2);
    assert_eq!(
        m.evaluate(0.2).status,
        "clock_jumped_back",
        "the array is old"
    );
    m.set_obstacles("map", vec![obstacle("far", square(3.0, 0.0, 0.5))], 0.3);
    assert_eq!(m.evaluate(0.3).status, "ok");
    // An input stamped later than now can only come from before a jump.
    let mut m = ready_monitor();
    m.set_footprint("map", &square(0.0, 0.0, 0.5), 50.0);
    assert_eq!(m.evaluate(1.0).status, "clock_jumped_back");
    assert!(m.flag(1.0).colliding);
}

#[test]
fn obstacle_input_waiting_too_long_is_overloaded() {
    let mut m = ready_monitor();
    m.set_pending_obstacles(Some(0.1));
    assert_eq!(m.evaluate(0.5).status, "ok", "within the overload timeout");
    let r = m.evaluate(0.7);
    assert_eq!(
        (r.valid, r.status.as_str(), r.colliding),
        (false, "overloaded", true)
    );
    assert_eq!(
        m.flag(0.7),
        Flag {
            colliding: true,
            valid: false,
            status: Status::Overloaded
        }
    );
    m.set_pending_obstacles(None);
    assert_eq!(m.evaluate(0.7).status, "ok");
}

#[test]
fn refused_messages_name_their_limit_and_replace_what_they_supersede() {
    let mut m = ready_monitor();
    m.reject_obstacles(Rejection::TooManyObstacles, 0.1);
    let r = m.evaluate(0.2);
    assert_eq!((r.valid, r.status.as_str()), (false, "too_many_obstacles"));
    assert!(m.obstacles().is_empty(), "the previous array is gone");
    m.set_obstacles("map", vec![obstacle("far", square(3.0, 0.0, 0.5))], 0.3);
    assert_eq!(m.evaluate(0.3).status, "ok");
    m.reject_footprint(Rejection::InvalidFrameId, 0.4);
    let r = m.evaluate(0.4);
    assert_eq!(
        (r.valid, r.status.as_str(), r.colliding),
        (false, "invalid_frame_id", true)
    );
    assert!(m.footprint_error().is_none(), "not a shape error");
    m.reject_instance(Rejection::TooManyObstacles, 0.5);
    m.set_footprint("map", &square(0.0, 0.0, 0.5), 0.5);
    assert_eq!(m.evaluate(0.6).status, "too_many_obstacles");
    m.set_obstacles("map", vec![obstacle("far", square(3.0, 0.0, 0.5))], 1.5);
    m.set_footprint("map", &square(0.0, 0.0, 0.5), 1.5);
    assert_eq!(m.expire_instances(1.6), 0, "no instance, only the refusal");
    assert_eq!(
        m.evaluate(1.6).status,
        "ok",
        "the refusal lived one timeout"
    );
}

#[test]
fn a_copy_shares_the_obstacle_set_and_changes_do_not_leak_into_it() {
    let m = ready_monitor();
    let mut copy = m.clone();
    assert!(Arc::ptr_eq(m.obstacle_set(), copy.obstacle_set()));
    copy.set_obstacles("map", vec![], 0.0);
    assert_eq!(m.obstacles().len(), 1);
    assert!(copy.obstacles().is_empty());
    let mut other = Monitor::new(MonitorConfig::default());
    other.set_obstacle_set(Arc::clone(m.obstacle_set()));
    other.set_footprint("map", &square(0.0, 0.0, 0.5), 0.0);
    assert_eq!(other.evaluate(0.1), m.evaluate(0.1));
}

/// `n` copies of one point: not a polygon, so the obstacle keeps all
/// `n` as its rejected points.
fn degenerate(n: usize, x: f64) -> Vec<Point> {
    vec![Point::new(x, 0.0); n]
}

#[test]
fn instances_are_bounded_in_number_and_vertices_and_refusals_are_reported() {
    use crate::limits::{MAX_INSTANCES, MAX_INSTANCE_VERTICES};
    let mut m = ready_monitor();
    let big = MAX_INSTANCE_VERTICES / 4;
    let updates = (0..5).map(|k| InstanceUpdate {
        frame_id: "map".into(),
        stamp: 0.0,
        obstacle: obstacle(&format!("big{k}"), degenerate(big, 10.0 + 3.0 * k as f64)),
        received: 0.1 * k as f64,
        lifetime: None,
    });
    let refused = m.upsert_instances(updates).refused;
    assert_eq!(refused, [("big4".to_owned(), Rejection::TooManyVertices)]);
    let set = m.obstacle_set();
    assert_eq!(set.instance_count(), 4);
    assert_eq!(set.instance_vertices(), MAX_INSTANCE_VERTICES);
    m.set_footprint("map", &square(0.0, 0.0, 0.5), 0.4);
    let r = m.evaluate(0.4);
    assert_eq!((r.valid, r.colliding), (false, true));
    assert_eq!(r.status, Status::TooManyVertices);
    // Replacing one by a smaller one fits (what it replaces is gone).
    m.upsert_instance("map", obstacle("big0", square(10.0, 0.0, 0.5)), 0.5);
    assert_eq!(m.obstacle_set().instance_vertices(), 3 * big + 4);
    assert!(m.obstacle_set().admits("new", big - 4).is_ok());
    assert_eq!(
        m.obstacle_set().admits("new", big - 3),
        Err(Rejection::TooManyVertices)
    );
    // Expiry gives the vertices back.
    assert_eq!(m.expire_instances(1.35), 3);
    assert_eq!(m.obstacle_set().instance_vertices(), 4);
    assert_eq!(m.obstacles().len(), 2);
    // The number of instances: one new id beyond the bound is refused.
    let mut m = ready_monitor();
    let updates = (0..=MAX_INSTANCES).map(|k| InstanceUpdate {
        frame_id: "map".into(),
        stamp: 0.0,
        obstacle: obstacle(&format!("i{k}"), square(10.0 + k as f64, 0.0, 0.2)),
        received: 0.0,
        lifetime: None,
    });
    let refused = m.upsert_instances(updates).refused;
    assert_eq!(
        refused,
        [(format!("i{MAX_INSTANCES}"), Rejection::TooManyObstacles)]
    );
    assert_eq!(m.obstacle_set().instance_count(), MAX_INSTANCES);
    assert_eq!(m.obstacles().len(), MAX_INSTANCES + 1);
    // A known id is still replaced.
    m.upsert_instance("map", obstacle("i7", square(0.0, 0.0, 0.2)), 0.1);
    let ids: Vec<&str> = m.obstacles().iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids.iter().filter(|id| **id == "i7").count(), 1);
    m.set_footprint("map", &square(0.0, 0.0, 0.5), 0.1);
    assert_eq!(m.evaluate(0.1).status, Status::TooManyObstacles);
}

/// Instances keep their order (frame, stamp, id) and the array and
/// zones around them stay, whatever order they come and go in.
#[test]
fn instances_stay_in_order_when_the_array_and_zones_change() {
    let mut m = ready_monitor();
    m.set_zones("map", vec![obstacle("zone", square(-3.0, 0.0, 0.5))]);
    for (id, frame, stamp) in [("c", "map", 0.0), ("a", "odom", 0.0), ("b", "map", 0.0)] {
        m.upsert_instance_at(frame, stamp, obstacle(id, square(5.0, 0.0, 0.2)), 0.0);
    }
    let ids = |m: &Monitor| -> Vec<String> { m.obstacles().iter().map(|o| o.id.clone()).collect() };
    assert_eq!(ids(&m), ["zone", "far", "b", "c", "a"].map(String::from));
    m.set_obstacles(
        "map",
        vec![
            obstacle("x", square(7.0, 0.0, 0.2)),
            obstacle("y", square(8.0, 0.0, 0.2)),
        ],
        0.1,
    );
    assert_eq!(ids(&m), ["zone", "x", "y", "b", "c", "a"].map(String::from));
    m.upsert_instance("map", obstacle("a", square(5.0, 0.0, 0.3)), 0.2);
    assert_eq!(ids(&m), ["zone", "x", "y", "a", "b", "c"].map(String::from));
    m.set_zones("map", vec![]);
    m.set_obstacles("map", vec![], 0.3);
    assert_eq!(ids(&m), ["a", "b", "c"].map(String::from));
    m.forget_instances();
    assert!(m.obstacles().is_empty());
    assert_eq!(m.obstacle_set().instance_vertices(), 0);
}

#[test]
fn forgetting_instances_after_a_jump_drops_them() {
    let mut m = ready_monitor();
    m.upsert_instance("map", obstacle("i", square(0.0, 0.0, 0.2)), 0.0);
    assert_eq!(m.obstacles().len(), 2);
    m.forget_instances();
    assert_eq!(m.obstacles().len(), 1);
    assert_eq!(m.obstacle_set().instance_count(), 0);
}

/// The monitor with an exact range decides exactly as without, and
/// `evaluate_into` reuses its buffers.
#[test]
fn monitor_with_exact_range() {
    use crate::broadphase::tests::random_obstacle;
    use sat_collision_testkit::SplitMix64 as Rng;
    let mut rng = Rng(11);
    let obstacles: Vec<Obstacle> = (0..200)
        .map(|k| random_obstacle(&mut rng, k + 3 * (k % 2), 8.0))
        .filter(|o| o.shape.is_ok())
        .collect();
    let mut exact = Monitor::new(MonitorConfig::default());
    exact.set_obstacles("map", obstacles.clone(), 0.0);
    let mut fast = exact.clone();
    fast.set_exact_range(0.5);
    assert_eq!(fast.exact_range(), 0.5);
    assert_eq!(exact.exact_range(), f64::INFINITY);
    let mut report = fast.evaluate(0.0);
    for step in 0..50 {
        let x = -6.0 + 0.25 * step as f64;
        let footprint = [
            Point::new(x - 0.5, -0.3),
            Point::new(x + 0.5, -0.3),
            Point::new(x + 0.5, 0.3),
            Point::new(x - 0.5, 0.3),
        ];
        exact.set_footprint("map", &footprint, 0.0);
        fast.set_footprint("map", &footprint, 0.0);
        let want = exact.evaluate(0.0);
        let capacity = report.outcomes.capacity();
        fast.evaluate_into(0.0, &mut report);
        assert_eq!(report.outcomes.capacity(), capacity);
        assert_eq!(
            (
                report.colliding,
                report.valid,
                report.status,
                report.min_distance
            ),
            (want.colliding, want.valid, want.status, want.min_distance)
        );
        assert_eq!(report.nearest_obstacle_id, want.nearest_obstacle_id);
        let flag = fast.flag(0.0);
        assert_eq!(
            (flag.colliding, flag.valid, flag.status),
            (want.colliding, want.valid, want.status)
        );
        assert_eq!(report.frame_id, want.frame_id);
    }
}
