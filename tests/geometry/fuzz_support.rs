//! The fuzz targets' input decoding and invariant checks, shared by the
//! `cargo fuzz` targets in `fuzz/fuzz_targets/` (included there with
//! `#[path]`) and by the stable tests `tests/geometry/fuzz_corpus.rs` (every file of
//! the committed corpora) and `tests/geometry/fuzz_regressions.rs` (each finding), so
//! that a replayed input goes through exactly the checks the fuzzer ran.
//!
//! Every check panics with a message naming the broken invariant.
//!
//! Only `std` and the library: no fuzzing crate is needed to replay inputs.
#![allow(dead_code)]

use nalgebra::{Isometry2, Vector2};
use sat_collision::geometry::details::convex_decomposition;
use sat_collision::geometry::details::penetration;
use sat_collision::geometry::{
    cross, intersects, length_tolerance, query, Aabb, ConvexPolygon, Convexity, Point,
    PolygonBuilder, PolygonError, Shape, ShapeError, SimplePolygon,
};
use sat_collision::geometry::{details::classify, MAX_COORDINATE};
use sat_collision::model::Status;
use sat_collision::scene::{obstacle_line, Scene};
use std::f64::consts::TAU;
use std::path::Path;

/// Most points a decoded polygon has in the `polygon` target: beyond
/// [`MAX_CONCAVE_VERTICES`](sat_collision::geometry::MAX_CONCAVE_VERTICES)
/// so that the limit is exercised too.
pub const MAX_POLYGON_POINTS: usize = 4_200;
/// Most points of each shape in the `pair_query` target.
pub const MAX_PAIR_POINTS: usize = 300;

/// The sizes of large stars: around the concave limit (4,096) and beyond.
pub const LARGE_STARS: [usize; 5] = [300, 1_000, 4_096, 4_097, 4_200];

/// Relative tolerance on the sum of the pieces' areas.
pub const AREA_REL_TOL: f64 = 1e-9;

// ---------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------

/// Reads the fuzzer's bytes front to back; past the end every read is
/// `None`.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }

    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    pub fn u8(&mut self) -> Option<u8> {
        let b = *self.data.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }

    pub fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes([self.u8()?, self.u8()?]))
    }

    pub fn f64(&mut self) -> Option<f64> {
        let bytes = self.data.get(self.pos..self.pos + 8)?;
        self.pos += 8;
        let mut raw = [0u8; 8];
        raw.copy_from_slice(bytes);
        Some(f64::from_le_bytes(raw))
    }
}

/// Values that sit on the library's edges: signed zeros, non-finite values,
/// the coordinate limit (`1e150`) and just beyond, subnormals, the largest
/// finite value, magnitudes whose tolerance or products under- or overflow.
const SPECIAL: [f64; 24] = [
    0.0,
    -0.0,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    1e150,
    -1e150,
    1.000_000_000_000_000_2e150,
    1e151,
    f64::MIN_POSITIVE,
    5e-324,
    f64::MAX,
    -f64::MAX,
    1e-300,
    1e300,
    1e75,
    0.1,
    1e5 + 0.1,
    1e-12,
    1.0 + 1e-12,
    1e-6,
    1e12,
    0.5,
    -1.0,
];

/// Scale of the grid coordinates.
const SCALES: [f64; 12] = [
    1.0, 0.5, 1e-3, 1e3, 1e-9, 1e9, 1e-150, 1e149, 0.1, 1e-12, 1e6, 3.0,
];

/// Offset added to every coordinate: the same shapes far from the origin.
const OFFSETS: [f64; 8] = [0.0, 0.0, 0.0, 1.0, 1e5, -1e5, 1e12, 0.3];

/// How coordinates map from small integers to metres, shared by both shapes
/// of a pair so that they meet often.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub scale: f64,
    pub offset: f64,
}

impl Frame {
    pub fn decode(b: &mut Bytes) -> Self {
        let s = b.u8().unwrap_or(0) as usize;
        let o = b.u8().unwrap_or(0) as usize;
        Frame {
            scale: SCALES[s % SCALES.len()],
            offset: OFFSETS[o % OFFSETS.len()],
        }
    }

