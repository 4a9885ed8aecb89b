//! Inputs the fuzz targets (`fuzz/`, `scripts/fuzz.sh`) found, each fed
//! through the same decoding and checks as the target that found it
//! (`tests/geometry/fuzz_support.rs`). See each test for what was wrong.

use crate::fuzz_support::{check_pair, check_pair_bytes, check_polygon_bytes};
use sat_collision::geometry::{query, Point, Shape};
use sat_collision::model::Status;

/// pair_query: a padding of 2.2e304 gives a depth of the same size; the
/// check's own `mtv.norm()` squared the components and overflowed to
/// infinity. Harness fix: the length is `hypot`, and the MTV move check only
/// runs while the moved shape stays within `MAX_COORDINATE`.
#[test]
fn pair_huge_padding_mtv_length() {
    check_pair_bytes(&[
        0x04, 0x48, 0x01, 0x00, 0x88, 0x0c, 0x08, 0x0c, 0x0c, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xbf, 0xff, 0xff, 0xff, 0x0c, 0x00, 0x00, 0x09, 0x00, 0x00, 0x0a, 0x80, 0x09,
    ]);
}

/// pair_query: a circle of radius 6 whose centre is a subnormal point
/// (2.2e-311, 1e-323) next to a polygon's vertex at the origin, just above
/// the polygon's top edge (4, 0)–(0, 0). The clearance walk measured the
/// foot of the centre on that edge from the edge's start, rounding it onto
/// the edge's end: vertex–vertex, axis = the direction from the vertex to
/// the centre, (1, 4.5e-13), when the closest point is on the edge and the
/// axis its normal (0, 1). The MTV (-6, 0) then left the polygon 4 m deep in
/// the circle. Library fix in `sat.rs` (`Candidate::just_before_end`).
#[test]
fn pair_circle_with_subnormal_centre() {
    check_pair_bytes(&[
        0x00, 0x00, 0x00, 0x01, 0x00, 0x04, 0x00, 0x0b, 0x00, 0x00, 0x00, 0x08, 0x08, 0x0c, 0x08,
        0x0c, 0x0c, 0x08, 0x21, 0x0c, 0x01, 0x00, 0x04, 0x00, 0x00, 0xff, 0x02, 0x00, 0x02, 0x02,
        0x7a, 0x02,
    ]);
}

/// The same as [`pair_circle_with_subnormal_centre`] with ordinary numbers:
/// the centre 1e-17 from the vertex is inside the 4 m edge by less than the
/// rounding of `along` (16 − 4e-17 == 16).
#[test]
fn circle_centre_within_rounding_of_an_edge_end() {
    let polygon = Shape::polygon(&[
        Point::new(4.0, 0.0),
        Point::new(0.0, 0.0),
        Point::new(-8.0, -8.0),
        Point::new(3.0, -8.0),
    ])
    .expect("valid");
    for centre in [Point::new(1e-17, 1e-300), Point::new(1e-17, 0.0)] {
        let circle = Shape::circle(centre, 6.0).expect("valid");
        let contact = query(&polygon, &circle, 0.0);
        assert!(contact.colliding());
        assert!((contact.depth() - 6.0).abs() < 1e-12, "{contact:?}");
        assert!(
            (contact.mtv() - nalgebra::Vector2::new(0.0, -6.0)).norm() < 1e-9,
            "{contact:?}"
        );
        check_pair(&polygon, &circle, 0.0);
        check_pair(&circle, &polygon, 0.0);
    }
}

/// polygon: a 50-point star 0.5 to 1 m across at 1e12 m from the origin,
/// where the tolerance is 1 m: the whole polygon is tolerance-sized. Which
/// points the greedy merge keeps depends on the starting vertex, and so does
/// whether the rest reads as `zero_area` or `self_intersecting`. Invalid
/// either way: the harness's rotation check was too strict (see
/// `polygon_thin_at_tolerance_scale_far_away`).
#[test]
fn polygon_tolerance_sized_star_far_away() {
    check_polygon_bytes(&[
        0xa4, 0x5e, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0xa4,
        0xa4, 0xa4, 0xa4, 0xa4, 0xa4, 0x09, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39,
        0x39, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39, 0xd8, 0x39, 0x39, 0x39, 0x08,
    ]);
}

