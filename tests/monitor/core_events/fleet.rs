//! The fleet (issue 32, items 1 to 3): other robots on the fleet topic
//! as a source of the flag, the prediction and the gate, each peer its
//! footprint grown by its speed bounds times its age, moving by its twist
//! for `collision_ahead` and `approach`; stale peers kept and growing;
//! a flood of ids refused with the fleet not judged; this robot's own
//! state published at `fleet_rate` from TF.

use super::{config_of, goes, published, Rig, BASE, NODE, PERIOD};
use nalgebra::Isometry2;
use sat_collision::diagnostics::{DiagnosticStatus, Level};
use sat_collision::fleet::{PeerMessage, PeerStatus, MAX_PEERS};
use sat_collision::geometry::{Point, Vector};
use sat_collision::node::{Outputs, StatusContext, VelocityInput};

/// `<node>: fleet` now.
fn fleet_diagnostics(rig: &mut Rig) -> DiagnosticStatus {
    let context = StatusContext {
        node_name: NODE,
        hardware_id: "hw",
        lifecycle_state: "active",
        reports_skipped: 0,
    };
    let t = rig.t;
    let statuses = rig.core.statuses(&context, t);
    let name = format!("{NODE}: fleet");
    statuses
        .into_iter()
        .find(|s| s.name == name)
        .expect("a fleet status")
}

