//! Time of impact (issue #13): ours ([`time_of_impact`]) against parry2d
//! (f64) on pairs of convex 8-gons.
//!
//! ```bash
//! cargo bench --no-default-features --bench motion
//! # One case in a loop (for callgrind; no criterion):
//! MOTION_REPEAT=ours_rotation MOTION_REPS=20000 \
//!     valgrind --tool=callgrind target/release/deps/motion-<hash>
//! ```
//!
//! Groups (every benchmark times a batch of [`PAIRS`] different pairs, so the
//! time per query is criterion's time per iteration divided by `PAIRS`):
//! * `motion_translation`: `ours` = [`time_of_impact`] with a translation
//!   (exact); `parry` = `query::cast_shapes`.
//! * `motion_rotation`: a path segment turning at 0.5 to 2 rad/s; `ours` =
//!   [`time_of_impact`] (conservative advancement); `parry` =
//!   `query::cast_shapes_nonlinear` (parry's conservative advancement).
//!
//! Before anything is timed, the setup computes the first contact of every
//! pair with a dense-sampling reference (10,000 sub-steps of the static
//! [`query`], skipping those a clearance proves clear with the global speed
//! bound, bisection of the first colliding one), asserts that both libraries
//! agree with it on hit / no hit and that ours is never later, and prints
//! both libraries' errors against it (time, and travel at the speed bound).
//!
//! Measured on the 2-core development machine (shared, so criterion's times
//! wander by ±15 %; instruction counts from callgrind with `MOTION_REPEAT`,
//! 300 batches minus a 0-batch run, are exact):
//!
//! | group       | ours        | parry        | time ratio | instructions (ours / parry) |
//! |-------------|-------------|--------------|------------|-----------------------------|
//! | translation | 88 ns       | 401 ns       | 4.6×       | 1,395 / 3,371 = 2.4×        |
//! | rotation    | 3.8 µs      | 17.1 µs      | 4.6×       | 45,119 / 184,367 = 4.1×     |
//!
//! Errors against the dense reference (pairs that hit): translation, ours
//! ≤ 2.0e-12 s (never late), parry ≤ 9.0e-13 s; rotation, ours ≤ 3.4e-12 s
//! (never late), parry ≤ 1.1e-9 s (either side).

use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode, Throughput};
use nalgebra::Isometry2;
use parry2d_f64::math::{Pose, Vector as PVector};
use parry2d_f64::query as pq;
use parry2d_f64::shape::ConvexPolygon as ParryPolygon;
use sat_collision::geometry::{query, time_of_impact, Motion, Point, Shape, Vector};
use sat_collision_testkit::SplitMix64 as Rng;
use std::f64::consts::{PI, TAU};
use std::hint::black_box;
use std::time::Duration;

/// Pairs per timed batch.
const PAIRS: usize = 16;
/// Vertices of both polygons.
const N: usize = 8;
/// Span of every motion (s).
const DURATION: f64 = 2.0;
const SUBSTEPS: usize = 10_000;

struct Pair {
    a: Shape,
    b: Shape,
    motion: Motion,
    parry_a: ParryPolygon,
    parry_b: ParryPolygon,
    /// Start pose, velocity and turn rate, for parry.
    start: Pose,
    velocity: PVector,
    angular: f64,
}

/// Counter-clockwise convex n-gon around the origin (jittered angles on a
/// 1 : 0.6 ellipse).
fn polygon(radius: f64, rng: &mut Rng) -> Vec<Point> {
    let rotation = rng.range(0.0, TAU);
    let angles = (0..N).map(|k| (k as f64 + rng.range(-0.35, 0.35)) * TAU / N as f64);
    let origin = Point::origin();
    sat_collision_testkit::shapes::ellipse_ring(origin, radius, 0.6 * radius, rotation, angles)
}

fn parry_polygon(points: &[Point]) -> ParryPolygon {
    let points = points.iter().map(|p| PVector::new(p.x, p.y)).collect();
    ParryPolygon::from_convex_polyline_unmodified(points).expect("valid convex polygon")
}

