//! Narrow phase: our SAT against parry2d (f64) and against the textbook
//! O((n + m)²) SAT, on convex n-gon pairs (issue items 1 and 2).
//!
//! ```bash
//! cargo bench --no-default-features --bench narrow_phase
//! python3 scripts/plot_benchmarks.py   # tables + docs/benchmarks.svg
//! ```
//!
//! Every benchmark times a batch of [`PAIRS`] different pairs (different
//! rotations and approach directions) of one configuration, so the time per
//! pair is criterion's time per iteration divided by `PAIRS` (the throughput
//! recorded in `benchmark.json`). Both sides get the same world-frame
//! vertices: ours as [`Shape::polygon`], parry's as
//! `ConvexPolygon::from_convex_polyline_unmodified` at identity poses.
//!
//! Before anything is timed, the setup asserts that parry2d, the textbook
//! algorithm and ours agree on every pair of the batch (boolean, depth,
//! clearance), so the comparison is apples to apples.
//!
//! Functions per `(kind, configuration, n)`:
//! * `ours_bool`: [`intersects`]; `parry_bool`: `query::intersection_test`;
//! * `ours_mtv`: [`penetration`] (depth + MTV when touching or overlapping,
//!   `None` when apart); `parry_contact`: `query::contact(.., 0.0)`;
//! * `ours_query`: [`query`] (the full answer: depth + MTV, or exact
//!   clearance + closest points when apart); `parry_query`: `contact(.., 0.0)`
//!   then, when apart, `closest_points`;
//! * `textbook_bool`, `textbook_mtv`: project every vertex of both polygons
//!   on every edge normal of both (early exit on a separating axis).

use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode, Throughput};
use parry2d_f64::math::{Pose, Vector as PVector};
use parry2d_f64::query as pq;
use parry2d_f64::shape::ConvexPolygon as ParryPolygon;
use sat_collision::geometry::details::penetration;
use sat_collision::geometry::{intersects, query, Point, Shape, Vector};
use sat_collision_testkit::SplitMix64 as Rng;
use std::f64::consts::TAU;
use std::hint::black_box;
use std::time::Duration;

/// Vertex counts of both polygons of a pair.
const SIZES: [usize; 7] = [3, 4, 8, 16, 64, 256, 1024];
/// Pairs per timed batch.
const PAIRS: usize = 8;
/// Circumradius of A (the footprint) and of B (the obstacle), metres.
const RADIUS_A: f64 = 1.0;
const RADIUS_B: f64 = 0.7;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// Regular n-gon.
    Regular,
    /// Vertices at jittered angles on a 1 : 0.6 ellipse.
    Jittered,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Config {
    /// Gap of 10 m along the approach direction.
    Far,
    /// Gap of 1e-3 m along the approach direction.
    Gap1e3,
    /// B's extreme vertex placed exactly on A's extreme vertex.
    Touching,
    /// 1 cm of overlap along the approach direction.
    Shallow,
    /// Overlap of half the summed extents along the approach direction.
    Deep,
    /// B shrunk and placed inside A.
    Containment,
}

impl Config {
    const ALL: [Config; 6] = [
        Config::Far,
        Config::Gap1e3,
        Config::Touching,
        Config::Shallow,
        Config::Deep,
        Config::Containment,
    ];

    fn name(self) -> &'static str {
        match self {
            Config::Far => "far",
            Config::Gap1e3 => "gap_1e-3",
            Config::Touching => "touching",
            Config::Shallow => "shallow",
            Config::Deep => "deep",
            Config::Containment => "containment",
        }
    }

    fn overlapping(self) -> bool {
        matches!(self, Config::Shallow | Config::Deep | Config::Containment)
    }
}

