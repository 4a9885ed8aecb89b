//! The collision flag on its own, over ROS 2: with nobody subscribed to the
//! report, every footprint message still gets its answer on `collision`,
//! and a flag that flaps faster than anybody can read is logged as a count.
#![cfg(feature = "ros")]

use crate::node_common::*;
use r2r::geometry_msgs::msg::PolygonStamped;
use r2r::sat_collision_msgs::msg::ObstacleArray;
use r2r::std_msgs::msg::Bool;
use r2r::QosProfile;
use std::time::{Duration, Instant};

/// Footprint changes sent back to back, each after the previous answer.
const CHANGES: usize = 200;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flag_alone_answers_every_footprint_and_flapping_is_logged_as_a_count() {
    let ns = "/t_flag_alone";
    let node = NodeProcess::spawn(
        ns,
        &[("footprint_timeout", "0.0"), ("obstacles_timeout", "0.0")],
    );
    let mut peer = r2r::Node::create(context(), "peer", ns).expect("peer node");
    let mut flags = record(
        peer.subscribe::<Bool>("collision", QosProfile::default())
            .expect("subscribe collision"),
    );
    let footprints = peer
        .create_publisher::<PolygonStamped>("footprint", QosProfile::default())
        .expect("footprint publisher");
    let arrays = peer
        .create_publisher::<ObstacleArray>("obstacles", QosProfile::default())
        .expect("obstacles publisher");
    let _spinner = Spinner::start(peer);
    let context = {
        let log = node.log.clone();
        move || format!("node log:\n{}", log.lock().unwrap().join("\n"))
    };

    let wall = obstacles("map", vec![obstacle("wall", &rect(2.8, -1.0, 3.5, 1.0))]);
    let clear = footprint("map", &square(0.0, 0.0, 0.5));
    let hit = footprint("map", &square(2.5, 0.0, 0.5));
    // Until the node has both inputs (discovery can lose the first ones).
    let deadline = Instant::now() + STARTUP;
    loop {
        arrays.publish(&wall).expect("publish obstacles");
        footprints.publish(&clear).expect("publish footprint");
        let answer = tokio::time::timeout(Duration::from_millis(200), flags.recv()).await;
        if matches!(answer, Ok(Some(Bool { data: false }))) {
            break;
        }
        assert!(Instant::now() < deadline, "no clear flag; {}", context());
    }

    // Alternating footprints: each answer differs from the one before, so
    // the first flag with the new value is the answer (the node's periodic
    // re-publications repeat the old one).
    for k in 0..CHANGES {
        let colliding = k % 2 == 0;
        footprints
            .publish(if colliding { &hit } else { &clear })
            .expect("publish footprint");
        wait_for(
            &mut flags,
            "collision flag",
            &format!("== {colliding} (change {k})"),
            SETTLE,
            |b| b.data == colliding,
            &context,
        )
        .await;
    }

    // The last count arrives with a periodic publication (10 Hz) once the
    // window open at the last change is over (at most 1 s later).
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let deadline = Instant::now() + SETTLE;
    let log = loop {
        let log = node.log_text();
        if log.contains("flag flapping") || Instant::now() > deadline {
            break log;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };

    let counted: usize = log
        .lines()
        .filter_map(|l| l.split("flag flapping: ").nth(1))
        .filter_map(|rest| rest.split(' ').next()?.parse::<usize>().ok())
        .sum();
    let logged = log
        .lines()
        .filter(|l| !l.contains("flag flapping"))
        .filter(|l| l.contains("COLLISION with wall") || l.contains("clear (nearest wall"))
        .count();
    assert!(counted > 0, "no flapping count; log:\n{log}");
    assert!(
        logged < CHANGES / 2,
        "{logged} change lines for {CHANGES} changes; log:\n{log}"
    );
    // Every change the node saw was logged, counted, or reported as the
    // "now" of a flapping line that a change triggered: the peer's changes
    // plus the first clear, and at most two status changes at start-up
    // (should they have been counted).
    let flapping_lines = log.lines().filter(|l| l.contains("flag flapping")).count();
    assert!(
        (CHANGES.saturating_sub(flapping_lines)..=CHANGES + 3).contains(&(logged + counted)),
        "{logged} logged + {counted} counted ({flapping_lines} flapping lines) for {CHANGES} changes; log:\n{log}"
    );
    // A count comes with the state at that moment.
    for line in log.lines().filter(|l| l.contains("flag flapping")) {
        assert!(
            line.contains("now clear (nearest wall") || line.contains("now COLLISION with wall"),
            "{line}"
        );
    }
}
