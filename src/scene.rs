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
//! velocity: [0.5, 0.0, 0.2]         # optional body twist: vx, vy (m/s), wz (rad/s)
//! horizon: 2.0                      # optional, seconds (default 2), needs velocity
//! ```
//!
//! With a `velocity`, the footprint as written is the robot at its start
//! pose, its origin at (0, 0) of the scene frame heading +x, and the robot
//! keeps that constant body twist (its origin moves on an arc): the report
//! then also predicts the first contact within the horizon
//! ([`Prediction`]).
//!
//! A zones file is the same format without the footprint.
//!
//! Limits: a file is read only when it is a regular file (a FIFO, device,
//! directory or socket is refused without blocking) of at most
//! [`MAX_SCENE_BYTES`]; its YAML may not use anchors or aliases, nest deeper
//! than [`MAX_YAML_DEPTH`] or hold more than [`MAX_YAML_DOCUMENTS`]
//! document; it may list at most [`MAX_OBSTACLES`] obstacles.

use crate::geometry::{length_tolerance, time_of_impact, Motion, Point, Shape, ShapeError, Vector};
use crate::model::{
    check_obstacles, summarize, Obstacle, ObstacleGeometry, ObstacleOutcome, Status,
};
use nalgebra::Isometry2;
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest scene, zones or parameters file read, in bytes (16 MiB). A
/// 100,000-obstacle zones file in flow style is about 8 MiB.
pub const MAX_SCENE_BYTES: u64 = 16 * 1024 * 1024;

/// Deepest nesting of YAML collections accepted (a scene needs 5: the top
/// mapping, `obstacles`, an obstacle, `polygon`, a point).
pub const MAX_YAML_DEPTH: usize = 32;

/// YAML documents accepted in one scene or zones file.
pub const MAX_YAML_DOCUMENTS: usize = 1;

/// Obstacles accepted in one scene or zones file.
pub const MAX_OBSTACLES: usize = 100_000;

/// Prediction horizon (s) of a scene with a `velocity` and no `horizon`.
pub const DEFAULT_HORIZON: f64 = 2.0;

/// Longest `horizon` accepted (s): an hour.
pub const MAX_HORIZON: f64 = 3600.0;

/// Largest `velocity` component accepted, in absolute value (m/s for `vx`
/// and `vy`, rad/s for `wz`): beyond any robot, and it keeps the swept
/// area finite and drawable.
pub const MAX_VELOCITY: f64 = 1000.0;

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
    /// The robot's constant body twist `[vx, vy, wz]` (m/s, m/s, rad/s)
    /// from the footprint as written: turns on the time-to-collision
    /// prediction.
    #[serde(default)]
    pub velocity: Option<[f64; 3]>,
    /// How far ahead the prediction looks (s); [`DEFAULT_HORIZON`] when
    /// absent. Only with `velocity`.
    #[serde(default)]
    pub horizon: Option<f64>,
}

fn default_frame() -> String {
    "map".to_owned()
}

fn to_points(points: &[[f64; 2]]) -> Vec<Point> {
    points.iter().map(|p| Point::new(p[0], p[1])).collect()
}

/// Why a scene's footprint cannot be checked against its obstacles.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FootprintError {
    /// The scene has no `footprint` entry.
    #[error("the scene has no footprint")]
    Missing,
    #[error(transparent)]
    Shape(#[from] ShapeError),
}

/// A file that could not be used, with where the problem is.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}{}: {message}", path.display(), location(*line, *column))]
    Parse {
        path: PathBuf,
        line: Option<usize>,
        column: Option<usize>,
        message: String,
    },
    #[error("{}: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
    /// The path names something other than a regular file (`kind`: "a
    /// FIFO", "a directory", ...); it was not read.
    #[error("{}: not a regular file ({kind}); give a YAML file", path.display())]
    NotAFile { path: PathBuf, kind: &'static str },
    /// The file is larger than `limit` bytes.
    #[error(
        "{}: larger than the limit of {limit} bytes ({} MiB)",
        path.display(),
        limit / (1024 * 1024)
    )]
    TooLarge { path: PathBuf, limit: u64 },
}

