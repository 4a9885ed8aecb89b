//! What several modules of this binary build their scenes from.

use nalgebra::{Isometry2, Vector2};
use sat_collision::geometry::Point;

/// The pose `(x, y)` heading `yaw` (rad).
pub fn pose(x: f64, y: f64, yaw: f64) -> Isometry2<f64> {
    Isometry2::new(Vector2::new(x, y), yaw)
}

/// The outline of the rectangle `[x0, x1] × [y0, y1]`, counter-clockwise
/// when `x0 < x1` and `y0 < y1`.
pub fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Point> {
    vec![
        Point::new(x0, y0),
        Point::new(x1, y0),
        Point::new(x1, y1),
        Point::new(x0, y1),
    ]
}
