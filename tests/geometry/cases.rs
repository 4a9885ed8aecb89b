//! Hand-computed cases with exact expected values for `query` / `intersects`.

use nalgebra::Isometry2;
use sat_collision::geometry::{
    contains_point, distance_to_point, intersects, query, Contact, Point, Shape, Vector,
};
use sat_collision_testkit::alloc::thread_allocations;
use std::f64::consts::{PI, TAU};

// ------------------------------------------------------------------ helpers

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

fn v(x: f64, y: f64) -> Vector {
    Vector::new(x, y)
}

fn poly(coords: &[(f64, f64)]) -> Shape {
    let points: Vec<Point> = coords.iter().map(|&(x, y)| p(x, y)).collect();
    Shape::polygon(&points).unwrap()
}

fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Shape {
    poly(&[(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
}

fn circle(x: f64, y: f64, r: f64) -> Shape {
    Shape::circle(p(x, y), r).unwrap()
}

fn regular(n: usize, centre: Point, radius: f64) -> Shape {
    let points: Vec<Point> = (0..n)
        .map(|k| {
            let a = k as f64 * TAU / n as f64;
            centre + v(a.cos(), a.sin()) * radius
        })
        .collect();
    Shape::polygon(&points).unwrap()
}

fn moved(shape: &Shape, t: Vector) -> Shape {
    shape.transformed(&Isometry2::translation(t.x, t.y))
}

/// `query`, checked against `intersects` and the contact's own invariants.
fn check(a: &Shape, b: &Shape, padding: f64) -> Contact {
    let c = query(a, b, padding);
    assert_eq!(
        intersects(a, b, padding),
        c.colliding(),
        "intersects vs query: {c:?}"
    );
    assert!(
        (c.axis().norm() - 1.0).abs() < 1e-12,
        "axis not unit: {c:?}"
    );
    assert!(c.depth() >= 0.0 && c.distance() >= 0.0, "{c:?}");
    if c.colliding() {
        assert_eq!(c.distance(), 0.0);
        assert!(c.closest().is_none());
        assert!(
            (c.mtv() + c.axis() * c.depth()).norm() <= 1e-15 * c.depth().max(1.0),
            "{c:?}"
        );
    } else {
        assert_eq!((c.depth(), c.mtv()), (0.0, Vector::zeros()));
        let (pa, pb) = c.closest().expect("closest points when apart");
        assert_close((pb - pa).norm(), c.distance());
    }
    c
}

fn assert_close(actual: f64, expected: f64) {
    assert!(
        (actual - expected).abs() <= 1e-12 * expected.abs().max(1.0),
        "{actual} != {expected}"
    );
}

fn assert_close_v(actual: Vector, expected: Vector) {
    assert!(
        (actual - expected).norm() <= 1e-12 * expected.norm().max(1.0),
        "{actual:?} != {expected:?}"
    );
}

fn assert_apart(c: &Contact, distance: f64, axis: Vector) {
    assert!(!c.colliding(), "{c:?}");
    assert_close(c.distance(), distance);
    assert_close_v(c.axis(), axis);
}

fn assert_colliding(c: &Contact, depth: f64, mtv: Vector) {
    assert!(c.colliding(), "{c:?}");
    assert_close(c.depth(), depth);
    assert_close_v(c.mtv(), mtv);
}

/// Moving A by the MTV leaves A touching B (depth ~0), 0.99 × MTV does not.
fn assert_mtv_separates(a: &Shape, b: &Shape, padding: f64, c: &Contact) {
    let after = check(&moved(a, c.mtv()), b, padding);
    assert!(
        after.colliding() && after.depth() <= 1e-9,
        "after MTV: {after:?}"
    );
    let almost = check(&moved(a, c.mtv() * 0.99), b, padding);
    assert!(almost.colliding(), "0.99 MTV: {almost:?}");
    assert!(
        (almost.depth() - 0.01 * c.depth()).abs() <= 1e-9,
        "0.99 MTV: {almost:?}"
    );
}

fn unit_square() -> Shape {
    rect(0.0, 0.0, 1.0, 1.0)
}

// ------------------------------------------------------------------ convex

#[test]
fn apart_squares() {
    let c = check(&unit_square(), &rect(2.0, 0.0, 3.0, 1.0), 0.0);
    assert_apart(&c, 1.0, v(1.0, 0.0));
    let (pa, pb) = c.closest().unwrap();
    assert_eq!((pa.x, pb.x), (1.0, 2.0));
    assert!(pa.y == pb.y && (0.0..=1.0).contains(&pa.y));
}

#[test]
fn touching_edge_collides_with_zero_depth() {
    let c = check(&unit_square(), &rect(1.0, 0.0, 2.0, 1.0), 0.0);
    assert_colliding(&c, 0.0, Vector::zeros());
    assert_close_v(c.axis(), v(1.0, 0.0));
}

#[test]
fn touching_vertex_vertex_collides() {
    let c = check(&unit_square(), &rect(1.0, 1.0, 2.0, 2.0), 0.0);
    assert_colliding(&c, 0.0, Vector::zeros());
    assert!(c.axis() == v(1.0, 0.0) || c.axis() == v(0.0, 1.0), "{c:?}");
    // Corner to corner through a triangle's vertex.
    let c = check(
        &unit_square(),
        &poly(&[(1.0, 1.0), (3.0, 2.0), (2.0, 3.0)]),
        0.0,
    );
    assert_colliding(&c, 0.0, Vector::zeros());
}

#[test]
fn touching_vertex_on_edge_collides() {
    let c = check(
        &unit_square(),
        &poly(&[(0.5, 1.0), (1.0, 2.0), (0.0, 2.0)]),
        0.0,
    );
    assert_colliding(&c, 0.0, Vector::zeros());
    assert_close_v(c.axis(), v(0.0, 1.0));
}

#[test]
fn vertex_vertex_clearance_is_euclidean_not_the_sat_gap() {
    // Closest features: corner (1, 1) and vertex (1.3, 1.4): 0.5 (3-4-5).
    // The best edge normal only separates them by 0.4.
    let b = poly(&[(1.3, 1.4), (3.0, 2.0), (2.0, 3.0)]);
    let c = check(&unit_square(), &b, 0.0);
    assert_apart(&c, 0.5, v(0.6, 0.8));
    let (pa, pb) = c.closest().unwrap();
    assert_close_v(pa.coords, v(1.0, 1.0));
    assert_close_v(pb.coords, v(1.3, 1.4));
    // Swapped: same clearance, axis reversed.
    let s = check(&b, &unit_square(), 0.0);
    assert_apart(&s, 0.5, v(-0.6, -0.8));
}

#[test]
fn parallel_facing_edges_any_overlap() {
    // B's bottom edge overlaps A's top edge partly, inside it, or around it.
    for (x0, x1) in [(1.0, 3.0), (-1.0, 0.5), (0.5, 1.5), (-1.0, 3.0), (2.0, 3.0)] {
        let c = check(&rect(0.0, 0.0, 2.0, 1.0), &rect(x0, 1.5, x1, 2.0), 0.0);
        assert_apart(&c, 0.5, v(0.0, 1.0));
        // Exactly touching along the shared line.
        let c = check(&rect(0.0, 0.0, 2.0, 1.0), &rect(x0, 1.0, x1, 2.0), 0.0);
        assert_colliding(&c, 0.0, Vector::zeros());
    }
    // Collinear edges of non-axis-aligned polygons (rounded normals differ).
    let a = poly(&[(0.0, 0.0), (6.0, 2.0), (3.0, 4.0), (1.0, 2.0)]);
    let b = poly(&[(5.0, -3.0), (7.0, -2.0), (9.0, 2.0), (9.0, 3.0), (6.0, 2.0)]);
    assert_colliding(&check(&a, &b, 0.0), 0.0, Vector::zeros());
    assert_colliding(&check(&b, &a, 0.0), 0.0, Vector::zeros());
}

#[test]
fn shallow_overlap() {
    let a = unit_square();
    let b = rect(0.75, 0.25, 2.0, 0.5);
    let c = check(&a, &b, 0.0);
    assert_colliding(&c, 0.25, v(-0.25, 0.0));
    assert_close_v(c.axis(), v(1.0, 0.0));
    assert_mtv_separates(&a, &b, 0.0, &c);
}

#[test]
fn deep_overlap() {
    let a = rect(0.0, 0.0, 4.0, 1.0);
    let b = rect(1.0, -1.0, 2.5, 3.0);
    let c = check(&a, &b, 0.0);
    assert_colliding(&c, 2.0, v(0.0, -2.0));
    assert_mtv_separates(&a, &b, 0.0, &c);
}

#[test]
fn containment_uses_the_distance_to_clear_not_the_interval_overlap() {
    // A inside B: the projections overlap by only 0.5 on y, but A has to move
    // 1.5 down to leave B.
    let small = rect(1.0, 1.0, 2.0, 1.5);
    let big = rect(0.0, 0.0, 10.0, 4.0);
    let c = check(&small, &big, 0.0);
    assert_colliding(&c, 1.5, v(0.0, -1.5));
    assert_mtv_separates(&small, &big, 0.0, &c);
    // B inside A: A moves up by 1.5 to uncover B.
    let c = check(&big, &small, 0.0);
    assert_colliding(&c, 1.5, v(0.0, 1.5));
    assert_mtv_separates(&big, &small, 0.0, &c);
}

#[test]
fn identical_shapes() {
    for offset in [v(0.0, 0.0), v(1e5, -1e5)] {
        let a = moved(&rect(0.0, 0.0, 2.0, 1.0), offset);
        let c = check(&a, &a.clone(), 0.0);
        assert!(c.colliding());
        assert_close(c.depth(), 1.0);
        assert!(c.mtv() == v(0.0, 1.0) || c.mtv() == v(0.0, -1.0), "{c:?}");
        assert_mtv_separates(&a, &a, 0.0, &c);
    }
    let tri = poly(&[(0.0, 0.0), (3.0, 0.0), (0.0, 4.0)]);
    let c = check(&tri, &tri, 0.0);
    // Depth of a triangle in itself: the smallest height, 2.4 (onto the hypotenuse).
    assert_close(c.depth(), 2.4);
    assert_mtv_separates(&tri, &tri, 0.0, &c);
}

#[test]
fn slivers() {
    let needle = poly(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1e-6)]);
    // 1e-7 below the needle: apart by exactly that.
    let c = check(&needle, &rect(0.4, -1.0, 0.6, -1e-7), 0.0);
    assert_apart(&c, 1e-7, v(0.0, -1.0));
    // 2e-12 is above the tolerance (1e-12 at this scale): still apart.
    let c = check(&needle, &rect(0.4, -1.0, 0.6, -2e-12), 0.0);
    assert!(
        !c.colliding() && (c.distance() - 2e-12).abs() < 1e-20,
        "{c:?}"
    );
    // 1e-13 is below it: touching.
    let c = check(&needle, &rect(0.4, -1.0, 0.6, -1e-13), 0.0);
    assert_colliding(&c, 0.0, Vector::zeros());
    // Two needles crossing in an X: separating them takes a move of ~0.5.
    let cross = poly(&[(0.5, -0.5), (0.5 + 1e-6, -0.5), (0.5, 0.5)]);
    let c = check(&needle, &cross, 0.0);
    assert!(c.colliding() && (c.depth() - 0.5).abs() < 1e-5, "{c:?}");
    assert_mtv_separates(&needle, &cross, 0.0, &c);
}

#[test]
fn far_from_the_origin() {
    let o = v(1e5, -1e5);
    let a = moved(&unit_square(), o);
    assert_apart(
        &check(&a, &moved(&rect(2.0, 0.0, 3.0, 1.0), o), 0.0),
        1.0,
        v(1.0, 0.0),
    );
    let b = moved(&rect(0.75, 0.25, 2.0, 0.5), o);
    let c = check(&a, &b, 0.0);
    assert_colliding(&c, 0.25, v(-0.25, 0.0));
    assert_mtv_separates(&a, &b, 0.0, &c);
    // The tolerance is 1e-12 * 1e5 = 1e-7 here: a 1e-6 gap is clear ...
    let c = check(&a, &moved(&rect(1.0 + 1e-6, 0.0, 2.0, 1.0), o), 0.0);
    assert!(
        !c.colliding() && (c.distance() - 1e-6).abs() < 1e-10,
        "{c:?}"
    );
    // ... and a 5e-8 gap is touching.
    let c = check(&a, &moved(&rect(1.0 + 5e-8, 0.0, 2.0, 1.0), o), 0.0);
    assert_colliding(&c, 0.0, Vector::zeros());
}

#[test]
fn thousand_vertex_polygons() {
    let a = regular(1000, p(0.0, 0.0), 1.0);
    // Vertex (1, 0) faces vertex (1.5, 0): 0.5 apart.
    let c = check(&a, &regular(1000, p(2.5, 0.0), 1.0), 0.0);
    assert_apart(&c, 0.5, v(1.0, 0.0));
    // Overlap: A − B is the 1000-gon of radius 2 around −c; the origin is
    // 0.5·cos(π/1000) from its nearest edge.
    let b = regular(1000, p(1.5, 0.0), 1.0);
    let c = check(&a, &b, 0.0);
    assert!(c.colliding());
    assert_close(c.depth(), 0.5 * (PI / 1000.0).cos());
    assert_mtv_separates(&a, &b, 0.0, &c);
    // Same far away.
    let o = v(1e5, 1e5);
    let c = check(
        &moved(&a, o),
        &moved(&regular(1000, p(2.5, 0.0), 1.0), o),
        0.0,
    );
    assert!(!c.colliding() && (c.distance() - 0.5).abs() < 1e-9, "{c:?}");
}

#[test]
fn clockwise_input_gives_the_same_answer() {
    let ccw = poly(&[(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0)]);
    let cw = poly(&[(0.0, 0.0), (0.0, 1.0), (2.0, 1.0), (2.0, 0.0)]);
    for b in [
        rect(1.5, 0.5, 3.0, 3.0),
        rect(3.0, 2.0, 4.0, 3.0),
        circle(2.5, 1.5, 0.2),
    ] {
        let (x, y) = (check(&ccw, &b, 0.0), check(&cw, &b, 0.0));
        assert_close(x.depth(), y.depth());
        assert_close(x.distance(), y.distance());
        assert_close_v(x.mtv(), y.mtv());
        assert_close_v(x.axis(), y.axis());
    }
}

// ------------------------------------------------------------------ circles

#[test]
fn circle_outside_near_a_vertex_uses_the_vertex_distance() {
    // Centre (1.3, 1.4) is 0.5 from the corner (1, 1); radius 0.25.
    let c = check(&unit_square(), &circle(1.3, 1.4, 0.25), 0.0);
    assert_apart(&c, 0.25, v(0.6, 0.8));
    let (pa, pb) = c.closest().unwrap();
    assert_close_v(pa.coords, v(1.0, 1.0));
    assert_close_v(pb.coords, v(1.15, 1.2));
    // The circle as the footprint.
    let c = check(&circle(1.3, 1.4, 0.25), &unit_square(), 0.0);
    assert_apart(&c, 0.25, v(-0.6, -0.8));
    let (pa, pb) = c.closest().unwrap();
    assert_close_v(pa.coords, v(1.15, 1.2));
    assert_close_v(pb.coords, v(1.0, 1.0));
}

#[test]
fn circle_centre_inside_polygon() {
    let square = rect(0.0, 0.0, 4.0, 4.0);
    let disc = circle(1.0, 2.0, 0.5);
    // The square leaves through its left edge: 1 (centre) + 0.5 (radius).
    let c = check(&square, &disc, 0.0);
    assert_colliding(&c, 1.5, v(1.5, 0.0));
    assert_mtv_separates(&square, &disc, 0.0, &c);
    // The disc leaves the square to the left.
    let c = check(&disc, &square, 0.0);
    assert_colliding(&c, 1.5, v(-1.5, 0.0));
    assert_mtv_separates(&disc, &square, 0.0, &c);
}

#[test]
fn circle_centre_outside_within_radius() {
    let c = check(&unit_square(), &circle(0.5, 1.2, 0.5), 0.0);
    assert_colliding(&c, 0.3, v(0.0, -0.3));
    // Near a corner: along the corner-to-centre axis.
    let c = check(&unit_square(), &circle(1.3, 1.4, 0.6), 0.0);
    assert_colliding(&c, 0.1, v(-0.06, -0.08));
    assert_mtv_separates(&unit_square(), &circle(1.3, 1.4, 0.6), 0.0, &c);
    // Exactly touching a corner.
    assert_colliding(
        &check(&unit_square(), &circle(1.3, 1.4, 0.5), 0.0),
        0.0,
        Vector::zeros(),
    );
}

#[test]
fn circle_circle() {
    let c = check(&circle(0.0, 0.0, 1.0), &circle(3.0, 4.0, 1.5), 0.0);
    assert_apart(&c, 2.5, v(0.6, 0.8));
    let (pa, pb) = c.closest().unwrap();
    assert_close_v(pa.coords, v(0.6, 0.8));
    assert_close_v(pb.coords, v(2.1, 2.8));
    assert_colliding(
        &check(&circle(0.0, 0.0, 1.0), &circle(3.0, 4.0, 4.0), 0.0),
        0.0,
        Vector::zeros(),
    );
    let c = check(&circle(0.0, 0.0, 1.0), &circle(1.0, 0.0, 1.0), 0.0);
    assert_colliding(&c, 1.0, v(-1.0, 0.0));
    // Concentric: no NaN, a fixed axis, depth = sum of the radii.
    let c = check(&circle(1.0, 1.0, 1.0), &circle(1.0, 1.0, 0.5), 0.0);
    assert_colliding(&c, 1.5, v(-1.5, 0.0));
    assert_eq!(c.axis(), v(1.0, 0.0));
    assert_mtv_separates(&circle(1.0, 1.0, 1.0), &circle(1.0, 1.0, 0.5), 0.0, &c);
}

// ------------------------------------------------------------------ padding

#[test]
fn padding_turns_a_gap_into_a_collision() {
    let a = unit_square();
    let b = rect(1.05, 0.0, 2.0, 1.0);
    assert_apart(&check(&a, &b, 0.0), 0.05, v(1.0, 0.0));
    let c = check(&a, &b, 0.2);
    assert_colliding(&c, 0.2 - 0.05, v(-0.15, 0.0));
    assert_mtv_separates(&a, &b, 0.2, &c);
    // Padding equal to the gap: touching (1.05 − 1 is 0.05 + 4e-17).
    assert_colliding(&check(&a, &b, 0.05), 0.0, Vector::zeros());
    // Padding smaller than the gap: clearance of the rounded footprint.
    let c = check(&a, &b, 0.04);
    assert_apart(&c, 0.01, v(1.0, 0.0));
    assert_close(c.closest().unwrap().0.x, 1.04);
}

#[test]
fn padding_rounds_corners_exactly() {
    let a = unit_square();
    let b = poly(&[(1.3, 1.4), (3.0, 2.0), (2.0, 3.0)]); // 0.5 from the corner
                                                         // Rounded corner: a 0.4 disc around (1, 1) stays 0.1 short of B ...
    let c = check(&a, &b, 0.4);
    assert_apart(&c, 0.1, v(0.6, 0.8));
    assert_close_v(c.closest().unwrap().0.coords, v(1.24, 1.32));
    // ... and 0.6 overlaps by 0.1 along the corner axis (a square corner
    // would already overlap along the 0.4 SAT gap).
    let c = check(&a, &b, 0.6);
    assert_colliding(&c, 0.1, v(-0.06, -0.08));
    assert_mtv_separates(&a, &b, 0.6, &c);
    // Overlapping shapes: the padding adds to the depth.
    let c = check(&a, &rect(0.75, 0.25, 2.0, 0.5), 0.1);
    assert_colliding(&c, 0.35, v(-0.35, 0.0));
    // Circles: the padding adds to the footprint's radius.
    assert_apart(
        &check(&circle(0.0, 0.0, 1.0), &circle(3.0, 4.0, 1.5), 0.5),
        2.0,
        v(0.6, 0.8),
    );
}

#[test]
fn invalid_padding_counts_as_none() {
    let (a, b) = (unit_square(), rect(1.05, 0.0, 2.0, 1.0));
    for padding in [-1.0, f64::NAN] {
        assert_apart(&check(&a, &b, padding), 0.05, v(1.0, 0.0));
    }
}

// ------------------------------------------------------------------ concave

/// A U opening upwards: notch x in [1, 2], y in [1, 3].
fn u_shape() -> Shape {
    poly(&[
        (0.0, 0.0),
        (3.0, 0.0),
        (3.0, 3.0),
        (2.0, 3.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (1.0, 3.0),
        (0.0, 3.0),
    ])
}

fn l_shape() -> Shape {
    poly(&[
        (0.0, 0.0),
        (2.0, 0.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (1.0, 2.0),
        (0.0, 2.0),
    ])
}

#[test]
fn footprint_in_the_notch_of_a_u_is_clear() {
    let u = u_shape();
    assert!(matches!(u, Shape::Compound(_)));
    let footprint = rect(1.25, 1.5, 1.75, 2.5);
    let c = check(&footprint, &u, 0.0);
    assert!(!c.colliding(), "{c:?}");
    assert_close(c.distance(), 0.25);
    assert!(c.axis() == v(1.0, 0.0) || c.axis() == v(-1.0, 0.0), "{c:?}");
    // The AABBs overlap completely: only the pieces tell.
    assert!(!intersects(&footprint, &u, 0.2));
    assert!(intersects(&footprint, &u, 0.25));
    // A disc in the notch, nearer the right wall.
    assert_apart(&check(&circle(1.6, 2.0, 0.2), &u, 0.0), 0.2, v(1.0, 0.0));
    // Too wide for the notch.
    let c = check(&rect(0.9, 1.5, 2.1, 2.5), &u, 0.0);
    assert!(c.colliding() && c.depth() > 0.0, "{c:?}");
    // The concave shape as the footprint, the obstacle in its notch.
    let c = check(&u, &rect(1.25, 1.5, 1.75, 2.5), 0.0);
    assert!(
        !c.colliding() && (c.distance() - 0.25).abs() < 1e-12,
        "{c:?}"
    );
}

#[test]
fn l_shape_overlapped_and_near_its_reflex_corner() {
    let l = l_shape();
    // Inside the lower arm: to leave the L it must move 0.8 down; the depth
    // reported is a lower bound of that (deepest piece pair).
    let footprint = rect(0.5, 0.5, 1.5, 0.8);
    let c = check(&footprint, &l, 0.0);
    assert!(
        c.colliding() && c.depth() > 0.0 && c.depth() <= 0.8 + 1e-12,
        "{c:?}"
    );
    // In the empty quadrant: a diamond whose bottom vertex is 0.1 above the
    // lower arm and whose left vertex is 0.2 from the upper arm.
    let diamond = poly(&[(1.6, 1.1), (2.0, 1.5), (1.6, 1.9), (1.2, 1.5)]);
    let c = check(&diamond, &l, 0.0);
    assert_apart(&c, 0.1, v(0.0, -1.0));
    let (pa, pb) = c.closest().unwrap();
    assert_close_v(pa.coords, v(1.6, 1.1));
    assert_close_v(pb.coords, v(1.6, 1.0));
    // A square there: 0.2 from both arms.
    assert_close(check(&rect(1.2, 1.2, 1.8, 1.8), &l, 0.0).distance(), 0.2);
    // Touching the inner edges.
    assert_colliding(
        &check(&rect(1.0, 1.0, 1.8, 1.8), &l, 0.0),
        0.0,
        Vector::zeros(),
    );
}

// ------------------------------------------------------------------ points

#[test]
fn point_queries() {
    let square = unit_square();
    assert!(contains_point(&square, p(0.5, 0.5)));
    assert!(contains_point(&square, p(1.0, 0.5))); // on the boundary
    assert!(!contains_point(&square, p(1.0 + 1e-9, 0.5)));
    assert_close(distance_to_point(&square, p(1.3, 1.4)), 0.5);
    assert_eq!(distance_to_point(&square, p(0.5, 0.5)), 0.0);
    let u = u_shape();
    assert!(!contains_point(&u, p(1.5, 2.0)));
    assert_close(distance_to_point(&u, p(1.5, 2.0)), 0.5);
    assert!(contains_point(&u, p(0.5, 2.0)));
    let disc = circle(0.0, 0.0, 1.0);
    assert!(contains_point(&disc, p(0.6, 0.8)));
    assert_close(distance_to_point(&disc, p(3.0, 4.0)), 4.0);
}

// ------------------------------------------------------------------ cost

#[test]
fn queries_do_not_allocate() {
    let shapes = [
        unit_square(),
        rect(0.75, 0.25, 2.0, 0.5),
        regular(64, p(3.0, 0.0), 1.0),
        circle(1.3, 1.4, 0.25),
        u_shape(),
        l_shape(),
    ];
    let before = thread_allocations();
    let mut hits = 0;
    for a in &shapes {
        for b in &shapes {
            for padding in [0.0, 0.3] {
                hits += usize::from(intersects(a, b, padding));
                hits += usize::from(query(a, b, padding).colliding());
                hits += usize::from(contains_point(a, p(0.5, 0.5)));
            }
        }
    }
    assert_eq!(thread_allocations() - before, 0);
    assert!(hits > 0);
}

/// The textbook SAT: every normal of both polygons, every vertex projected
/// on it — O((n + m)²). Returns the least overlap (negative when apart).
fn textbook_least_overlap(a: &[Point], b: &[Point]) -> f64 {
    let project = |poly: &[Point], axis: &Vector| {
        poly.iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), q| {
                let d = q.coords.dot(axis);
                (lo.min(d), hi.max(d))
            })
    };
    let mut least = f64::INFINITY;
    for poly in [a, b] {
        for i in 0..poly.len() {
            let e = poly[(i + 1) % poly.len()] - poly[i];
            let axis = v(e.y, -e.x).normalize();
            let (a_lo, a_hi) = project(a, &axis);
            let (b_lo, b_hi) = project(b, &axis);
            least = least.min((a_hi - b_lo).min(b_hi - a_lo));
        }
    }
    least
}

/// Speed against this baseline is measured in the benchmarks; here only
/// the answers must agree.
#[test]
fn large_polygons_agree_with_the_textbook_algorithm() {
    let a = regular(1024, p(0.0, 0.0), 1.0);
    let b = regular(1024, p(1.5, 0.3), 1.0);
    let (Shape::Convex(pa), Shape::Convex(pb)) = (&a, &b) else {
        panic!("convex expected")
    };
    let overlap = textbook_least_overlap(pa.vertices(), pb.vertices());
    let c = query(&a, &b, 0.0);
    // The textbook's interval overlap is right when neither shape contains
    // the other.
    assert!(
        c.colliding() && (c.depth() - overlap).abs() < 1e-12,
        "{c:?} vs {overlap}"
    );
}