/// Counter-clockwise convex n-gon around the origin.
fn polygon(kind: Kind, n: usize, radius: f64, rotation: f64, rng: &mut Rng) -> Vec<Point> {
    let aspect = match kind {
        Kind::Regular => 1.0,
        Kind::Jittered => 0.6,
    };
    let angles = (0..n).map(|k| match kind {
        Kind::Regular => k as f64 * TAU / n as f64,
        Kind::Jittered => (k as f64 + rng.range(-0.35, 0.35)) * TAU / n as f64,
    });
    let origin = Point::origin();
    sat_collision_testkit::shapes::ellipse_ring(origin, radius, radius * aspect, rotation, angles)
}

/// Index of the vertex with the largest projection on `d`.
fn support(points: &[Point], d: &Vector) -> usize {
    (0..points.len())
        .max_by(|&i, &j| points[i].coords.dot(d).total_cmp(&points[j].coords.dot(d)))
        .unwrap()
}

/// True when every point of `inner` is strictly inside the convex `outer`.
fn strictly_inside(inner: &[Point], outer: &[Point]) -> bool {
    let n = outer.len();
    inner.iter().all(|p| {
        (0..n).all(|i| {
            let (a, b) = (outer[i], outer[(i + 1) % n]);
            (b - a).perp(&(p - a)) > 1e-9
        })
    })
}

struct Pair {
    ours_a: Shape,
    ours_b: Shape,
    parry_a: ParryPolygon,
    parry_b: ParryPolygon,
    a: Vec<Point>,
    b: Vec<Point>,
}

fn parry_polygon(points: &[Point]) -> ParryPolygon {
    let points = points.iter().map(|p| PVector::new(p.x, p.y)).collect();
    ParryPolygon::from_convex_polyline_unmodified(points).expect("valid convex polygon")
}

/// B (`b_local`, around the origin) placed against A along the unit `d`.
fn place(a: &[Point], b_local: &[Point], config: Config, d: Vector) -> Vec<Point> {
    if config == Config::Containment {
        let mut scale = 0.25;
        loop {
            let b: Vec<Point> = b_local
                .iter()
                .map(|p| Point::from(p.coords * scale + d * 0.05))
                .collect();
            if strictly_inside(&b, a) {
                return b;
            }
            scale *= 0.5;
        }
    }
    // Place B's extreme vertex against -d at A's extreme vertex along d,
    // then move it by `gap` along d (negative: overlap).
    let va = a[support(a, &d)];
    let sb = b_local[support(b_local, &-d)];
    let extent = (va.coords.dot(&d) - a.iter().map(|p| p.coords.dot(&d)).fold(f64::MAX, f64::min))
        + (b_local
            .iter()
            .map(|p| p.coords.dot(&d))
            .fold(f64::MIN, f64::max)
            - sb.coords.dot(&d));
    let gap = match config {
        Config::Far => 10.0,
        Config::Gap1e3 => 1e-3,
        Config::Touching => 0.0,
        Config::Shallow => -0.01,
        Config::Deep => -0.5 * extent,
        Config::Containment => unreachable!(),
    };
    let anchor = va + d * gap;
    // `anchor + (p - sb)` is exactly `anchor` for p == sb.
    b_local.iter().map(|p| anchor + (p - sb)).collect()
}

fn make_pair(kind: Kind, config: Config, n: usize, index: usize) -> Pair {
    let mut rng = Rng(0x5EED ^ ((n as u64) << 20) ^ ((index as u64) << 8) ^ config as u64);
    let a = polygon(kind, n, RADIUS_A, 0.1 + 0.77 * index as f64, &mut rng);
    let b_local = polygon(kind, n, RADIUS_B, 0.5 + 1.3 * index as f64, &mut rng);
    let mut attempt = 0;
    let b = loop {
        let phi = 0.37 + index as f64 * TAU / PAIRS as f64 + 0.1 * attempt as f64;
        let b = place(&a, &b_local, config, Vector::new(phi.cos(), phi.sin()));
        // Moving B's extreme vertex into A along d overlaps the projections
        // on d, but a sharp vertex may still miss A: try another direction.
        if !config.overlapping() || textbook_sat(&a, &b).is_some() {
            break b;
        }
        attempt += 1;
    };
    Pair {
        ours_a: Shape::polygon(&a).expect("valid A"),
        ours_b: Shape::polygon(&b).expect("valid B"),
        parry_a: parry_polygon(&a),
        parry_b: parry_polygon(&b),
        a,
        b,
    }
}

