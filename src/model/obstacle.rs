//! Obstacles as the monitor holds them: raw geometry as it arrives, and the
//! validated (or rejected) shape with its id.

use crate::geometry::{Point, Shape, ShapeError};

/// Raw geometry of an obstacle as it arrives: a polygon, or a single point
/// with a radius (a circle).
#[derive(Clone, Debug, PartialEq)]
pub enum ObstacleGeometry {
    /// Vertices in order (either orientation), validated into a shape later.
    Polygon(Vec<Point>),
    /// A disc; the radius is validated later.
    Circle {
        /// Centre (m).
        center: Point,
        /// Radius (m).
        radius: f64,
    },
}

impl ObstacleGeometry {
    /// The message convention: one vertex with `radius > 0` is a circle,
    /// anything else a polygon (validated later).
    pub fn from_points_and_radius(points: Vec<Point>, radius: f64) -> Self {
        if points.len() == 1 && radius != 0.0 {
            ObstacleGeometry::Circle {
                center: points[0],
                radius,
            }
        } else {
            ObstacleGeometry::Polygon(points)
        }
    }

    /// Validates into a [`Shape`]: a polygon (convex, or concave with its
    /// convex pieces) or a circle.
    pub fn to_shape(&self) -> Result<Shape, ShapeError> {
        match self {
            ObstacleGeometry::Polygon(points) => Shape::polygon(points),
            ObstacleGeometry::Circle { center, radius } => Shape::circle(*center, *radius),
        }
    }
}

/// A validated (or rejected) obstacle.
#[derive(Clone, Debug)]
pub struct Obstacle {
    /// The obstacle's id.
    pub id: String,
    /// The validated shape, or why it was rejected.
    pub shape: Result<Shape, ShapeError>,
    /// For a rejected obstacle, its finite input points, so it can still be
    /// drawn (in grey); empty for a valid one.
    pub rejected_points: Vec<Point>,
}

impl Obstacle {
    /// Validates `geometry` into an obstacle; a rejected one keeps its
    /// finite points for drawing.
    pub fn new(id: impl Into<String>, geometry: &ObstacleGeometry) -> Self {
        let shape = geometry.to_shape();
        let rejected_points = match (&shape, geometry) {
            (Err(_), ObstacleGeometry::Polygon(points)) => points
                .iter()
                .filter(|p| p.x.is_finite() && p.y.is_finite())
                .copied()
                .collect(),
            _ => Vec::new(),
        };
        Obstacle {
            id: id.into(),
            shape,
            rejected_points,
        }
    }
}
