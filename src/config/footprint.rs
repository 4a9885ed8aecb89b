//! nav2's footprint string (`"[[x, y], ...]"`) read as points.

use crate::geometry::{Point, Shape, ShapeError};

/// Why a footprint written as text (nav2's `"[[x, y], ...]"`) is not usable.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FootprintTextError {
    /// Not a list of `[x, y]` pairs.
    #[error("expected \"[[x, y], [x, y], ...]\": {0}")]
    Syntax(String),
    /// The points are not a valid polygon.
    #[error("not a usable footprint: {0}")]
    Shape(#[from] ShapeError),
}

/// Parses nav2's footprint string `"[[x, y], [x, y], ...]"` and checks that
/// it is a usable polygon.
pub fn parse_footprint(text: &str) -> Result<Vec<Point>, FootprintTextError> {
    let points = footprint_points(text)?;
    Shape::polygon(&points)?;
    Ok(points)
}

/// The points of nav2's footprint string, not yet validated as a polygon.
pub(super) fn footprint_points(text: &str) -> Result<Vec<Point>, FootprintTextError> {
    let pairs: Vec<[f64; 2]> =
        serde_yaml::from_str(text).map_err(|e| FootprintTextError::Syntax(e.to_string()))?;
    Ok(pairs.iter().map(|p| Point::new(p[0], p[1])).collect())
}
