//! `lookup_3d`: 3-D poses composed along the same walk as `lookup`, and
//! the same faults for the same tree; what a sample and a full edge cost.

use super::super::edge::Sample;
use super::*;
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

/// A 3-D transform as a message gives it: translation and the quaternion
/// of (roll, pitch, yaw), written out here (ZYX: yaw, then pitch, then
/// roll) rather than taken from the code under test.
fn message(t: [f64; 3], roll: f64, pitch: f64, yaw: f64) -> Result<Transform, TransformFault> {
    let (cr, sr) = ((roll / 2.0).cos(), (roll / 2.0).sin());
    let (cp, sp) = ((pitch / 2.0).cos(), (pitch / 2.0).sin());
    let (cy, sy) = ((yaw / 2.0).cos(), (yaw / 2.0).sin());
    let q = [
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    ];
    Transform::new(t, q)
}

/// The pitched camera's pose in base_link: 0.2 m ahead, 1 m up, pitched
/// down 20 degrees (a positive pitch turns x towards -z, REP-103).
const PITCH: f64 = 20.0 * std::f64::consts::PI / 180.0;

fn camera(tree: &mut FrameTree) {
    let t = message([0.2, 0.0, 1.0], 0.0, PITCH, 0.0);
    tree.insert_transform("base_link", "camera", 0.0, t, true, 0.0)
        .expect("accepted");
}

/// A camera point in base_link, by hand: rotate about y by PITCH, then
/// translate.
fn camera_to_base(p: [f64; 3]) -> Point3<f64> {
    let (c, s) = (PITCH.cos(), PITCH.sin());
    Point3::new(0.2 + c * p[0] + s * p[2], p[1], 1.0 - s * p[0] + c * p[2])
}

#[track_caller]
fn assert_point(got: Point3<f64>, want: Point3<f64>) {
    assert!((got - want).norm() < 1e-12, "got {got}, want {want}");
}

#[track_caller]
fn assert_iso3(got: Result<Isometry3<f64>, LookupFault>, want: Isometry3<f64>) {
    let got = got.expect("a transform");
    assert!(
        (got.translation.vector - want.translation.vector).norm() < 1e-12
            && got.rotation.angle_to(&want.rotation) < 1e-12,
        "got {got:?}, want {want:?}"
    );
}

/// (x, y, yaw) of a 3-D pose, by hand.
fn projection(p: &Isometry3<f64>) -> Isometry2<f64> {
    let q = p.rotation;
    let yaw = (2.0 * (q.w * q.k + q.i * q.j)).atan2(1.0 - 2.0 * (q.j * q.j + q.k * q.k));
    Isometry2::new(Vector2::new(p.translation.x, p.translation.y), yaw)
}

#[test]
fn a_pitched_camera_sees_heights_in_the_base_frame() {
    let mut tree = FrameTree::new();
    camera(&mut tree);
    let base_camera = tree
        .lookup_3d("base_link", "camera", 0.0, 5.0, TOL)
        .expect("static");
    // 2 m along the camera's axis is 0.32 m above the floor: an obstacle's
    // height, not the floor.
    let ahead = base_camera * Point3::new(2.0, 0.0, 0.0);
    assert_point(ahead, camera_to_base([2.0, 0.0, 0.0]));
    assert!((ahead.z - (1.0 - 2.0 * PITCH.sin())).abs() < 1e-12);
    // The axis meets the floor 1 / sin(20 deg) = 2.92 m out: height 0.
    let floor = base_camera * Point3::new(1.0 / PITCH.sin(), 0.0, 0.0);
    assert!(floor.z.abs() < 1e-12, "{floor}");
    // Off the axis too (the rotation, not only the translation).
    for p in [[3.0, 0.5, 0.5], [1.0, -1.0, -0.2], [0.0, 0.0, 1.0]] {
        assert_point(base_camera * Point3::from(p), camera_to_base(p));
    }
    // And back.
    let camera_base = tree
        .lookup_3d("camera", "base_link", 1.0, 5.0, TOL)
        .expect("static");
    let p = camera_to_base([3.0, 0.5, 0.5]);
    assert_point(camera_base * p, Point3::new(3.0, 0.5, 0.5));
    // The planar lookup knows nothing of it: (0.2, 0, 0).
    assert_pose(
        tree.lookup("base_link", "camera", 0.0, 5.0, TOL),
        pose(0.2, 0.0, 0.0),
    );
}