/// Textbook SAT: every edge normal of both polygons, every vertex of both
/// projected on it. `None` when an axis separates (touching is colliding);
/// otherwise the depth and the axis of least overlap (from A toward B).
/// O((n + m)²).
fn textbook_sat(a: &[Point], b: &[Point]) -> Option<(f64, Vector)> {
    let mut best = (f64::INFINITY, Vector::x());
    for polygon in [a, b] {
        let n = polygon.len();
        for i in 0..n {
            let e = polygon[(i + 1) % n] - polygon[i];
            let axis = Vector::new(e.y, -e.x).normalize();
            let (a_lo, a_hi) = project(a, &axis);
            let (b_lo, b_hi) = project(b, &axis);
            let (forward, backward) = (a_hi - b_lo, b_hi - a_lo);
            let overlap = forward.min(backward);
            if overlap < 0.0 {
                return None;
            }
            if overlap < best.0 {
                best = (overlap, if forward <= backward { axis } else { -axis });
            }
        }
    }
    Some(best)
}

/// Textbook boolean: the same projections, stopping at a separating axis.
fn textbook_intersects(a: &[Point], b: &[Point]) -> bool {
    for polygon in [a, b] {
        let n = polygon.len();
        for i in 0..n {
            let e = polygon[(i + 1) % n] - polygon[i];
            let axis = Vector::new(e.y, -e.x);
            let (a_lo, a_hi) = project(a, &axis);
            let (b_lo, b_hi) = project(b, &axis);
            if a_hi < b_lo || b_hi < a_lo {
                return false;
            }
        }
    }
    true
}

fn project(points: &[Point], axis: &Vector) -> (f64, f64) {
    points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let d = p.coords.dot(axis);
            (lo.min(d), hi.max(d))
        })
}

/// parry2d's equivalent of our full [`query`]: the contact when touching or
/// overlapping, else the distance and closest points.
fn parry_query(
    a: &ParryPolygon,
    b: &ParryPolygon,
) -> (Option<pq::Contact>, Option<pq::ClosestPoints>) {
    let id = Pose::IDENTITY;
    match pq::contact(&id, a, &id, b, 0.0).unwrap() {
        Some(contact) => (Some(contact), None),
        None => (
            None,
            Some(pq::closest_points(&id, a, &id, b, f64::MAX).unwrap()),
        ),
    }
}

