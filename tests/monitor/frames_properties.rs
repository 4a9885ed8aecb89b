//! Random TF trees: `FrameTree::lookup` and `FrameTree::lookup_3d` against
//! an independent reference.
//!
//! The reference does not use `frames`: it keeps each edge as a 3-D
//! `Isometry3` (a rotation about z only, plus a z offset that the planar
//! tree must drop; for `lookup_3d`, any rotation), interpolates a dynamic
//! edge with `UnitQuaternion::slerp` (tf2's way: shorter arc) and a linear
//! translation, composes each frame's chain up to its root from scratch,
//! and, for `lookup`, projects the result to (x, y, yaw) at the end. With
//! rotations about z only, projecting after composing is the same as the
//! tree's projecting before, so the two must agree to rounding.
//!
//! Also: a lookup and its reverse compose to the identity, lookups chain
//! through any third frame of the same tree, `planar_transform` keeps the
//! ZYX-Euler yaw of any quaternion, `lookup_3d` projects to `lookup` on
//! planar paths and fails exactly when `lookup` fails, with the same fault,
//! whatever the history of samples, and lookups do not allocate.

use nalgebra::{Isometry2, Isometry3, Translation3, UnitQuaternion, Vector2, Vector3};
use proptest::prelude::*;
use proptest::sample::Index;
use sat_collision::frames::{planar_transform, FrameTree, LookupFault, Transform, TransformFault};
use sat_collision_testkit::alloc::allocations_in;

/// Agreement on translation (m) and heading (rad): poses are within 10 m
/// and chains at most 8 deep, so rounding is ~1e-13.
const EPS: f64 = 1e-9;

/// Dynamic samples are stamped in [0, 5] and [6, 10]: every time in
/// [5, 6] is inside every dynamic edge's history.
const COMMON: (f64, f64) = (5.0, 6.0);

#[derive(Clone, Copy, Debug, Default)]
struct Pose {
    x: f64,
    y: f64,
    z: f64,
    /// Zero but in the 3-D trees.
    roll: f64,
    pitch: f64,
    yaw: f64,
}

impl Pose {
    fn rotation(&self) -> UnitQuaternion<f64> {
        UnitQuaternion::from_euler_angles(self.roll, self.pitch, self.yaw)
    }

    fn iso3(&self) -> Isometry3<f64> {
        Isometry3::from_parts(Translation3::new(self.x, self.y, self.z), self.rotation())
    }

    fn is_planar(&self) -> bool {
        self.roll == 0.0 && self.pitch == 0.0
    }

    /// What the node would receive: a `geometry_msgs/Transform`.
    fn message(&self) -> ([f64; 3], [f64; 4]) {
        let q = self.rotation();
        ([self.x, self.y, self.z], [q.i, q.j, q.k, q.w])
    }

    /// As the planar tree was fed before it kept 3-D poses.
    fn planar(&self) -> Result<Isometry2<f64>, TransformFault> {
        let (t, q) = self.message();
        planar_transform(t, q)
    }

    /// As the node feeds the tree.
    fn transform(&self) -> Result<Transform, TransformFault> {
        let (t, q) = self.message();
        Transform::new(t, q)
    }
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Static(Pose),
    /// Two samples; `reversed`: the newer one is inserted first.
    Dynamic {
        t0: f64,
        p0: Pose,
        t1: f64,
        p1: Pose,
        reversed: bool,
    },
}

#[derive(Clone, Debug)]
struct Frame {
    /// `None`: a root.
    parent: Option<usize>,
    kind: Kind,
}

fn pose() -> impl Strategy<Value = Pose> {
    (-10.0..10.0, -10.0..10.0, -2.0..2.0, -3.1..3.1).prop_map(|(x, y, z, yaw)| Pose {
        x,
        y,
        z,
        yaw,
        ..Pose::default()
    })
}

/// Half of them planar (roll = pitch = 0), the others tilted any way.
fn pose_3d() -> impl Strategy<Value = Pose> {
    (pose(), any::<bool>(), -3.1..3.1, -1.5..1.5).prop_map(|(p, tilted, roll, pitch)| {
        if tilted {
            Pose { roll, pitch, ..p }
        } else {
            p
        }
    })
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        pose().prop_map(Kind::Static),
        // The second heading is within ±3 rad of the first (often across
        // ±π), away from the ambiguous half turn.
        (
            0.0..5.0,
            pose(),
            6.0..10.0,
            pose(),
            -3.0..3.0,
            any::<bool>()
        )
            .prop_map(|(t0, p0, t1, p1, turn, reversed)| Kind::Dynamic {
                t0,
                p0,
                t1,
                p1: Pose {
                    yaw: p0.yaw + turn,
                    ..p1
                },
                reversed,
            }),
    ]
}

