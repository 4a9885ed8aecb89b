//! Polygon validation through the public API.
//!
//! Part 1 is a catalogue of bad and borderline inputs, each with the exact
//! error (or normalised result) it must produce. Part 2 checks
//! `SimplePolygon::new` / `classify` against an independent reference that
//! classifies small integer-grid polygons with exact integer arithmetic.

use crate::reference::point_segment_distance;
use proptest::prelude::*;
use sat_collision::geometry::{details::classify, MAX_CONCAVE_VERTICES, MAX_VERTICES};
use sat_collision::geometry::{Convexity, Point, PolygonError, Shape, SimplePolygon};
use sat_collision::model::Status;
use std::f64::consts::TAU;

fn pts(coords: &[(f64, f64)]) -> Vec<Point> {
    coords.iter().map(|&(x, y)| Point::new(x, y)).collect()
}

fn shifted(points: &[Point], dx: f64, dy: f64) -> Vec<Point> {
    points
        .iter()
        .map(|p| Point::new(p.x + dx, p.y + dy))
        .collect()
}

fn error_of(points: &[Point]) -> PolygonError {
    SimplePolygon::new(points).expect_err("input must be rejected")
}

fn assert_self_intersecting(points: &[Point], first_edge: usize, second_edge: usize) {
    assert_eq!(
        SimplePolygon::new(points),
        Err(PolygonError::SelfIntersecting {
            first_edge,
            second_edge
        }),
        "{points:?}"
    );
    assert_eq!(classify(points), Ok(Convexity::SelfIntersecting));
    let shape_error = Shape::polygon(points).expect_err("shape must be rejected");
    assert_eq!(Status::from(&shape_error), "self_intersecting");
}

/// Unit L-shape, counter-clockwise, reflex vertex at (1, 1).
fn l_shape() -> Vec<Point> {
    pts(&[(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)])
}

/// `n` points on a circle of radius `r` around `center`, counter-clockwise.
fn circle(n: usize, r: f64, center: (f64, f64)) -> Vec<Point> {
    (0..n)
        .map(|k| {
            let a = k as f64 * TAU / n as f64;
            Point::new(center.0 + r * a.cos(), center.1 + r * a.sin())
        })
        .collect()
}

/// A star-shaped concave polygon with `n` vertices (alternating radii).
fn gear(n: usize) -> Vec<Point> {
    (0..n)
        .map(|k| {
            let a = k as f64 * TAU / n as f64;
            let r = if k % 2 == 0 { 1.0 } else { 0.8 };
            Point::new(r * a.cos(), r * a.sin())
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Part 1: catalogue.
// ---------------------------------------------------------------------------

#[test]
fn status_names_are_stable() {
    let cases = [
        (PolygonError::TooFewPoints { distinct: 2 }, "too_few_points"),
        (PolygonError::NonFinite { index: 0 }, "non_finite"),
        (PolygonError::ZeroArea, "zero_area"),
        (
            PolygonError::SelfIntersecting {
                first_edge: 0,
                second_edge: 2,
            },
            "self_intersecting",
        ),
        (
            PolygonError::TooManyVertices { count: 9, max: 8 },
            "too_many_vertices",
        ),
        (PolygonError::NotConvex, "not_convex"),
    ];
    for (error, status) in cases {
        assert_eq!(Status::from(&error), status);
    }
}

#[test]
fn too_few_points() {
    assert_eq!(error_of(&[]), PolygonError::TooFewPoints { distinct: 0 });
    assert_eq!(
        error_of(&pts(&[(1., 2.)])),
        PolygonError::TooFewPoints { distinct: 1 }
    );
    assert_eq!(
        error_of(&pts(&[(0., 0.), (1., 0.)])),
        PolygonError::TooFewPoints { distinct: 2 }
    );
    // The same point over and over.
    assert_eq!(
        error_of(&pts(&[(3., 3.); 10])),
        PolygonError::TooFewPoints { distinct: 1 }
    );
    // A closed two-point "polygon": A, B, A.
    assert_eq!(
        error_of(&pts(&[(0., 0.), (1., 1.), (0., 0.)])),
        PolygonError::TooFewPoints { distinct: 2 }
    );
    assert_eq!(
        Status::from(&Shape::polygon(&pts(&[(0., 0.), (1., 1.)])).unwrap_err()),
        "too_few_points"
    );
}

#[test]
fn non_finite_coordinates_report_the_first_bad_point() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut square = pts(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)]);
        square[3].y = bad;
        assert_eq!(error_of(&square), PolygonError::NonFinite { index: 3 });
        square[1].x = bad;
        assert_eq!(error_of(&square), PolygonError::NonFinite { index: 1 });
        assert_eq!(classify(&square), Err(PolygonError::NonFinite { index: 1 }));
    }
}