#[test]
fn a_chain_with_a_dynamic_odom_edge_interpolates_in_3d() {
    let mut tree = FrameTree::new();
    // map -> odom: 1 m along x, turned a quarter, static; odom ->
    // base_link at t = 1 and t = 3 (x 0 -> 2, z 0 -> 0.4, yaw 0 -> 1);
    // base_link -> camera pitched.
    tree.insert_transform(
        "map",
        "odom",
        0.0,
        message([1.0, 0.0, 0.0], 0.0, 0.0, FRAC_PI_2),
        true,
        0.0,
    )
    .expect("accepted");
    for (stamp, x, z, yaw) in [(1.0, 0.0, 0.0, 0.0), (3.0, 2.0, 0.4, 1.0)] {
        let t = message([x, 0.0, z], 0.0, 0.0, yaw);
        tree.insert_transform("odom", "base_link", stamp, t, false, stamp)
            .expect("accepted");
    }
    camera(&mut tree);
    // By hand, at t = 2: odom -> base_link halfway, (1, 0, 0.2), yaw 0.5.
    let about_z = |a: f64| UnitQuaternion::from_axis_angle(&Vector3::z_axis(), a);
    let about_y = |a: f64| UnitQuaternion::from_axis_angle(&Vector3::y_axis(), a);
    let map_odom = Isometry3::from_parts(Translation3::new(1.0, 0.0, 0.0), about_z(FRAC_PI_2));
    let odom_base = Isometry3::from_parts(Translation3::new(1.0, 0.0, 0.2), about_z(0.5));
    let base_camera = Isometry3::from_parts(Translation3::new(0.2, 0.0, 1.0), about_y(PITCH));
    let want = map_odom * odom_base * base_camera;
    let got = tree.lookup_3d("map", "camera", 2.0, 3.0, TOL);
    assert_iso3(got, want);
    // A camera point's height: the robot's z plus the camera's.
    let p = got.expect("checked") * Point3::new(2.0, 0.0, 0.0);
    assert!((p.z - (0.2 + 1.0 - 2.0 * PITCH.sin())).abs() < 1e-12, "{p}");
    // Latest: t = 3, the newest sample.
    let odom_base = Isometry3::from_parts(Translation3::new(2.0, 0.0, 0.4), about_z(1.0));
    assert_iso3(
        tree.lookup_3d("map", "camera", 0.0, 3.0, TOL),
        map_odom * odom_base * base_camera,
    );
    // Both ways, and between the chain's ends.
    assert_iso3(
        tree.lookup_3d("camera", "map", 2.0, 3.0, TOL),
        want.inverse(),
    );
    // The planar lookup is the projection here (the pitched edge is the
    // last, below every turn about z).
    for time in [1.5, 2.0, 2.9, 0.0] {
        let spatial = tree
            .lookup_3d("map", "camera", time, 3.0, TOL)
            .expect("3-D");
        assert_pose(
            tree.lookup("map", "camera", time, 3.0, TOL),
            projection(&spatial),
        );
    }
}

#[test]
fn a_dynamic_tilt_is_slerped() {
    // A robot on a ramp: base_link pitched 0 at t = 0, 0.3 at t = 1.
    let mut tree = FrameTree::new();
    for (stamp, pitch) in [(0.0, 0.0), (1.0, 0.3)] {
        let t = message([0.0, 0.0, 0.0], 0.0, pitch, 0.0);
        tree.insert_transform("odom", "base_link", stamp, t, false, stamp)
            .expect("accepted");
    }
    for (time, pitch) in [(0.25, 0.075), (0.5, 0.15), (0.9, 0.27)] {
        let want = Isometry3::from_parts(
            Translation3::identity(),
            UnitQuaternion::from_axis_angle(&Vector3::y_axis(), pitch),
        );
        assert_iso3(tree.lookup_3d("odom", "base_link", time, 1.0, TOL), want);
    }
}