/// Any rotation at both samples of a dynamic edge: slerp's shorter arc is
/// the reference's too.
fn kind_3d() -> impl Strategy<Value = Kind> {
    prop_oneof![
        pose_3d().prop_map(Kind::Static),
        (0.0..5.0, pose_3d(), 6.0..10.0, pose_3d(), any::<bool>()).prop_map(
            |(t0, p0, t1, p1, reversed)| Kind::Dynamic {
                t0,
                p0,
                t1,
                p1,
                reversed,
            }
        ),
    ]
}

/// 2 to 8 frames; frame 0 is a root, each other frame hangs from an
/// earlier one (or, one time in eight, is a root of its own tree).
fn frames() -> impl Strategy<Value = Vec<Frame>> {
    frames_of(kind())
}

/// As [`frames`], the edges tilted or not ([`kind_3d`]).
fn frames_3d() -> impl Strategy<Value = Vec<Frame>> {
    frames_of(kind_3d())
}

fn frames_of(kind: impl Strategy<Value = Kind>) -> impl Strategy<Value = Vec<Frame>> {
    prop::collection::vec((any::<Index>(), prop::bool::weighted(0.125), kind), 2..=8).prop_map(
        |specs| {
            specs
                .into_iter()
                .enumerate()
                .map(|(i, (index, root, kind))| Frame {
                    parent: (i > 0 && !root).then(|| index.index(i)),
                    kind,
                })
                .collect()
        },
    )
}

fn name(i: usize) -> String {
    format!("f{i}")
}

/// The tree fed planar transforms (`insert`).
fn build(frames: &[Frame]) -> FrameTree {
    build_with(
        frames,
        |tree, parent, child, stamp, pose, is_static, arrival| {
            tree.insert(parent, child, stamp, pose.planar(), is_static, arrival)
        },
    )
}

/// The tree fed as the node feeds it (`insert_transform`).
fn build_3d(frames: &[Frame]) -> FrameTree {
    build_with(
        frames,
        |tree, parent, child, stamp, pose, is_static, arrival| {
            tree.insert_transform(parent, child, stamp, pose.transform(), is_static, arrival)
        },
    )
}

type Feed = fn(
    &mut FrameTree,
    &str,
    &str,
    f64,
    &Pose,
    bool,
    f64,
) -> Result<(), sat_collision::frames::InsertError>;

fn build_with(frames: &[Frame], feed: Feed) -> FrameTree {
    let mut tree = FrameTree::new();
    for (child, frame) in frames.iter().enumerate() {
        let Some(parent) = frame.parent else { continue };
        let (parent, child) = (name(parent), name(child));
        match frame.kind {
            Kind::Static(p) => {
                feed(&mut tree, &parent, &child, 0.0, &p, true, 0.0).expect("a static edge")
            }
            Kind::Dynamic {
                t0,
                p0,
                t1,
                p1,
                reversed,
            } => {
                let mut samples = [(t0, p0), (t1, p1)];
                if reversed {
                    samples.reverse();
                }
                for (t, p) in samples {
                    feed(&mut tree, &parent, &child, t, &p, false, 10.0).expect("a dynamic sample");
                }
            }
        }
    }
    tree
}

// ---------------------------------------------------------------- reference

/// The edge of `frame` (its pose in its parent) at `t`.
fn edge_at(kind: &Kind, t: f64) -> Isometry3<f64> {
    match *kind {
        Kind::Static(p) => p.iso3(),
        Kind::Dynamic { t0, p0, t1, p1, .. } => {
            let s = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
            let (a, b) = (p0.iso3(), p1.iso3());
            let translation = a.translation.vector.lerp(&b.translation.vector, s);
            // nalgebra's slerp of two close rotations can leave the
            // quaternion ~1e-10 off unit length, which scales every
            // translation it rotates: normalised, the reference is exact.
            let rotation = UnitQuaternion::new_normalize(*a.rotation.slerp(&b.rotation, s));
            Isometry3::from_parts(translation.into(), rotation)
        }
    }
}