/// Finite coordinates so large that differences or cross products overflow
/// would silently turn every geometric predicate into NaN.
#[test]
fn coordinates_too_large_for_arithmetic_are_non_finite() {
    let huge = pts(&[(0., 0.), (1e200, 0.), (1e200, 1e200), (0., 1e200)]);
    assert_eq!(error_of(&huge), PolygonError::NonFinite { index: 1 });
    let opposite = pts(&[(-1.7e308, 0.), (1.7e308, 0.), (0., 1.)]);
    assert_eq!(error_of(&opposite), PolygonError::NonFinite { index: 0 });
    // Large but still sane coordinates are fine.
    let far = shifted(&l_shape(), 1e9, -1e9);
    assert!(SimplePolygon::new(&far).is_ok());
}

#[test]
fn collinear_points_have_zero_area() {
    for line in [
        pts(&[(0., 0.), (1., 1.), (2., 2.), (3., 3.)]),
        // Back and forth along one line.
        pts(&[(0., 0.), (2., 0.), (1., 0.)]),
        pts(&[(0., 0.), (3., 0.), (1., 0.), (2., 0.)]),
        // Far from the origin.
        shifted(&pts(&[(0., 0.), (1., 1.), (2., 2.)]), 1e5, 1e5),
    ] {
        assert_eq!(error_of(&line), PolygonError::ZeroArea, "{line:?}");
        assert_eq!(classify(&line), Err(PolygonError::ZeroArea));
    }
}

/// A triangle thinner than the tolerance is degenerate, not "crossing".
#[test]
fn sliver_thinner_than_tolerance_has_zero_area() {
    let sliver = pts(&[(0., 0.), (1., 0.), (0.5, 1.5e-12)]);
    assert_eq!(error_of(&sliver), PolygonError::ZeroArea);
    let far = shifted(&pts(&[(0., 0.), (1., 0.), (0.5, 1.5e-7)]), 1e5, 0.0);
    assert_eq!(error_of(&far), PolygonError::ZeroArea);
}

#[test]
fn thin_but_valid_polygons_are_accepted() {
    let sliver = SimplePolygon::new(&pts(&[(0., 0.), (1., 0.), (1., 1e-6)])).unwrap();
    assert!(sliver.is_convex());
    let far =
        SimplePolygon::new(&shifted(&pts(&[(0., 0.), (1., 0.), (1., 1e-5)]), 1e5, -1e5)).unwrap();
    assert!(far.is_convex());
}

#[test]
fn clockwise_input_is_reversed() {
    let mut l = l_shape();
    l.reverse();
    let p = SimplePolygon::new(&l).unwrap();
    assert!(!p.is_convex());
    assert!((p.area() - 3.0).abs() < 1e-12);
    // Same ring as the counter-clockwise original, starting anywhere.
    let expected = l_shape();
    let v = p.vertices();
    let start = v.iter().position(|q| *q == expected[0]).unwrap();
    for (k, q) in expected.iter().enumerate() {
        assert_eq!(v[(start + k) % v.len()], *q);
    }
}

#[test]
fn closing_point_and_repeats_are_dropped() {
    let mut l = l_shape();
    l.push(l[0]);
    l.insert(2, l[2]);
    l.insert(0, l[0]);
    let p = SimplePolygon::new(&l).unwrap();
    assert_eq!(p.vertices().len(), 6);
    assert!((p.area() - 3.0).abs() < 1e-12);
}

