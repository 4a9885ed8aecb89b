use super::*;
use nalgebra::{Point2, Vector2};
use std::f64::consts::FRAC_PI_2;

const TOL: f64 = 0.5;

fn pose(x: f64, y: f64, yaw: f64) -> Isometry2<f64> {
    Isometry2::new(Vector2::new(x, y), yaw)
}

fn close(a: &Isometry2<f64>, b: &Isometry2<f64>) -> bool {
    (a.translation.vector - b.translation.vector).norm() < 1e-9
        && (a.rotation.angle_to(&b.rotation)).abs() < 1e-9
}

#[track_caller]
fn assert_pose(got: Result<Isometry2<f64>, LookupFault>, want: Isometry2<f64>) {
    let got = got.expect("a transform");
    assert!(close(&got, &want), "got {got:?}, want {want:?}");
}

/// A dynamic sample received at its own stamp.
fn dynamic(tree: &mut FrameTree, parent: &str, child: &str, stamp: f64, p: Isometry2<f64>) {
    tree.insert(parent, child, stamp, Ok(p), false, stamp)
        .expect("accepted");
}

fn fixed(tree: &mut FrameTree, parent: &str, child: &str, p: Isometry2<f64>) {
    tree.insert(parent, child, 0.0, Ok(p), true, 0.0)
        .expect("accepted");
}

#[test]
fn a_frame_to_itself_is_the_identity_even_unknown() {
    let tree = FrameTree::new();
    assert_eq!(
        tree.lookup("nowhere", "nowhere", 5.0, f64::NAN, -1.0),
        Ok(Isometry2::identity())
    );
    assert!(tree.is_empty());
    assert_eq!(tree.frame_count(), 0);
}

#[test]
fn unknown_frames_and_separate_trees_are_unavailable() {
    let mut tree = FrameTree::new();
    fixed(&mut tree, "map", "odom", pose(1.0, 0.0, 0.0));
    fixed(&mut tree, "world", "base", pose(0.0, 1.0, 0.0));
    assert!(!tree.is_empty());
    assert_eq!(
        tree.lookup("map", "ghost", 0.0, 0.0, TOL),
        Err(LookupFault::Unavailable)
    );
    assert_eq!(
        tree.lookup("ghost", "map", 0.0, 0.0, TOL),
        Err(LookupFault::Unavailable)
    );
    assert_eq!(
        tree.lookup("map", "base", 0.0, 0.0, TOL),
        Err(LookupFault::Unavailable)
    );
    assert_eq!(
        tree.lookup("odom", "world", 0.0, 0.0, TOL),
        Err(LookupFault::Unavailable)
    );
}

#[test]
fn a_self_transform_is_refused_and_nothing_is_stored() {
    let mut tree = FrameTree::new();
    assert_eq!(
        tree.insert("a", "a", 1.0, Ok(pose(1.0, 0.0, 0.0)), false, 1.0),
        Err(InsertError::SelfTransform)
    );
    assert_eq!(
        tree.insert(
            "a",
            "b",
            1.0,
            Err(TransformFault::SelfTransform),
            false,
            1.0
        ),
        Err(InsertError::SelfTransform)
    );
    assert_eq!(tree.frame_count(), 0);
    assert_eq!(
        tree.lookup("a", "b", 0.0, 1.0, TOL),
        Err(LookupFault::Unavailable)
    );
}

#[test]
fn a_three_level_chain_composes_in_both_directions() {
    let mut tree = FrameTree::new();
    // map -> odom: 10 m along x, turned a quarter; odom -> base: 1 m
    // along odom's x; base -> laser: 0.5 m along base's y, turned back.
    fixed(&mut tree, "map", "odom", pose(10.0, 0.0, FRAC_PI_2));
    fixed(&mut tree, "odom", "base", pose(1.0, 0.0, 0.0));
    fixed(&mut tree, "base", "laser", pose(0.0, 0.5, -FRAC_PI_2));
    // laser's origin is at odom (1, 0.5) = map (10 - 0.5, 1), heading 0.
    let map_laser = pose(9.5, 1.0, 0.0);
    assert_pose(tree.lookup("map", "laser", 0.0, 100.0, TOL), map_laser);
    assert_pose(
        tree.lookup("laser", "map", 0.0, 100.0, TOL),
        map_laser.inverse(),
    );
    // A point 1 m ahead of the laser is at map (10.5, 1).
    let t = tree
        .lookup("map", "laser", 3.0, 100.0, TOL)
        .expect("static");
    let p = t * Point2::new(1.0, 0.0);
    assert!((p - Point2::new(10.5, 1.0)).norm() < 1e-12);
    // Between siblings' descendants: odom -> laser.
    assert_pose(
        tree.lookup("odom", "laser", 0.0, 0.0, TOL),
        pose(1.0, 0.5, -FRAC_PI_2),
    );
    assert_eq!(tree.frame_count(), 4);
    assert_eq!(tree.parent("laser"), Some("base"));
    assert_eq!(tree.parent("map"), None);
}