/// `frame` and its ancestors, itself first, its root last.
fn chain(frames: &[Frame], frame: usize) -> Vec<usize> {
    let mut out = vec![frame];
    while let Some(p) = frames[*out.last().expect("non-empty")].parent {
        out.push(p);
    }
    out
}

/// `frame`'s pose in its root at `t`, in 3-D.
fn in_root(frames: &[Frame], frame: usize, t: f64) -> Isometry3<f64> {
    chain(frames, frame)
        .iter()
        .rev()
        .filter(|&&f| frames[f].parent.is_some())
        .fold(Isometry3::identity(), |acc, &f| {
            acc * edge_at(&frames[f].kind, t)
        })
}

/// The frames whose edges the path between `target` and `source` crosses:
/// those of one chain not in the other.
fn path(frames: &[Frame], target: usize, source: usize) -> Vec<usize> {
    let (ct, cs) = (chain(frames, target), chain(frames, source));
    ct.iter()
        .filter(|f| !cs.contains(f))
        .chain(cs.iter().filter(|f| !ct.contains(f)))
        .copied()
        .collect()
}

/// The 3-D lookup as the reference computes it: `None` for separate
/// trees; `time == 0` is the latest common time of the path's dynamic
/// edges.
fn reference_3d(
    frames: &[Frame],
    target: usize,
    source: usize,
    time: f64,
) -> Option<Isometry3<f64>> {
    if !same_tree(frames, target, source) {
        return None;
    }
    let t = if time == 0.0 {
        path(frames, target, source)
            .into_iter()
            .filter_map(|f| match frames[f].kind {
                Kind::Dynamic { t1, .. } if frames[f].parent.is_some() => Some(t1),
                _ => None,
            })
            .fold(f64::INFINITY, f64::min)
    } else {
        time
    };
    let t = if t.is_finite() { t } else { COMMON.0 };
    Some(in_root(frames, target, t).inverse() * in_root(frames, source, t))
}

/// (x, y, yaw) of a 3-D pose.
fn project(m: &Isometry3<f64>) -> Isometry2<f64> {
    let (_, _, yaw) = m.rotation.euler_angles();
    Isometry2::new(
        Vector2::new(m.translation.vector.x, m.translation.vector.y),
        yaw,
    )
}

/// The lookup as the reference computes it: [`reference_3d`] projected.
fn reference(frames: &[Frame], target: usize, source: usize, time: f64) -> Option<Isometry2<f64>> {
    reference_3d(frames, target, source, time).map(|m| project(&m))
}

fn close(a: &Isometry2<f64>, b: &Isometry2<f64>) -> bool {
    (a.translation.vector - b.translation.vector).norm() < EPS
        && a.rotation.angle_to(&b.rotation).abs() < EPS
}

fn close_3d(a: &Isometry3<f64>, b: &Isometry3<f64>) -> bool {
    (a.translation.vector - b.translation.vector).norm() < EPS
        && a.rotation.angle_to(&b.rotation) < EPS
}

fn same_tree(frames: &[Frame], a: usize, b: usize) -> bool {
    chain(frames, a).last() == chain(frames, b).last()
}

// ------------------------------------------------------ random histories

/// One step of a random history: a transform (good or refused, static or
/// dynamic, through either insert), a new message, or the clock jumping
/// back. Five frames, stamps on a coarse grid (repeats and reorders), some
/// not finite.
#[derive(Clone, Debug)]
enum Op {
    Insert {
        parent: usize,
        child: usize,
        stamp: f64,
        arrival: f64,
        pose: Pose,
        fault: Option<[f64; 4]>,
        is_static: bool,
        planar: bool,
    },
    BeginMessage,
    ForgetDynamic,
}

impl Op {
    fn apply(&self, tree: &mut FrameTree) {
        let Op::Insert {
            parent,
            child,
            stamp,
            arrival,
            pose,
            fault,
            is_static,
            planar,
        } = *self
        else {
            match self {
                Op::BeginMessage => tree.begin_message(),
                _ => tree.forget_dynamic(),
            }
            return;
        };
        let (parent, child) = (name(parent), name(child));
        let (t, q) = pose.message();
        let q = fault.unwrap_or(q);
        // Refusals are part of the history: the result is not asked.
        let _ = if planar {
            tree.insert(
                &parent,
                &child,
                stamp,
                planar_transform(t, q),
                is_static,
                arrival,
            )
        } else {
            tree.insert_transform(
                &parent,
                &child,
                stamp,
                Transform::new(t, q),
                is_static,
                arrival,
            )
        };
    }
}