/// pair_query: a circle of radius `f64::MAX` (then accepted: finite and
/// positive) overlapping a polygon: depth `f64::MAX`, and the MTV's length,
/// computed by the check, rounded up to infinity. The check now compares
/// `|mtv / depth|` with 1. (Since `pair_circles_beyond_max_coordinate`,
/// such a circle is `non_finite`.)
#[test]
fn pair_circle_of_radius_f64_max() {
    check_pair_bytes(&[
        0x00, 0x00, 0x00, 0x02, 0x00, 0x06, 0x00, 0x08, 0x08, 0x0c, 0x7e, 0x0c, 0x01, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x09, 0x09, 0x09, 0x09, 0x04, 0x05, 0x0c, 0x5d, 0x0c, 0x01, 0x00,
        0x0a, 0x0d,
    ]);
}

/// polygon: five points 1 m apart on a grid at 1e12 m, where the tolerance
/// is 1 m: (-4,-5), (3,7), (-7,5), (0,4), (-1,4) (+1e12). (0,4) and (-1,4)
/// are within the tolerance: from point 0 the merge keeps (0,4), from point
/// 4 it keeps (-1,4). The two quadrilaterals have |2A| = 39 and 49 for
/// perimeters of 41 and 40 m: the first is below the `zero_area` threshold
/// `|2A| <= tol × perimeter`, the second above (valid, concave). Tolerance
/// decisions taken by greedy merging depend on where the ring starts for
/// features at the tolerance's scale; not a library bug. The harness now
/// only requires the same outcome from every start when no feature is
/// within a few tolerances of a threshold (`tolerance_sensitive`).
#[test]
fn polygon_thin_at_tolerance_scale_far_away() {
    check_polygon_bytes(&[
        0x0c, 0x66, 0xf1, 0x32, 0xe3, 0xf4, 0xf3, 0xfb, 0xff, 0xf1, 0xed, 0x08, 0x0c, 0xf7, 0x0c,
    ]);
}

/// pair_query: two circles, centres (-100007, -5.8e303) and (f64::MAX,
/// -99993), radii 5 and 7, both accepted by `Circle::new` (finite). Their
/// distance overflowed: clearance `inf`, axis (0, 0). Polygons refuse
/// coordinates beyond `MAX_COORDINATE` (1e150) for exactly this reason;
/// circles did not. Library fix in `shape.rs`: `Circle::new` applies the
/// same limit to the centre and the radius (`non_finite`).
#[test]
fn pair_circles_beyond_max_coordinate() {
    check_pair_bytes(&[
        0x00, 0x25, 0x00, 0x00, 0x01, 0x01, 0x04, 0x28, 0x00, 0xff, 0x04, 0x28, 0x02, 0x01, 0xff,
        0xba, 0xfd, 0x00, 0x0d, 0xfb, 0xf9, 0xff, 0x00, 0x01, 0x04, 0x28, 0x02, 0x01, 0xf9, 0xfb,
        0xff, 0xfd, 0xff, 0x0d,
    ]);
    let limit = sat_collision::geometry::MAX_COORDINATE;
    for (x, r) in [
        (f64::MAX, 1.0),
        (1.5 * limit, 1.0),
        (0.0, f64::MAX),
        (0.0, 2.0 * limit),
    ] {
        let circle = Shape::circle(Point::new(x, 0.0), r);
        assert_eq!(
            circle.err().map(|e| Status::from(&e).as_str()),
            Some("non_finite"),
            "centre x {x}, radius {r}"
        );
    }
    let a = Shape::circle(Point::new(limit, -limit), limit).expect("at the limit");
    let b = Shape::circle(Point::new(-limit, limit), limit).expect("at the limit");
    check_pair(&a, &b, 0.0);
    let contact = query(&a, &b, 0.0);
    assert!(
        contact.distance().is_finite() && contact.distance() > 0.0,
        "{contact:?}"
    );
}