fn make_pair(rotating: bool, rng: &mut Rng) -> Pair {
    let a_points = polygon(0.5, rng);
    let b_points = polygon(0.4, rng);
    // B's vertices in the fixed frame directly (parry: identity pose).
    let bearing = rng.range(0.0, TAU);
    let distance = rng.range(2.0, 3.5);
    let heading = rng.range(-PI, PI);
    let origin = Vector::new(bearing.cos(), bearing.sin()) * distance;
    let start = Isometry2::new(origin, heading);
    let direction = bearing + PI + rng.range(-0.3, 0.3);
    let velocity = Vector::new(direction.cos(), direction.sin()) * rng.range(1.0, 2.5);
    let angular = if rotating {
        rng.range(0.5, 2.0) * if rng.chance(0.5) { 1.0 } else { -1.0 }
    } else {
        0.0
    };
    Pair {
        a: Shape::polygon(&a_points).unwrap(),
        b: Shape::polygon(&b_points).unwrap(),
        motion: Motion::Interpolated {
            start,
            velocity,
            angular,
        },
        parry_a: parry_polygon(&a_points),
        parry_b: parry_polygon(&b_points),
        start: Pose::new(PVector::new(origin.x, origin.y), heading),
        velocity: PVector::new(velocity.x, velocity.y),
        angular,
    }
}

fn ours(pair: &Pair) -> Option<f64> {
    time_of_impact(&pair.a, &pair.motion, DURATION, &pair.b, 0.0).map(|hit| hit.time)
}

fn parry_translation(pair: &Pair) -> Option<f64> {
    let options = pq::ShapeCastOptions::with_max_time_of_impact(DURATION);
    pq::cast_shapes(
        &pair.start,
        pair.velocity,
        &pair.parry_a,
        &Pose::IDENTITY,
        PVector::ZERO,
        &pair.parry_b,
        options,
    )
    .unwrap()
    .map(|hit| hit.time_of_impact)
}

fn parry_rotation(pair: &Pair) -> Option<f64> {
    let m1 = pq::NonlinearRigidMotion::new(pair.start, PVector::ZERO, pair.velocity, pair.angular);
    let m2 = pq::NonlinearRigidMotion::constant_position(Pose::IDENTITY);
    pq::cast_shapes_nonlinear(&m1, &pair.parry_a, &m2, &pair.parry_b, 0.0, DURATION, true)
        .unwrap()
        .map(|hit| hit.time_of_impact)
}

fn speed_bound(pair: &Pair) -> f64 {
    let radius = pair
        .a
        .outline(0)
        .iter()
        .map(|p| p.coords.norm())
        .fold(0.0, f64::max);
    pair.velocity.length() + pair.angular.abs() * radius
}