#[test]
fn collinear_runs_are_dropped_but_not_corners() {
    // Every edge of the L split into ten pieces.
    let l = l_shape();
    let mut dense = Vec::new();
    for i in 0..l.len() {
        let (a, b) = (l[i], l[(i + 1) % l.len()]);
        for k in 0..10 {
            dense.push(a + (b - a) * (k as f64 / 10.0));
        }
    }
    let p = SimplePolygon::new(&dense).unwrap();
    assert_eq!(p.vertices().len(), 6);
    assert!((p.area() - 3.0).abs() < 1e-12);
    // A run that wraps around the start of the list.
    let mut rotated = dense.clone();
    rotated.rotate_left(5);
    assert_eq!(SimplePolygon::new(&rotated).unwrap().vertices().len(), 6);
}

#[test]
fn bow_tie_reports_its_crossing_edges() {
    // Edges 0: (0,0)-(1,1) and 2: (1,0)-(0,1) cross; the lobes cancel out.
    assert_self_intersecting(&pts(&[(0., 0.), (1., 1.), (1., 0.), (0., 1.)]), 0, 2);
    // Unbalanced lobes: the net area is not zero.
    assert_self_intersecting(&pts(&[(0., 0.), (2., 2.), (2., 0.), (0., 1.)]), 0, 2);
}

#[test]
fn edge_indices_refer_to_the_input_order() {
    // Edge k joins input point k to the next one. Only edges 1: (0,4)-(4,4)
    // and 4: (2,0)-(2,6) cross. The net area is counter-clockwise.
    let ccw = pts(&[
        (0., 0.),
        (0., 4.),
        (4., 4.),
        (4., 0.),
        (2., 0.),
        (2., 6.),
        (-1., 6.),
        (-1., 0.),
    ]);
    assert_self_intersecting(&ccw, 1, 4);
    // Given the other way round, the ring is reversed internally, but the
    // edges are still numbered as given: edge k becomes edge n - 2 - k.
    let mut cw = ccw.clone();
    cw.reverse();
    assert_self_intersecting(&cw, 2, 5);
    // Repeated points and a collinear vertex: the reported edge is the input
    // edge (of non-zero length) where the merged edge starts.
    let padded = pts(&[
        (0., 0.),
        (0., 0.),
        (0., 2.),
        (0., 4.),
        (0., 4.),
        (4., 4.),
        (4., 0.),
        (2., 0.),
        (2., 6.),
        (-1., 6.),
        (-1., 0.),
    ]);
    assert_self_intersecting(&padded, 4, 7);
    let mut padded_cw = padded.clone();
    padded_cw.reverse();
    // Reversed: (4,4)->(0,4) starts at point 5, (2,6)->(2,0) at point 2.
    assert_self_intersecting(&padded_cw, 2, 5);
}

#[test]
fn figure_eight_is_self_intersecting() {
    // Two squares joined through a crossing in the middle.
    let eight = pts(&[
        (0., 0.),
        (1., 0.),
        (1., 1.),
        (2., 1.),
        (2., 2.),
        (1., 2.),
        (1., 1.),
        (0., 1.),
    ]);
    // (1, 1) is visited twice: edges 2 and 5 meet there.
    assert!(matches!(
        error_of(&eight),
        PolygonError::SelfIntersecting { .. }
    ));
    assert_eq!(classify(&eight), Ok(Convexity::SelfIntersecting));
    // A genuine crossing figure eight: ∞ drawn with one stroke.
    let infinity = pts(&[(0., 0.), (2., 2.), (4., 0.), (4., 2.), (2., 0.), (0., 2.)]);
    assert_eq!(classify(&infinity), Ok(Convexity::SelfIntersecting));
}

#[test]
fn pentagram_turns_left_everywhere_but_is_not_convex() {
    let star: Vec<Point> = (0..5)
        .map(|k| {
            let angle = std::f64::consts::FRAC_PI_2 + k as f64 * 2.0 * TAU / 5.0;
            Point::new(angle.cos(), angle.sin())
        })
        .collect();
    assert!(matches!(
        error_of(&star),
        PolygonError::SelfIntersecting { .. }
    ));
    assert_eq!(classify(&star), Ok(Convexity::SelfIntersecting));
    // A circle traced twice (odd count: the two loops interleave).
    let twice: Vec<Point> = (0..101)
        .map(|k| {
            let a = k as f64 * 2.0 * TAU / 101.0;
            Point::new(a.cos(), a.sin())
        })
        .collect();
    assert_eq!(classify(&twice), Ok(Convexity::SelfIntersecting));
}