    fn grid(&self, byte: u8) -> f64 {
        self.offset + self.scale * ((byte % 16) as f64 - 8.0)
    }
}

/// One coordinate, by a tag byte: mostly grid values (collinear and
/// touching configurations are frequent), else raw bits, a special value,
/// the same coordinate as the previous point, or that one a few ulps away.
fn tagged_coordinate(b: &mut Bytes, frame: &Frame, previous: f64) -> Option<f64> {
    let tag = b.u8()?;
    Some(match tag % 8 {
        0..=3 => frame.grid(b.u8()?),
        4 => b.f64()?,
        5 => SPECIAL[b.u8()? as usize % SPECIAL.len()],
        6 => previous,
        _ => {
            let ulps = b.u8()? as i8 as i64;
            if previous.is_finite() {
                f64::from_bits((previous.to_bits() as i64).wrapping_add(ulps) as u64)
            } else {
                previous
            }
        }
    })
}

/// A list of points. First byte: the encoding.
///
/// * 0, 1: grid points, one byte per coordinate (`frame` scale and offset);
/// * 2: tagged coordinates (see [`tagged_coordinate`]);
/// * 3: raw `f64` coordinates, 8 bytes each;
/// * 4: a star-shaped polygon: count (2 bytes), then radii (1 to 16) read
///   cyclically from the remaining bytes. Mode byte 4: one of
///   [`LARGE_STARS`] vertices; other mode bytes `== 4 mod 5`: 3 to 64.
///
/// Modes 0 to 3 read a count byte pair first and stop early when the bytes
/// run out.
pub fn decode_points(b: &mut Bytes, frame: &Frame, max_points: usize) -> Vec<Point> {
    let mode_byte = b.u8().unwrap_or(0);
    let mode = mode_byte % 5;
    let count = b.u16().unwrap_or(0) as usize;
    // Large stars cost up to a second (concave: quadratic validation and
    // decomposition): only mode byte 4 itself makes them, in a few sizes
    // (every size would be new coverage, and the corpus would fill up with
    // them); other star mode bytes make at most 64 vertices.
    let count = match (mode, mode_byte) {
        (4, 4) => LARGE_STARS[count % LARGE_STARS.len()].min(max_points),
        (4, _) => count % 62,
        _ => count % (max_points + 1),
    };
    let mut points = Vec::with_capacity(count.min(1024));
    match mode {
        0 | 1 => {
            for _ in 0..count {
                let (Some(x), Some(y)) = (b.u8(), b.u8()) else {
                    break;
                };
                points.push(Point::new(frame.grid(x), frame.grid(y)));
            }
        }
        2 => {
            let mut previous = Point::new(frame.offset, frame.offset);
            for _ in 0..count {
                let Some(x) = tagged_coordinate(b, frame, previous.x) else {
                    break;
                };
                let Some(y) = tagged_coordinate(b, frame, previous.y) else {
                    break;
                };
                previous = Point::new(x, y);
                points.push(previous);
            }
        }
        3 => {
            for _ in 0..count {
                let (Some(x), Some(y)) = (b.f64(), b.f64()) else {
                    break;
                };
                points.push(Point::new(x, y));
            }
        }
        _ => {
            let n = count.max(3);
            let mut radii = Vec::new();
            while let Some(r) = b.u8() {
                radii.push(1.0 + (r % 16) as f64);
            }
            if radii.is_empty() {
                radii.push(1.0);
            }
            for k in 0..n {
                let angle = TAU * k as f64 / n as f64;
                let r = radii[k % radii.len()] * frame.scale;
                points.push(Point::new(
                    frame.offset + r * angle.cos(),
                    frame.offset + r * angle.sin(),
                ));
            }
        }
    }
    points
}