#[test]
fn a_static_and_dynamic_chain_interpolates_the_dynamic_edge() {
    let mut tree = FrameTree::new();
    dynamic(&mut tree, "odom", "base", 10.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "odom", "base", 11.0, pose(2.0, 0.0, 1.0));
    fixed(&mut tree, "base", "laser", pose(1.0, 0.0, 0.0));
    let base = pose(1.0, 0.0, 0.5);
    assert_pose(
        tree.lookup("odom", "laser", 10.5, 1e9, TOL),
        base * pose(1.0, 0.0, 0.0),
    );
    // Exactly on a sample.
    assert_pose(
        tree.lookup("odom", "base", 11.0, 0.0, TOL),
        pose(2.0, 0.0, 1.0),
    );
    assert_pose(
        tree.lookup("odom", "base", 10.0, 0.0, TOL),
        pose(0.0, 0.0, 0.0),
    );
    // Latest: the newest sample, judged fresh at 11.2.
    assert_pose(
        tree.lookup("laser", "odom", 0.0, 11.2, TOL),
        (pose(2.0, 0.0, 1.0) * pose(1.0, 0.0, 0.0)).inverse(),
    );
    assert_eq!(tree.sample_count("base"), 2);
    assert_eq!(tree.sample_count("laser"), 1);
    assert_eq!(tree.sample_count("odom"), 0);
}

#[test]
fn latest_is_the_latest_common_time_of_the_path() {
    let mut tree = FrameTree::new();
    dynamic(&mut tree, "map", "odom", 10.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "map", "odom", 12.0, pose(4.0, 0.0, 0.0));
    dynamic(&mut tree, "odom", "base", 9.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "odom", "base", 11.0, pose(0.0, 2.0, 0.0));
    // Common time 11: map->odom interpolated to x = 2, odom->base newest.
    assert_pose(
        tree.lookup("map", "base", 0.0, 12.0, 2.0),
        pose(2.0, 2.0, 0.0),
    );
    // Not the newest of each (that would be (4, 2)).
    assert_pose(
        tree.lookup("map", "odom", 0.0, 12.0, 2.0),
        pose(4.0, 0.0, 0.0),
    );
}

#[test]
fn after_the_newest_sample_is_the_newest_within_tolerance_then_stale() {
    let mut tree = FrameTree::new();
    dynamic(&mut tree, "odom", "base", 10.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "odom", "base", 11.0, pose(1.0, 0.0, 0.0));
    assert_pose(
        tree.lookup("odom", "base", 11.4, 0.0, TOL),
        pose(1.0, 0.0, 0.0),
    );
    assert_eq!(
        tree.lookup("odom", "base", 11.6, 0.0, TOL),
        Err(LookupFault::Stale)
    );
    assert_eq!(
        tree.lookup("base", "odom", 20.0, 0.0, TOL),
        Err(LookupFault::Stale)
    );
    // Time requests are not judged by arrival.
    assert!(tree.lookup("odom", "base", 10.5, 1e6, TOL).is_ok());
}

#[test]
fn a_latest_lookup_is_stale_by_arrival_either_way() {
    let mut tree = FrameTree::new();
    tree.insert("odom", "base", 100.0, Ok(pose(1.0, 0.0, 0.0)), false, 100.0)
        .expect("accepted");
    assert_pose(
        tree.lookup("odom", "base", 0.0, 100.4, TOL),
        pose(1.0, 0.0, 0.0),
    );
    assert_eq!(
        tree.lookup("odom", "base", 0.0, 100.6, TOL),
        Err(LookupFault::Stale)
    );
    // A clock that jumped back.
    assert_eq!(
        tree.lookup("odom", "base", 0.0, 99.0, TOL),
        Err(LookupFault::Stale)
    );
    // Static edges are never stale.
    fixed(&mut tree, "base", "laser", pose(0.0, 0.0, 0.0));
    assert!(tree.lookup("base", "laser", 0.0, 1e9, TOL).is_ok());
    assert_eq!(
        tree.lookup("odom", "laser", 0.0, 1e9, TOL),
        Err(LookupFault::Stale)
    );
}

#[test]
fn a_latest_lookup_is_stale_by_stamp_however_recent_the_arrival() {
    let mut tree = FrameTree::new();
    // Received just now, stamped 5 s ago: its age is its stamp's.
    tree.insert("odom", "base", 95.0, Ok(pose(1.0, 0.0, 0.0)), false, 100.0)
        .expect("accepted");
    assert_eq!(
        tree.lookup("odom", "base", 0.0, 100.0, TOL),
        Err(LookupFault::Stale)
    );
    // Future-dated within FUTURE_TOLERANCE (AMCL): fresh.
    dynamic(&mut tree, "map", "odom", 100.0, pose(0.0, 0.0, 0.0));
    tree.insert("map", "odom", 101.0, Ok(pose(2.0, 0.0, 0.0)), false, 100.0)
        .expect("accepted");
    assert_pose(
        tree.lookup("map", "odom", 0.0, 100.1, TOL),
        pose(2.0, 0.0, 0.0),
    );
    // Frozen parent stamp (the map -> odom): the chain's latest
    // common time is the frozen one, however new the child's samples.
    let mut tree = FrameTree::new();
    for i in 0..50 {
        let t = 10.0 + f64::from(i) * 0.1;
        tree.insert("map", "odom", 10.0, Ok(pose(0.0, 0.0, 0.0)), false, t)
            .expect("no error: repeated data is dropped silently");
        dynamic(&mut tree, "odom", "base", t, pose(t, 0.0, 0.0));
    }
    assert_eq!(tree.sample_count("odom"), 1);
    assert_eq!(
        tree.lookup("map", "base", 0.0, 14.9, TOL),
        Err(LookupFault::Stale)
    );
    assert!(tree.lookup("odom", "base", 0.0, 14.9, TOL).is_ok());
}