#[test]
fn square_traced_twice_is_self_intersecting() {
    let square = pts(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)]);
    let twice: Vec<Point> = square.iter().chain(square.iter()).copied().collect();
    // Left turns only, winding twice: edge 4 lies on edge 0, edge 3 ends
    // where edge 0 starts, ... any of these pairs may be reported.
    assert_eq!(classify(&twice), Ok(Convexity::SelfIntersecting));
    assert!(matches!(
        error_of(&twice),
        PolygonError::SelfIntersecting { first_edge, second_edge }
            if first_edge < second_edge && second_edge < 8
    ));
}

/// An edge ending within the tolerance of its neighbour edge: the boundary
/// doubles back on itself even though no vertex is collinear.
#[test]
fn needle_thinner_than_tolerance_is_self_intersecting() {
    let needle = pts(&[(0., 0.), (2., 0.), (0.1, 1e-13), (0., 1.)]);
    assert!(matches!(
        error_of(&needle),
        PolygonError::SelfIntersecting { .. }
    ));
    // Wider than the tolerance: a valid (very sharp) polygon.
    let sharp = pts(&[(0., 0.), (2., 0.), (0.1, 1e-9), (0., 1.)]);
    assert_eq!(classify(&sharp), Ok(Convexity::Concave));
}

/// Edge 0 touched by edge 2 or edge 3 (both end on it): either pair may be
/// reported.
fn assert_touches_bottom(points: &[Point]) {
    let error = error_of(points);
    let pair = |second_edge| PolygonError::SelfIntersecting {
        first_edge: 0,
        second_edge,
    };
    assert!(error == pair(2) || error == pair(3), "{error:?}");
    assert_eq!(classify(points), Ok(Convexity::SelfIntersecting));
}

#[test]
fn reflex_vertex_touching_a_non_adjacent_edge() {
    // The reflex vertex (1, 0) lies on the bottom edge (edge 0).
    let pinched = pts(&[(0., 0.), (2., 0.), (2., 2.), (1., 0.), (0., 2.)]);
    assert_touches_bottom(&pinched);
    // Same, within tolerance, far from the origin (tol = 1e-7 there).
    let near = shifted(
        &pts(&[(0., 0.), (2., 0.), (2., 2.), (1., 5e-8), (0., 2.)]),
        1e5,
        1e5,
    );
    assert_touches_bottom(&near);
    // Clearly off the edge: valid concave polygon.
    let clear = shifted(
        &pts(&[(0., 0.), (2., 0.), (2., 2.), (1., 1e-6), (0., 2.)]),
        1e5,
        1e5,
    );
    assert_eq!(classify(&clear), Ok(Convexity::Concave));
}

#[test]
fn repeated_non_consecutive_vertex_is_not_simple() {
    // Two triangles sharing the vertex (1, 1): the boundary passes through
    // it twice.
    let bowtie_at_vertex = pts(&[(0., 0.), (2., 0.), (1., 1.), (2., 2.), (0., 2.), (1., 1.)]);
    assert!(matches!(
        error_of(&bowtie_at_vertex),
        PolygonError::SelfIntersecting { .. }
    ));
    // A "keyhole" that goes out to a point and comes back through the same
    // vertex, almost (1e-13 apart: within tolerance).
    let keyhole = pts(&[
        (0., 0.),
        (4., 0.),
        (4., 4.),
        (2., 4.),
        (2., 2.),
        (3., 2.),
        (2., 2. + 1e-13),
        (2., 4.5),
        (0., 4.),
    ]);
    assert!(matches!(
        error_of(&keyhole),
        PolygonError::SelfIntersecting { .. }
    ));
}