/// A shape for the `pair_query` target, `None` when the bytes do not make a
/// valid one. First byte: circle (1 in 3) or polygon.
pub fn decode_shape(b: &mut Bytes, frame: &Frame) -> Option<Shape> {
    let tag = b.u8()?;
    if tag % 3 == 0 {
        let x = tagged_coordinate(b, frame, frame.offset)?;
        let y = tagged_coordinate(b, frame, frame.offset)?;
        let r = tagged_coordinate(b, frame, 0.0)?;
        // Grid radii are relative to the offset: keep them near the scale.
        let r = if r.is_finite() && frame.offset != 0.0 {
            (r - frame.offset).abs()
        } else {
            r.abs()
        };
        Shape::circle(Point::new(x, y), r).ok()
    } else {
        Shape::polygon(&decode_points(b, frame, MAX_PAIR_POINTS)).ok()
    }
}

/// Padding `>= 0`: none, a grid multiple of the scale, or raw bits (kept
/// when finite and `>= 0`).
pub fn decode_padding(b: &mut Bytes, frame: &Frame) -> f64 {
    match b.u8().unwrap_or(0) % 4 {
        0 | 1 => 0.0,
        2 => 0.25 * frame.scale * (b.u8().unwrap_or(0) % 16) as f64,
        _ => match b.f64() {
            Some(p) if p.is_finite() && p >= 0.0 => p,
            _ => 0.0,
        },
    }
}

// ---------------------------------------------------------------------------
// Target 1: scene_yaml
// ---------------------------------------------------------------------------

/// Arbitrary bytes as a scene file: parse, and if it parses, evaluate and
/// report. No panic; the report's fail-safe rule holds.
pub fn check_scene_yaml(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let path = Path::new("fuzz.yaml");
    let scene = match Scene::from_yaml(&text, path) {
        Ok(scene) => scene,
        Err(error) => {
            let _ = error.to_string();
            return;
        }
    };
    let report = scene.evaluate();
    let lines = report.lines();
    assert_eq!(lines.len(), scene.obstacles.len(), "one line per obstacle");
    if !report.valid() {
        assert!(report.colliding(), "an invalid scene must read colliding");
    }
    for line in &lines {
        assert!(
            line.penetration_depth >= 0.0 && line.distance >= 0.0,
            "negative depth or distance: {line:?}"
        );
        if line.colliding {
            assert!(line.distance == 0.0, "colliding with a clearance: {line:?}");
        }
        let _ = obstacle_line(&text, &line.id);
    }
    let json = report.to_json();
    assert_eq!(json.colliding, report.colliding());
}

// ---------------------------------------------------------------------------
// Target 2: polygon
// ---------------------------------------------------------------------------

/// Bytes → points → [`check_polygon`].
pub fn check_polygon_bytes(data: &[u8]) {
    let mut b = Bytes::new(data);
    let frame = Frame::decode(&mut b);
    let points = decode_points(&mut b, &frame, MAX_POLYGON_POINTS);
    check_polygon(&points);
}

/// What validation made of the points, for comparing two orderings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Convex,
    Concave,
    Error(&'static str),
}

pub fn outcome(result: &Result<SimplePolygon, PolygonError>) -> Outcome {
    match result {
        Ok(p) if p.is_convex() => Outcome::Convex,
        Ok(_) => Outcome::Concave,
        Err(e) => Outcome::Error(Status::from(e).as_str()),
    }
}

