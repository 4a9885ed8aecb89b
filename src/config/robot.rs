//! The robot's shape from the parameters: `robot_footprint` or
//! `robot_radius` ([`NodeConfig::robot_shape`]), and whether the node
//! places it from TF ([`NodeConfig::footprint_from_tf`]).

use super::footprint::{footprint_points, FootprintTextError};
use super::settings::NodeConfig;
use crate::geometry::{Point, Shape};

impl NodeConfig {
    /// The robot-frame footprint for planner queries: `robot_footprint`,
    /// else a circle of `robot_radius`, else none.
    pub fn robot_shape(&self) -> Option<Result<Shape, FootprintTextError>> {
        if !self.robot_footprint.trim().is_empty() {
            return Some(
                footprint_points(&self.robot_footprint)
                    .and_then(|points| Ok(Shape::polygon(&points)?)),
            );
        }
        (self.robot_radius > 0.0).then(|| {
            Shape::circle(Point::origin(), self.robot_radius).map_err(FootprintTextError::Shape)
        })
    }

    /// The robot's shape when the node places the footprint itself from
    /// TF: `base_frame` and a robot shape are both set.
    pub fn footprint_from_tf(&self) -> Option<Shape> {
        if self.monitor.base_frame.is_empty() {
            return None;
        }
        self.robot_shape().and_then(Result::ok)
    }
}