#[test]
fn zero_width_spikes_are_self_intersecting() {
    // A spike out of the top edge and straight back.
    let spike = pts(&[
        (0., 0.),
        (2., 0.),
        (2., 2.),
        (1., 2.),
        (1., 3.),
        (1., 2.),
        (0., 2.),
    ]);
    assert!(matches!(
        error_of(&spike),
        PolygonError::SelfIntersecting { .. }
    ));
    // A spike that goes back past where it started, along an edge.
    let overshoot = pts(&[(0., 0.), (2., 0.), (1., 0.), (1., 1.)]);
    assert!(matches!(
        error_of(&overshoot),
        PolygonError::SelfIntersecting { .. }
    ));
    // A spike into the interior.
    let inward = pts(&[
        (0., 0.),
        (2., 0.),
        (2., 2.),
        (1., 2.),
        (1., 1.),
        (1., 2.),
        (0., 2.),
    ]);
    assert!(matches!(
        error_of(&inward),
        PolygonError::SelfIntersecting { .. }
    ));
    // A thin spike (width 1e-6) is a valid polygon.
    let thin = pts(&[
        (0., 0.),
        (2., 0.),
        (2., 2.),
        (1. + 1e-6, 2.),
        (1., 3.),
        (1., 2.),
        (0., 2.),
    ]);
    assert_eq!(classify(&thin), Ok(Convexity::Concave));
}

#[test]
fn too_many_vertices() {
    let ring = circle(MAX_VERTICES + 1, 1.0, (0.0, 0.0));
    assert_eq!(
        error_of(&ring),
        PolygonError::TooManyVertices {
            count: MAX_VERTICES + 1,
            max: MAX_VERTICES
        }
    );
    // A concave polygon over the concave limit.
    let concave = gear(MAX_CONCAVE_VERTICES + 2);
    assert_eq!(
        error_of(&concave),
        PolygonError::TooManyVertices {
            count: MAX_CONCAVE_VERTICES + 2,
            max: MAX_CONCAVE_VERTICES
        }
    );
}

#[test]
fn largest_accepted_polygons_validate() {
    let big = SimplePolygon::new(&circle(MAX_VERTICES, 1000.0, (1e5, -1e5))).unwrap();
    assert!(big.is_convex());
    assert_eq!(big.vertices().len(), MAX_VERTICES);
    let concave = SimplePolygon::new(&gear(MAX_CONCAVE_VERTICES)).unwrap();
    assert!(!concave.is_convex());
    assert_eq!(concave.vertices().len(), MAX_CONCAVE_VERTICES);
}

/// Garbage input (random points, millions of crossing pairs) is rejected.
/// Validation cost is measured in the benchmarks, not here.
#[test]
fn random_points_are_rejected() {
    let mut state = 12345u64;
    let mut random = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let points: Vec<Point> = (0..MAX_CONCAVE_VERTICES)
        .map(|_| Point::new(random(), random()))
        .collect();
    assert!(matches!(
        error_of(&points),
        PolygonError::SelfIntersecting { .. }
    ));
}

/// A square given as 65,536 points, almost all of them collinear: the
/// collinear removal keeps only the corners.
#[test]
fn huge_collinear_input_validates() {
    let per_side = MAX_VERTICES / 4;
    let corners = [(0., 0.), (1., 0.), (1., 1.), (0., 1.)];
    let mut ring = Vec::with_capacity(MAX_VERTICES);
    for i in 0..4 {
        let (a, b) = (corners[i], corners[(i + 1) % 4]);
        for k in 0..per_side {
            let t = k as f64 / per_side as f64;
            ring.push(Point::new(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t));
        }
    }
    let square = SimplePolygon::new(&ring).unwrap();
    assert_eq!(square.vertices().len(), 4);
    assert!(square.is_convex());
}

/// Distance from `p` to the closed segment `ab`.
/// Every input point lies within `tol` of the edge of the output that
/// replaced it (output vertices are a subsequence of the input ring).
fn max_removal_error(input: &[Point], output: &[Point]) -> f64 {
    let start = input.iter().position(|p| *p == output[0]).unwrap();
    let mut worst: f64 = 0.0;
    let mut edge = 0;
    for k in 0..input.len() {
        let p = input[(start + k) % input.len()];
        if p == output[(edge + 1) % output.len()] {
            edge += 1;
        }
        let (a, b) = (
            output[edge % output.len()],
            output[(edge + 1) % output.len()],
        );
        worst = worst.max(point_segment_distance(p, a, b));
    }
    assert_eq!(edge, output.len() - 1, "output is not a subsequence");
    worst
}

