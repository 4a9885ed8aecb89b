//! The shapes a footprint or an obstacle can be.

use super::convex::ConvexPolygon;
use super::decompose::convex_decomposition;
use super::polygon::{PolygonError, Scratch, SimplePolygon, MAX_COORDINATE};
use super::{Aabb, Point, Vector};
use nalgebra::Isometry2;

/// A disc (closed): round robots, posts, people. Built only through
/// [`Circle::new`], so the radius is always finite and `> 0`, and the
/// centre and the radius are at most [`MAX_COORDINATE`] in magnitude.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    pub(crate) center: Point,
    pub(crate) radius: f64,
}

impl Circle {
    /// A circle with a finite centre and a finite radius `> 0`.
    ///
    /// Like polygon coordinates, the centre's coordinates and the radius
    /// must be at most [`MAX_COORDINATE`] in magnitude (else
    /// [`ShapeError::NonFiniteCircle`]):
    /// beyond it, distances between centres and sums of radii overflow to
    /// infinity (a clearance of `inf` with a zero axis, an infinite depth).
    pub fn new(center: Point, radius: f64) -> Result<Self, ShapeError> {
        let usable = |v: f64| v.abs() <= MAX_COORDINATE; // false for NaN and inf
        if !(usable(center.x) && usable(center.y) && usable(radius)) {
            return Err(ShapeError::NonFiniteCircle);
        }
        if radius <= 0.0 {
            return Err(ShapeError::InvalidRadius(radius));
        }
        Ok(Circle { center, radius })
    }

    /// Centre (m).
    pub fn center(&self) -> Point {
        self.center
    }

    /// Radius (m), finite and `> 0`.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Bounding box of the disc.
    pub fn aabb(&self) -> Aabb {
        let r = Vector::new(self.radius, self.radius);
        Aabb {
            min: self.center - r,
            max: self.center + r,
        }
    }
}

/// A simple concave polygon kept as its outline plus convex pieces whose
/// union is exactly the polygon. Collision against it is exact; see the
/// query module for what penetration depth means.
#[derive(Clone, Debug, PartialEq)]
pub struct CompoundPolygon {
    outline: Vec<Point>,
    pieces: Vec<ConvexPolygon>,
    aabb: Aabb,
}

impl CompoundPolygon {
    /// Counter-clockwise outline of the whole polygon.
    pub fn outline(&self) -> &[Point] {
        &self.outline
    }

    /// Convex pieces covering the polygon exactly (they share edges).
    pub fn pieces(&self) -> &[ConvexPolygon] {
        &self.pieces
    }

    /// Bounding box of the outline.
    pub fn aabb(&self) -> &Aabb {
        &self.aabb
    }

    /// Overwrites `self` with `source` moved by `pose`, reusing `self`'s
    /// buffers: no allocation when `self` already holds as many pieces,
    /// each with as many vertices, and as long an outline (a polygon of
    /// the same layout, e.g. `source` moved before).
    pub fn set_transformed(&mut self, source: &CompoundPolygon, pose: &Isometry2<f64>) {
        self.outline.clear();
        self.outline.extend(source.outline.iter().map(|p| pose * p));
        self.aabb = Aabb::from_points(&self.outline).unwrap_or(source.aabb);
        self.pieces.truncate(source.pieces.len());
        for (slot, piece) in self.pieces.iter_mut().zip(&source.pieces) {
            slot.set_transformed(piece, pose);
        }
        let have = self.pieces.len();
        self.pieces
            .extend(source.pieces[have..].iter().map(|p| p.transformed(pose)));
    }

    /// The polygon moved by `pose` (outline and pieces alike).
    pub fn transformed(&self, pose: &Isometry2<f64>) -> Self {
        let outline: Vec<Point> = self.outline.iter().map(|p| pose * p).collect();
        let aabb = Aabb::from_points(&outline).unwrap_or(self.aabb);
        CompoundPolygon {
            outline,
            pieces: self.pieces.iter().map(|p| p.transformed(pose)).collect(),
            aabb,
        }
    }
}

/// Why a shape could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ShapeError {
    /// The points are not a valid polygon.
    #[error(transparent)]
    Polygon(#[from] PolygonError),
    /// A circle whose centre or radius is NaN, infinite, or larger in
    /// magnitude than [`MAX_COORDINATE`].
    #[error("circle centre or radius is NaN, infinite or out of range")]
    NonFiniteCircle,
    /// A circle radius that is not `> 0`.
    #[error("circle radius must be > 0, got {0}")]
    InvalidRadius(f64),
}

/// Validates polygon after polygon in the same buffers, for a caller that
/// replaces one shape again and again (the footprint, at every message):
/// once the buffers have grown, a convex polygon costs no allocation when
/// the shape it replaces is handed back with [`recycle`](Self::recycle).
#[derive(Clone, Debug, Default)]
pub struct PolygonBuilder {
    scratch: Scratch,
    vertices: Vec<Point>,
    normals: Vec<Vector>,
}

impl PolygonBuilder {
    /// Exactly [`Shape::polygon`]`(points)`.
    pub fn polygon(&mut self, points: &[Point]) -> Result<Shape, ShapeError> {
        let vertices = std::mem::take(&mut self.vertices);
        let polygon = SimplePolygon::new_in(points, vertices, &mut self.scratch)?;
        if !polygon.is_convex() {
            return Shape::compound(polygon);
        }
        let normals = std::mem::take(&mut self.normals);
        Ok(Shape::Convex(ConvexPolygon::from_ccw_convex_in(
            polygon.into_vertices(),
            normals,
        )))
    }

