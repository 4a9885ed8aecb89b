use super::*;
use crate::geometry::{intersects, Point, Shape};

fn square(half: f64) -> Vec<Point> {
    vec![
        Point::new(-half, -half),
        Point::new(half, -half),
        Point::new(half, half),
        Point::new(-half, half),
    ]
}

fn config() -> FleetConfig {
    FleetConfig {
        robot_id: "me".into(),
        session: 7,
        frame: "map".into(),
        timeout: 0.5,
        clock_tolerance: 0.2,
    }
}

fn message(id: &str, session: u64, sequence: u64, stamp: f64, x: f64) -> PeerMessage {
    PeerMessage {
        robot_id: id.into(),
        session,
        sequence,
        frame_id: "map".into(),
        stamp,
        footprint: square(0.5),
        pose: Isometry2::new(Vector::new(x, 0.0), 0.0),
        linear: Vector::new(1.0, 0.0),
        angular: 0.0,
        max_linear_speed: 1.0,
        max_angular_speed: 0.5,
        plan: Vec::new(),
    }
}

struct Built {
    obstacles: Vec<Obstacle>,
    moving: Vec<MovingObstacle>,
    statuses: Vec<(String, PeerStatus, f64)>,
}

fn build(fleet: &Fleet, now: f64, horizon: f64) -> Built {
    let (mut obstacles, mut moving, mut entries) = (Vec::new(), Vec::new(), Vec::new());
    fleet.obstacles_at(now, horizon, &mut obstacles, &mut moving, &mut entries);
    let statuses = entries
        .iter()
        .map(|e| (e.robot_id.to_owned(), e.status, e.growth))
        .collect();
    Built {
        obstacles,
        moving,
        statuses,
    }
}

fn probe(at: Point) -> Shape {
    Shape::circle(at, 1e-6).expect("a circle")
}

#[test]
fn own_messages_are_not_peers() {
    let mut fleet = Fleet::new(config());
    assert_eq!(
        fleet.receive(message("me", 7, 1, 0.0, 0.0), 0.0),
        Ok(Taken::Own)
    );
    assert!(fleet.is_empty());
}

#[test]
fn a_fresh_peer_is_its_footprint_grown_by_its_spread_times_its_age() {
    let mut fleet = Fleet::new(config());
    assert_eq!(
        fleet.receive(message("r2", 1, 1, 10.0, 3.0), 10.05),
        Ok(Taken::Peer)
    );
    let built = build(&fleet, 10.2, 2.0);
    // Spread: 1 m/s + 0.5 rad/s × √0.5 m; age 0.2 s (from the stamp).
    let spread = 1.0 + 0.5 * 0.5f64.sqrt();
    let (ref id, status, growth) = built.statuses[0];
    assert_eq!((id.as_str(), status), ("r2", PeerStatus::Ok));
    assert!((growth - spread * 0.2).abs() < 1e-12);
    let shape = built.obstacles[0].shape.as_ref().expect("grown");
    // Every point within the growth of the footprint is inside; a point
    // a little beyond the octagon's reach is not.
    let edge = 3.5 + growth;
    assert!(intersects(&probe(Point::new(edge - 1e-9, 0.0)), shape, 0.0));
    let corner = Point::new(
        3.5 + growth * std::f64::consts::FRAC_1_SQRT_2,
        0.5 + growth * std::f64::consts::FRAC_1_SQRT_2,
    );
    assert!(intersects(&probe(corner), shape, 0.0));
    assert!(!intersects(
        &probe(Point::new(3.5 + growth * 1.09, 0.0)),
        shape,
        0.0
    ));
    // The prediction: the hull moving by its twist, padded by the growth.
    assert_eq!(built.moving[0].padding, growth);
    let at_1s = built.moving[0].motion.pose_at(1.0);
    assert!((at_1s.translation.x - 4.0).abs() < 1e-12);
}