/// Asserts that parry2d, the textbook algorithm and ours give the same
/// answer for `pair`, so that the timings compare equal work.
fn check_agreement(pair: &Pair, kind: Kind, config: Config, n: usize) -> Option<f64> {
    let what = format!("{kind:?} {} n={n}", config.name());
    let id = Pose::IDENTITY;
    let ours_bool = intersects(&pair.ours_a, &pair.ours_b, 0.0);
    let ours = query(&pair.ours_a, &pair.ours_b, 0.0);
    let parry_bool = pq::intersection_test(&id, &pair.parry_a, &id, &pair.parry_b)
        .unwrap()
        .intersecting;
    let parry_contact = pq::contact(&id, &pair.parry_a, &id, &pair.parry_b, 0.0).unwrap();
    let textbook = textbook_sat(&pair.a, &pair.b);
    assert_eq!(ours_bool, ours.colliding(), "{what}: intersects vs query");
    assert_eq!(
        penetration(&pair.ours_a, &pair.ours_b, 0.0),
        ours.colliding().then_some(ours),
        "{what}: penetration vs query"
    );
    let expect = !matches!(config, Config::Far | Config::Gap1e3);
    assert_eq!(ours.colliding(), expect, "{what}: ours {ours:?}");
    // Exactly touching shapes share a point: parry and the textbook may see
    // rounding-size overlap or gap there, so they must only agree to within
    // 1e-9 m. Everywhere else the booleans must match exactly.
    if config == Config::Touching {
        assert!(
            ours.depth() <= 1e-9,
            "{what}: touching depth {}",
            ours.depth()
        );
        if let Some(c) = parry_contact {
            assert!(c.dist.abs() <= 1e-9, "{what}: parry dist {}", c.dist);
        }
        if let Some((depth, _)) = textbook {
            assert!(depth <= 1e-9, "{what}: textbook depth {depth}");
        }
        return None;
    }
    assert_eq!(parry_bool, expect, "{what}: parry intersection_test");
    assert_eq!(parry_contact.is_some(), expect, "{what}: parry contact");
    assert_eq!(textbook.is_some(), expect, "{what}: textbook");
    assert_eq!(
        textbook_intersects(&pair.a, &pair.b),
        expect,
        "{what}: textbook bool"
    );
    if config.overlapping() {
        let (depth, _) = textbook.unwrap();
        assert!(
            (ours.depth() - depth).abs() <= 1e-9,
            "{what}: depth ours {} textbook {depth}",
            ours.depth()
        );
        let c = parry_contact.unwrap();
        // parry's EPA gives up after 100 iterations, too few for 256- and
        // 1024-gon pairs in deep contact: there its depth falls short of the
        // exact one (which the textbook algorithm confirms above to 1e-9).
        // Assert 1e-6 m up to 64 vertices; above, only report the error.
        let shortfall = ours.depth() + c.dist;
        return Some(shortfall.abs() / ours.depth());
    } else {
        let parry_distance = pq::distance(&id, &pair.parry_a, &id, &pair.parry_b)
            .unwrap()
            .distance;
        assert!(
            (ours.distance() - parry_distance).abs() <= 1e-9 * parry_distance.max(1.0),
            "{what}: clearance ours {} parry {parry_distance}",
            ours.distance()
        );
    }
    None
}

fn narrow_phase(c: &mut Criterion) {
    let id = Pose::IDENTITY;
    for kind in [Kind::Regular, Kind::Jittered] {
        for config in Config::ALL {
            let name = format!(
                "narrow_{}_{}",
                format!("{kind:?}").to_lowercase(),
                config.name()
            );
            let mut group = c.benchmark_group(&name);
            group
                .sample_size(10)
                .warm_up_time(Duration::from_millis(60))
                .measurement_time(Duration::from_millis(200))
                .sampling_mode(SamplingMode::Flat)
                .throughput(Throughput::Elements(PAIRS as u64));
            for n in SIZES {
                let pairs: Vec<Pair> = (0..PAIRS).map(|i| make_pair(kind, config, n, i)).collect();
                let errors: Vec<f64> = pairs
                    .iter()
                    .filter_map(|pair| check_agreement(pair, kind, config, n))
                    .collect();
                let wrong = errors.iter().filter(|&&e| e > 1e-6).count();
                let worst = errors.iter().copied().fold(0.0, f64::max);
                if wrong > 0 {
                    eprintln!("{name}/{n}: parry contact depth off by > 1e-6 (relative) on {wrong} of {PAIRS} pairs, worst {worst:.1e}");
                }
                group.bench_function(BenchmarkId::new("ours_bool", n), |bench| {
                    bench.iter(|| {
                        for p in &pairs {
                            black_box(intersects(black_box(&p.ours_a), black_box(&p.ours_b), 0.0));
                        }
                    })
                });
                group.bench_function(BenchmarkId::new("parry_bool", n), |bench| {
                    bench.iter(|| {
                        for p in &pairs {
                            let r = pq::intersection_test(
                                &id,
                                black_box(&p.parry_a),
                                &id,
                                black_box(&p.parry_b),
                            );
                            black_box(r.unwrap().intersecting);
                        }
                    })
                });
                group.bench_function(BenchmarkId::new("ours_mtv", n), |bench| {
                    bench.iter(|| {
                        for p in &pairs {
                            black_box(penetration(black_box(&p.ours_a), black_box(&p.ours_b), 0.0));
                        }
                    })
                });
                group.bench_function(BenchmarkId::new("parry_contact", n), |bench| {
                    bench.iter(|| {
                        for p in &pairs {
                            let r = pq::contact(
                                &id,
                                black_box(&p.parry_a),
                                &id,
                                black_box(&p.parry_b),
                                0.0,
                            );
                            black_box(r.unwrap());
                        }
                    })
                });
                group.bench_function(BenchmarkId::new("ours_query", n), |bench| {
                    bench.iter(|| {
                        for p in &pairs {
                            black_box(query(black_box(&p.ours_a), black_box(&p.ours_b), 0.0));
                        }
                    })
                });
                group.bench_function(BenchmarkId::new("parry_query", n), |bench| {
                    bench.iter(|| {
                        for p in &pairs {
                            black_box(parry_query(black_box(&p.parry_a), black_box(&p.parry_b)));
                        }
                    })
                });
                group.bench_function(BenchmarkId::new("textbook_bool", n), |bench| {
                    bench.iter(|| {
                        for p in &pairs {
                            black_box(textbook_intersects(black_box(&p.a), black_box(&p.b)));
                        }
                    })
                });
                group.bench_function(BenchmarkId::new("textbook_mtv", n), |bench| {
                    bench.iter(|| {
                        for p in &pairs {
                            black_box(textbook_sat(black_box(&p.a), black_box(&p.b)));
                        }
                    })
                });
            }
            group.finish();
        }
    }
}