/// Every way in: `SimplePolygon::new`, `classify`, `Shape::polygon` (fresh
/// and through a reused builder) agree; a valid polygon decomposes into
/// strictly convex counter-clockwise pieces whose areas add up to its area;
/// starting the ring at another vertex gives the same outcome (valid or not,
/// convex or not, and the same error), unless the input has a feature at
/// the tolerance's scale ([`tolerance_sensitive`]).
pub fn check_polygon(points: &[Point]) {
    let simple = SimplePolygon::new(points);
    let kind = outcome(&simple);

    // Polygons this large cost milliseconds each time they are validated
    // and decomposed: the redundant ways in are checked on smaller ones.
    let large = points.len() > LARGE_POLYGON;
    let shape = Shape::polygon(points);
    if !large {
        check_entry_points(points, &simple, &shape);
    }
    match (&simple, &shape) {
        (Err(e), Err(s)) => assert_eq!(Status::from(s), Status::from(e), "Shape::polygon error"),
        (Ok(p), Ok(s)) => check_valid_polygon(p, s),
        _ => panic!("Shape::polygon disagrees: {shape:?} vs {simple:?}"),
    }

    // Rotations of the vertex order: a few (all for short lists).
    let n = points.len();
    if n >= 2 {
        let rotations: Vec<usize> = if n <= 12 {
            (1..n).collect()
        } else if large {
            vec![n / 2]
        } else {
            vec![1, n / 2, n - 1]
        };
        let mut rotated = points.to_vec();
        for r in rotations {
            rotated.copy_from_slice(points);
            rotated.rotate_left(r);
            let other = outcome(&SimplePolygon::new(&rotated));
            if other != kind && tolerance_sensitive(points) {
                continue;
            }
            assert_eq!(
                other, kind,
                "validation depends on the starting vertex (rotated by {r})"
            );
        }
    }
}

/// Validation decides at the tolerance (docs/library.md, "Tolerance policy"): a
/// point within `tol` of the one kept before it is merged, a vertex within
/// `tol` of the edge replacing it is dropped, a vertex within `tol` of
/// another edge is a self-intersection, `|2A| <= tol × perimeter` is zero
/// area. Which points a greedy merge keeps depends on where the ring
/// starts, so an input with a feature *at* that scale (within a few `tol`
/// of a threshold) may be decided either way from different starts. Only
/// evaluated when two starts disagree (quadratic).
pub fn tolerance_sensitive(points: &[Point]) -> bool {
    let finite: Vec<Point> = points
        .iter()
        .copied()
        .filter(|p| p.x.is_finite() && p.y.is_finite())
        .collect();
    let Some(aabb) = Aabb::from_points(&finite) else {
        return true;
    };
    let near = 4.0 * length_tolerance(aabb.magnitude());
    let size = (aabb.max.x - aabb.min.x).max(aabb.max.y - aabb.min.y);
    let n = finite.len();
    if n < 3 || size <= 4.0 * near {
        return true;
    }
    let perimeter: f64 = (0..n)
        .map(|i| (finite[(i + 1) % n] - finite[i]).norm())
        .sum();
    if 2.0 * polygon_area(&finite).abs() <= near * perimeter {
        return true;
    }
    // A vertex near another point or edge, or near the line through its
    // neighbours.
    (0..n).any(|i| {
        let p = finite[i];
        let (before, after) = (finite[(i + n - 1) % n], finite[(i + 1) % n]);
        if line_distance(p, before, after) <= near {
            return true;
        }
        (0..n).any(|j| {
            let (a, b) = (finite[j], finite[(j + 1) % n]);
            j != i && (j + 1) % n != i && segment_distance(p, a, b) <= near
        })
    })
}

fn segment_distance(p: Point, a: Point, b: Point) -> f64 {
    let ab = b - a;
    let length_squared = ab.norm_squared();
    let t = if length_squared > 0.0 {
        ((p - a).dot(&ab) / length_squared).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + ab * t)).norm()
}

fn line_distance(p: Point, a: Point, b: Point) -> f64 {
    let ab = b - a;
    let length = ab.norm();
    if length > 0.0 {
        cross(&ab, &(p - a)).abs() / length
    } else {
        (p - a).norm()
    }
}

/// Above this many points [`check_polygon`] skips [`check_entry_points`]
/// and checks one rotation only.
pub const LARGE_POLYGON: usize = 256;

