//! Scene and zone files (YAML), and the per-obstacle report they produce.
//!
//! ```yaml
//! frame_id: map
//! padding: 0.0                      # optional, metres, inflates the footprint
//! footprint: [[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]
//! # or: footprint: {circle: {center: [0, 0], radius: 0.35}}
//! obstacles:
//!   - id: shelf_3
//!     polygon: [[1, 0], [2, 0], [2, 1], [1, 1]]
//!   - id: post_1
//!     circle: {center: [0.6, 0.0], radius: 0.1}
//! ```
//!
//! A zones file is the same format without the footprint.

use crate::geometry::{Point, Shape, ShapeError, Vector};
use crate::monitor::{check_obstacles, summarize, Obstacle, ObstacleGeometry, ObstacleOutcome};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CircleSpec {
    pub center: [f64; 2],
    pub radius: f64,
}

/// A footprint: a list of `[x, y]` points, or `{circle: ...}`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum ShapeSpec {
    Polygon(Vec<[f64; 2]>),
    Circle { circle: CircleSpec },
}

impl ShapeSpec {
    pub fn geometry(&self) -> ObstacleGeometry {
        match self {
            ShapeSpec::Polygon(points) => ObstacleGeometry::Polygon(to_points(points)),
            ShapeSpec::Circle { circle } => ObstacleGeometry::Circle {
                center: Point::new(circle.center[0], circle.center[1]),
                radius: circle.radius,
            },
        }
    }

    pub fn to_shape(&self) -> Result<Shape, ShapeError> {
        self.geometry().to_shape()
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ObstacleSpec {
    pub id: String,
    #[serde(default)]
    pub polygon: Option<Vec<[f64; 2]>>,
    #[serde(default)]
    pub circle: Option<CircleSpec>,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    #[serde(default = "default_frame")]
    pub frame_id: String,
    #[serde(default)]
    pub padding: f64,
    #[serde(default)]
    pub footprint: Option<ShapeSpec>,
    #[serde(default)]
    pub obstacles: Vec<ObstacleSpec>,
}

fn default_frame() -> String {
    "map".to_owned()
}

fn to_points(points: &[[f64; 2]]) -> Vec<Point> {
    points.iter().map(|p| Point::new(p[0], p[1])).collect()
}

/// A file that could not be used, with where the problem is.
#[derive(Debug)]
pub enum SceneError {
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    Parse {
        path: PathBuf,
        line: Option<usize>,
        column: Option<usize>,
        message: String,
    },
    Invalid {
        path: PathBuf,
        message: String,
    },
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            SceneError::Parse {
                path,
                line,
                column,
                message,
            } => {
                write!(f, "{}", path.display())?;
                if let Some(line) = line {
                    write!(f, ":{line}")?;
                }
                if let Some(column) = column {
                    write!(f, ":{column}")?;
                }
                write!(f, ": {message}")
            }
            SceneError::Invalid { path, message } => write!(f, "{}: {message}", path.display()),
        }
    }
}

impl std::error::Error for SceneError {}

impl Scene {
    /// Parses YAML text; `path` only names the source in errors.
    pub fn from_yaml(text: &str, path: &Path) -> Result<Self, SceneError> {
        let scene: Scene = serde_yaml::from_str(text).map_err(|e| {
            let location = e.location();
            SceneError::Parse {
                path: path.to_owned(),
                line: location.as_ref().map(|l| l.line()),
                column: location.as_ref().map(|l| l.column()),
                message: e.to_string(),
            }
        })?;
        scene.check(path)?;
        Ok(scene)
    }