/// The dense-sampling reference (see the module documentation).
fn reference(pair: &Pair) -> Option<f64> {
    let h = DURATION / SUBSTEPS as f64;
    let v_max = speed_bound(pair);
    let place = |t: f64| {
        let (Motion::Interpolated {
            start,
            velocity,
            angular,
        }
        | Motion::Twist {
            start,
            velocity,
            angular,
        }) = pair.motion;
        Isometry2::new(
            start.translation.vector + velocity * t,
            start.rotation.angle() + angular * t,
        )
    };
    let contact = |t: f64| query(&pair.a.transformed(&place(t)), &pair.b, 0.0);
    let at = |k: usize| {
        if k == SUBSTEPS {
            DURATION
        } else {
            k as f64 * h
        }
    };
    let mut k = 0;
    while k <= SUBSTEPS {
        let c = contact(at(k));
        if c.colliding() {
            break;
        }
        let proven = (c.distance() - 1e-10) / v_max;
        k = (((at(k) + proven) / h).floor() as usize).max(k + 1);
    }
    if k > SUBSTEPS {
        return None;
    }
    if k == 0 {
        return Some(0.0);
    }
    let (mut lo, mut hi) = (at(k - 1), at(k));
    while 0.5 * (lo + hi) > lo && 0.5 * (lo + hi) < hi {
        let mid = 0.5 * (lo + hi);
        if contact(mid).colliding() {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// Errors of both libraries against the reference: `(max, mean)` of ours
/// (reference − ours, never negative beyond rounding) and of parry
/// (|parry − reference|), in seconds, over the pairs that hit.
fn check(name: &str, pairs: &[Pair], theirs: fn(&Pair) -> Option<f64>) {
    let (mut ours_max, mut ours_sum, mut parry_max, mut parry_sum, mut hits) =
        (0.0_f64, 0.0, 0.0_f64, 0.0, 0);
    let mut travel = (0.0_f64, 0.0_f64);
    for (i, pair) in pairs.iter().enumerate() {
        let (r, o, p) = (reference(pair), ours(pair), theirs(pair));
        if std::env::var("MOTION_STEPS").is_ok() {
            let hit = time_of_impact(&pair.a, &pair.motion, DURATION, &pair.b, 0.0);
            eprintln!("{name} pair {i}: {hit:?}");
        }
        assert_eq!(
            r.is_some(),
            o.is_some(),
            "{name} pair {i}: ours {o:?} reference {r:?}"
        );
        assert_eq!(
            r.is_some(),
            p.is_some(),
            "{name} pair {i}: parry {p:?} reference {r:?}"
        );
        if let (Some(r), Some(o), Some(p)) = (r, o, p) {
            let v = speed_bound(pair);
            assert!(
                o <= r + 1e-9 / v,
                "{name} pair {i}: ours {o} later than {r}"
            );
            hits += 1;
            ours_max = ours_max.max(r - o);
            ours_sum += (r - o).max(0.0);
            parry_max = parry_max.max((p - r).abs());
            parry_sum += (p - r).abs();
            travel.0 = travel.0.max((r - o) * v);
            travel.1 = travel.1.max((p - r).abs() * v);
        }
    }
    assert!(hits >= pairs.len() / 2, "{name}: only {hits} contacts");
    let n = hits.max(1) as f64;
    eprintln!(
        "{name}: {hits}/{} pairs hit; error vs dense reference: ours max {ours_max:.2e} s \
         (mean {:.2e} s, {:.2e} m of travel), parry max {parry_max:.2e} s (mean {:.2e} s, \
         {:.2e} m of travel)",
        pairs.len(),
        ours_sum / n,
        travel.0,
        parry_sum / n,
        travel.1
    );
}

fn pairs(rotating: bool) -> Vec<Pair> {
    let mut rng = Rng::new(if rotating { 0x707 } else { 0x7e4 });
    (0..PAIRS).map(|_| make_pair(rotating, &mut rng)).collect()
}

fn motion(c: &mut Criterion) {
    for (rotating, name) in [(false, "motion_translation"), (true, "motion_rotation")] {
        let pairs = pairs(rotating);
        let theirs: fn(&Pair) -> Option<f64> = if rotating {
            parry_rotation
        } else {
            parry_translation
        };
        check(name, &pairs, theirs);
        let mut group = c.benchmark_group(name);
        group
            .sample_size(20)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2))
            .sampling_mode(SamplingMode::Flat)
            .throughput(Throughput::Elements(PAIRS as u64));
        group.bench_function(BenchmarkId::new("ours", N), |bench| {
            bench.iter(|| {
                for p in &pairs {
                    black_box(ours(black_box(p)));
                }
            })
        });
        group.bench_function(BenchmarkId::new("parry", N), |bench| {
            bench.iter(|| {
                for p in &pairs {
                    black_box(theirs(black_box(p)));
                }
            })
        });
        group.finish();
    }
}

/// `MOTION_REPEAT=<ours|parry>_<translation|rotation>`: that case only,
/// `MOTION_REPS` batches (default 10,000), for instruction counts.
fn repeat(which: &str) {
    let reps: usize = std::env::var("MOTION_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let pairs = pairs(which.ends_with("rotation"));
    let f: fn(&Pair) -> Option<f64> = match which {
        "ours_translation" | "ours_rotation" => ours,
        "parry_translation" => parry_translation,
        "parry_rotation" => parry_rotation,
        other => panic!("unknown MOTION_REPEAT={other}"),
    };
    let mut hits = 0;
    for _ in 0..reps {
        for p in &pairs {
            hits += black_box(f(black_box(p))).is_some() as usize;
        }
    }
    eprintln!("{which}: {} queries, {hits} hits", reps * PAIRS);
}

criterion_group! {
    name = benches;
    config = Criterion::default().nresamples(2_000).without_plots();
    targets = motion
}

fn main() {
    if let Ok(which) = std::env::var("MOTION_REPEAT") {
        repeat(&which);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