/// Instruction-count mode, for a shared machine where timings drift:
/// `NARROW_PHASE_COUNT="<regular|jittered> <configuration> <n> <ours|parry> <repeats>"`
/// runs `query` (ours) or `contact` + `closest_points` (parry) over the
/// batch of one benchmark `repeats` times and exits, without criterion.
/// Only [`count_loop`] is of interest:
///
/// ```bash
/// NARROW_PHASE_COUNT="jittered far 64 ours 100" valgrind --tool=callgrind \
///     --toggle-collect='*count_loop*' target/release/deps/narrow_phase-*
/// ```
///
/// (instructions per pair = the total / (8 × repeats)).
fn count_mode(spec: &str) {
    let words: Vec<&str> = spec.split_whitespace().collect();
    let [kind, config, n, which, repeats] = words[..] else {
        panic!("NARROW_PHASE_COUNT: <kind> <configuration> <n> <ours|parry> <repeats>");
    };
    let kind = match kind {
        "regular" => Kind::Regular,
        "jittered" => Kind::Jittered,
        other => panic!("unknown kind {other}"),
    };
    let config = *Config::ALL
        .iter()
        .find(|c| c.name() == config)
        .expect("configuration");
    let n: usize = n.parse().expect("n");
    let repeats: usize = repeats.parse().expect("repeats");
    let pairs: Vec<Pair> = (0..PAIRS).map(|i| make_pair(kind, config, n, i)).collect();
    for pair in &pairs {
        check_agreement(pair, kind, config, n);
    }
    count_loop(&pairs, which == "parry", repeats);
}

/// The loop [`count_mode`] measures.
#[inline(never)]
fn count_loop(pairs: &[Pair], parry: bool, repeats: usize) {
    for _ in 0..repeats {
        for p in pairs {
            if parry {
                black_box(parry_query(black_box(&p.parry_a), black_box(&p.parry_b)));
            } else {
                black_box(query(black_box(&p.ours_a), black_box(&p.ours_b), 0.0));
            }
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().nresamples(2_000).without_plots();
    targets = narrow_phase
}

fn main() {
    if let Ok(spec) = std::env::var("NARROW_PHASE_COUNT") {
        count_mode(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