/// pair_query: a circle of radius 7.4e-323 (subnormal, accepted) at
/// (7.4e-323, 7.4e-323) on a polygon's corner at the origin: depth
/// 7.4e-323, MTV (-5.4e-323, 5.4e-323), whose length is 1.04 × the depth
/// because subnormals carry few significant bits. Not a library bug (both
/// are far below the tolerance); the check's `|mtv| == depth` now ignores
/// depths within 1e4 × `f64::MIN_POSITIVE`.
#[test]
fn pair_subnormal_depth() {
    check_pair_bytes(&BYTES_PAIR_SUBNORMAL_DEPTH);
}

const BYTES_PAIR_SUBNORMAL_DEPTH: [u8; 44] = [
    0x00, 0x00, 0x00, 0x02, 0x00, 0x06, 0x00, 0x08, 0x08, 0x08, 0x09, 0x29, 0x0f, 0x0f, 0x0f, 0x0f,
    0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f,
    0x0f, 0x2c, 0x04, 0x2d, 0x0a, 0x09, 0x0e, 0x09, 0x0e, 0x0d, 0x0a, 0x2f,
];

/// pair_query: the triangle (4,4), (0,4), (0,0) and a circle of radius 4
/// centred at (7.8e-308, 0), just outside the triangle's diagonal edge next
/// to the vertex (0,0). The clearance walk keeps the nearest face by squared
/// distance: both the diagonal (foot inside the edge, the closest point)
/// and the left edge (vertex–vertex with (0,0)) squared to 0 (underflow),
/// and the first one seen won the tie: axis (1, 0), from the vertex to the
/// centre, outside the vertex's normal cone. The MTV (-4, 0) left the
/// triangle 1.17 deep in the circle. Library fix in `sat.rs` (`clearance`):
/// a tie goes to the face whose closest point is inside its edge (its
/// normal is a separating axis).
#[test]
fn pair_squared_distances_underflow_to_a_tie() {
    check_pair_bytes(&BYTES_PAIR_UNDERFLOW_TIE);
    let triangle = Shape::polygon(&[
        Point::new(4.0, 4.0),
        Point::new(0.0, 4.0),
        Point::new(0.0, 0.0),
    ])
    .expect("valid");
    for x in [7.787762948491371e-308, 1e-200, 1e-170] {
        let circle = Shape::circle(Point::new(x, 0.0), 4.0).expect("valid");
        let contact = query(&triangle, &circle, 0.0);
        let expected = nalgebra::Vector2::new(-1.0, 1.0) * (4.0 / 2f64.sqrt());
        assert!(
            (contact.mtv() - expected).norm() < 1e-9,
            "x = {x}: {contact:?}"
        );
        check_pair(&triangle, &circle, 0.0);
        check_pair(&circle, &triangle, 0.0);
    }
}

const BYTES_PAIR_UNDERFLOW_TIE: [u8; 50] = [
    0x00, 0x00, 0x00, 0x02, 0x00, 0x06, 0x00, 0x08, 0x08, 0x08, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c,
    0x7c, 0x3c, 0x3c, 0x3c, 0x3c, 0x09, 0x29, 0x0c, 0x0c, 0x01, 0x00, 0x2c, 0x00, 0x08, 0x08, 0x08,
    0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x7c, 0x04, 0x2d, 0x0a, 0x09, 0x0e, 0x09, 0x0e, 0x0d, 0x71,
    0x0a, 0xce,
];