/// `classify` and a reused `PolygonBuilder` agree with `SimplePolygon::new`
/// and `Shape::polygon`.
fn check_entry_points(
    points: &[Point],
    simple: &Result<SimplePolygon, PolygonError>,
    shape: &Result<Shape, ShapeError>,
) {
    let classified = classify(points);
    match (&simple, &classified) {
        (Ok(p), Ok(c)) => assert_eq!(p.convexity(), *c, "classify disagrees"),
        (Err(PolygonError::SelfIntersecting { .. }), Ok(Convexity::SelfIntersecting)) => {}
        (Err(e), Err(c)) => assert_eq!(e, c, "classify disagrees"),
        _ => panic!("classify disagrees: {classified:?} vs {simple:?}"),
    }

    let mut builder = PolygonBuilder::default();
    // The builder's buffers first hold another polygon.
    if let Ok(square) = builder.polygon(&[
        Point::new(0.0, 0.0),
        Point::new(1.0, 0.0),
        Point::new(1.0, 1.0),
        Point::new(0.0, 1.0),
    ]) {
        builder.recycle(square);
    }
    let built = builder.polygon(points);
    assert_eq!(shape, &built, "PolygonBuilder differs from Shape::polygon");
}

/// Strictly convex and counter-clockwise, by the plain floating-point turn.
pub fn assert_strictly_convex(piece: &ConvexPolygon) {
    let v = piece.vertices();
    let n = v.len();
    assert!(n >= 3, "piece with {n} vertices");
    for i in 0..n {
        let incoming = v[i] - v[(i + n - 1) % n];
        let outgoing = v[(i + 1) % n] - v[i];
        assert!(
            cross(&incoming, &outgoing) > 0.0,
            "piece not strictly convex at vertex {i}: {v:?}"
        );
    }
}

pub fn polygon_area(v: &[Point]) -> f64 {
    let origin = v[0];
    let mut sum = 0.0;
    for i in 1..v.len().saturating_sub(1) {
        sum += cross(&(v[i] - origin), &(v[i + 1] - origin));
    }
    0.5 * sum
}

fn check_valid_polygon(polygon: &SimplePolygon, shape: &Shape) {
    let vertices = polygon.vertices();
    assert!(vertices.len() >= 3, "valid polygon with < 3 vertices");
    assert!(
        vertices.iter().all(|p| p.x.is_finite() && p.y.is_finite()),
        "non-finite vertex in a valid polygon"
    );
    let area = polygon.area();
    assert!(area > 0.0 && area.is_finite(), "valid polygon area {area}");
    let pieces = convex_decomposition(polygon);
    assert!(!pieces.is_empty(), "no pieces");
    let mut sum = 0.0;
    for piece in &pieces {
        assert_strictly_convex(piece);
        let a = polygon_area(piece.vertices());
        assert!(a > 0.0, "piece of area {a}");
        sum += a;
    }
    assert!(
        (sum - area).abs() <= AREA_REL_TOL * area,
        "pieces' areas add up to {sum}, the polygon's is {area}"
    );
    match shape {
        Shape::Convex(c) => {
            assert!(polygon.is_convex(), "convex shape from a concave polygon");
            assert_eq!(c.vertices(), vertices, "convex shape's vertices");
        }
        Shape::Compound(c) => {
            assert!(!polygon.is_convex(), "compound shape from a convex polygon");
            assert_eq!(c.outline(), vertices, "compound outline");
            assert_eq!(c.pieces(), &pieces[..], "compound pieces");
        }
        Shape::Circle(_) => panic!("a polygon became a circle"),
    }
}

// ---------------------------------------------------------------------------
// Target 3: pair_query
// ---------------------------------------------------------------------------

/// Bytes → two shapes and a padding → [`check_pair`]. Invalid shapes are
/// skipped (the `polygon` target covers validation).
pub fn check_pair_bytes(data: &[u8]) {
    let mut b = Bytes::new(data);
    let frame = Frame::decode(&mut b);
    let padding = decode_padding(&mut b, &frame);
    let Some(a) = decode_shape(&mut b, &frame) else {
        return;
    };
    let Some(c) = decode_shape(&mut b, &frame) else {
        return;
    };
    check_pair(&a, &c, padding);
}

/// The library's tolerance for a pair (docs/library.md, "Tolerance policy").
pub fn pair_tolerance(a: &Shape, b: &Shape, padding: f64) -> f64 {
    length_tolerance(a.aabb().magnitude().max(b.aabb().magnitude()).max(padding))
}