/// `:line:column` (each when known) after a path.
fn location(line: Option<usize>, column: Option<usize>) -> String {
    [line, column]
        .into_iter()
        .flatten()
        .map(|n| format!(":{n}"))
        .collect()
}

/// What kind of non-regular file `file_type` is, for error messages.
fn file_kind(file_type: std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_file() {
        None
    } else if file_type.is_dir() {
        Some("a directory")
    } else if file_type.is_fifo() {
        Some("a FIFO")
    } else if file_type.is_char_device() {
        Some("a character device")
    } else if file_type.is_block_device() {
        Some("a block device")
    } else if file_type.is_socket() {
        Some("a socket")
    } else {
        Some("not a file")
    }
}

/// Reads a text file of at most [`MAX_SCENE_BYTES`]: see [`read_capped_to`].
pub fn read_capped(path: &Path) -> Result<String, SceneError> {
    read_capped_to(path, MAX_SCENE_BYTES)
}

/// Reads the UTF-8 text of the regular file at `path` (a symlink to one is
/// fine), of at most `max_bytes` bytes.
///
/// A FIFO, a device, a directory or a socket is refused
/// ([`SceneError::NotAFile`]) from its metadata, before it is opened; the
/// file is then opened with `O_NONBLOCK` (so that a path swapped for a FIFO
/// in between cannot block the open) and `O_NOCTTY`, and the opened file's
/// own metadata is checked again. At most `max_bytes + 1` bytes are read,
/// so a file that grows while it is read (or reports no size, as in
/// `/proc`) cannot exceed the cap: more than `max_bytes` is
/// [`SceneError::TooLarge`].
pub fn read_capped_to(path: &Path, max_bytes: u64) -> Result<String, SceneError> {
    use std::os::unix::fs::OpenOptionsExt;
    let io = |source: std::io::Error| SceneError::Io {
        path: path.to_owned(),
        source,
    };
    let not_a_file = |kind| SceneError::NotAFile {
        path: path.to_owned(),
        kind,
    };
    let too_large = || SceneError::TooLarge {
        path: path.to_owned(),
        limit: max_bytes,
    };
    let metadata = std::fs::metadata(path).map_err(io)?;
    if let Some(kind) = file_kind(metadata.file_type()) {
        return Err(not_a_file(kind));
    }
    if metadata.len() > max_bytes {
        return Err(too_large());
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(io)?;
    let opened = file.metadata().map_err(io)?;
    if let Some(kind) = file_kind(opened.file_type()) {
        return Err(not_a_file(kind));
    }
    let capacity = usize::try_from(opened.len().min(max_bytes)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity);
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if u64::try_from(bytes.len()).map_or(true, |n| n > max_bytes) {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|e| SceneError::Invalid {
        path: path.to_owned(),
        message: format!(
            "not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ),
    })
}

fn parse_error(path: &Path, e: &serde_yaml::Error) -> SceneError {
    let location = e.location();
    SceneError::Parse {
        path: path.to_owned(),
        line: location.as_ref().map(|l| l.line()),
        column: location.as_ref().map(|l| l.column()),
        message: e.to_string(),
    }
}

/// The first syntax error serde_yaml's parser (libyaml) finds in `text`, if
/// any, without building any value (aliases are not followed): used to give
/// the usual message when the event parser of [`check_yaml_shape`] stops.
fn libyaml_syntax_error(text: &str, path: &Path) -> Option<SceneError> {
    use serde::de::IgnoredAny;
    serde_yaml::Deserializer::from_str(text)
        .find_map(|document| IgnoredAny::deserialize(document).err())
        .map(|e| parse_error(path, &e))
}

/// The error for a text the event parser stopped on. Its own flow-nesting
/// limit (about 250 levels, met while it looks ahead) is the nesting error.
/// Otherwise libyaml's message is preferred (the one serde_yaml gives for
/// malformed YAML), from the text up to the end of the line saphyr stopped
/// on: that prefix is shallow, and libyaml takes time quadratic in flow
/// nesting (16,000 levels: 0.8 s), so it never sees the rest. When libyaml
/// finds nothing there, saphyr's error stands: refused either way.
fn syntax_error(text: &str, path: &Path, e: &saphyr_parser::ScanError) -> SceneError {
    let line = e.marker().line();
    let at = |message: String| SceneError::Parse {
        path: path.to_owned(),
        line: Some(line),
        column: Some(e.marker().col() + 1),
        message,
    };
    if e.info().contains("recursion limit") {
        return at(format!(
            "YAML nested deeper than the limit of {MAX_YAML_DEPTH} levels"
        ));
    }
    let prefix_end = text
        .match_indices('\n')
        .nth(line.saturating_sub(1))
        .map_or(text.len(), |(at, _)| at + 1);
    match libyaml_syntax_error(&text[..prefix_end], path) {
        Some(libyaml @ SceneError::Parse { line: Some(l), .. }) if l <= line => libyaml,
        _ => at(format!("invalid YAML: {}", e.info())),
    }
}

/// Refuses YAML that could make deserialisation blow up, before serde_yaml
/// sees it: anchors and aliases (`&a`, `*a`: the "billion laughs"), nesting
/// deeper than [`MAX_YAML_DEPTH`], more than [`MAX_YAML_DOCUMENTS`]
/// documents. Walks the events of a streaming parser (saphyr-parser), so an
/// `&` or `*` inside a quoted string is text, and stops at the first
/// problem. Errors name the line and column.
pub fn check_yaml_shape(text: &str, path: &Path) -> Result<(), SceneError> {
    use saphyr_parser::{Event, Parser};
    let mut depth = 0usize;
    let mut documents = 0usize;
    for item in Parser::new_from_str(text) {
        let (event, span) = match item {
            Ok(item) => item,
            Err(e) => return Err(syntax_error(text, path, &e)),
        };
        let at = |message: String| SceneError::Parse {
            path: path.to_owned(),
            line: Some(span.start.line()),
            column: Some(span.start.col() + 1),
            message,
        };
        let anchor = match &event {
            Event::Alias(_) => {
                return Err(at(
                    "YAML aliases (`*name`) are not accepted: write the value out".to_owned(),
                ))
            }
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > MAX_YAML_DOCUMENTS {
                    return Err(at(format!(
                        "more than {MAX_YAML_DOCUMENTS} YAML document (`---`) in the file"
                    )));
                }
                0
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                depth += 1;
                if depth > MAX_YAML_DEPTH {
                    return Err(at(format!(
                        "YAML nested deeper than the limit of {MAX_YAML_DEPTH} levels"
                    )));
                }
                *anchor
            }
            Event::SequenceEnd | Event::MappingEnd => {
                depth = depth.saturating_sub(1);
                0
            }
            Event::Scalar(_, _, anchor, _) => *anchor,
            _ => 0,
        };
        if anchor != 0 {
            return Err(at(
                "YAML anchors (`&name`) are not accepted: write the value out".to_owned(),
            ));
        }
    }
    Ok(())
}

impl Scene {
    /// Parses YAML text; `path` only names the source in errors. The text
    /// is first checked by [`check_yaml_shape`] (no anchors or aliases,
    /// bounded nesting, one document), and the scene by its limits
    /// ([`MAX_OBSTACLES`]).
    pub fn from_yaml(text: &str, path: &Path) -> Result<Self, SceneError> {
        check_yaml_shape(text, path)?;
        let scene: Scene = serde_yaml::from_str(text).map_err(|e| parse_error(path, &e))?;
        scene.check(path)?;
        Ok(scene)
    }

    /// Reads the file with [`read_capped`] and parses it with
    /// [`Scene::from_yaml`].
    pub fn load(path: &Path) -> Result<Self, SceneError> {
        let text = read_capped(path)?;
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
        if let Some(velocity) = self.velocity {
            if !velocity
                .iter()
                .all(|v| v.is_finite() && v.abs() <= MAX_VELOCITY)
            {
                return Err(invalid(format!(
                    "velocity must be [vx, vy, wz] (m/s, m/s, rad/s), finite numbers within \
                     ±{MAX_VELOCITY}, got [{}, {}, {}]",
                    velocity[0], velocity[1], velocity[2]
                )));
            }
        }
        if let Some(horizon) = self.horizon {
            if !(horizon.is_finite() && horizon > 0.0 && horizon <= MAX_HORIZON) {
                return Err(invalid(format!(
                    "horizon must be a number of seconds > 0 and <= {MAX_HORIZON}, got {horizon}"
                )));
            }
            if self.velocity.is_none() {
                return Err(invalid(
                    "horizon needs a velocity (`velocity: [vx, vy, wz]`)".to_owned(),
                ));
            }
        }
        if self.obstacles.len() > MAX_OBSTACLES {
            return Err(invalid(format!(
                "{} obstacles, more than the limit of {MAX_OBSTACLES}",
                self.obstacles.len()
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
            Some(spec) => spec.to_shape().map_err(FootprintError::Shape),
            None => Err(FootprintError::Missing),
        };
        let mut outcomes = Vec::new();
        if let Ok(shape) = &footprint {
            check_obstacles(shape, self.padding, &obstacles, &mut outcomes);
        }
        let prediction = match (&footprint, self.motion()) {
            (Ok(shape), Some(motion)) => Some(Prediction::new(
                shape,
                self.padding,
                &obstacles,
                motion,
                self.horizon(),
            )),
            _ => None,
        };
        SceneReport {
            footprint,
            obstacles,
            outcomes,
            prediction,
        }
    }

    /// The robot's motion from the footprint as written: the constant body
    /// twist `velocity` from the identity pose; `None` without a velocity.
    pub fn motion(&self) -> Option<Motion> {
        self.velocity
            .map(|[vx, vy, wz]| Motion::twist(&Isometry2::identity(), Vector::new(vx, vy), wz))
    }

    /// The prediction horizon (s): `horizon`, or [`DEFAULT_HORIZON`].
    pub fn horizon(&self) -> f64 {
        self.horizon.unwrap_or(DEFAULT_HORIZON)
    }
}

/// Where the footprint, moving with the scene's velocity, first touches
/// each obstacle within the horizon.
#[derive(Clone, Debug)]
pub struct Prediction {
    /// The footprint's motion (body frame = footprint as written).
    pub motion: Motion,
    /// How far ahead it looked (s).
    pub horizon: f64,
    /// Per obstacle, in order: the time of first contact (s, in
    /// `[0, horizon]`, 0 when touching at the start), `None` when there is
    /// none within the horizon or the obstacle is invalid. Never later than
    /// the true contact.
    pub times: Vec<Option<f64>>,
    /// Per obstacle, in order: true when its time is the exact first
    /// contact, false when it is only a lower bound (the time of impact
    /// stopped advancing: the contact may come later, or not at all).
    pub exact: Vec<bool>,
    /// The earliest contact over all obstacles (the first in file order on
    /// a tie).
    pub first: Option<FirstContact>,
}

/// The earliest predicted contact.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstContact {
    /// Index of the obstacle in the scene.
    pub index: usize,
    pub id: String,
    /// Seconds from the start.
    pub time: f64,
    /// The footprint's pose then (`motion.pose_at(time)`).
    pub pose: Isometry2<f64>,
    /// False when `time` is only a lower bound (see [`Prediction::exact`]).
    pub exact: bool,
}

impl Prediction {
    /// Time of impact of `footprint` (padded) moving by `motion` against
    /// each valid obstacle within `horizon` seconds. Obstacles whose box
    /// is apart from the box swept by the footprint are skipped.
    pub fn new(
        footprint: &Shape,
        padding: f64,
        obstacles: &[Obstacle],
        motion: Motion,
        horizon: f64,
    ) -> Self {
        let swept = motion.swept_aabb(footprint, padding, horizon);
        let swept = swept.inflated(2.0 * length_tolerance(swept.magnitude()));
        let impacts: Vec<Option<(f64, bool)>> = obstacles
            .iter()
            .map(|obstacle| {
                let shape = obstacle.shape.as_ref().ok()?;
                if !swept.intersects(&shape.aabb()) {
                    return None;
                }
                time_of_impact(footprint, &motion, horizon, shape, padding)
                    .map(|impact| (impact.time, impact.exact))
                    .filter(|(t, _)| *t <= horizon)
            })
            .collect();
        let times: Vec<Option<f64>> = impacts.iter().map(|i| i.map(|(t, _)| t)).collect();
        let exact: Vec<bool> = impacts.iter().map(|i| i.is_none_or(|(_, e)| e)).collect();
        let first = times
            .iter()
            .enumerate()
            .filter_map(|(index, t)| t.map(|t| (index, t)))
            .fold(None, |best: Option<(usize, f64)>, (index, t)| match best {
                Some((_, b)) if b <= t => best,
                _ => Some((index, t)),
            })
            .map(|(index, time)| FirstContact {
                index,
                id: obstacles[index].id.clone(),
                time,
                pose: motion.pose_at(time),
                exact: exact[index],
            });
        Prediction {
            motion,
            horizon,
            times,
            exact,
            first,
        }
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
    pub status: Status,
    pub colliding: bool,
    pub penetration_depth: f64,
    pub mtv: [f64; 2],
    pub distance: f64,
    pub separating_axis: [f64; 2],
    /// Seconds until the moving footprint first touches this obstacle;
    /// `null` without a velocity, without contact within the horizon, or
    /// for an invalid obstacle or footprint.
    pub time_to_collision: Option<f64>,
}

/// Result of checking a scene.
#[derive(Clone, Debug)]
pub struct SceneReport {
    pub footprint: Result<Shape, FootprintError>,
    pub obstacles: Vec<Obstacle>,
    pub outcomes: Vec<ObstacleOutcome>,
    /// With a velocity and a valid footprint: the predicted contacts.
    pub prediction: Option<Prediction>,
}

/// JSON form of a scene report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct JsonReport {
    pub colliding: bool,
    pub valid: bool,
    pub status: Status,
    /// Seconds to the first predicted contact; `null` without a velocity,
    /// without contact within the horizon, or with an invalid footprint.
    pub time_to_collision: Option<f64>,
    /// The obstacle of that contact (`null` likewise).
    pub predicted_obstacle_id: Option<String>,
    /// The footprint's pose `[x, y, yaw]` (m, m, rad) at that contact
    /// (`null` likewise).
    pub predicted_pose: Option<[f64; 3]>,
    pub obstacles: Vec<ObstacleLine>,
}

/// `[x, y, yaw]` of a planar pose (m, m, rad).
pub fn pose_xyyaw(pose: &Isometry2<f64>) -> [f64; 3] {
    [
        pose.translation.vector.x,
        pose.translation.vector.y,
        pose.rotation.angle(),
    ]
}

impl SceneReport {
    /// The earliest predicted contact, if any.
    pub fn first_contact(&self) -> Option<&FirstContact> {
        self.prediction.as_ref().and_then(|p| p.first.as_ref())
    }

    /// `Ok`, `InvalidFootprint` or `InvalidObstacle`.
    pub fn status(&self) -> Status {
        if self.footprint.is_err() {
            Status::InvalidFootprint
        } else if summarize(&self.outcomes).any_invalid {
            Status::InvalidObstacle
        } else {
            Status::Ok
        }
    }

    pub fn valid(&self) -> bool {
        self.status().is_ok()
    }

    /// True when any obstacle collides, or when the scene is not valid
    /// (fail-safe: an unknown answer is never "clear").
    pub fn colliding(&self) -> bool {
        !self.valid() || summarize(&self.outcomes).any_colliding
    }

    pub fn lines(&self) -> Vec<ObstacleLine> {
        self.obstacles
            .iter()
            .enumerate()
            .map(|(i, obstacle)| {
                let outcome = self.outcomes.get(i);
                let contact = outcome.and_then(|o| o.contact);
                let status = match (outcome, &obstacle.shape) {
                    (Some(o), _) => o.status,
                    (None, Err(e)) => Status::from(e),
                    (None, Ok(_)) if self.footprint.is_err() => Status::InvalidFootprint,
                    (None, Ok(_)) => Status::Unchecked,
                };
                let v = |v: Vector| [v.x, v.y];
                ObstacleLine {
                    id: obstacle.id.clone(),
                    status,
                    colliding: contact.is_some_and(|c| c.colliding()),
                    penetration_depth: contact.map_or(0.0, |c| c.depth()),
                    mtv: contact.map_or([0.0, 0.0], |c| v(c.mtv())),
                    distance: contact.map_or(0.0, |c| c.distance()),
                    separating_axis: contact.map_or([0.0, 0.0], |c| v(c.axis())),
                    time_to_collision: self
                        .prediction
                        .as_ref()
                        .and_then(|p| p.times.get(i).copied().flatten()),
                }
            })
            .collect()
    }

    pub fn to_json(&self) -> JsonReport {
        JsonReport {
            colliding: self.colliding(),
            valid: self.valid(),
            status: self.status(),
            time_to_collision: self.first_contact().map(|c| c.time),
            predicted_obstacle_id: self.first_contact().map(|c| c.id.clone()),
            predicted_pose: self.first_contact().map(|c| pose_xyyaw(&c.pose)),
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

    fn error_of(text: &str) -> String {
        Scene::from_yaml(text, Path::new("z.yaml"))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn anchors_and_aliases_are_refused_with_their_location() {
        let alias = "frame_id: map\nobstacles:\n  - id: a\n    circle: &c {center: [0, 0], radius: 1}\n  - id: b\n    circle: *c\n";
        assert_eq!(
            error_of(alias),
            "z.yaml:4:13: YAML anchors (`&name`) are not accepted: write the value out"
        );
        let laughs = "a: &a [x, x]\nb: &b [*a, *a]\n";
        assert!(error_of(laughs).starts_with("z.yaml:1:4: YAML anchors"));
        let scalar_anchor = "frame_id: &f map\n";
        assert!(error_of(scalar_anchor).starts_with("z.yaml:1:11: YAML anchors"));
        // `&` and `*` inside quoted strings and plain scalars are text.
        let text = "frame_id: \"&a *b\"\nobstacles:\n  - id: 'x*y&z'\n    circle: {center: [0, 0], radius: 1}\n  - id: p&q\n    circle: {center: [5, 0], radius: 1}\n";
        let scene = Scene::from_yaml(text, Path::new("z.yaml"));
        assert_eq!(
            scene.as_ref().map(|s| s.frame_id.as_str()).ok(),
            Some("&a *b")
        );
        assert_eq!(
            scene
                .map(|s| s.obstacles.iter().map(|o| o.id.clone()).collect::<Vec<_>>())
                .ok(),
            Some(vec!["x*y&z".to_owned(), "p&q".to_owned()])
        );
    }

    #[test]
    fn nesting_beyond_the_limit_is_refused() {
        let deep = |n: usize| format!("frame_id: {}{}\n", "[".repeat(n), "]".repeat(n));
        // The top mapping is one level.
        let at_limit = error_of(&deep(MAX_YAML_DEPTH - 1));
        assert!(!at_limit.contains("nested"), "{at_limit}");
        assert_eq!(
            error_of(&deep(MAX_YAML_DEPTH)),
            format!(
                "z.yaml:1:{}: YAML nested deeper than the limit of 32 levels",
                11 + 31
            )
        );
        // Far deeper (2 MB of brackets): refused, without recursion.
        let err = error_of(&deep(1_000_000));
        assert!(err.contains("nested deeper"), "{err}");
        let err = error_of(&"[".repeat(1_000_000));
        assert!(err.contains("nested deeper"), "{err}");
        // A syntax error, then deep nesting: the error, found quickly.
        let text = format!("a: [b: : ]\nc: {}\n", "[".repeat(1_000_000));
        let err = error_of(&text);
        assert!(err.starts_with("z.yaml:1:"), "{err}");
    }

    #[test]
    fn a_second_document_is_refused() {
        let two = "frame_id: map\n---\nframe_id: odom\n";
        assert_eq!(
            error_of(two),
            "z.yaml:2:1: more than 1 YAML document (`---`) in the file"
        );
        assert!(Scene::from_yaml("---\nframe_id: map\n...\n", Path::new("z.yaml")).is_ok());
    }

    #[test]
    fn syntax_errors_keep_libyaml_messages() {
        let text = "frame_id: map\nobstacles:\n  - id: a\n    polygon: [[0, 0], [1, 0]\n";
        let err = error_of(text);
        assert!(err.starts_with("z.yaml:"), "{err}");
        assert!(err.contains("did not find expected ',' or ']'"), "{err}");
    }

    #[test]
    fn obstacle_count_is_capped() {
        let mut text = String::from("obstacles:\n");
        for i in 0..=MAX_OBSTACLES {
            text.push_str(&format!(
                "- {{id: o{i}, circle: {{center: [0, 0], radius: 1}}}}\n"
            ));
        }
        assert_eq!(
            error_of(&text),
            "z.yaml: 100001 obstacles, more than the limit of 100000"
        );
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sat_collision_scene_{name}_{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        dir
    }

    #[test]
    fn only_regular_files_are_read() {
        let dir = temp_dir("regular");
        let file = dir.join("zones.yaml");
        let _ = std::fs::write(&file, "frame_id: map\n");
        assert_eq!(read_capped(&file).ok().as_deref(), Some("frame_id: map\n"));
        let link = dir.join("link.yaml");
        let _ = std::fs::remove_file(&link);
        let _ = std::os::unix::fs::symlink(&file, &link);
        assert_eq!(read_capped(&link).ok().as_deref(), Some("frame_id: map\n"));
        let kind = |path: &Path| match read_capped(path) {
            Err(SceneError::NotAFile { kind, .. }) => kind,
            other => panic!("{}: {other:?}", path.display()),
        };
        assert_eq!(kind(&dir), "a directory");
        assert_eq!(kind(Path::new("/dev/zero")), "a character device");
        assert_eq!(kind(Path::new("/dev/null")), "a character device");
        let fifo = dir.join("fifo.yaml");
        let _ = std::fs::remove_file(&fifo);
        let made = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes())
            .map(|c| unsafe { libc::mkfifo(c.as_ptr(), 0o600) });
        assert_eq!(made, Ok(0));
        assert_eq!(kind(&fifo), "a FIFO");
        assert_eq!(
            read_capped(&fifo).err().map(|e| e.to_string()),
            Some(format!(
                "{}: not a regular file (a FIFO); give a YAML file",
                fifo.display()
            ))
        );
        let socket = dir.join("socket");
        let _ = std::fs::remove_file(&socket);
        let _listener = std::os::unix::net::UnixListener::bind(&socket);
        assert_eq!(kind(&socket), "a socket");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn size_is_capped_even_when_the_file_reports_none() {
        let dir = temp_dir("cap");
        let file = dir.join("big.yaml");
        let _ = std::fs::write(&file, "0123456789");
        assert!(read_capped_to(&file, 10).is_ok());
        assert_eq!(
            read_capped_to(&file, 9).err().map(|e| e.to_string()),
            Some(format!(
                "{}: larger than the limit of 9 bytes (0 MiB)",
                file.display()
            ))
        );
        // /proc files are regular files of size 0 with content: only the
        // capped read can notice.
        let proc_file = Path::new("/proc/self/maps");
        assert!(matches!(
            read_capped_to(proc_file, 16),
            Err(SceneError::TooLarge { limit: 16, .. })
        ));
        let binary = dir.join("binary.yaml");
        let _ = std::fs::write(&binary, b"frame_id: \xff\n");
        assert_eq!(
            read_capped(&binary).err().map(|e| e.to_string()),
            Some(format!(
                "{}: not UTF-8 text (invalid byte at offset 10)",
                binary.display()
            ))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    const SQUARE: &str = "footprint: [[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]]\n";

    fn scene(text: &str) -> Scene {
        match Scene::from_yaml(text, Path::new("m.yaml")) {
            Ok(scene) => scene,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn velocity_and_horizon_are_checked() {
        let error = |rest: &str| {
            Scene::from_yaml(&format!("{SQUARE}{rest}"), Path::new("m.yaml"))
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        for bad in ["[1, .nan, 0]", "[.inf, 0, 0]", "[0, 0, -1001]"] {
            let e = error(&format!("velocity: {bad}\n"));
            assert!(
                e.starts_with("m.yaml: velocity must be [vx, vy, wz] (m/s, m/s, rad/s)"),
                "{bad}: {e}"
            );
        }
        assert_eq!(
            error("velocity: [1, 0, 0]\nhorizon: 0\n"),
            "m.yaml: horizon must be a number of seconds > 0 and <= 3600, got 0"
        );
        for bad in ["-1", ".inf", ".nan", "3600.5"] {
            let e = error(&format!("velocity: [1, 0, 0]\nhorizon: {bad}\n"));
            assert!(e.starts_with("m.yaml: horizon must be"), "{bad}: {e}");
        }
        assert_eq!(
            error("horizon: 2\n"),
            "m.yaml: horizon needs a velocity (`velocity: [vx, vy, wz]`)"
        );
        // Two components, or a string: serde's message, with the location.
        assert!(error("velocity: [1, 0]\n").starts_with("m.yaml:2:"));
        let ok = scene(&format!(
            "{SQUARE}velocity: [-1000, 1000, 0]\nhorizon: 3600\n"
        ));
        assert_eq!(ok.horizon(), MAX_HORIZON);
        assert_eq!(scene(SQUARE).horizon(), DEFAULT_HORIZON);
        assert!(scene(SQUARE).motion().is_none());
    }

    #[test]
    fn prediction_per_obstacle_and_first_in_file_order() {
        // Two walls at the same distance ahead and behind (moving +x: only
        // the one ahead), a twin of the one ahead (the same time: the first in
        // the file wins), one reached too late, an invalid obstacle.
        let report = scene(&format!(
            "{SQUARE}velocity: [1, 0, 0]\nhorizon: 3\nobstacles:\n\
             - {{id: behind, polygon: [[-2.6, -1], [-2.5, -1], [-2.5, 1], [-2.6, 1]]}}\n\
             - {{id: ahead, polygon: [[2.5, -1], [2.6, -1], [2.6, 1], [2.5, 1]]}}\n\
             - {{id: twin, polygon: [[2.5, -1], [2.6, -1], [2.6, 1], [2.5, 1]]}}\n\
             - {{id: far, circle: {{center: [4, 0], radius: 0.4}}}}\n\
             - {{id: bad, circle: {{center: [1, 0], radius: -1}}}}\n"
        ))
        .evaluate();
        let Some(prediction) = &report.prediction else {
            panic!("a prediction")
        };
        let t = &prediction.times;
        assert_eq!(t.len(), 5);
        assert_eq!(t[0], None);
        assert!(t[1].is_some_and(|t| (t - 2.0).abs() < 1e-6), "{t:?}");
        assert_eq!(t[1], t[2]);
        assert_eq!(t[3], None, "reached after the horizon (3.1 s)");
        assert_eq!(t[4], None, "invalid: no time");
        let first = report.first_contact().cloned();
        assert_eq!(
            first.as_ref().map(|f| (f.index, f.id.as_str())),
            Some((1, "ahead"))
        );
        let pose = first.map(|f| pose_xyyaw(&f.pose)).unwrap_or_default();
        assert!((pose[0] - 2.0).abs() < 1e-6 && pose[1] == 0.0 && pose[2] == 0.0);
        assert!(!report.valid() && report.colliding(), "invalid: fail-safe");
        let lines = report.lines();
        assert_eq!(lines[1].time_to_collision, t[1]);
        assert_eq!(lines[4].time_to_collision, None);
    }

    #[test]
    fn standing_still_predicts_only_a_contact_now() {
        let text = |x: f64| {
            format!(
                "{SQUARE}velocity: [0, 0, 0]\nobstacles:\n\
                 - {{id: post, circle: {{center: [{x}, 0], radius: 0.2}}}}\n"
            )
        };
        let now = scene(&text(0.6)).evaluate();
        assert_eq!(now.first_contact().map(|f| f.time), Some(0.0));
        assert_eq!(now.to_json().time_to_collision, Some(0.0));
        let apart = scene(&text(0.8)).evaluate();
        assert!(apart.prediction.is_some());
        assert_eq!(apart.first_contact(), None);
        let json = apart.to_json();
        assert_eq!(
            (json.time_to_collision, json.predicted_obstacle_id),
            (None, None)
        );
    }

    #[test]
    fn no_velocity_or_no_valid_footprint_no_prediction() {
        let obstacle = "obstacles:\n- {id: post, circle: {center: [0.6, 0], radius: 0.2}}\n";
        let still = scene(&format!("{SQUARE}{obstacle}")).evaluate();
        assert!(still.prediction.is_none());
        assert_eq!(still.to_json().time_to_collision, None);
        let flat = scene(&format!(
            "footprint: [[0, 0], [1, 0], [2, 0]]\nvelocity: [1, 0, 0]\n{obstacle}"
        ))
        .evaluate();
        assert!(flat.prediction.is_none() && flat.colliding());
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