/// A finely sampled circle far from the origin: every vertex is within the
/// tolerance (1e-7 at 1e5 m) of its neighbours' chord, so most must go, but
/// the polygon may not shrink by more than the tolerance: checking each
/// vertex against its current neighbours only lets the error add up.
#[test]
fn collinear_removal_never_moves_the_boundary_beyond_tolerance() {
    for (n, r, offset) in [
        (MAX_VERTICES, 1.0, 1e5),
        (20_000, 1e-5, 1.0),
        (5_000, 1e-6, 0.0),
    ] {
        let ring = circle(n, r, (offset, -offset));
        let tol = 1e-12 * (offset + r).max(1.0);
        let p = SimplePolygon::new(&ring).unwrap();
        assert!(p.is_convex());
        assert!(p.vertices().len() < n, "nothing removed for r = {r}");
        let worst = max_removal_error(&ring, p.vertices());
        assert!(
            worst <= tol * 1.000_001,
            "r = {r}: moved by {worst:e}, tol {tol:e}"
        );
    }
}

#[test]
fn concave_polygon_far_from_origin_keeps_its_shape() {
    let l = shifted(&l_shape(), 1e5, -1e5);
    let p = SimplePolygon::new(&l).unwrap();
    assert_eq!(p.convexity(), Convexity::Concave);
    assert_eq!(p.vertices().len(), 6);
    assert!((p.area() - 3.0).abs() < 1e-6);
}

