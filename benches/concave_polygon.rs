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
use sat_collision_testkit::shapes;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 4_096;

/// A thick spiral of four turns, `N / 2` samples per wall.
fn spiral() -> Vec<Point> {
    let (turns, start, pitch, thickness) = (4.0, 1.0, 1.0, 0.5);
    sat_collision_testkit::spiral(turns, start, pitch, thickness, N / 2)
}

fn shapes() -> Vec<(&'static str, Vec<Point>)> {
    vec![
        ("comb", shapes::limit_comb(N)),
        ("star", shapes::limit_star(N)),
        ("spiral", spiral()),
        ("random", shapes::limit_monotone(N)),
        ("sawtooth", shapes::limit_sawtooth(N)),
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
