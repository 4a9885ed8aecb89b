//! Validation and convex decomposition of one concave polygon at the
//! concave vertex limit (4,096 vertices): what a footprint or obstacle
//! message with such a polygon costs before any collision query.
//!
//! ```bash
//! cargo bench --no-default-features --bench concave_polygon
//! ```
//!
//! Shapes (4,096 vertices each, about half of them reflex):
//! * `comb`: a vertical bar with 1,023 slanted teeth pointing along +x, so
//!   that every tooth spans about the same x range (the bad case for a
//!   sweep over x extents);
//! * `star`: star-shaped around the origin, alternating between the unit
//!   circle and a random inner radius;
//! * `spiral`: a thick Archimedean spiral of four turns (outer wall out,
//!   inner wall back);
//! * `random`: a random x-monotone polygon (random points, sorted by x,
//!   split into an upper and a lower chain);
//! * `sawtooth`: 2,046 long, thin teeth leaning at 45° side by side, each
//!   edge's bounding box overlapping those of about a hundred others (the
//!   bad case for box filters, in the validation and in the ear test).
//!
//! Groups:
//! * `validate + decompose 4,096-vertex concave polygon`: [`Shape::polygon`]
//!   (validation, then decomposition into convex pieces);
//! * `validate 4,096-vertex concave polygon`: [`SimplePolygon::new`] alone.
//!
//! The setup checks that every shape validates as concave with all its
//! 4,096 vertices and decomposes into pieces whose areas add up.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use sat_collision::geometry::details::convex_decomposition;
use sat_collision::geometry::{Point, Shape, SimplePolygon};
use sat_collision_testkit::SplitMix64 as Rng;
use std::f64::consts::TAU;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 4_096;

/// A vertical bar (x in [0, 1]) with `(N - 4) / 4` slanted teeth to the right.
fn comb() -> Vec<Point> {
    let teeth = (N - 4) / 4;
    let mut rng = Rng(1);
    let height = teeth as f64;
    let mut ring = vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0)];
    for k in 0..teeth {
        let y = k as f64 + rng.range(0.1, 0.3);
        let w = rng.range(0.3, 0.6);
        let length = rng.range(5.0, 50.0);
        let slant = rng.range(-0.05, 0.05);
        ring.push(Point::new(1.0, y));
        ring.push(Point::new(1.0 + length, y + slant));
        ring.push(Point::new(
            1.0 + length + rng.range(-0.5, 0.5),
            y + w + slant,
        ));
        ring.push(Point::new(1.0, y + w));
    }
    ring.push(Point::new(1.0, height));
    ring.push(Point::new(0.0, height));
    ring
}

/// Star-shaped: even vertices on the unit circle, odd ones further in.
fn star() -> Vec<Point> {
    let mut rng = Rng(2);
    (0..N)
        .map(|k| {
            let a = k as f64 * TAU / N as f64;
            let r = if k % 2 == 0 {
                1.0
            } else {
                rng.range(0.3, 0.95)
            };
            Point::new(r * a.cos(), r * a.sin())
        })
        .collect()
}

/// A thick spiral of four turns, `N / 2` samples per wall.
fn spiral() -> Vec<Point> {
    let (turns, start, pitch, thickness) = (4.0, 1.0, 1.0, 0.5);
    sat_collision_testkit::spiral(turns, start, pitch, thickness, N / 2)
}

/// Random points sorted by x; those above the line from the leftmost to the
/// rightmost form the upper chain (right to left), the others the lower one.
fn random_monotone() -> Vec<Point> {
    let mut rng = Rng(4);
    let mut points: Vec<Point> = (0..N).map(|_| Point::new(rng.unit(), rng.unit())).collect();
    points.sort_by(|a, b| a.x.total_cmp(&b.x));
    let (first, last) = (points[0], points[N - 1]);
    let above = |p: &Point| (last - first).perp(&(p - first)) > 0.0;
    let mut ring: Vec<Point> = points.iter().filter(|p| !above(p)).copied().collect();
    ring.extend(points.iter().rev().filter(|p| above(p)));
    ring
}

/// A base with `(N - 4) / 2` teeth of random height (40 to 60) leaning at
/// 45°, one unit wide at the base, on exactly collinear valleys.
fn sawtooth() -> Vec<Point> {
    let teeth = (N - 4) / 2;
    let mut rng = Rng(5);
    let width = teeth as f64;
    let mut ring = vec![
        Point::new(0.0, -1.0),
        Point::new(0.5 * width, -1.5),
        Point::new(width, -1.0),
    ];
    for k in (0..teeth).rev() {
        let x = k as f64;
        let h = rng.range(40.0, 60.0);
        ring.push(Point::new(x + 1.0, 0.0));
        ring.push(Point::new(x + 0.5 + h, h));
    }
    ring.push(Point::new(0.0, 0.0));
    ring
}

fn shapes() -> Vec<(&'static str, Vec<Point>)> {
    vec![
        ("comb", comb()),
        ("star", star()),
        ("spiral", spiral()),
        ("random", random_monotone()),
        ("sawtooth", sawtooth()),
    ]
}

fn check(name: &str, ring: &[Point]) {
    let polygon = SimplePolygon::new(ring).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(!polygon.is_convex(), "{name}");
    assert_eq!(polygon.vertices().len(), N, "{name}");
    let pieces = convex_decomposition(&polygon);
    let sum: f64 = pieces.iter().map(|p| area(p.vertices())).sum();
    assert!(
        (sum - polygon.area()).abs() <= 1e-9 * polygon.area(),
        "{name}: {sum} vs {}",
        polygon.area()
    );
    eprintln!("{name}: {} vertices, {} pieces", N, pieces.len());
}

fn area(ring: &[Point]) -> f64 {
    let o = ring[0];
    (1..ring.len() - 1)
        .map(|i| 0.5 * (ring[i] - o).perp(&(ring[i + 1] - o)))
        .sum()
}

fn concave_polygon(c: &mut Criterion) {
    let shapes = shapes();
    for (name, ring) in &shapes {
        check(name, ring);
    }
    let mut group = c.benchmark_group("validate + decompose 4,096-vertex concave polygon");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (name, ring) in &shapes {
        group.bench_function(BenchmarkId::from_parameter(name), |bench| {
            bench.iter(|| black_box(Shape::polygon(black_box(ring))))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("validate 4,096-vertex concave polygon");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, ring) in &shapes {
        group.bench_function(BenchmarkId::from_parameter(name), |bench| {
            bench.iter(|| black_box(SimplePolygon::new(black_box(ring))))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().nresamples(2_000).without_plots();
    targets = concave_polygon
}
criterion_main!(benches);