/// The robot: a 0.5 m square; a stop zone just in front of it (x in
/// [0.25, 0.75]); an approach zone of its own square, 2 s ahead; a fleet
/// source; `map` → `base` the identity (the robot at the origin, facing
/// +x). `robot_id` r1, published at 16 Hz; peers stale after 0.5 s.
fn yaml() -> String {
    let front = "[[0.75, 0.25], [0.75, -0.25], [0.25, -0.25], [0.25, 0.25]]";
    let robot = "[[0.25, 0.25], [0.25, -0.25], [-0.25, -0.25], [-0.25, 0.25]]";
    format!(
        "{NODE}:
  ros__parameters:
    base_frame_id: {BASE}
    global_frame: map
    robot_footprint: \"{robot}\"
    publish_rate: 16.0
    base_shift_correction: false
    velocity_topic: odom
    time_horizon: 3.0
    robot_id: r1
    fleet_rate: 16.0
    fleet_timeout: 0.5
    max_linear_speed: 1.0
    max_angular_speed: 0.5
    observation_sources: [fleet]
    fleet: {{type: fleet}}
    polygons: [stop, approach]
    stop: {{type: polygon, points: \"{front}\", action_type: stop, min_points: 4}}
    approach: {{type: polygon, points: \"{robot}\", action_type: approach,
                time_before_collision: 2.0, min_points: 4}}
"
    )
}

fn rig() -> Rig {
    let mut rig = Rig::new(config_of(&yaml()), 0);
    rig.static_tf("map", BASE, 0.0, 0.0, 0.0);
    rig.set_active(true);
    rig
}

/// Peer `id` (session 1) at `(x, y, yaw)` in `map`, moving by the body
/// twist `(vx, w)`, a 0.5 m square bounded by 1 m/s and 0.5 rad/s,
/// stamped `t` ([`send`] stamps it with its arrival).
fn peer(t: f64, id: &str, sequence: u64, pose: (f64, f64, f64), twist: (f64, f64)) -> PeerMessage {
    let half = 0.25;
    PeerMessage {
        robot_id: id.to_owned(),
        session: 1,
        sequence,
        frame_id: "map".to_owned(),
        stamp: t,
        footprint: vec![
            Point::new(-half, -half),
            Point::new(half, -half),
            Point::new(half, half),
            Point::new(-half, half),
        ],
        pose: Isometry2::new(Vector::new(pose.0, pose.1), pose.2),
        linear: Vector::new(twist.0, 0.0),
        angular: twist.1,
        max_linear_speed: 1.0,
        max_angular_speed: 0.5,
        plan: Vec::new(),
    }
}

/// `messages` arriving now, stamped now.
fn send(rig: &mut Rig, mut messages: Vec<PeerMessage>) -> Outputs {
    for m in &mut messages {
        m.stamp = rig.t;
    }
    let mut messages: Vec<_> = messages.into_iter().map(|m| (Ok(m), rig.t)).collect();
    let mut out = Outputs::default();
    let now = rig.now();
    rig.core.on_fleet(&mut messages, now, &mut out);
    out
}

fn velocity(rig: &mut Rig, vx: f64) {
    let input = VelocityInput {
        frame_id: String::new(),
        stamp: rig.t,
        linear: (vx, 0.0),
        angular: 0.0,
        rejected: false,
    };
    let mut out = Outputs::default();
    let (arrival, now) = (rig.arrival(), rig.now());
    rig.core.on_velocity(&input, arrival, now, &mut out);
}

#[test]
fn a_peer_far_away_lets_the_command_through_and_one_in_the_stop_zone_stops_it() {
    let mut rig = rig();
    let out = send(
        &mut rig,
        vec![peer(0.0, "r2", 1, (5.0, 0.0, 0.0), (0.0, 0.0))],
    );
    let flag = out.flag.expect("a decision");
    assert!(flag.valid && !flag.colliding, "{flag:?}");
    assert!(goes(&rig.command(0.3, 0.0, 0.0)));
    let status = fleet_diagnostics(&mut rig);
    assert_eq!(
        (status.level, status.message.as_str()),
        (Level::Ok, "1 peers")
    );
    assert_eq!(status.value("robot_id"), Some("r1"));
    // Its square reaches x = 0.25..: into the stop zone, not the robot.
    rig.advance(PERIOD);
    let out = send(
        &mut rig,
        vec![peer(0.0, "r2", 2, (0.75, 0.0, 0.0), (0.0, 0.0))],
    );
    assert!(!out.flag.expect("a decision").colliding);
    let out = rig.command(0.3, 0.0, 0.0);
    assert!(published(&out).is_some_and(|c| c.is_zero()), "{out:?}");
    // Overlapping the robot: the flag.
    rig.advance(PERIOD);
    let out = send(
        &mut rig,
        vec![peer(0.0, "r2", 3, (0.4, 0.0, 0.0), (0.0, 0.0))],
    );
    assert!(out.flag.expect("a decision").colliding);
    assert_eq!(
        rig.core.fleet().statuses(),
        [("r2".to_owned(), PeerStatus::Ok)]
    );
}

#[test]
fn approach_and_collision_ahead_use_both_robots_motion() {
    // The peer 3 m ahead, facing the robot. Driving at 0.5 m/s:
    // moving away at 1 m/s it never closes; coming at 1 m/s the gap of
    // 2.5 m closes in 2.5 / 1.5 = 1.67 s, inside the 2 s of the approach
    // zone and the 3 s horizon.
    let mut away = rig();
    velocity(&mut away, 0.5);
    let out = send(
        &mut away,
        vec![peer(0.0, "r2", 1, (3.0, 0.0, 0.0), (1.0, 0.0))],
    );
    assert_eq!(out.ahead, Some(false));
    let command = published(&away.command(0.5, 0.0, 0.0)).expect("a command");
    assert!((command.x - 0.5).abs() < 1e-9, "{command:?}");

    let mut coming = rig();
    velocity(&mut coming, 0.5);
    let pi = std::f64::consts::PI;
    let out = send(
        &mut coming,
        vec![peer(0.0, "r2", 1, (3.0, 0.0, pi), (1.0, 0.0))],
    );
    assert_eq!(out.ahead, Some(true));
    let command = published(&coming.command(0.5, 0.0, 0.0)).expect("a command");
    assert!(command.x < 0.5 - 1e-3, "approach slows: {command:?}");

    // The same peer standing still: no contact within 2 s at 0.5 m/s
    // (2.5 m away), so the command goes unchanged. A static snapshot of
    // the coming peer would have let it through too: the slowdown above
    // comes from its motion.
    let mut still = rig();
    velocity(&mut still, 0.5);
    send(
        &mut still,
        vec![peer(0.0, "r2", 1, (3.0, 0.0, pi), (0.0, 0.0))],
    );
    let command = published(&still.command(0.5, 0.0, 0.0)).expect("a command");
    assert!((command.x - 0.5).abs() < 1e-9, "{command:?}");
}

#[test]
fn a_peer_that_goes_quiet_is_kept_and_grows_until_it_stops_the_robot() {
    let mut rig = rig();
    // 1.25 m ahead: its near side at x = 1.0, the stop zone's far side
    // at 0.75. Growth 1 + 0.5 × 0.354 = 1.18 m/s: it reaches the zone
    // after 0.25 / 1.18 = 0.21 s of age.
    send(
        &mut rig,
        vec![peer(0.0, "r2", 1, (1.25, 0.0, 0.0), (0.0, 0.0))],
    );
    assert!(goes(&rig.command(0.3, 0.0, 0.0)));
    let mut stopped_at = None;
    for step in 1..=16 {
        rig.advance(PERIOD);
        rig.tick();
        if !goes(&rig.command(0.3, 0.0, 0.0)) {
            stopped_at = Some(f64::from(step) * PERIOD);
            break;
        }
    }
    let stopped_at = stopped_at.expect("the grown peer stops the robot");
    assert!(
        (0.2..=0.3).contains(&stopped_at),
        "stopped after {stopped_at} s"
    );
    // Past fleet_timeout it reads stale, and is still there.
    rig.advance(0.5);
    rig.tick();
    assert_eq!(
        rig.core.fleet().statuses(),
        [("r2".to_owned(), PeerStatus::StalePeer)]
    );
    assert!(!goes(&rig.command(0.3, 0.0, 0.0)));
    // The report names it, grown by its age (the gap was 0.75 m; the
    // octagon's corners reach a little beyond the disc, never less).
    rig.tick();
    let report = rig.core.monitor().evaluate(rig.t);
    let [entry] = report.peers.as_slice() else {
        panic!("one peer entry: {:?}", report.peers);
    };
    assert_eq!(
        (entry.id.as_str(), entry.status),
        ("fleet/r2", PeerStatus::StalePeer)
    );
    let growth = (1.0 + 0.5 * 0.5f64.sqrt()) * (rig.t - 1.0);
    assert!(
        growth > 0.75 && entry.colliding,
        "grown {growth} m: {entry:?}"
    );
    // Heard again, where it was: the robot goes again.
    let out = send(
        &mut rig,
        vec![peer(0.0, "r2", 2, (1.25, 0.0, 0.0), (0.0, 0.0))],
    );
    assert!(out.flag.is_some());
    assert!(goes(&rig.command(0.3, 0.0, 0.0)));
}

#[test]
fn a_flood_of_robot_ids_is_capped_and_the_gate_stops_while_it_lasts() {
    let mut rig = rig();
    let flood: Vec<PeerMessage> = (0..MAX_PEERS + 10)
        .map(|i| {
            peer(
                0.0,
                &format!("ghost{i}"),
                1,
                (100.0 + i as f64, 50.0, 0.0),
                (0.0, 0.0),
            )
        })
        .collect();
    let out = send(&mut rig, flood);
    assert!(out
        .notices
        .iter()
        .any(|n| n.key == Some("fleet_too_many_peers")));
    assert_eq!(rig.core.fleet().fleet().len(), MAX_PEERS);
    let flag = out.flag.expect("a decision");
    assert!(!flag.valid && flag.colliding, "{flag:?}");
    assert!(!goes(&rig.command(0.3, 0.0, 0.0)));
    let status = fleet_diagnostics(&mut rig);
    assert_eq!(status.level, Level::Error, "{status:?}");
    assert_eq!(status.value("peers"), Some("1024"));
}

#[test]
fn this_robot_is_published_at_fleet_rate_from_tf() {
    let mut rig = Rig::new(config_of(&yaml()), 0);
    rig.static_tf("map", BASE, 2.0, 1.0, 0.5);
    rig.set_active(true);
    velocity(&mut rig, 0.4);
    let mut published = Vec::new();
    for _ in 0..32 {
        rig.advance(PERIOD / 2.0);
        let out = rig.tick();
        published.extend(out.fleet_robot);
    }
    // 16 Hz over 1 s of ticks at 32 Hz.
    assert!((15..=17).contains(&published.len()), "{}", published.len());
    let first = &published[0];
    assert_eq!(first.robot_id, "r1");
    assert_eq!(first.frame_id, "map");
    assert!((first.pose.translation.x - 2.0).abs() < 1e-12);
    assert!((first.pose.rotation.angle() - 0.5).abs() < 1e-12);
    assert_eq!(first.footprint.len(), 4);
    assert!((first.linear.x - 0.4).abs() < 1e-12);
    assert_eq!(first.max_linear_speed, 1.0);
    let sequences: Vec<u64> = published.iter().map(|m| m.sequence).collect();
    assert!(sequences.windows(2).all(|w| w[1] == w[0] + 1));
}

/// `config/fleet.yaml` (the README's three-robot example), with the
/// `robot_id` launch/fleet.launch.py gives: it starts, its gate judges
/// every source it names (a scan that sent nothing stops it, whatever the
/// fleet says), and it publishes this robot from TF.
#[test]
fn the_fleet_example_file_starts_and_its_gate_sees_peers() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/config/fleet.yaml"))
        .expect("config/fleet.yaml");
    let text = text
        .replace("sat_collision_node:", &format!("{NODE}:"))
        .replace(
            "    fleet_topic:",
            "    robot_id: \"robot1\"\n    fleet_topic:",
        );
    let config = config_of(&text);
    assert_eq!(config.fleet.robot_id, "robot1");
    assert_eq!(config.fleet_topic, "/fleet/robots");
    let mut rig = Rig::new(config, 0);
    rig.static_tf("map", "odom", 0.0, 0.0, 0.0);
    rig.static_tf("odom", "base_footprint", 0.0, 0.0, 0.0);
    rig.set_active(true);
    // The scan source has sent nothing: the gate stops whatever the fleet
    // says (a source it cannot judge).
    send(
        &mut rig,
        vec![peer(0.0, "robot2", 1, (5.0, 0.0, 0.0), (0.0, 0.0))],
    );
    assert!(!goes(&rig.command(0.3, 0.0, 0.0)));
    let own = (0..20).find_map(|_| {
        rig.advance(PERIOD);
        rig.tick().fleet_robot
    });
    let own = own.expect("robot1 published");
    assert_eq!((own.robot_id.as_str(), own.footprint.len()), ("robot1", 4));
}

/// `check_path` with a timed path against a peer's timed plan (issue 32,
/// item 2; RMF's conflict): both robots at the same place at the same
/// time, exact between samples, and only then.
#[test]
fn a_timed_path_meets_a_peers_plan_only_where_both_are_at_the_same_time() {
    use sat_collision::geometry::Shape;
    let mut rig = rig();
    let t0 = rig.t;
    let square = Shape::polygon(&[
        Point::new(-0.25, -0.25),
        Point::new(0.25, -0.25),
        Point::new(0.25, 0.25),
        Point::new(-0.25, 0.25),
    ])
    .expect("a square");
    // This robot: (0, 0) to (4, 0) in 4 s, stamped from now.
    let poses = [
        Isometry2::new(Vector::new(0.0, 0.0), 0.0),
        Isometry2::new(Vector::new(4.0, 0.0), 0.0),
    ];
    let times = [t0, t0 + 4.0];
    let up = std::f64::consts::FRAC_PI_2;
    let planned = |id: &str, from: (f64, f64), to: (f64, f64), speed: f64| {
        // Standing now (its twist zero): only its plan says it will move.
        let mut m = peer(0.0, id, 1, (from.0, from.1, up), (0.0, 0.0));
        m.max_linear_speed = speed;
        m.plan = vec![(t0 + 4.0, Isometry2::new(Vector::new(to.0, to.1), up))];
        m
    };
    // Crossing x = 2 at 2 m/s, at y = 0 at t0 + 2: the two squares first
    // touch at t0 + 1.75 (x of ours 1.5 + 0.25 = 1.75, |y| = 0.5).
    send(&mut rig, vec![planned("r2", (2.0, -4.0), (2.0, 4.0), 2.0)]);
    rig.tick();
    let check = rig
        .core
        .monitor()
        .check_path(&square, &poses, &times, 0.0, rig.t);
    let impact = check.impact.expect("a conflict");
    assert!((impact.time - 1.75).abs() < 1e-6, "{impact:?}");
    assert!(impact.exact);
    assert_eq!(rig.core.monitor().impact_id(&impact), Some("fleet/r2"));
    // Sitting on this robot's path now, but gone (3 m/s up) long before
    // this robot gets there: no conflict, though a snapshot would see one.
    let mut rig = self::rig();
    let t0 = rig.t;
    let times = [t0, t0 + 4.0];
    let mut gone = peer(0.0, "r3", 1, (3.0, 0.0, up), (0.0, 0.0));
    gone.max_linear_speed = 3.0;
    gone.plan = vec![
        (t0 + 1.0, Isometry2::new(Vector::new(3.0, 3.0), up)),
        (t0 + 4.0, Isometry2::new(Vector::new(3.0, 12.0), up)),
    ];
    send(&mut rig, vec![gone]);
    rig.tick();
    let check = rig
        .core
        .monitor()
        .check_path(&square, &poses, &times, 0.0, rig.t);
    assert!(check.impact.is_none(), "{:?}", check.impact);
    // The clearance at the last pose (t0 + 4, at (4, 0)) is to the peer
    // where it is then, (3, 12): about 11.5 m.
    assert!(check.clearance[1] > 11.0, "{:?}", check.clearance);
    assert!(
        check.clearance[0] < 2.6,
        "now it is 2.5 m away: {:?}",
        check.clearance
    );
}