#[test]
fn a_stale_peer_is_kept_and_keeps_growing() {
    let mut fleet = Fleet::new(config());
    fleet
        .receive(message("r2", 1, 1, 10.0, 3.0), 10.0)
        .expect("taken");
    let fresh = build(&fleet, 10.4, 2.0);
    assert_eq!(fresh.statuses[0].1, PeerStatus::Ok);
    let stale = build(&fleet, 15.0, 2.0);
    assert_eq!(stale.statuses[0].1, PeerStatus::StalePeer);
    assert!(stale.statuses[0].2 > fresh.statuses[0].2 * 10.0);
    // Standing still for the prediction, padded to the horizon's end.
    let spread = 1.0 + 0.5 * 0.5f64.sqrt();
    assert!((stale.moving[0].padding - spread * 7.0).abs() < 1e-9);
    assert_eq!(stale.moving[0].motion.pose_at(1.0).translation.x, 3.0);
    // Liveliness lost: stale at once, still there.
    let mut fleet = Fleet::new(config());
    fleet
        .receive(message("r2", 1, 1, 10.0, 3.0), 10.0)
        .expect("taken");
    fleet.liveliness_lost("r2", 10.1);
    let lost = build(&fleet, 10.1, 2.0);
    assert_eq!(lost.statuses[0].1, PeerStatus::StalePeer);
    assert_eq!(lost.obstacles.len(), 1);
}

#[test]
fn clocks_that_disagree_are_named_and_the_age_is_never_shortened() {
    let mut fleet = Fleet::new(config());
    // Stamped 5 s in the future: counted from the arrival.
    fleet
        .receive(message("ahead", 1, 1, 15.0, 3.0), 10.0)
        .expect("taken");
    // Stamped 1 s before its arrival: counted from the stamp (older).
    fleet
        .receive(message("behind", 1, 1, 9.0, 3.0), 10.0)
        .expect("taken");
    let built = build(&fleet, 10.1, 1.0);
    let spread = 1.0 + 0.5 * 0.5f64.sqrt();
    let ahead = &built.statuses[0];
    assert_eq!(
        (ahead.0.as_str(), ahead.1),
        ("ahead", PeerStatus::ClockSkew)
    );
    assert!((ahead.2 - spread * 0.1).abs() < 1e-9);
    let behind = &built.statuses[1];
    // 1.1 s old: stale by its stamp.
    assert_eq!(behind.1, PeerStatus::StalePeer);
    assert!((behind.2 - spread * 1.1).abs() < 1e-9);
}

#[test]
fn one_id_from_two_publishers_is_a_conflict_and_a_restart_is_not() {
    let mut fleet = Fleet::new(config());
    fleet
        .receive(message("r2", 1, 1, 10.0, 3.0), 10.0)
        .expect("taken");
    fleet
        .receive(message("r2", 2, 1, 10.0, -3.0), 10.1)
        .expect("taken");
    let built = build(&fleet, 10.2, 1.0);
    assert_eq!(built.obstacles.len(), 2, "both kept");
    assert!(built.statuses.iter().all(|s| s.1 == PeerStatus::IdConflict));
    // A restart: the old session quiet past the timeout is replaced.
    let mut fleet = Fleet::new(config());
    fleet
        .receive(message("r2", 1, 1, 10.0, 3.0), 10.0)
        .expect("taken");
    fleet
        .receive(message("r2", 2, 1, 11.0, 3.0), 11.0)
        .expect("taken");
    let built = build(&fleet, 11.1, 1.0);
    assert_eq!(built.obstacles.len(), 1);
    assert_eq!(built.statuses[0].1, PeerStatus::Ok);
    // Someone else claiming this node's id.
    let mut fleet = Fleet::new(config());
    fleet
        .receive(message("me", 99, 1, 10.0, 3.0), 10.0)
        .expect("taken");
    assert_eq!(
        build(&fleet, 10.1, 1.0).statuses[0].1,
        PeerStatus::IdConflict
    );
}