fn time() -> impl Strategy<Value = f64> {
    prop_oneof![
        8 => (0..=12).prop_map(f64::from),
        4 => 0.0..12.0,
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let fault = prop_oneof![
        8 => Just(None),
        1 => Just(Some([0.0, 0.0, 0.0, 0.0])),
        1 => Just(Some([f64::NAN, 0.0, 0.0, 1.0])),
    ];
    // Mostly a parent numbered below its child (a tree), sometimes any
    // (second parents, loops).
    let edge = (
        1..5usize,
        any::<Index>(),
        0..5usize,
        prop::bool::weighted(0.1),
    )
        .prop_map(|(child, below, any, anywhere)| {
            if anywhere {
                (any, child)
            } else {
                (below.index(child), child)
            }
        });
    let insert = (
        (edge, time(), -1.0..1.0f64, prop::bool::weighted(0.1)),
        (pose(), fault, prop::bool::weighted(0.2), any::<bool>()),
    )
        .prop_map(
            |(((parent, child), stamp, late, nan), (pose, fault, is_static, planar))| Op::Insert {
                parent,
                child,
                stamp,
                arrival: if nan { f64::NAN } else { stamp + late },
                pose,
                fault,
                is_static,
                planar,
            },
        );
    prop_oneof![
        20 => insert,
        2 => Just(Op::BeginMessage),
        1 => Just(Op::ForgetDynamic),
    ]
}

#[derive(Clone, Copy, Debug)]
struct Look {
    target: usize,
    source: usize,
    time: f64,
    now: f64,
    tolerance: f64,
}

fn look() -> impl Strategy<Value = Look> {
    let time = prop_oneof![3 => Just(0.0), 3 => time(), 1 => -2.0..15.0];
    let tolerance = prop_oneof![
        Just(0.0),
        Just(0.5),
        Just(2.0),
        Just(100.0),
        Just(f64::NAN),
        Just(f64::INFINITY),
    ];
    // f5 is never known.
    let frame = || prop_oneof![9 => 0..5usize, 1 => Just(5usize)];
    (frame(), frame(), time, -1.0..14.0, tolerance).prop_map(
        |(target, source, time, now, tolerance)| Look {
            target,
            source,
            time,
            now,
            tolerance,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn lookups_match_the_reference(
        frames in frames(),
        at in COMMON.0..COMMON.1,
    ) {
        let tree = build(&frames);
        for target in 0..frames.len() {
            for source in 0..frames.len() {
                for time in [at, 0.0] {
                    let got = tree.lookup(&name(target), &name(source), time, 10.0, 100.0);
                    match reference(&frames, target, source, time) {
                        None => prop_assert_eq!(got, Err(LookupFault::Unavailable)),
                        Some(want) => {
                            let got = got.map_err(|e| TestCaseError::fail(format!(
                                "f{target} <- f{source} at {time}: {e}"
                            )))?;
                            prop_assert!(
                                close(&got, &want),
                                "f{} <- f{} at {}: got {:?}, want {:?}", target, source, time, got, want
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_lookup_and_its_reverse_cancel_and_lookups_chain(
        frames in frames(),
        at in COMMON.0..COMMON.1,
        picks in (any::<Index>(), any::<Index>(), any::<Index>()),
    ) {
        let tree = build(&frames);
        let n = frames.len();
        let (a, b, c) = (picks.0.index(n), picks.1.index(n), picks.2.index(n));
        prop_assume!(same_tree(&frames, a, b) && same_tree(&frames, b, c));
        let look = |x: usize, y: usize| tree.lookup(&name(x), &name(y), at, 10.0, 0.0);
        let ab = look(a, b).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let ba = look(b, a).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let bc = look(b, c).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let ac = look(a, c).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(close(&(ab * ba), &Isometry2::identity()), "{:?}", ab * ba);
        prop_assert!(close(&(ab * bc), &ac), "{:?} vs {:?}", ab * bc, ac);
    }

    #[test]
    fn lookup_3d_is_the_product_of_the_3d_edges(
        frames in frames_3d(),
        at in COMMON.0..COMMON.1,
    ) {
        let tree = build_3d(&frames);
        for target in 0..frames.len() {
            for source in 0..frames.len() {
                for time in [at, 0.0] {
                    let got = tree.lookup_3d(&name(target), &name(source), time, 10.0, 100.0);
                    match reference_3d(&frames, target, source, time) {
                        None => prop_assert_eq!(got, Err(LookupFault::Unavailable)),
                        Some(want) => {
                            let got = got.map_err(|e| TestCaseError::fail(format!(
                                "f{target} <- f{source} at {time}: {e}"
                            )))?;
                            prop_assert!(
                                close_3d(&got, &want),
                                "f{} <- f{} at {}: got {:?}, want {:?}", target, source, time, got, want
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn lookup_3d_projects_to_lookup_on_planar_paths(
        frames in frames_3d(),
        at in COMMON.0..COMMON.1,
    ) {
        let tree = build_3d(&frames);
        for target in 0..frames.len() {
            for source in 0..frames.len() {
                let planar = path(&frames, target, source).into_iter().all(|f| match frames[f].kind {
                    Kind::Static(p) => p.is_planar(),
                    Kind::Dynamic { p0, p1, .. } => p0.is_planar() && p1.is_planar(),
                });
                for time in [at, 0.0] {
                    let (t, s) = (name(target), name(source));
                    let got = tree.lookup(&t, &s, time, 10.0, 100.0);
                    let spatial = tree.lookup_3d(&t, &s, time, 10.0, 100.0);
                    match (got, spatial) {
                        (Ok(got), Ok(spatial)) => prop_assert!(
                            !planar || close(&got, &project(&spatial)),
                            "{} <- {} at {}: {:?} against {:?}", t, s, time, got, spatial
                        ),
                        (got, spatial) => prop_assert_eq!(got.err(), spatial.err()),
                    }
                }
            }
        }
    }

    #[test]
    fn lookup_3d_fails_as_lookup_fails_whatever_the_history(
        ops in prop::collection::vec(op(), 1..40),
        looks in prop::collection::vec(look(), 1..20),
    ) {
        let mut tree = FrameTree::new();
        for (i, op) in ops.iter().enumerate() {
            op.apply(&mut tree);
            // Ask after every few operations, the whole history so far.
            if i % 4 != 3 && i + 1 != ops.len() {
                continue;
            }
            for look in &looks {
                let (t, s) = (name(look.target), name(look.source));
                let planar = tree.lookup(&t, &s, look.time, look.now, look.tolerance);
                let spatial = tree.lookup_3d(&t, &s, look.time, look.now, look.tolerance);
                match (planar, spatial) {
                    // Every pose is planar: the projection is the lookup.
                    (Ok(p), Ok(m)) => prop_assert!(
                        close(&p, &project(&m)),
                        "{:?} after {:?}: {:?} against {:?}", look, &ops[..=i], p, m
                    ),
                    (p, m) => prop_assert_eq!(
                        p.err(), m.err(), "{:?} after {:?}", look, &ops[..=i]
                    ),
                }
            }
        }
    }

    #[test]
    fn planar_transform_keeps_the_zyx_euler_yaw(
        roll in -3.1f64..3.1,
        pitch in -1.5f64..1.5,
        yaw in -3.1f64..3.1,
        t in (-100.0f64..100.0, -100.0f64..100.0, -100.0f64..100.0),
        scale in 0.996f64..1.004,
    ) {
        let q = UnitQuaternion::from_euler_angles(roll, pitch, yaw);
        let want = q.euler_angles().2;
        // A slightly unnormalised message (squared norm within 0.01 of 1).
        let raw = [q.i * scale, q.j * scale, q.k * scale, q.w * scale];
        let got = planar_transform([t.0, t.1, t.2], raw)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let heading = UnitQuaternion::from_euler_angles(0.0, 0.0, want);
        prop_assert!(
            (got.rotation.angle() - want).abs() < 1e-9
                || (got.rotation.angle().abs() - std::f64::consts::PI).abs() < 1e-9
                    && (want.abs() - std::f64::consts::PI).abs() < 1e-9,
            "yaw {} vs {}", got.rotation.angle(), want
        );
        // The same heading as the projected x axis of the rotation.
        let x_axis = q * Vector3::x();
        if x_axis.x.hypot(x_axis.y) > 1e-3 {
            let projected = x_axis.y.atan2(x_axis.x);
            prop_assert!((heading.angle_to(&UnitQuaternion::from_euler_angles(0.0, 0.0, projected))).abs() < 1e-6);
        }
        prop_assert_eq!(got.translation.vector, Vector2::new(t.0, t.1));
    }
}

#[test]
fn a_lookup_by_name_does_not_allocate() {
    let frames: Vec<Frame> = (0..6)
        .map(|i| Frame {
            parent: (i > 0).then(|| i - 1),
            kind: if i % 2 == 0 {
                Kind::Static(Pose {
                    x: 1.0,
                    y: 0.0,
                    z: 0.0,
                    yaw: 0.5,
                    ..Pose::default()
                })
            } else {
                Kind::Dynamic {
                    t0: 1.0,
                    p0: Pose {
                        x: 0.0,
                        y: 1.0,
                        z: 0.0,
                        yaw: 0.0,
                        ..Pose::default()
                    },
                    t1: 8.0,
                    p1: Pose {
                        x: 2.0,
                        y: 1.0,
                        z: 0.0,
                        yaw: 1.0,
                        ..Pose::default()
                    },
                    reversed: false,
                }
            },
        })
        .collect();
    let tree = build(&frames);
    let mut result = None;
    let allocations = allocations_in(|| {
        result = Some((
            tree.lookup("f5", "f0", 5.5, 10.0, 0.0),
            tree.lookup("f0", "f5", 0.0, 10.0, 2.5),
            tree.lookup("f0", "nowhere", 0.0, 10.0, 1.0),
            tree.lookup("f2", "f4", 20.0, 10.0, 1.0),
        ));
    });
    assert_eq!(allocations, 0);
    let (a, b, unknown, stale) = result.expect("ran");
    assert!(a.is_ok() && b.is_ok());
    assert_eq!(unknown, Err(LookupFault::Unavailable));
    assert_eq!(stale, Err(LookupFault::Stale));
}

#[test]
fn a_3d_lookup_does_not_allocate() {
    let tilted = Pose {
        x: 0.2,
        z: 1.0,
        pitch: 0.35,
        ..Pose::default()
    };
    let frames: Vec<Frame> = (0..6)
        .map(|i| Frame {
            parent: (i > 0).then(|| i - 1),
            kind: if i % 2 == 0 {
                Kind::Static(tilted)
            } else {
                Kind::Dynamic {
                    t0: 1.0,
                    p0: tilted,
                    t1: 8.0,
                    p1: Pose { yaw: 1.0, ..tilted },
                    reversed: false,
                }
            },
        })
        .collect();
    let tree = build_3d(&frames);
    let mut result = None;
    let allocations = allocations_in(|| {
        result = Some((
            tree.lookup_3d("f5", "f0", 5.5, 10.0, 0.0),
            tree.lookup_3d("f0", "f5", 0.0, 10.0, 2.5),
            tree.lookup_3d("f0", "nowhere", 0.0, 10.0, 1.0),
            tree.lookup_3d("f2", "f4", 20.0, 10.0, 1.0),
        ));
    });
    assert_eq!(allocations, 0);
    let (a, b, unknown, stale) = result.expect("ran");
    assert!(a.is_ok() && b.is_ok());
    assert_eq!(unknown, Err(LookupFault::Unavailable));
    assert_eq!(stale, Err(LookupFault::Stale));
}

#[test]
fn a_steady_stream_of_samples_does_not_allocate() {
    let mut tree = FrameTree::new();
    let p = Ok(Isometry2::new(Vector2::new(1.0, 2.0), 0.3));
    let mut t = 0.0;
    let mut feed = |tree: &mut FrameTree, count: usize| {
        for _ in 0..count {
            t += 0.01; // 100 Hz: TF_HISTORY holds about 1,000 samples
            tree.insert("odom", "base", t, p, false, t)
                .expect("accepted");
            tree.insert("base", "laser", 0.0, p, true, t)
                .expect("accepted");
        }
    };
    feed(&mut tree, 3_000);
    let allocations = allocations_in(|| feed(&mut tree, 500));
    assert_eq!(allocations, 0);
    assert!(tree.sample_count("base") <= sat_collision::frames::MAX_TF_SAMPLES);
    assert!(tree.lookup("odom", "laser", 0.0, t, 0.1).is_ok());
}