#[test]
fn planar_samples_are_lifted_to_z_zero_about_z() {
    let mut tree = FrameTree::new();
    fixed(&mut tree, "map", "odom", pose(10.0, 0.0, FRAC_PI_2));
    dynamic(&mut tree, "odom", "base", 1.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "odom", "base", 3.0, pose(2.0, 2.0, 1.0));
    for time in [1.0, 2.0, 2.5, 0.0] {
        let planar = tree.lookup("map", "base", time, 3.0, TOL).expect("planar");
        let spatial = tree.lookup_3d("map", "base", time, 3.0, TOL).expect("3-D");
        assert!(spatial.translation.z.abs() < 1e-15);
        let tilt = spatial.rotation * Vector3::z();
        assert!((tilt - Vector3::z()).norm() < 1e-12, "{tilt}");
        assert_pose(Ok(projection(&spatial)), planar);
    }
}

#[test]
fn a_static_rival_that_takes_the_edge_over_keeps_its_3d_pose() {
    let mut tree = FrameTree::new();
    dynamic(&mut tree, "odom", "camera", 10.0, pose(0.0, 0.0, 0.0));
    let pitched = message([0.2, 0.0, 1.0], 0.0, PITCH, 0.0);
    assert_eq!(
        tree.insert_transform("base_link", "camera", 0.0, pitched, true, 10.0),
        Err(InsertError::SecondParent)
    );
    same_fault(
        &tree,
        "odom",
        "camera",
        0.0,
        10.0,
        TOL,
        LookupFault::Conflict,
    );
    tree.forget_dynamic();
    let got = tree
        .lookup_3d("base_link", "camera", 0.0, 20.0, TOL)
        .expect("the rival's static edge");
    assert_point(
        got * Point3::new(2.0, 0.0, 0.0),
        camera_to_base([2.0, 0.0, 0.0]),
    );
}

#[test]
fn a_sample_costs_80_bytes() {
    assert_eq!(std::mem::size_of::<Sample>(), 80);
}

/// Both lookups fail, with `want`.
#[track_caller]
fn same_fault(
    tree: &FrameTree,
    target: &str,
    source: &str,
    time: f64,
    now: f64,
    tolerance: f64,
    want: LookupFault,
) {
    let planar = tree.lookup(target, source, time, now, tolerance).err();
    let spatial = tree.lookup_3d(target, source, time, now, tolerance).err();
    assert_eq!((planar, spatial), (Some(want), Some(want)));
}