#[test]
fn bad_messages_are_refused_with_their_reason() {
    let mut fleet = Fleet::new(config());
    let mut m = message("r2", 1, 1, 10.0, 3.0);
    m.pose = Isometry2::new(Vector::new(f64::NAN, 0.0), 0.0);
    assert_eq!(fleet.receive(m, 10.0), Err(Refusal::NotFinite));
    let mut m = message("r2", 1, 1, 10.0, 3.0);
    m.linear = Vector::new(2.0, 0.0);
    assert_eq!(
        fleet.receive(m, 10.0),
        Err(Refusal::NotFinite),
        "faster than its bound"
    );
    let mut m = message("r2", 1, 1, 10.0, 3.0);
    m.footprint = (0..100)
        .map(|i| Point::new(f64::from(i).cos(), f64::from(i).sin()))
        .collect();
    assert_eq!(fleet.receive(m, 10.0), Err(Refusal::TooManyVertices(100)));
    let mut m = message("r2", 1, 1, 10.0, 3.0);
    m.footprint = vec![
        Point::new(0.0, 0.0),
        Point::new(1.0, 1.0),
        Point::new(2.0, 2.0),
    ];
    assert!(matches!(fleet.receive(m, 10.0), Err(Refusal::Footprint(_))));
    assert_eq!(
        fleet.receive(message(&"x".repeat(10_000), 1, 1, 10.0, 3.0), 10.0),
        Err(Refusal::BadId)
    );
    let mut m = message("r2", 1, 1, 10.0, 3.0);
    m.frame_id = "odom".into();
    assert!(matches!(
        fleet.receive(m, 10.0),
        Err(Refusal::WrongFrame(_))
    ));
    assert!(fleet.is_empty());
    fleet
        .receive(message("r2", 1, 5, 10.0, 3.0), 10.0)
        .expect("taken");
    assert_eq!(
        fleet.receive(message("r2", 1, 5, 10.1, 3.0), 10.1),
        Err(Refusal::OutOfOrder { got: 5, last: 5 })
    );
}

#[test]
fn a_flood_of_ids_is_capped_and_makes_the_fleet_unjudgeable() {
    let mut fleet = Fleet::new(config());
    let mut refused = 0;
    for i in 0..100_000u64 {
        if fleet.receive(message(&format!("r{i}"), 1, 1, 10.0, 3.0), 10.0)
            == Err(Refusal::TooManyPeers)
        {
            refused += 1;
        }
    }
    assert_eq!(fleet.len(), MAX_PEERS);
    assert_eq!(refused, 100_000 - MAX_PEERS);
    assert!(fleet.refusing(10.4));
    assert!(!fleet.refusing(10.6));
}

#[test]
fn the_same_peers_give_the_same_order() {
    let mut a = Fleet::new(config());
    let mut b = Fleet::new(config());
    for id in ["r3", "r1", "r2"] {
        a.receive(message(id, 1, 1, 10.0, 3.0), 10.0)
            .expect("taken");
    }
    for id in ["r2", "r3", "r1"] {
        b.receive(message(id, 1, 1, 10.0, 3.0), 10.0)
            .expect("taken");
    }
    let ids = |f: &Fleet| -> Vec<String> {
        build(f, 10.1, 1.0)
            .obstacles
            .iter()
            .map(|o| o.id.clone())
            .collect()
    };
    assert_eq!(ids(&a), ["r1", "r2", "r3"]);
    assert_eq!(ids(&a), ids(&b));
}

#[test]
fn a_plan_out_of_time_order_or_not_finite_is_refused() {
    let mut fleet = Fleet::new(config());
    let pose = Isometry2::new(Vector::new(3.0, 0.0), 0.0);
    let mut m = message("r2", 1, 1, 10.0, 3.0);
    m.plan = vec![(10.5, pose), (10.5, pose)];
    assert_eq!(fleet.receive(m, 10.0), Err(Refusal::BadPlan));
    let mut m = message("r2", 1, 1, 10.0, 3.0);
    m.plan = vec![(10.5, pose), (f64::NAN, pose)];
    assert_eq!(fleet.receive(m, 10.0), Err(Refusal::BadPlan));
    let mut m = message("r2", 1, 1, 10.0, 3.0);
    m.plan = (0..=MAX_PLAN_POSES)
        .map(|i| (10.0 + i as f64, pose))
        .collect();
    assert_eq!(fleet.receive(m, 10.0), Err(Refusal::BadPlan));
    let mut m = message("r2", 1, 1, 10.0, 3.0);
    m.plan = vec![(10.5, pose), (11.0, pose)];
    assert_eq!(fleet.receive(m, 10.0), Ok(Taken::Peer));
}