#[test]
fn before_the_history_is_unavailable_beyond_tolerance() {
    let mut tree = FrameTree::new();
    dynamic(&mut tree, "odom", "base", 10.0, pose(3.0, 0.0, 0.0));
    dynamic(&mut tree, "odom", "base", 11.0, pose(4.0, 0.0, 0.0));
    assert_pose(
        tree.lookup("odom", "base", 9.6, 0.0, TOL),
        pose(3.0, 0.0, 0.0),
    );
    assert_eq!(
        tree.lookup("odom", "base", 9.4, 0.0, TOL),
        Err(LookupFault::Unavailable)
    );
    // Latest common time before one edge's history.
    dynamic(&mut tree, "base", "arm", 1.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "base", "arm", 2.0, pose(0.0, 0.0, 0.0));
    assert_eq!(
        tree.lookup("odom", "arm", 0.0, 2.0, 100.0),
        Ok(pose(3.0, 0.0, 0.0))
    );
    assert_eq!(
        tree.lookup("odom", "arm", 0.0, 2.0, 5.0),
        Err(LookupFault::Unavailable)
    );
}

#[test]
fn out_of_order_samples_go_in_place_and_an_equal_stamp_is_dropped() {
    let mut tree = FrameTree::new();
    tree.insert("odom", "base", 3.0, Ok(pose(3.0, 0.0, 0.0)), false, 3.0)
        .expect("accepted");
    tree.insert("odom", "base", 1.0, Ok(pose(1.0, 0.0, 0.0)), false, 3.1)
        .expect("accepted");
    tree.insert("odom", "base", 2.0, Ok(pose(2.0, 0.0, 0.0)), false, 3.2)
        .expect("accepted");
    // Repeated data (tf2's TF_REPEATED_DATA) replaces nothing.
    tree.insert("odom", "base", 2.0, Ok(pose(5.0, 0.0, 0.0)), false, 3.3)
        .expect("dropped");
    assert_eq!(tree.sample_count("base"), 3);
    assert_pose(
        tree.lookup("odom", "base", 1.5, 0.0, 0.0),
        pose(1.5, 0.0, 0.0),
    );
    assert_pose(
        tree.lookup("odom", "base", 2.5, 0.0, 0.0),
        pose(2.5, 0.0, 0.0),
    );
    // An older sample did not move the newest sample's arrival (3.0).
    assert_eq!(
        tree.lookup("odom", "base", 0.0, 3.6, 0.5),
        Err(LookupFault::Stale)
    );
    assert!(tree.lookup("odom", "base", 0.0, 3.4, 0.5).is_ok());
    // Neither does the newest stamp repeated (robot_localization at
    // 50 Hz with a frozen stamp): the edge goes stale.
    for i in 0..50 {
        let arrival = 3.0 + f64::from(i) * 0.02;
        tree.insert("odom", "base", 3.0, Ok(pose(9.0, 0.0, 0.0)), false, arrival)
            .expect("dropped");
    }
    assert_eq!(tree.sample_count("base"), 3);
    assert_eq!(
        tree.lookup("odom", "base", 0.0, 3.9, 0.5),
        Err(LookupFault::Stale)
    );
    assert_pose(
        tree.lookup("odom", "base", 3.0, 3.9, 0.5),
        pose(3.0, 0.0, 0.0),
    );
    // Nor does it clear a fault.
    tree.insert(
        "odom",
        "base",
        4.0,
        Err(TransformFault::NonFinite),
        false,
        4.0,
    )
    .expect("recorded");
    tree.insert("odom", "base", 3.0, Ok(pose(3.0, 0.0, 0.0)), false, 4.0)
        .expect("dropped");
    assert_eq!(
        tree.lookup("odom", "base", 3.0, 4.0, 0.5),
        Err(LookupFault::Invalid(TransformFault::NonFinite))
    );
}

