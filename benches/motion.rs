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
//! * `motion_fleet_crossing` (issue #32, robots that see each other): two
//!   8-gon footprints both moving on crossing paths, both turning at 0.5 to
//!   2 rad/s (up to 4 rad over the span); `ours` = [`moving_time_of_impact`]
//!   (the advancement with both bodies' bounds); `parry` =
//!   `cast_shapes_nonlinear` with both bodies as `NonlinearRigidMotion`.
//! * `motion_fleet_head_on`: the same footprints driving head-on, both
//!   translating; `ours` = [`moving_time_of_impact`] (the closed form on the
//!   relative velocity); `parry` = `cast_shapes_nonlinear` (both
//!   `NonlinearRigidMotion`, no turn), `parry_linear` = `cast_shapes` with
//!   both velocities.
//!
//! The fleet groups' check prints every pair's answers with
//! `MOTION_ANSWERS=1`, and counts parry's answers later than the reference
//! (a late time of impact is a contact the caller is told about too late);
//! `MOTION_FLEET_CHECK=<pairs>` runs that check alone on more pairs.
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
use sat_collision::geometry::{
    moving_time_of_impact, query, time_of_impact, Contact, Motion, Point, Shape, Vector,
};
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

/// The dense-sampling reference's walk (see the module documentation):
/// `contact(t)` sampled every `DURATION / SUBSTEPS`, skipping the
/// sub-steps the clearance proves free at `speed` (a bound of any point's
/// speed), then bisected to the first touching time; `None`: no touching
/// sample.
fn first_sampled_contact(contact: impl Fn(f64) -> Contact, speed: f64) -> Option<f64> {
    let h = DURATION / SUBSTEPS as f64;
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
        let proven = (c.distance() - 1e-10) / speed;
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

/// The dense-sampling reference (see the module documentation).
fn reference(pair: &Pair) -> Option<f64> {
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
    first_sampled_contact(contact, v_max)
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

// ---------------------------------------------------------------------------
// Two moving footprints (issue #32).

struct Fleet {
    a: Shape,
    b: Shape,
    ma: Motion,
    mb: Motion,
    parry_a: ParryPolygon,
    parry_b: ParryPolygon,
    /// Start poses, velocities and turn rates, for parry.
    parry: [(Pose, PVector, f64); 2],
    /// No point of either footprint moves faster (m/s).
    speed: f64,
}

/// A footprint starting at `origin` with `heading`, driving at `velocity`
/// (fixed frame) and turning at `angular`: ours and parry's.
fn body(
    origin: Vector,
    heading: f64,
    velocity: Vector,
    angular: f64,
) -> (Motion, (Pose, PVector, f64)) {
    (
        Motion::Interpolated {
            start: Isometry2::new(origin, heading),
            velocity,
            angular,
        },
        (
            Pose::new(PVector::new(origin.x, origin.y), heading),
            PVector::new(velocity.x, velocity.y),
            angular,
        ),
    )
}

fn make_fleet(crossing: bool, rng: &mut Rng) -> Fleet {
    let a_points = polygon(0.5, rng);
    let b_points = polygon(0.5, rng);
    let (speed_a, speed_b) = (rng.range(1.0, 2.0), rng.range(1.0, 2.0));
    let mut turn = || {
        if crossing {
            rng.range(0.5, 2.0) * if rng.chance(0.5) { 1.0 } else { -1.0 }
        } else {
            0.0
        }
    };
    let (wa, wb) = (turn(), turn());
    let ((ma, pa), (mb, pb)) = if crossing {
        // A from the left, B from below, both due at the crossing after
        // about a second (give or take 0.4 m).
        let arrive = rng.range(0.6, 1.2);
        let da = speed_a * arrive + rng.range(-0.4, 0.4);
        let db = speed_b * arrive + rng.range(-0.4, 0.4);
        (
            body(
                Vector::new(-da, rng.range(-0.3, 0.3)),
                rng.range(-PI, PI),
                Vector::new(speed_a, 0.0),
                wa,
            ),
            body(
                Vector::new(rng.range(-0.3, 0.3), -db),
                rng.range(-PI, PI),
                Vector::new(0.0, speed_b),
                wb,
            ),
        )
    } else {
        // Head-on along x, lanes up to 0.8 m apart.
        let d = rng.range(1.5, 2.5);
        (
            body(
                Vector::new(-d, rng.range(-0.4, 0.4)),
                rng.range(-PI, PI),
                Vector::new(speed_a, 0.0),
                0.0,
            ),
            body(
                Vector::new(d, rng.range(-0.4, 0.4)),
                rng.range(-PI, PI),
                Vector::new(-speed_b, 0.0),
                0.0,
            ),
        )
    };
    let reach = |points: &[Point]| points.iter().map(|p| p.coords.norm()).fold(0.0, f64::max);
    Fleet {
        a: Shape::polygon(&a_points).unwrap(),
        b: Shape::polygon(&b_points).unwrap(),
        ma,
        mb,
        parry_a: parry_polygon(&a_points),
        parry_b: parry_polygon(&b_points),
        parry: [pa, pb],
        speed: speed_a + wa.abs() * reach(&a_points) + speed_b + wb.abs() * reach(&b_points),
    }
}

/// A time of impact of one pair (ours or parry's).
type FleetCast = fn(&Fleet) -> Option<f64>;

fn fleet_ours(pair: &Fleet) -> Option<f64> {
    moving_time_of_impact(&pair.a, &pair.ma, &pair.b, &pair.mb, DURATION, 0.0).map(|hit| hit.time)
}

fn fleet_parry(pair: &Fleet) -> Option<f64> {
    let [(p1, v1, w1), (p2, v2, w2)] = pair.parry;
    let m1 = pq::NonlinearRigidMotion::new(p1, PVector::ZERO, v1, w1);
    let m2 = pq::NonlinearRigidMotion::new(p2, PVector::ZERO, v2, w2);
    pq::cast_shapes_nonlinear(&m1, &pair.parry_a, &m2, &pair.parry_b, 0.0, DURATION, true)
        .unwrap()
        .map(|hit| hit.time_of_impact)
}

fn fleet_parry_linear(pair: &Fleet) -> Option<f64> {
    let [(p1, v1, _), (p2, v2, _)] = pair.parry;
    let options = pq::ShapeCastOptions::with_max_time_of_impact(DURATION);
    pq::cast_shapes(&p1, v1, &pair.parry_a, &p2, v2, &pair.parry_b, options)
        .unwrap()
        .map(|hit| hit.time_of_impact)
}

/// Both footprints' poses at `t`, by the segments' own formula (origin
/// linear, heading linear), not `Motion::pose_at`.
fn fleet_poses(pair: &Fleet, t: f64) -> [Isometry2<f64>; 2] {
    [pair.ma, pair.mb].map(|m| match m {
        Motion::Interpolated {
            start,
            velocity,
            angular,
        }
        | Motion::Twist {
            start,
            velocity,
            angular,
        } => Isometry2::new(
            start.translation.vector + velocity * t,
            start.rotation.angle() + angular * t,
        ),
    })
}

/// The dense-sampling reference of the module documentation, both
/// footprints placed at every sub-step.
fn fleet_reference(pair: &Fleet) -> Option<f64> {
    let contact = |t: f64| {
        let [pa, pb] = fleet_poses(pair, t);
        query(&pair.a.transformed(&pa), &pair.b.transformed(&pb), 0.0)
    };
    first_sampled_contact(contact, pair.speed)
}

/// Ours against the reference (same hits, never later), and each of
/// parry's answers against it: misses, false hits, and answers later than
/// the reference by more than `1e-9 m` of travel (a safety finding).
fn fleet_check(name: &str, pairs: &[Fleet], theirs: &[(&str, FleetCast)]) {
    let answers = std::env::var("MOTION_ANSWERS").is_ok();
    let (mut hits, mut ours_max, mut ours_travel) = (0, 0.0_f64, 0.0_f64);
    let (mut steps, mut most_steps, mut converged) = (0, 0, 0);
    let mut ours_latest = f64::NEG_INFINITY;
    for (i, pair) in pairs.iter().enumerate() {
        let (r, o) = (fleet_reference(pair), fleet_ours(pair));
        if let Some(hit) =
            moving_time_of_impact(&pair.a, &pair.ma, &pair.b, &pair.mb, DURATION, 0.0)
        {
            steps += hit.steps;
            most_steps = most_steps.max(hit.steps);
            converged += hit.exact as usize;
        }
        if answers {
            let hit = moving_time_of_impact(&pair.a, &pair.ma, &pair.b, &pair.mb, DURATION, 0.0);
            let parry: Vec<_> = theirs.iter().map(|(n, f)| (*n, f(pair))).collect();
            eprintln!("{name} pair {i}: reference {r:?}, ours {hit:?}, {parry:?}");
        }
        assert_eq!(
            r.is_some(),
            o.is_some(),
            "{name} pair {i}: ours {o:?} reference {r:?}"
        );
        if let (Some(r), Some(o)) = (r, o) {
            assert!(
                o <= r + 1e-9 / pair.speed,
                "{name} pair {i}: ours {o} later than {r}"
            );
            hits += 1;
            ours_max = ours_max.max(r - o);
            ours_latest = ours_latest.max(o - r);
            ours_travel = ours_travel.max((r - o) * pair.speed);
        }
    }
    assert!(hits >= pairs.len() / 2, "{name}: only {hits} contacts");
    eprintln!(
        "{name}: {hits}/{} pairs hit; ours: never later (latest {ours_latest:+.2e} s after \
         the reference), at most {ours_max:.2e} s early ({ours_travel:.2e} m of travel), \
         {converged} converged, {:.1} steps on average, \
         {most_steps} at most",
        pairs.len(),
        steps as f64 / hits.max(1) as f64
    );
    for (label, f) in theirs {
        let (mut missed, mut false_hits, mut late, mut late_max, mut late_travel, mut err_max) =
            (0, 0, 0, 0.0_f64, 0.0_f64, 0.0_f64);
        let mut latest = f64::NEG_INFINITY;
        for pair in pairs {
            match (fleet_reference(pair), f(pair)) {
                (Some(_), None) => missed += 1,
                (None, Some(_)) => false_hits += 1,
                (Some(r), Some(p)) => {
                    err_max = err_max.max((p - r).abs());
                    latest = latest.max(p - r);
                    if (p - r) * pair.speed > 1e-9 {
                        late += 1;
                        late_max = late_max.max(p - r);
                        late_travel = late_travel.max((p - r) * pair.speed);
                    }
                }
                (None, None) => {}
            }
        }
        eprintln!(
            "{name}: {label}: {missed} contacts missed, {false_hits} false; error max \
             {err_max:.2e} s, latest {latest:+.2e} s after the reference; later than it by more \
             than 1e-9 m of travel in {late} pairs (by up to {late_max:.2e} s, {late_travel:.2e} \
             m)"
        );
    }
}

fn fleet_pairs(crossing: bool) -> Vec<Fleet> {
    let mut rng = Rng::new(if crossing { 0xf1e7 } else { 0x4ead });
    (0..PAIRS).map(|_| make_fleet(crossing, &mut rng)).collect()
}

/// `MOTION_FLEET_CHECK=<pairs>`: the fleet groups' check alone on that many
/// pairs each (other seeds), no timing: the answers' agreement at scale.
fn fleet_check_only(count: usize) {
    for (crossing, name) in [(true, "fleet_crossing"), (false, "fleet_head_on")] {
        let mut rng = Rng::new(if crossing { 0xc4ec } else { 0xc4ed });
        let pairs: Vec<Fleet> = (0..count).map(|_| make_fleet(crossing, &mut rng)).collect();
        let mut theirs: Vec<(&str, FleetCast)> = vec![("parry", fleet_parry)];
        if !crossing {
            theirs.push(("parry_linear", fleet_parry_linear));
        }
        fleet_check(name, &pairs, &theirs);
    }
}

fn fleet(c: &mut Criterion) {
    for (crossing, name) in [
        (true, "motion_fleet_crossing"),
        (false, "motion_fleet_head_on"),
    ] {
        let pairs = fleet_pairs(crossing);
        let mut theirs: Vec<(&str, FleetCast)> = vec![("parry", fleet_parry)];
        if !crossing {
            theirs.push(("parry_linear", fleet_parry_linear));
        }
        fleet_check(name, &pairs, &theirs);
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
                    black_box(fleet_ours(black_box(p)));
                }
            })
        });
        for (label, f) in &theirs {
            group.bench_function(BenchmarkId::new(*label, N), |bench| {
                bench.iter(|| {
                    for p in &pairs {
                        black_box(f(black_box(p)));
                    }
                })
            });
        }
        group.finish();
    }
}