#[test]
fn every_fault_of_lookup_is_lookup_3ds() {
    use LookupFault::*;
    let mut tree = FrameTree::new();
    // Unknown frames, separate trees.
    fixed(&mut tree, "map", "odom", pose(1.0, 0.0, 0.0));
    fixed(&mut tree, "world", "base", pose(0.0, 1.0, 0.0));
    same_fault(&tree, "map", "ghost", 0.0, 0.0, TOL, Unavailable);
    same_fault(&tree, "ghost", "map", 0.0, 0.0, TOL, Unavailable);
    same_fault(&tree, "map", "base", 0.0, 0.0, TOL, Unavailable);
    // The identity, even unknown.
    assert_eq!(
        tree.lookup_3d("ghost", "ghost", f64::NAN, f64::NAN, -1.0),
        Ok(Isometry3::identity())
    );

    // Time: after the newest, before the oldest, latest by stamp and by
    // arrival, non-finite times.
    let mut tree = FrameTree::new();
    let t = message([1.0, 0.0, 0.5], 0.1, 0.2, 0.3);
    tree.insert_transform("odom", "base", 10.0, t, false, 10.0)
        .expect("accepted");
    tree.insert_transform("odom", "base", 12.0, t, false, 12.0)
        .expect("accepted");
    same_fault(&tree, "odom", "base", 13.0, 12.0, 0.5, Stale);
    same_fault(&tree, "odom", "base", 9.0, 12.0, 0.5, Unavailable);
    same_fault(&tree, "odom", "base", 0.0, 13.0, 0.5, Stale);
    same_fault(&tree, "base", "odom", 0.0, 11.0, 0.5, Stale);
    same_fault(&tree, "odom", "base", f64::NAN, 12.0, 0.5, Unavailable);
    same_fault(&tree, "odom", "base", f64::INFINITY, 12.0, 0.5, Stale);
    same_fault(
        &tree,
        "odom",
        "base",
        f64::NEG_INFINITY,
        12.0,
        0.5,
        Unavailable,
    );
    same_fault(&tree, "odom", "base", 0.0, f64::NAN, 0.5, Stale);
    same_fault(&tree, "odom", "base", 0.0, 12.0, f64::NAN, Stale);
    // Within the rules, both answer.
    assert!(tree.lookup_3d("odom", "base", 11.0, 12.0, 0.5).is_ok());
    assert!(tree.lookup_3d("odom", "base", 0.0, 12.0, 0.5).is_ok());

    // A refused transform: invalid for both, whichever insert took it.
    let bad = Transform::new([0.0; 3], [0.0, 0.0, 0.0, 0.5]);
    assert_eq!(bad, Err(TransformFault::NotARotation));
    tree.insert_transform("odom", "base", 12.5, bad, false, 12.5)
        .expect("the fault is recorded");
    same_fault(
        &tree,
        "odom",
        "base",
        0.0,
        12.5,
        0.5,
        Invalid(TransformFault::NotARotation),
    );
    tree.insert_transform("odom", "base", f64::NAN, t, false, 12.6)
        .expect("the fault is recorded");
    same_fault(
        &tree,
        "base",
        "odom",
        12.0,
        12.6,
        0.5,
        Invalid(TransformFault::NonFinite),
    );
    tree.insert(
        "base",
        "laser",
        0.0,
        Err(TransformFault::NotARotation),
        true,
        12.6,
    )
    .expect("recorded");
    // Two refused edges: the first met going up.
    same_fault(
        &tree,
        "odom",
        "laser",
        12.0,
        12.6,
        0.5,
        Invalid(TransformFault::NotARotation),
    );
    // A good sample clears it for both.
    tree.insert_transform("odom", "base", 13.0, t, false, 13.0)
        .expect("accepted");
    assert!(tree.lookup("odom", "base", 0.0, 13.0, 0.5).is_ok());
    assert!(tree.lookup_3d("odom", "base", 0.0, 13.0, 0.5).is_ok());
    assert_eq!(
        tree.insert_transform("a", "b", 0.0, Err(TransformFault::SelfTransform), true, 0.0),
        Err(InsertError::SelfTransform)
    );

    // Conflicts: a second parent, static against dynamic, a loop.
    let mut tree = FrameTree::new();
    dynamic(&mut tree, "odom", "base", 10.0, pose(1.0, 0.0, 0.0));
    let other = message([5.0, 0.0, 0.0], 0.0, 0.0, 0.0);
    assert_eq!(
        tree.insert_transform("map", "base", 10.5, other, false, 10.5),
        Err(InsertError::SecondParent)
    );
    same_fault(&tree, "odom", "base", 0.0, 10.5, TOL, Conflict);
    fixed(&mut tree, "base", "laser", pose(0.0, 0.0, 0.0));
    let moving = message([0.0, 0.0, 1.0], 0.0, 0.0, 0.0);
    assert_eq!(
        tree.insert_transform("base", "laser", 10.5, moving, false, 10.5),
        Err(InsertError::SecondParent)
    );
    same_fault(&tree, "base", "laser", 0.0, 11.0, TOL, Conflict);
    // A dynamic rival of a static edge is a conflict while it is recent.
    assert!(tree.lookup("base", "laser", 0.0, 13.0, TOL).is_ok());
    assert!(tree.lookup_3d("base", "laser", 0.0, 13.0, TOL).is_ok());
    let mut tree = FrameTree::new();
    fixed(&mut tree, "a", "b", pose(0.0, 0.0, 0.0));
    fixed(&mut tree, "b", "c", pose(0.0, 0.0, 0.0));
    fixed(&mut tree, "c", "a", pose(0.0, 0.0, 0.0));
    fixed(&mut tree, "x", "y", pose(0.0, 0.0, 0.0));
    same_fault(&tree, "a", "b", 0.0, 1.0, 1.0, Conflict);
    same_fault(&tree, "x", "c", 1.0, 1.0, 1.0, Conflict);

    // A frame lost at the frame limit.
    let mut tree = FrameTree::new();
    for i in 1..MAX_TF_FRAMES {
        let name = format!("f{i}");
        fixed(&mut tree, "root", &name, pose(0.0, 0.0, 0.0));
        assert!(tree.lookup_3d("root", &name, 0.0, 100.0, TOL).is_ok());
    }
    let p = message([0.0; 3], 0.0, 0.0, 0.0);
    assert_eq!(
        tree.insert_transform("root", "new", 0.0, p, true, 100.0 + TF_HISTORY),
        Err(InsertError::TooManyFrames)
    );
    same_fault(&tree, "root", "new", 0.0, 100.0, 0.0, TooManyFrames);
}