fn is_convex_shape(s: &Shape) -> bool {
    matches!(s, Shape::Convex(_) | Shape::Circle(_))
}

/// Symmetry, agreement of the boolean test and of `penetration` with the
/// full query, sane numbers, and (convex pairs) the MTV separates.
pub fn check_pair(a: &Shape, b: &Shape, padding: f64) {
    let ab = query(a, b, padding);
    let ba = query(b, a, padding);
    let tol = pair_tolerance(a, b, padding);
    assert_eq!(
        ab.colliding(),
        ba.colliding(),
        "colliding(a, b) != colliding(b, a): {ab:?} vs {ba:?}"
    );
    assert_eq!(
        intersects(a, b, padding),
        ab.colliding(),
        "intersects(a, b) != query(a, b): {ab:?}"
    );
    assert_eq!(
        intersects(b, a, padding),
        ba.colliding(),
        "intersects(b, a) != query(b, a): {ba:?}"
    );
    // `penetration` is the collision part of `query`, exactly.
    let pen = penetration(a, b, padding);
    assert_eq!(
        pen,
        ab.colliding().then_some(ab),
        "penetration(a, b) != query(a, b)"
    );
    for (name, c) in [("a, b", &ab), ("b, a", &ba)] {
        assert!(
            c.depth().is_finite() && c.depth() >= 0.0,
            "query({name}): depth {}",
            c.depth()
        );
        assert!(
            c.mtv().x.is_finite() && c.mtv().y.is_finite(),
            "query({name}): mtv {:?}",
            c.mtv()
        );
        assert!(
            c.distance().is_finite() && c.distance() >= 0.0,
            "query({name}): distance {}",
            c.distance()
        );
        if c.colliding() {
            assert!(
                c.distance() == 0.0,
                "query({name}): colliding at distance {}",
                c.distance()
            );
            // |mtv| == depth, as a ratio: with a depth near f64::MAX (a
            // huge radius or padding) |mtv| itself can round to infinity;
            // with a subnormal depth (a subnormal radius) the components of
            // `axis * depth` have few significant bits.
            if c.depth() > 0.0 {
                let ratio = (c.mtv() / c.depth()).norm();
                assert!(
                    (ratio - 1.0).abs() <= 1e-9 || c.depth() < 1e4 * f64::MIN_POSITIVE,
                    "query({name}): |mtv| = {ratio} × depth {:e}",
                    c.depth()
                );
            } else {
                assert!(
                    c.mtv() == Vector2::zeros(),
                    "query({name}): depth 0 but mtv {:?}",
                    c.mtv()
                );
            }
        } else {
            assert!(
                c.depth() == 0.0 && c.mtv() == Vector2::zeros(),
                "query({name}): apart with depth {} mtv {:?}",
                c.depth(),
                c.mtv()
            );
            assert!(c.distance() > 0.0, "query({name}): apart at distance 0");
        }
    }
    // The MTV frees A from a convex B: moved by it (and a tolerance more
    // along it) A at most touches B.
    // Only where the moved shape stays in the library's domain (coordinates
    // up to `MAX_COORDINATE`): a huge padding makes a huge MTV.
    if ab.colliding() && ab.depth() > 0.0 && is_convex_shape(a) && is_convex_shape(b) {
        let direction = ab.mtv() / ab.depth();
        let moved = a.transformed(&Isometry2::translation(
            ab.mtv().x + direction.x * tol,
            ab.mtv().y + direction.y * tol,
        ));
        if moved.aabb().magnitude() > MAX_COORDINATE {
            return;
        }
        let after = query(&moved, b, padding);
        let tol_after = pair_tolerance(&moved, b, padding);
        assert!(
            !after.colliding() || after.depth() <= tol_after,
            "moved by the MTV {:?} A still overlaps B by {} (tol {tol_after})",
            ab.mtv(),
            after.depth()
        );
    }
}