/// `MOTION_REPEAT=<ours|parry>_<translation|rotation|fleet_crossing|fleet_head_on>` (or
/// `parry_linear_fleet_head_on`): that case only,
/// `MOTION_REPS` batches (default 10,000), for instruction counts.
fn repeat(which: &str) {
    let reps: usize = std::env::var("MOTION_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    if which.contains("fleet") {
        let pairs = fleet_pairs(which.ends_with("crossing"));
        let f: fn(&Fleet) -> Option<f64> = match which {
            "ours_fleet_crossing" | "ours_fleet_head_on" => fleet_ours,
            "parry_fleet_crossing" | "parry_fleet_head_on" => fleet_parry,
            "parry_linear_fleet_head_on" => fleet_parry_linear,
            other => panic!("unknown MOTION_REPEAT={other}"),
        };
        let mut hits = 0;
        for _ in 0..reps {
            for p in &pairs {
                hits += black_box(f(black_box(p))).is_some() as usize;
            }
        }
        eprintln!("{which}: {} queries, {hits} hits", reps * PAIRS);
        return;
    }
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
    targets = motion, fleet
}

fn main() {
    if let Some(count) = std::env::var("MOTION_FLEET_CHECK")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        fleet_check_only(count);
        return;
    }
    if let Ok(which) = std::env::var("MOTION_REPEAT") {
        repeat(&which);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