#[test]
fn shape_polygon_of_concave_input_is_compound() {
    match Shape::polygon(&l_shape()).unwrap() {
        Shape::Compound(c) => {
            assert_eq!(c.outline().len(), 6);
            assert_eq!(c.pieces().len(), 2);
        }
        other => panic!("expected a compound shape, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------
// Part 2: exact integer reference.
// ---------------------------------------------------------------------------

/// Exact classification of an integer polygon, written independently of the
/// library: the expected result of `classify`.
mod reference {
    use super::Convexity;

    pub type P = (i64, i64);

    #[derive(Debug, PartialEq)]
    pub enum Class {
        TooFew(usize),
        ZeroArea,
        Is(Convexity),
    }

    fn orient(a: P, b: P, c: P) -> i128 {
        let (abx, aby) = ((b.0 - a.0) as i128, (b.1 - a.1) as i128);
        let (acx, acy) = ((c.0 - a.0) as i128, (c.1 - a.1) as i128);
        abx * acy - aby * acx
    }

    /// `p` on the closed segment `ab` (given orient(a, b, p) == 0).
    fn within_box(a: P, b: P, p: P) -> bool {
        a.0.min(b.0) <= p.0 && p.0 <= a.0.max(b.0) && a.1.min(b.1) <= p.1 && p.1 <= a.1.max(b.1)
    }

    /// Closed segments `ab` and `cd` share at least one point.
    pub fn segments_meet(a: P, b: P, c: P, d: P) -> bool {
        let (d1, d2) = (orient(a, b, c), orient(a, b, d));
        let (d3, d4) = (orient(c, d, a), orient(c, d, b));
        if d1.signum() * d2.signum() < 0 && d3.signum() * d4.signum() < 0 {
            return true;
        }
        (d1 == 0 && within_box(a, b, c))
            || (d2 == 0 && within_box(a, b, d))
            || (d3 == 0 && within_box(c, d, a))
            || (d4 == 0 && within_box(c, d, b))
    }

    pub fn classify(points: &[P]) -> Class {
        // The closed polyline through the points, consecutive repeats (and
        // a repeated closing point) removed.
        let mut ring: Vec<P> = Vec::new();
        for &p in points {
            if ring.last() != Some(&p) {
                ring.push(p);
            }
        }
        while ring.len() > 1 && ring.last() == ring.first() {
            ring.pop();
        }
        let n = ring.len();
        if n < 3 {
            return Class::TooFew(n);
        }
        if (2..n).all(|i| orient(ring[0], ring[1], ring[i]) == 0) {
            return Class::ZeroArea;
        }
        // Simple: non-adjacent edges are disjoint, adjacent edges meet only
        // at their shared vertex (no doubling back).
        for i in 0..n {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            for j in i + 1..n {
                let (c, d) = (ring[j], ring[(j + 1) % n]);
                let adjacent = j == i + 1 || (i == 0 && j == n - 1);
                let meet = if !adjacent {
                    segments_meet(a, b, c, d)
                } else {
                    // Shared vertex s, other ends u (of the first) and w.
                    let (u, s, w) = if j == i + 1 { (a, b, d) } else { (b, a, c) };
                    orient(u, s, w) == 0
                        && ((s.0 - u.0) as i128 * (w.0 - s.0) as i128
                            + (s.1 - u.1) as i128 * (w.1 - s.1) as i128)
                            < 0
                };
                if meet {
                    return Class::Is(Convexity::SelfIntersecting);
                }
            }
        }
        // A simple polygon is convex when it never turns both ways.
        let turns: Vec<i128> = (0..n)
            .map(|i| orient(ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]))
            .collect();
        let left = turns.iter().any(|&t| t > 0);
        let right = turns.iter().any(|&t| t < 0);
        Class::Is(if left && right {
            Convexity::Concave
        } else {
            Convexity::Convex
        })
    }
}

fn library_class(points: &[Point]) -> reference::Class {
    match classify(points) {
        Ok(c) => reference::Class::Is(c),
        Err(PolygonError::ZeroArea) => reference::Class::ZeroArea,
        Err(PolygonError::TooFewPoints { distinct }) => reference::Class::TooFew(distinct),
        Err(other) => panic!("unexpected error {other:?} for {points:?}"),
    }
}

fn to_points(grid: &[(i64, i64)], scale: f64, dx: f64, dy: f64) -> Vec<Point> {
    grid.iter()
        .map(|&(x, y)| Point::new(x as f64 * scale + dx, y as f64 * scale + dy))
        .collect()
}

/// Checks one integer polygon, in place and moved/scaled.
fn check_against_reference(grid: &[(i64, i64)]) -> Result<(), TestCaseError> {
    let expected = reference::classify(grid);
    // Exact: integer coordinates, power-of-two scale, offsets that keep the
    // arithmetic exact.
    for (scale, dx, dy) in [(1.0, 0.0, 0.0), (0.25, 1e5, -1e5), (1024.0, -3.0, 7.0)] {
        let points = to_points(grid, scale, dx, dy);
        prop_assert_eq!(
            &library_class(&points),
            &expected,
            "{:?} at {}",
            grid,
            scale
        );
        let simple = SimplePolygon::new(&points);
        match &expected {
            reference::Class::Is(Convexity::SelfIntersecting) => {
                prop_assert!(
                    matches!(simple, Err(PolygonError::SelfIntersecting { .. })),
                    "{:?}",
                    simple
                )
            }
            reference::Class::Is(c) => {
                let polygon = simple.expect("valid");
                prop_assert_eq!(polygon.convexity(), *c);
                check_normalised(&polygon, &points)?;
            }
            _ => prop_assert!(simple.is_err()),
        }
    }
    // Inexact: a decimal scale far from the origin. Rounding is far below
    // the tolerance, so the class must not change.
    let points = to_points(grid, 1e-3, 1e5, 1e5);
    prop_assert_eq!(&library_class(&points), &expected, "{:?} scaled 1e-3", grid);
    Ok(())
}

/// A validated polygon is counter-clockwise, has no collinear vertex, only
/// input points as vertices, and the area of the input.
fn check_normalised(polygon: &SimplePolygon, input: &[Point]) -> Result<(), TestCaseError> {
    let v = polygon.vertices();
    let n = v.len();
    prop_assert!(n >= 3);
    for i in 0..n {
        let (a, b, c) = (v[(i + n - 1) % n], v[i], v[(i + 1) % n]);
        let turn = (b - a).perp(&(c - b));
        prop_assert!(turn != 0.0, "collinear vertex {:?}", b);
        prop_assert!(input.contains(&b));
    }
    let twice: f64 = (0..n)
        .map(|i| v[i].coords.perp(&v[(i + 1) % n].coords))
        .sum();
    prop_assert!(twice > 0.0);
    let input_twice: f64 = (0..input.len())
        .map(|i| input[i].coords.perp(&input[(i + 1) % input.len()].coords))
        .sum();
    prop_assert!((twice - input_twice.abs()).abs() <= 1e-9 * twice.abs().max(1.0));
    // Normalising is idempotent.
    let again = SimplePolygon::new(v).expect("still valid");
    prop_assert_eq!(again.vertices(), v);
    Ok(())
}

/// Random points on a small grid: mostly self-intersecting, with many
/// collinear, repeated and touching configurations.
fn random_grid_polygon() -> impl Strategy<Value = Vec<(i64, i64)>> {
    prop::collection::vec((0i64..6, 0i64..6), 1..9)
}

/// Points sorted by angle around a centre: usually simple, often concave,
/// with ties (collinear with the centre) that can make them touch.
fn star_grid_polygon() -> impl Strategy<Value = Vec<(i64, i64)>> {
    prop::collection::vec((-6i64..=6, -6i64..=6), 3..14).prop_map(|mut v| {
        v.sort_by(|a, b| {
            let (aa, ab) = (
                (a.1 as f64).atan2(a.0 as f64),
                (b.1 as f64).atan2(b.0 as f64),
            );
            aa.total_cmp(&ab)
                .then((a.0 * a.0 + a.1 * a.1).cmp(&(b.0 * b.0 + b.1 * b.1)))
        });
        v
    })
}

/// Orthogonal walks: collinear runs, spikes, revisited vertices.
fn walk_grid_polygon() -> impl Strategy<Value = Vec<(i64, i64)>> {
    prop::collection::vec(0u8..4, 3..16).prop_map(|steps| {
        let mut p = (0i64, 0i64);
        let mut out = vec![p];
        for s in steps {
            let (dx, dy) = [(1, 0), (0, 1), (-1, 0), (0, -1)][s as usize];
            p = (p.0 + dx * 2, p.1 + dy);
            out.push(p);
        }
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn random_grid_polygons_match_exact_reference(grid in random_grid_polygon()) {
        check_against_reference(&grid)?;
    }

    #[test]
    fn star_grid_polygons_match_exact_reference(grid in star_grid_polygon()) {
        check_against_reference(&grid)?;
    }

    #[test]
    fn walk_grid_polygons_match_exact_reference(grid in walk_grid_polygon()) {
        check_against_reference(&grid)?;
    }

    /// Orientation and starting point do not change the class.
    #[test]
    fn class_is_invariant_under_reversal_and_rotation(
        grid in star_grid_polygon(),
        shift in 0usize..16,
    ) {
        let points = to_points(&grid, 1.0, 0.0, 0.0);
        let expected = library_class(&points);
        let mut reversed = points.clone();
        reversed.reverse();
        prop_assert_eq!(&library_class(&reversed), &expected);
        let mut rotated = points.clone();
        rotated.rotate_left(shift % points.len());
        prop_assert_eq!(&library_class(&rotated), &expected);
    }
}

/// The generators must exercise every class, or the properties above are
/// weaker than they look.
#[test]
fn generators_cover_every_class() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut seen = std::collections::HashMap::new();
    for _ in 0..3000 {
        for grid in [
            random_grid_polygon()
                .new_tree(&mut runner)
                .unwrap()
                .current(),
            star_grid_polygon().new_tree(&mut runner).unwrap().current(),
            walk_grid_polygon().new_tree(&mut runner).unwrap().current(),
        ] {
            *seen
                .entry(format!("{:?}", reference::classify(&grid)))
                .or_insert(0) += 1;
        }
    }
    for class in [
        "Is(Convex)",
        "Is(Concave)",
        "Is(SelfIntersecting)",
        "ZeroArea",
    ] {
        assert!(
            seen.get(class).copied().unwrap_or(0) >= 100,
            "{class}: {seen:?}"
        );
    }
}