#[test]
fn the_most_serious_fault_is_lookup_3ds_too() {
    use LookupFault::*;
    let mut tree = FrameTree::new();
    // odom -> base stale, base -> laser invalid, laser -> tip in conflict.
    dynamic(&mut tree, "odom", "base", 45.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "base", "laser", 50.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "laser", "tip", 50.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "base", "arm", 44.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "base", "arm", 50.0, pose(0.0, 0.0, 0.0));
    same_fault(&tree, "odom", "arm", 0.0, 50.0, 0.5, Stale);
    let refuse = |tree: &mut FrameTree, child: &str, stamp: f64, fault: TransformFault| {
        tree.insert_transform("base", child, stamp, Err(fault), false, 50.0)
            .expect("recorded");
    };
    refuse(&mut tree, "arm", 51.0, TransformFault::NotARotation);
    refuse(&mut tree, "laser", 0.0, TransformFault::NonFinite);
    same_fault(
        &tree,
        "odom",
        "laser",
        0.0,
        50.0,
        0.5,
        Invalid(TransformFault::NonFinite),
    );
    // Two invalid edges: the first met from the source.
    same_fault(
        &tree,
        "arm",
        "laser",
        0.0,
        50.0,
        0.5,
        Invalid(TransformFault::NonFinite),
    );
    same_fault(
        &tree,
        "laser",
        "arm",
        0.0,
        50.0,
        0.5,
        Invalid(TransformFault::NotARotation),
    );
    assert_eq!(
        tree.insert("map", "tip", 50.0, Ok(pose(0.0, 0.0, 0.0)), false, 50.0),
        Err(InsertError::SecondParent)
    );
    same_fault(&tree, "odom", "tip", 0.0, 50.0, 0.5, Conflict);
    // Unavailable (history) outranks Stale found earlier by arrival.
    let mut tree = FrameTree::new();
    dynamic(&mut tree, "a", "b", 1.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "b", "c", 20.0, pose(0.0, 0.0, 0.0));
    dynamic(&mut tree, "b", "c", 25.0, pose(0.0, 0.0, 0.0));
    same_fault(&tree, "a", "c", 0.0, 25.0, 0.5, Unavailable);
}

#[test]
fn at_the_sample_limit_the_buffer_does_not_double() {
    // 200 Hz: TF_HISTORY would hold 2,000 samples, MAX_TF_SAMPLES keeps
    // the newest 1,024 (the samples a full edge costs: 80 bytes each).
    let mut tree = FrameTree::new();
    let mut stamps = Vec::new();
    for i in 0..5_000 {
        let t = f64::from(i) * 0.005;
        dynamic(&mut tree, "odom", "base", t, pose(t, 0.0, 0.0));
        stamps.push(t);
    }
    // One older than every kept sample is not kept; one in between is.
    dynamic(&mut tree, "odom", "base", 1.0, pose(-1.0, 0.0, 0.0));
    dynamic(&mut tree, "odom", "base", 24.9949, pose(-2.0, 0.0, 0.0));
    let id = tree.names.id("base").expect("known");
    let Some(Some(edge)) = tree.edges.get(id as usize) else {
        panic!("no edge")
    };
    let Poses::Dynamic(samples) = &edge.poses else {
        panic!("dynamic")
    };
    assert_eq!(samples.len(), MAX_TF_SAMPLES);
    assert!(
        samples.capacity() < 2 * MAX_TF_SAMPLES,
        "{}",
        samples.capacity()
    );
    let kept: Vec<f64> = samples.iter().map(|s| s.stamp).collect();
    let mut want = stamps[stamps.len() - MAX_TF_SAMPLES + 1..].to_vec();
    want.insert(want.len() - 1, 24.9949);
    assert!(
        kept == want,
        "kept {:?} .. {:?}",
        kept.first(),
        kept.get(kept.len().saturating_sub(3)..)
    );
    // The newest is still the newest, at its own arrival.
    assert_pose(
        tree.lookup("odom", "base", 0.0, 24.995, 0.001),
        pose(24.995, 0.0, 0.0),
    );
}
