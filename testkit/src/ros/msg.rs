//! Messages for the node, from plain `(x, y)` coordinates (`f64`, sent as
//! the messages' `float32`), and readers of the node's outputs.

use r2r::geometry_msgs::msg::{
    Point, Point32, Polygon, PolygonInstance, PolygonInstanceStamped, PolygonStamped, Pose,
    Quaternion,
};
use r2r::rcl_interfaces::msg::ParameterValue;
use r2r::sat_collision_msgs::msg::{CollisionReport, Obstacle, ObstacleArray, ObstacleResult};
use r2r::std_msgs::msg::Header;
use r2r::visualization_msgs::msg::{Marker, MarkerArray};
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------
// Inputs

pub fn point32(x: f64, y: f64) -> Point32 {
    Point32 {
        x: x as f32,
        y: y as f32,
        z: 0.0,
    }
}

pub fn polygon(points: &[(f64, f64)]) -> Polygon {
    Polygon {
        points: points.iter().map(|&(x, y)| point32(x, y)).collect(),
    }
}

/// Axis-aligned rectangle `[x0, x1] x [y0, y1]`, counter-clockwise.
pub fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<(f64, f64)> {
    vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
}

/// Square of half side `h` centred on (`cx`, `cy`).
pub fn square(cx: f64, cy: f64, h: f64) -> Vec<(f64, f64)> {
    rect(cx - h, cy - h, cx + h, cy + h)
}

/// A header in `frame`, stamp zero.
pub fn header(frame: &str) -> Header {
    Header {
        frame_id: frame.to_owned(),
        ..Default::default()
    }
}

pub fn footprint(frame: &str, points: &[(f64, f64)]) -> PolygonStamped {
    PolygonStamped {
        header: header(frame),
        polygon: polygon(points),
    }
}

pub fn obstacle(id: &str, points: &[(f64, f64)]) -> Obstacle {
    Obstacle {
        id: id.to_owned(),
        polygon: polygon(points),
        radius: 0.0,
    }
}

/// The message's circle convention: one vertex and a radius.
pub fn circle(id: &str, cx: f64, cy: f64, radius: f64) -> Obstacle {
    Obstacle {
        id: id.to_owned(),
        polygon: polygon(&[(cx, cy)]),
        radius,
    }
}

pub fn obstacles(frame: &str, list: Vec<Obstacle>) -> ObstacleArray {
    ObstacleArray {
        header: header(frame),
        obstacles: list,
    }
}

pub fn instance(frame: &str, id: i64, points: &[(f64, f64)]) -> PolygonInstanceStamped {
    PolygonInstanceStamped {
        header: header(frame),
        polygon: PolygonInstance {
            polygon: polygon(points),
            id,
        },
    }
}

/// A planar pose: translation (`x`, `y`) and yaw.
pub fn pose(x: f64, y: f64, yaw: f64) -> Pose {
    Pose {
        position: Point { x, y, z: 0.0 },
        orientation: Quaternion {
            x: 0.0,
            y: 0.0,
            z: (yaw / 2.0).sin(),
            w: (yaw / 2.0).cos(),
        },
    }
}

/// Parameter values for `set_parameters` (rcl_interfaces/ParameterType).
pub fn double_value(x: f64) -> ParameterValue {
    ParameterValue {
        type_: 3,
        double_value: x,
        ..Default::default()
    }
}

pub fn string_value(s: &str) -> ParameterValue {
    ParameterValue {
        type_: 4,
        string_value: s.to_owned(),
        ..Default::default()
    }
}

// ---------------------------------------------------------------------------
// Reports

/// The result of obstacle `id`; panics (showing the report) without one.
pub fn result<'a>(report: &'a CollisionReport, id: &str) -> &'a ObstacleResult {
    report
        .results
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("no result for `{id}` in {report:#?}"))
}

pub fn result_ids(report: &CollisionReport) -> Vec<&str> {
    report.results.iter().map(|r| r.id.as_str()).collect()
}

// ---------------------------------------------------------------------------
// Markers

// visualization_msgs/Marker type and action values.
pub const ARROW: i32 = 0;
pub const LINE_STRIP: i32 = 4;
pub const LINE_LIST: i32 = 5;
pub const TEXT_VIEW_FACING: i32 = 9;
pub const ADD: i32 = 0;
pub const DELETE: i32 = 2;
pub const DELETEALL: i32 = 3;

/// Markers of one namespace, by marker id.
pub fn markers_in<'a>(array: &'a MarkerArray, ns: &str) -> Vec<&'a Marker> {
    array.markers.iter().filter(|m| m.ns == ns).collect()
}

/// Added (not deleted) marker `(ns, id)`, if the array has one.
pub fn added<'a>(array: &'a MarkerArray, ns: &str, id: i32) -> Option<&'a Marker> {
    array
        .markers
        .iter()
        .find(|m| m.ns == ns && m.id == id && m.action == ADD)
}

pub fn deleted(array: &MarkerArray, ns: &str, id: i32) -> bool {
    array
        .markers
        .iter()
        .any(|m| m.ns == ns && m.id == id && m.action == DELETE)
}

/// Marker id of each obstacle id, read from the labels (`"<id>: ..."`).
pub fn label_ids(array: &MarkerArray) -> BTreeMap<String, i32> {
    array
        .markers
        .iter()
        .filter(|m| m.ns == "labels" && m.action == ADD)
        .filter_map(|m| {
            let (id, _) = m.text.split_once(": ")?;
            Some((id.to_owned(), m.id))
        })
        .collect()
}