#[test]
fn a_sample_stamped_too_far_ahead_is_refused_and_nothing_is_stored() {
    let mut tree = FrameTree::new();
    dynamic(&mut tree, "odom", "base", 10.0, pose(1.0, 0.0, 0.0));
    assert_eq!(
        tree.insert("odom", "base", 1e6, Ok(pose(9.0, 0.0, 0.0)), false, 10.1),
        Err(InsertError::FutureStamp)
    );
    assert_eq!(
        tree.insert(
            "odom",
            "ghost",
            10.2 + FUTURE_TOLERANCE + 0.1,
            Ok(pose(0.0, 0.0, 0.0)),
            false,
            10.2
        ),
        Err(InsertError::FutureStamp)
    );
    assert_eq!(tree.frame_count(), 2);
    assert_eq!(tree.sample_count("base"), 1);
    // Live samples go on working.
    dynamic(&mut tree, "odom", "base", 10.2, pose(2.0, 0.0, 0.0));
    assert_pose(
        tree.lookup("odom", "base", 0.0, 10.3, TOL),
        pose(2.0, 0.0, 0.0),
    );
    // Within the tolerance: stored. Statics carry no time: not refused.
    tree.insert(
        "odom",
        "base",
        10.2 + FUTURE_TOLERANCE,
        Ok(pose(3.0, 0.0, 0.0)),
        false,
        10.2,
    )
    .expect("accepted");
    tree.insert("base", "laser", 1e9, Ok(pose(0.0, 0.0, 0.0)), true, 10.2)
        .expect("accepted");
}

#[test]
fn samples_are_bounded_by_count_and_by_history() {
    let mut tree = FrameTree::new();
    let n = 10 * MAX_TF_SAMPLES;
    for i in 0..n {
        let t = i as f64 * 1e-4; // all within TF_HISTORY
        dynamic(&mut tree, "odom", "base", t, pose(i as f64, 0.0, 0.0));
        assert!(tree.sample_count("base") <= MAX_TF_SAMPLES);
    }
    assert_eq!(tree.sample_count("base"), MAX_TF_SAMPLES);
    // The newest are kept: the oldest kept is sample n - MAX.
    let oldest = (n - MAX_TF_SAMPLES) as f64;
    assert_pose(
        tree.lookup("odom", "base", oldest * 1e-4, 0.0, 0.0),
        pose(oldest, 0.0, 0.0),
    );
    assert_eq!(
        tree.lookup("odom", "base", (oldest - 1.0) * 1e-4, 0.0, 0.0),
        Err(LookupFault::Unavailable)
    );
    // History: one sample a second keeps [newest - 10, newest].
    for i in 0..100 {
        dynamic(&mut tree, "odom", "arm", f64::from(i), pose(0.0, 0.0, 0.0));
    }
    assert_eq!(tree.sample_count("arm"), 11);
    assert!(tree.lookup("odom", "arm", 89.0, 0.0, 0.0).is_ok());
    assert_eq!(
        tree.lookup("odom", "arm", 88.5, 0.0, 0.0),
        Err(LookupFault::Unavailable)
    );
}

#[test]
fn a_refused_sample_makes_the_edge_invalid_until_a_good_one() {
    let mut tree = FrameTree::new();
    dynamic(&mut tree, "odom", "base", 1.0, pose(1.0, 0.0, 0.0));
    tree.insert(
        "odom",
        "base",
        2.0,
        Err(TransformFault::NotARotation),
        false,
        2.0,
    )
    .expect("the fault is recorded");
    let invalid = Err(LookupFault::Invalid(TransformFault::NotARotation));
    assert_eq!(tree.lookup("odom", "base", 0.0, 2.0, 5.0), invalid);
    assert_eq!(tree.lookup("base", "odom", 1.0, 2.0, 5.0), invalid);
    dynamic(&mut tree, "odom", "base", 3.0, pose(3.0, 0.0, 0.0));
    assert_pose(
        tree.lookup("odom", "base", 0.0, 3.0, 5.0),
        pose(3.0, 0.0, 0.0),
    );
    // A fault creates the edge; a static one too.
    tree.insert(
        "base",
        "laser",
        0.0,
        Err(TransformFault::NonFinite),
        true,
        3.0,
    )
    .expect("recorded");
    assert_eq!(tree.parent("laser"), Some("base"));
    assert_eq!(
        tree.lookup("odom", "laser", 0.0, 3.0, 5.0),
        Err(LookupFault::Invalid(TransformFault::NonFinite))
    );
    fixed(&mut tree, "base", "laser", pose(0.0, 1.0, 0.0));
    assert_pose(
        tree.lookup("odom", "laser", 0.0, 3.0, 5.0),
        pose(3.0, 1.0, 0.0),
    );
}