    pub fn load(path: &Path) -> Result<Self, SceneError> {
        let text = std::fs::read_to_string(path).map_err(|source| SceneError::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::from_yaml(&text, path)
    }

    /// Structural checks serde cannot express. Geometry problems are not
    /// errors here: they become per-obstacle statuses.
    fn check(&self, path: &Path) -> Result<(), SceneError> {
        let invalid = |message: String| SceneError::Invalid {
            path: path.to_owned(),
            message,
        };
        if !(self.padding.is_finite() && self.padding >= 0.0) {
            return Err(invalid(format!(
                "padding must be a finite number >= 0, got {}",
                self.padding
            )));
        }
        // Ids and the frame end up in ROS strings, which are C strings.
        if self.frame_id.contains('\0') {
            return Err(invalid("frame_id contains a NUL character".to_owned()));
        }
        let mut seen = std::collections::HashSet::new();
        for (i, o) in self.obstacles.iter().enumerate() {
            if o.id.contains('\0') {
                return Err(invalid(format!(
                    "obstacles[{i}]: id {:?} contains a NUL character",
                    o.id
                )));
            }
            if o.polygon.is_some() == o.circle.is_some() {
                return Err(invalid(format!(
                    "obstacles[{i}] ({}): give exactly one of `polygon` or `circle`",
                    o.id
                )));
            }
            if !seen.insert(o.id.as_str()) {
                return Err(invalid(format!("obstacles[{i}]: duplicate id `{}`", o.id)));
            }
        }
        Ok(())
    }

    /// The obstacles, validated one by one.
    pub fn obstacles(&self) -> Vec<Obstacle> {
        self.obstacles
            .iter()
            .map(|o| {
                let geometry = match (&o.polygon, &o.circle) {
                    (_, Some(c)) => ObstacleGeometry::Circle {
                        center: Point::new(c.center[0], c.center[1]),
                        radius: c.radius,
                    },
                    (Some(p), None) => ObstacleGeometry::Polygon(to_points(p)),
                    (None, None) => ObstacleGeometry::Polygon(Vec::new()),
                };
                Obstacle::new(o.id.clone(), &geometry)
            })
            .collect()
    }

    /// Checks the scene's footprint against its obstacles.
    pub fn evaluate(&self) -> SceneReport {
        let obstacles = self.obstacles();
        let footprint = match &self.footprint {
            Some(spec) => spec.to_shape(),
            None => Err(ShapeError::Polygon(
                crate::geometry::PolygonError::TooFewPoints { distinct: 0 },
            )),
        };
        let mut outcomes = Vec::new();
        if let Ok(shape) = &footprint {
            check_obstacles(shape, self.padding, &obstacles, &mut outcomes);
        }
        SceneReport::new(footprint, obstacles, outcomes)
    }
}

/// The 1-based line of the YAML `text` on which the obstacle with this `id`
/// is declared (`id: <id>`, in block or flow style, quoted or not), for
/// error messages about a zone that parsed but is geometrically invalid.
pub fn obstacle_line(text: &str, id: &str) -> Option<usize> {
    text.lines().enumerate().find_map(|(i, line)| {
        let mut rest = line;
        while let Some(at) = rest.find("id:") {
            let before = rest[..at].chars().next_back();
            let after = &rest[at + 3..];
            if before.is_none_or(|c| c.is_whitespace() || matches!(c, '{' | ',' | '-')) {
                let value = after
                    .split([',', '}', '#'])
                    .next()
                    .unwrap_or("")
                    .trim()
                    .trim_matches(|c| c == '"' || c == '\'');
                if value == id {
                    return Some(i + 1);
                }
            }
            rest = after;
        }
        None
    })
}

/// One obstacle's line in the report (also the `--json` schema).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ObstacleLine {
    pub id: String,
    pub status: String,
    pub colliding: bool,
    pub penetration_depth: f64,
    pub mtv: [f64; 2],
    pub distance: f64,
    pub separating_axis: [f64; 2],
}

/// Result of checking a scene.
#[derive(Clone, Debug)]
pub struct SceneReport {
    pub footprint: Result<Shape, ShapeError>,
    pub obstacles: Vec<Obstacle>,
    pub outcomes: Vec<ObstacleOutcome>,
}

/// JSON form of a scene report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct JsonReport {
    pub colliding: bool,
    pub valid: bool,
    pub status: String,
    pub obstacles: Vec<ObstacleLine>,
}