    /// Takes back a shape that is no longer needed: its buffers serve the
    /// next polygon.
    pub fn recycle(&mut self, shape: Shape) {
        if let Shape::Convex(polygon) = shape {
            let (vertices, normals) = polygon.into_buffers();
            if vertices.capacity() > self.vertices.capacity() {
                self.vertices = vertices;
            }
            if normals.capacity() > self.normals.capacity() {
                self.normals = normals;
            }
        }
    }
}

/// A validated footprint or obstacle.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A convex polygon.
    Convex(ConvexPolygon),
    /// A simple concave polygon, with its convex pieces.
    Compound(CompoundPolygon),
    /// A disc.
    Circle(Circle),
}

impl Shape {
    /// Validates raw polygon points: convex input stays one polygon, simple
    /// concave input is decomposed into convex pieces, anything else is an
    /// error.
    pub fn polygon(points: &[Point]) -> Result<Self, ShapeError> {
        PolygonBuilder::default().polygon(points)
    }

    /// A concave simple polygon as its convex pieces.
    fn compound(polygon: SimplePolygon) -> Result<Self, ShapeError> {
        let pieces = convex_decomposition(&polygon);
        let outline = polygon.into_vertices();
        let aabb = Aabb::from_points(&outline).ok_or(PolygonError::TooFewPoints { distinct: 0 })?;
        Ok(Shape::Compound(CompoundPolygon {
            outline,
            pieces,
            aabb,
        }))
    }

    /// A disc: see [`Circle::new`].
    pub fn circle(center: Point, radius: f64) -> Result<Self, ShapeError> {
        Ok(Shape::Circle(Circle::new(center, radius)?))
    }

    /// Bounding box of the shape.
    pub fn aabb(&self) -> Aabb {
        match self {
            Shape::Convex(p) => *p.aabb(),
            Shape::Compound(c) => *c.aabb(),
            Shape::Circle(c) => c.aabb(),
        }
    }

    /// The shape moved by a rigid transform.
    pub fn transformed(&self, pose: &Isometry2<f64>) -> Self {
        match self {
            Shape::Convex(p) => Shape::Convex(p.transformed(pose)),
            Shape::Compound(c) => Shape::Compound(c.transformed(pose)),
            Shape::Circle(c) => Shape::Circle(Circle {
                center: pose * c.center,
                radius: c.radius,
            }),
        }
    }

    /// Overwrites `self` with `source` moved by `pose`
    /// ([`transformed`](Self::transformed) in place): `self`'s buffers are
    /// reused when it is of the same kind (see
    /// [`ConvexPolygon::set_transformed`],
    /// [`CompoundPolygon::set_transformed`]); no allocation when it has
    /// `source`'s layout (the same kind, as many vertices and pieces).
    pub fn set_transformed(&mut self, source: &Shape, pose: &Isometry2<f64>) {
        match (self, source) {
            (Shape::Convex(slot), Shape::Convex(p)) => slot.set_transformed(p, pose),
            (Shape::Compound(slot), Shape::Compound(c)) => slot.set_transformed(c, pose),
            (slot, source) => *slot = source.transformed(pose),
        }
    }

    /// True when [`set_transformed`](Self::set_transformed) from `source`
    /// into `self` allocates nothing: the same kind, as many vertices
    /// (each piece, and the outline, for a compound polygon).
    pub fn same_layout(&self, source: &Shape) -> bool {
        match (self, source) {
            (Shape::Convex(a), Shape::Convex(b)) => a.len() == b.len(),
            (Shape::Compound(a), Shape::Compound(b)) => {
                a.outline.len() == b.outline.len()
                    && a.pieces.len() == b.pieces.len()
                    && a.pieces
                        .iter()
                        .zip(&b.pieces)
                        .all(|(p, q)| p.len() == q.len())
            }
            (Shape::Circle(_), Shape::Circle(_)) => true,
            _ => false,
        }
    }

    /// Interval of the shape's projection on the unit vector `axis`.
    pub fn project(&self, axis: &Vector) -> (f64, f64) {
        match self {
            Shape::Convex(p) => p.project(axis),
            Shape::Compound(c) => {
                c.pieces
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), piece| {
                        let (a, b) = piece.project(axis);
                        (lo.min(a), hi.max(b))
                    })
            }
            Shape::Circle(c) => {
                let d = c.center.coords.dot(axis);
                (d - c.radius, d + c.radius)
            }
        }
    }

    /// Closed outline for drawing: polygon vertices, or `segments` points on
    /// a circle.
    pub fn outline(&self, segments: usize) -> Vec<Point> {
        match self {
            Shape::Convex(p) => p.vertices().to_vec(),
            Shape::Compound(c) => c.outline.clone(),
            Shape::Circle(c) => (0..segments.max(3))
                .map(|k| {
                    let a = k as f64 * std::f64::consts::TAU / segments.max(3) as f64;
                    c.center + Vector::new(a.cos(), a.sin()) * c.radius
                })
                .collect(),
        }
    }
}