#[test]
fn non_finite_stamps_arrivals_and_lookup_times_never_panic() {
    let mut tree = FrameTree::new();
    dynamic(&mut tree, "odom", "base", 1.0, pose(1.0, 0.0, 0.0));
    // A good sample clears a fault only as new data (a new stamp).
    let mut fresh = 1.0;
    let mut recover = |tree: &mut FrameTree| {
        fresh += 1e-3;
        dynamic(tree, "odom", "base", fresh, pose(1.0, 0.0, 0.0));
    };
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        tree.insert("odom", "base", bad, Ok(pose(0.0, 0.0, 0.0)), false, 1.0)
            .expect("recorded as a fault");
        assert_eq!(
            tree.lookup("odom", "base", 1.0, 1.0, 1.0),
            Err(LookupFault::Invalid(TransformFault::NonFinite))
        );
        recover(&mut tree);
        tree.insert("odom", "base", 1.0, Ok(pose(0.0, 0.0, 0.0)), false, bad)
            .expect("recorded as a fault");
        assert_eq!(
            tree.lookup("odom", "base", 1.0, 1.0, 1.0),
            Err(LookupFault::Invalid(TransformFault::NonFinite))
        );
        recover(&mut tree);
        assert!(tree.lookup("odom", "base", bad, 1.0, 1.0).is_err());
        assert!(tree.lookup("odom", "base", 0.0, bad, 1.0).is_err());
        assert!(tree.lookup("odom", "base", 0.0, 1.0, f64::NAN).is_err());
        assert!(tree.lookup("odom", "base", 1.0, bad, 1.0).is_ok());
    }
    // NaN time is Unavailable, +inf Stale, -inf Unavailable.
    assert_eq!(
        tree.lookup("odom", "base", f64::NAN, 1.0, 1.0),
        Err(LookupFault::Unavailable)
    );
    assert_eq!(
        tree.lookup("odom", "base", f64::INFINITY, 1.0, 1.0),
        Err(LookupFault::Stale)
    );
    assert_eq!(
        tree.lookup("odom", "base", f64::NEG_INFINITY, 1.0, 1.0),
        Err(LookupFault::Unavailable)
    );
    // Negative stamps are just times.
    dynamic(&mut tree, "odom", "arm", -5.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "odom", "arm", -3.0, pose(2.0, 0.0, 0.0));
    assert_pose(
        tree.lookup("odom", "arm", -4.0, 0.0, 0.0),
        pose(1.0, 0.0, 0.0),
    );
}

#[test]
fn a_second_parent_is_a_conflict_until_it_falls_silent() {
    let mut tree = FrameTree::new();
    dynamic(&mut tree, "odom", "base", 10.0, pose(1.0, 0.0, 0.0));
    assert_eq!(
        tree.insert("map", "base", 10.5, Ok(pose(5.0, 0.0, 0.0)), false, 10.5),
        Err(InsertError::SecondParent)
    );
    assert_eq!(tree.parent("base"), Some("odom"));
    assert_eq!(tree.rival("base"), Some("map"));
    assert_eq!(
        tree.lookup("odom", "base", 10.0, 10.6, 1.0),
        Err(LookupFault::Conflict)
    );
    assert_eq!(
        tree.lookup("base", "odom", 0.0, 10.6, 1.0),
        Err(LookupFault::Conflict)
    );
    // The rival's sample was not stored anywhere.
    assert_eq!(
        tree.lookup("map", "base", 10.5, 10.6, 1.0),
        Err(LookupFault::Unavailable)
    );
    // The owner keeps publishing; the rival stops: the conflict ends
    // CONFLICT_WINDOW after the rival's last sample.
    dynamic(&mut tree, "odom", "base", 12.0, pose(2.0, 0.0, 0.0));
    assert_eq!(
        tree.lookup("odom", "base", 12.0, 12.4, 1.0),
        Err(LookupFault::Conflict)
    );
    dynamic(&mut tree, "odom", "base", 12.6, pose(2.0, 0.0, 0.0));
    assert_pose(
        tree.lookup("odom", "base", 0.0, 12.6, 1.0),
        pose(2.0, 0.0, 0.0),
    );
}

#[test]
fn static_and_dynamic_publishers_of_one_frame_conflict() {
    let mut tree = FrameTree::new();
    fixed(&mut tree, "base", "laser", pose(1.0, 0.0, 0.0));
    // A static edge is always active, however old.
    assert_eq!(
        tree.insert(
            "base",
            "laser",
            100.0,
            Ok(pose(2.0, 0.0, 0.0)),
            false,
            100.0
        ),
        Err(InsertError::SecondParent)
    );
    assert_eq!(
        tree.lookup("base", "laser", 0.0, 101.0, 1.0),
        Err(LookupFault::Conflict)
    );
    assert_pose(
        tree.lookup("base", "laser", 0.0, 103.0, 1.0),
        pose(1.0, 0.0, 0.0),
    );
    // And a static publisher of an active dynamic frame.
    dynamic(&mut tree, "odom", "base", 100.0, pose(0.0, 0.0, 0.0));
    assert_eq!(
        tree.insert("odom", "base", 0.0, Ok(pose(0.0, 0.0, 0.0)), true, 101.0),
        Err(InsertError::SecondParent)
    );
    assert_eq!(
        tree.lookup("odom", "laser", 100.0, 101.0, 1.0),
        Err(LookupFault::Conflict)
    );
}