impl SceneReport {
    fn new(
        footprint: Result<Shape, ShapeError>,
        obstacles: Vec<Obstacle>,
        outcomes: Vec<ObstacleOutcome>,
    ) -> Self {
        SceneReport {
            footprint,
            obstacles,
            outcomes,
        }
    }

    /// `"ok"`, `"invalid_footprint"` or `"invalid_obstacle"`.
    pub fn status(&self) -> &'static str {
        if self.footprint.is_err() {
            "invalid_footprint"
        } else if summarize(&self.outcomes).any_invalid {
            "invalid_obstacle"
        } else {
            "ok"
        }
    }

    pub fn valid(&self) -> bool {
        self.status() == "ok"
    }

    /// True when any obstacle collides, or when the scene is not valid
    /// (fail-safe: an unknown answer is never "clear").
    pub fn colliding(&self) -> bool {
        !self.valid() || summarize(&self.outcomes).any_colliding
    }

    pub fn lines(&self) -> Vec<ObstacleLine> {
        let footprint_status = self.footprint.as_ref().err().map(|e| e.status());
        self.obstacles
            .iter()
            .enumerate()
            .map(|(i, obstacle)| {
                let outcome = self.outcomes.get(i);
                let contact = outcome.and_then(|o| o.contact);
                let status = match (outcome, footprint_status) {
                    (Some(o), _) => o.status,
                    (None, _) if obstacle.shape.is_err() => obstacle
                        .shape
                        .as_ref()
                        .err()
                        .map_or("invalid", |e| e.status()),
                    (None, Some(_)) => "invalid_footprint",
                    (None, None) => "unchecked",
                };
                let v = |v: Vector| [v.x, v.y];
                ObstacleLine {
                    id: obstacle.id.clone(),
                    status: status.to_owned(),
                    colliding: contact.is_some_and(|c| c.colliding),
                    penetration_depth: contact.map_or(0.0, |c| c.depth),
                    mtv: contact.map_or([0.0, 0.0], |c| v(c.mtv)),
                    distance: contact.map_or(0.0, |c| c.distance),
                    separating_axis: contact.map_or([0.0, 0.0], |c| v(c.axis)),
                }
            })
            .collect()
    }

    pub fn to_json(&self) -> JsonReport {
        JsonReport {
            colliding: self.colliding(),
            valid: self.valid(),
            status: self.status().to_owned(),
            obstacles: self.lines(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A NUL would truncate the id or the frame in a ROS string (and makes
    /// r2r's string conversion panic): the file is refused, naming it.
    #[test]
    fn nul_in_an_id_or_the_frame_is_an_error() {
        let path = Path::new("zones.yaml");
        let bad_id = "frame_id: map\nobstacles:\n  - id: \"a\\0b\"\n    circle: {center: [0, 0], radius: 1}\n";
        let error = Scene::from_yaml(bad_id, path).err().map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("zones.yaml: obstacles[0]: id \"a\\0b\" contains a NUL character")
        );
        let bad_frame = "frame_id: \"map\\0\"\nobstacles: []\n";
        let error = Scene::from_yaml(bad_frame, path)
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("zones.yaml: frame_id contains a NUL character")
        );
        let good =
            "frame_id: map\nobstacles:\n  - id: a\n    circle: {center: [0, 0], radius: 1}\n";
        assert!(Scene::from_yaml(good, path).is_ok());
    }

    #[test]
    fn obstacle_line_finds_block_and_flow_ids() {
        let text = "frame_id: map\nobstacles:\n  - id: a\n    polygon: [[0, 0], [1, 0], [0, 1]]\n  # id: c (a comment)\n  - {id: \"b\", circle: {center: [0, 0], radius: 1}}\n  - polygon: [[0, 0], [1, 0], [0, 1]]\n    id: 'c'\n";
        assert_eq!(obstacle_line(text, "a"), Some(3));
        assert_eq!(obstacle_line(text, "b"), Some(6));
        assert_eq!(obstacle_line(text, "c"), Some(8));
        assert_eq!(obstacle_line(text, "frame_id"), None);
        assert_eq!(obstacle_line(text, "zz"), None);
    }
}