/// pair_query: the quadrilateral (-4,0), (-8,-7), (4,-3), (0,0) and a
/// circle of radius 1 centred at (4.3e-322, 0) — or (1e-17, 0): ordinary
/// numbers fail the same way — next to the vertex (0,0). The face of the
/// edge (4,-3)–(0,0) has a separation of 4.4e-16 (exactly ~6e-18: 0.6 and
/// 0.8 of its normal are rounded), the vertex (0,0) is 1e-17 from the
/// centre: the nearest face is vertex–vertex, axis (1, 0), outside the
/// vertex's normal cone, and the MTV (-1, 0) left the polygon 0.4 deep in
/// the circle. Library fix in `sat.rs` (`clearance`): when the closest
/// points are nearer than the deepest face's separation (impossible
/// exactly), the axis is that face's normal.
#[test]
fn pair_closest_points_nearer_than_rounding() {
    check_pair_bytes(&BYTES_PAIR_NEARER_THAN_ROUNDING);
    let polygon = Shape::polygon(&[
        Point::new(-4.0, 0.0),
        Point::new(-8.0, -7.0),
        Point::new(4.0, -3.0),
        Point::new(0.0, 0.0),
    ])
    .expect("valid");
    for x in [4.3e-322, 1e-200, 1e-17, 0.0] {
        let circle = Shape::circle(Point::new(x, 0.0), 1.0).expect("valid");
        let contact = query(&polygon, &circle, 0.0);
        assert!(contact.mtv().y < -0.5, "x = {x}: {contact:?}");
        check_pair(&polygon, &circle, 0.0);
        check_pair(&circle, &polygon, 0.0);
    }
}

const BYTES_PAIR_NEARER_THAN_ROUNDING: [u8; 26] = [
    0x00, 0x00, 0x00, 0x01, 0x00, 0x04, 0x00, 0x08, 0x08, 0x0c, 0x25, 0x00, 0x01, 0x04, 0x08, 0x57,
    0x57, 0x57, 0x57, 0x00, 0xf8, 0xf7, 0xf3, 0xfa, 0x0c, 0x08,
];

/// pair_query: a circle of radius 4.4e-323 centred at (6.27e-322,
/// 6.27e-322) next to the vertex (5e-324, 0) of a concave polygon, padding
/// 1.4e306. The vertex–vertex axis `d / |d|` had |d| = 179 subnormal units
/// for an exact 178.9: the axis was 0.99944 long, and the MTV (axis × a
/// depth of 1.4e306) 0.06 % short. Library fix in `mod.rs` (`unit`, used by
/// `sat.rs` vertex–vertex and `circle.rs` `point_separation`): a subnormal
/// length is normalised after scaling `d` to its largest component.
#[test]
fn pair_subnormal_axis_is_unit() {
    check_pair_bytes(&BYTES_PAIR_SUBNORMAL_AXIS);
    let unit_units = 4.94e-324;
    for (x, y) in [(126.0, 127.0), (1.0, 1.0), (3.0, 4.0), (1000.0, 1.0)] {
        let a = Shape::circle(Point::new(0.0, 0.0), 1.0).expect("valid");
        let b = Shape::circle(Point::new(x * unit_units, y * unit_units), 1.0).expect("valid");
        let contact = query(&a, &b, 0.0);
        assert!((contact.axis().norm() - 1.0).abs() < 1e-15, "{contact:?}");
        check_pair(&a, &b, 1e300);
    }
}

const BYTES_PAIR_SUBNORMAL_AXIS: [u8; 91] = [
    0x00, 0xf9, 0xfb, 0xff, 0xfd, 0xfc, 0x0f, 0x08, 0x7f, 0x7f, 0x7f, 0xf3, 0xff, 0x7f, 0x7f, 0x7f,
    0x7f, 0x09, 0x59, 0x7f, 0x7f, 0x01, 0x00, 0x00, 0x00, 0x09, 0x59, 0x7f, 0x7f, 0x0e, 0x0d, 0x0a,
    0x0d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
];