#[test]
fn a_silent_parent_gives_way_to_a_new_one() {
    let mut tree = FrameTree::new();
    dynamic(&mut tree, "odom", "base", 10.0, pose(1.0, 0.0, 0.0));
    dynamic(&mut tree, "odom", "base", 11.0, pose(1.0, 0.0, 0.0));
    // 11 + CONFLICT_WINDOW < 13.5: odom is silent, map takes base over.
    dynamic(&mut tree, "map", "base", 13.5, pose(7.0, 0.0, 0.0));
    assert_eq!(tree.parent("base"), Some("map"));
    assert_eq!(tree.rival("base"), None);
    assert_eq!(tree.sample_count("base"), 1);
    assert_pose(
        tree.lookup("map", "base", 0.0, 13.5, 0.5),
        pose(7.0, 0.0, 0.0),
    );
    assert_eq!(
        tree.lookup("odom", "base", 11.0, 13.5, 0.5),
        Err(LookupFault::Unavailable)
    );
    // A static publisher may take over a silent dynamic frame too.
    tree.insert("map", "base", 0.0, Ok(pose(8.0, 0.0, 0.0)), true, 16.0)
        .expect("accepted");
    assert_pose(
        tree.lookup("map", "base", 0.0, 100.0, 0.5),
        pose(8.0, 0.0, 0.0),
    );
}

#[test]
fn a_republished_static_tree_replaces_but_a_second_static_parent_is_a_lasting_conflict() {
    let mut tree = FrameTree::new();
    fixed(&mut tree, "base", "laser", pose(1.0, 0.0, 0.0));
    fixed(&mut tree, "base", "laser", pose(2.0, 0.0, 0.0));
    assert_pose(
        tree.lookup("base", "laser", 0.0, 0.0, 0.0),
        pose(2.0, 0.0, 0.0),
    );
    assert_eq!(
        tree.insert("mount", "laser", 0.0, Ok(pose(3.0, 0.0, 0.0)), true, 1.0),
        Err(InsertError::SecondParent)
    );
    assert_eq!(tree.parent("laser"), Some("base"));
    assert_eq!(tree.rival("laser"), Some("mount"));
    // Whatever the time, through further samples of either publisher
    // and of dynamic rivals, and through a clock jump.
    for now in [1.0, 1.0 + 10.0 * CONFLICT_WINDOW, 1e6] {
        assert_eq!(
            tree.lookup("base", "laser", 0.0, now, 1.0),
            Err(LookupFault::Conflict)
        );
    }
    fixed(&mut tree, "base", "laser", pose(2.0, 0.0, 0.0));
    let _ = tree.insert("odom", "laser", 5.0, Ok(pose(0.0, 0.0, 0.0)), false, 5.0);
    assert_eq!(tree.rival("laser"), Some("mount"));
    assert_eq!(
        tree.lookup("base", "laser", 0.0, 100.0, 1.0),
        Err(LookupFault::Conflict)
    );
    tree.forget_dynamic();
    assert_eq!(
        tree.lookup("base", "laser", 0.0, 100.0, 1.0),
        Err(LookupFault::Conflict)
    );
    // A static claim on a dynamic frame: latched too; after a clock
    // jump the static claim holds the frame, the dynamic one its rival.
    dynamic(&mut tree, "odom", "base", 10.0, pose(0.0, 0.0, 0.0));
    assert_eq!(
        tree.insert("map", "base", 0.0, Ok(pose(4.0, 0.0, 0.0)), true, 10.0),
        Err(InsertError::SecondParent)
    );
    dynamic(&mut tree, "odom", "base", 20.0, pose(0.0, 0.0, 0.0));
    assert_eq!(
        tree.lookup("odom", "base", 0.0, 20.0, 1.0),
        Err(LookupFault::Conflict)
    );
    tree.forget_dynamic();
    assert_eq!(tree.parent("base"), Some("map"));
    assert_eq!(
        tree.insert("odom", "base", 1.0, Ok(pose(0.0, 0.0, 0.0)), false, 1.0),
        Err(InsertError::SecondParent)
    );
    assert_eq!(
        tree.lookup("map", "base", 0.0, 1.0, 1.0),
        Err(LookupFault::Conflict)
    );
}

#[test]
fn loops_are_a_conflict_and_do_not_hang() {
    let mut tree = FrameTree::new();
    fixed(&mut tree, "b", "a", pose(1.0, 0.0, 0.0));
    fixed(&mut tree, "a", "b", pose(1.0, 0.0, 0.0));
    assert_eq!(
        tree.lookup("a", "b", 0.0, 0.0, 1.0),
        Err(LookupFault::Conflict)
    );
    fixed(&mut tree, "a", "hanger", pose(0.0, 0.0, 0.0));
    assert_eq!(
        tree.lookup("hanger", "elsewhere", 0.0, 0.0, 1.0),
        Err(LookupFault::Unavailable)
    );
    fixed(&mut tree, "root", "elsewhere", pose(0.0, 0.0, 0.0));
    assert_eq!(
        tree.lookup("root", "hanger", 0.0, 0.0, 1.0),
        Err(LookupFault::Conflict)
    );
    assert_eq!(
        tree.lookup("hanger", "root", 0.0, 0.0, 1.0),
        Err(LookupFault::Conflict)
    );
    assert!(tree.lookup("root", "elsewhere", 0.0, 0.0, 1.0).is_ok());

    let mut tree = FrameTree::new();
    dynamic(&mut tree, "y", "x", 1.0, pose(1.0, 0.0, 0.0));
    dynamic(&mut tree, "z", "y", 1.0, pose(1.0, 0.0, 0.0));
    dynamic(&mut tree, "x", "z", 1.0, pose(1.0, 0.0, 0.0));
    for (a, b) in [("x", "y"), ("y", "z"), ("z", "x"), ("x", "z")] {
        assert_eq!(tree.lookup(a, b, 0.0, 1.0, 1.0), Err(LookupFault::Conflict));
        assert_eq!(tree.lookup(a, b, 1.0, 1.0, 1.0), Err(LookupFault::Conflict));
    }
}

#[test]
fn at_the_frame_limit_unused_frames_are_evicted_used_ones_never() {
    let mut tree = FrameTree::new();
    tree.begin_message();
    fixed(&mut tree, "map", "odom", pose(1.0, 0.0, 0.0));
    dynamic(&mut tree, "odom", "base", 1.0, pose(0.0, 0.0, 0.0));
    fixed(&mut tree, "base", "lidar", pose(0.0, 2.0, 0.0));
    assert!(tree.lookup("map", "base", 0.0, 1.0, TOL).is_ok());
    // A flood of names in one message, long after: it evicts its own
    // names (the newest first), not the tree known before it, even the
    // frame no lookup used lately (lidar); MESSAGE_FRAMES of them, then
    // the rest is refused.
    tree.begin_message();
    let mut refused = 0;
    for i in 0..2 * MAX_TF_FRAMES {
        let p = Ok(pose(0.0, 0.0, 0.0));
        match tree.insert("map", &format!("bogus{i}"), 0.0, p, true, 100.0) {
            Ok(()) => {}
            Err(InsertError::TooManyFrames) => refused += 1,
            Err(e) => panic!("{e}"),
        }
        assert!(tree.frame_count() <= MAX_TF_FRAMES);
    }
    assert_eq!(tree.frame_count(), MAX_TF_FRAMES);
    let first = MAX_TF_FRAMES - 4; // bogus0 .. bogus{first - 1} fit
    assert_eq!(tree.evicted_frames() as usize, MESSAGE_FRAMES);
    assert_eq!(refused, 2 * MAX_TF_FRAMES - first - MESSAGE_FRAMES);
    assert!(tree.lookup("map", "bogus0", 0.0, 100.0, TOL).is_ok());
    assert_eq!(
        tree.lookup("map", "bogus2000", 0.0, 100.0, TOL),
        Err(LookupFault::TooManyFrames)
    );
    assert_pose(
        tree.lookup("map", "lidar", 5.0, 100.0, 10.0),
        pose(1.0, 2.0, 0.0),
    );
    // A tree sent after a flood evicts the flood's names, and its own
    // frames stay, one after the other.
    tree.begin_message();
    fixed(&mut tree, "map", "sensor", pose(0.0, 3.0, 0.0));
    fixed(&mut tree, "sensor", "tip", pose(1.0, 0.0, 0.0));
    fixed(&mut tree, "tip", "end", pose(1.0, 0.0, 0.0));
    assert_pose(
        tree.lookup("map", "end", 0.0, 100.0, TOL),
        pose(2.0, 3.0, 0.0),
    );
    // Names flooded one per message evict each other (after the bulk
    // flood's), not the tree known before them.
    for i in 0..2 * MAX_TF_FRAMES {
        tree.begin_message();
        tree.insert(
            "map",
            &format!("few{i}"),
            0.0,
            Ok(pose(0.0, 0.0, 0.0)),
            true,
            100.0,
        )
        .expect("evicts an unused frame");
    }
    assert_eq!(tree.frame_count(), MAX_TF_FRAMES);
    for frame in ["lidar", "end", "bogus0"] {
        assert!(
            tree.lookup("map", frame, 5.0, 100.0, 10.0).is_ok(),
            "{frame}"
        );
    }
    // An evicted parent takes its children's edges with it.
    let mut tree = FrameTree::new();
    for i in 5..=MAX_TF_FRAMES {
        fixed(&mut tree, "root", &format!("f{i}"), pose(0.0, 0.0, 0.0));
    }
    fixed(&mut tree, "b", "c", pose(0.0, 0.0, 0.0));
    fixed(&mut tree, "a", "b", pose(0.0, 0.0, 0.0));
    assert_eq!(tree.frame_count(), MAX_TF_FRAMES);
    fixed(&mut tree, "root", "new", pose(0.0, 0.0, 0.0));
    assert_eq!(tree.parent("b"), None);
    assert_eq!(tree.parent("c"), Some("b"));
    assert_eq!(
        tree.lookup("a", "c", 0.0, 0.0, TOL),
        Err(LookupFault::TooManyFrames)
    );
    // Every frame used within TF_HISTORY: the new one is refused.
    let mut tree = FrameTree::new();
    for i in 1..MAX_TF_FRAMES {
        let name = format!("f{i}");
        fixed(&mut tree, "root", &name, pose(0.0, 0.0, 0.0));
        assert!(tree.lookup("root", &name, 0.0, 100.0, TOL).is_ok());
    }
    let p = Ok(pose(0.0, 0.0, 0.0));
    assert_eq!(
        tree.insert("root", "new", 0.0, p, true, 100.0 + TF_HISTORY),
        Err(InsertError::TooManyFrames)
    );
    assert_eq!(tree.frame_count(), MAX_TF_FRAMES);
    assert_eq!(
        tree.lookup("root", "new", 0.0, 100.0, 0.0),
        Err(LookupFault::TooManyFrames)
    );
    // Known frames still take transforms.
    fixed(&mut tree, "root", "f2", pose(5.0, 0.0, 0.0));
    // Later, the frames no lookup used since may go.
    assert!(tree.lookup("root", "f2", 0.0, 200.0, TOL).is_ok());
    tree.insert("root", "new", 0.0, p, true, 200.0 + TF_HISTORY)
        .expect("f1023 evicted");
    assert_eq!(
        tree.lookup("root", "f1023", 0.0, 210.0, 0.0),
        Err(LookupFault::TooManyFrames)
    );
    assert_pose(
        tree.lookup("root", "f2", 0.0, 210.0, 0.0),
        pose(5.0, 0.0, 0.0),
    );
    // A frame never known is only unavailable.
    assert_eq!(
        tree.lookup("root", "ghost", 0.0, 210.0, 0.0),
        Err(LookupFault::Unavailable)
    );
}

#[test]
fn the_most_serious_fault_of_a_path_is_reported() {
    let mut tree = FrameTree::new();
    // odom -> base stale, base -> laser invalid, laser -> tip in conflict.
    dynamic(&mut tree, "odom", "base", 45.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "base", "laser", 50.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "laser", "tip", 50.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "base", "arm", 44.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "base", "arm", 50.0, pose(0.0, 0.0, 0.0));
    assert_eq!(
        tree.lookup("odom", "arm", 0.0, 50.0, 0.5),
        Err(LookupFault::Stale)
    );
    tree.insert(
        "base",
        "arm",
        51.0,
        Err(TransformFault::NotARotation),
        false,
        50.0,
    )
    .expect("recorded");
    tree.insert(
        "base",
        "laser",
        0.0,
        Err(TransformFault::NonFinite),
        false,
        50.0,
    )
    .expect("recorded");
    assert_eq!(
        tree.lookup("odom", "laser", 0.0, 50.0, 0.5),
        Err(LookupFault::Invalid(TransformFault::NonFinite))
    );
    // Two invalid edges: the first met from the source.
    assert_eq!(
        tree.lookup("arm", "laser", 0.0, 50.0, 0.5),
        Err(LookupFault::Invalid(TransformFault::NonFinite))
    );
    assert_eq!(
        tree.lookup("laser", "arm", 0.0, 50.0, 0.5),
        Err(LookupFault::Invalid(TransformFault::NotARotation))
    );
    assert_eq!(
        tree.insert("map", "tip", 50.0, Ok(pose(0.0, 0.0, 0.0)), false, 50.0),
        Err(InsertError::SecondParent)
    );
    assert_eq!(
        tree.lookup("odom", "tip", 0.0, 50.0, 0.5),
        Err(LookupFault::Conflict)
    );
    // Unavailable (history) outranks Stale found earlier by arrival.
    let mut tree = FrameTree::new();
    dynamic(&mut tree, "a", "b", 1.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "b", "c", 20.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "b", "c", 25.0, pose(0.0, 0.0, 0.0));
    assert_eq!(
        tree.lookup("a", "c", 0.0, 25.0, 0.5),
        Err(LookupFault::Unavailable)
    );
}

#[test]
fn forget_dynamic_keeps_static_poses_only() {
    let mut tree = FrameTree::new();
    fixed(&mut tree, "base", "laser", pose(1.0, 0.0, 0.0));
    dynamic(&mut tree, "odom", "base", 10.0, pose(2.0, 0.0, 0.0));
    let _ = tree.insert("odom", "laser", 10.0, Ok(pose(0.0, 0.0, 0.0)), false, 10.0);
    tree.insert("x", "y", 0.0, Err(TransformFault::NotARotation), true, 0.0)
        .expect("recorded");
    assert_eq!(
        tree.lookup("base", "laser", 0.0, 10.0, 1.0),
        Err(LookupFault::Conflict)
    );
    tree.forget_dynamic();
    assert!(!tree.is_empty());
    assert_pose(
        tree.lookup("base", "laser", 0.0, 10.0, 1.0),
        pose(1.0, 0.0, 0.0),
    );
    assert_eq!(tree.rival("laser"), None);
    assert_eq!(
        tree.lookup("odom", "laser", 10.0, 10.0, 1.0),
        Err(LookupFault::Unavailable)
    );
    assert_eq!(tree.parent("base"), None);
    assert_eq!(tree.parent("y"), None);
    // A new dynamic parent is welcome at once.
    dynamic(&mut tree, "map", "base", 1.0, pose(0.0, 3.0, 0.0));
    assert_pose(
        tree.lookup("map", "laser", 0.0, 1.0, 1.0),
        pose(1.0, 3.0, 0.0),
    );
}

mod spatial;
