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
//! points:                           # optional: point obstacles (a scan seen on a robot)
//!   - id: scan
//!     points: [[1.2, 0.4], [1.25, 0.38], [1.3, 0.36]]
//! min_points: 1                     # optional: points of all sets together that collide
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
//! document; it may list at most [`MAX_OBSTACLES`] obstacles and
//! [`MAX_SCENE_POINTS`] points, every point finite.
//!
//! A point is an obstacle of zero size, as a sensor source's are in the
//! node: it collides when it lies in the padded footprint (touching
//! counts), and its clearance is the exact distance from the padded
//! footprint; a set of points collides when some of its points do and the
//! points of all sets together reach `min_points`.

use crate::broadphase::{ObstacleIndex, PointSet, PointsReport};
use crate::geometry::{Motion, Point, Shape, ShapeError, Vector};
use crate::model::{summarize, Obstacle, ObstacleGeometry, ObstacleOutcome, Status};
use nalgebra::Isometry2;
use serde::{Deserialize, Serialize};
use std::path::Path;

mod read;

use read::parse_error;
pub use read::{
    check_yaml_shape, read_capped, read_capped_to, SceneError, MAX_SCENE_BYTES, MAX_YAML_DEPTH,
    MAX_YAML_DOCUMENTS,
};

/// Obstacles accepted in one scene or zones file.
pub const MAX_OBSTACLES: usize = 100_000;

/// Points accepted in one scene, all sets together.
pub const MAX_SCENE_POINTS: usize = 1_000_000;

/// Prediction horizon (s) of a scene with a `velocity` and no `horizon`.
pub const DEFAULT_HORIZON: f64 = 2.0;

/// Longest `horizon` accepted (s): an hour.
pub const MAX_HORIZON: f64 = 3600.0;

/// Largest `velocity` component accepted, in absolute value (m/s for `vx`
/// and `vy`, rad/s for `wz`): beyond any robot, and it keeps the swept
/// area finite and drawable.
pub const MAX_VELOCITY: f64 = 1000.0;

/// `{center: [x, y], radius: r}` (m).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CircleSpec {
    /// Centre `[x, y]` (m).
    pub center: [f64; 2],
    /// Radius (m).
    pub radius: f64,
}

/// A footprint: a list of `[x, y]` points, or `{circle: ...}`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum ShapeSpec {
    /// `[[x, y], ...]`: a polygon's points (m).
    Polygon(Vec<[f64; 2]>),
    /// `{circle: {center: [x, y], radius: r}}`.
    Circle {
        /// The disc.
        circle: CircleSpec,
    },
}

impl ShapeSpec {
    /// The geometry as an obstacle message would carry it.
    pub fn geometry(&self) -> ObstacleGeometry {
        match self {
            ShapeSpec::Polygon(points) => ObstacleGeometry::Polygon(to_points(points)),
            ShapeSpec::Circle { circle } => ObstacleGeometry::Circle {
                center: Point::new(circle.center[0], circle.center[1]),
                radius: circle.radius,
            },
        }
    }

    /// Validates into a [`Shape`].
    pub fn to_shape(&self) -> Result<Shape, ShapeError> {
        self.geometry().to_shape()
    }
}

/// One entry of `obstacles`: an id and either a `polygon` or a `circle`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ObstacleSpec {
    /// The obstacle's id, as reported.
    pub id: String,
    /// `[[x, y], ...]` (m).
    #[serde(default)]
    pub polygon: Option<Vec<[f64; 2]>>,
    /// A disc.
    #[serde(default)]
    pub circle: Option<CircleSpec>,
}

/// One entry of `points`: an id and its points, obstacles of zero size
/// (a scan seen on a robot, in the scene's frame).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PointsSpec {
    /// The set's id, as reported.
    pub id: String,
    /// `[[x, y], ...]` (m), finite.
    pub points: Vec<[f64; 2]>,
}

/// A scene or zones file, as written (see the module's format).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// Frame of every coordinate (default `map`).
    #[serde(default = "default_frame")]
    pub frame_id: String,
    /// Metres by which the footprint is inflated.
    #[serde(default)]
    pub padding: f64,
    /// The robot's footprint; absent in a zones file.
    #[serde(default)]
    pub footprint: Option<ShapeSpec>,
    /// The obstacles, in file order.
    #[serde(default)]
    pub obstacles: Vec<ObstacleSpec>,
    /// Point obstacles, in sets, in file order.
    #[serde(default)]
    pub points: Vec<PointsSpec>,
    /// Points of all sets together inside the footprint that collide
    /// (default 1, at least 1).
    #[serde(default)]
    pub min_points: Option<usize>,
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
    /// The footprint is not a valid shape.
    #[error(transparent)]
    Shape(#[from] ShapeError),
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
        let total: usize = self.points.iter().map(|s| s.points.len()).sum();
        if total > MAX_SCENE_POINTS {
            return Err(invalid(format!(
                "{total} points, more than the limit of {MAX_SCENE_POINTS}"
            )));
        }
        if self.min_points == Some(0) {
            return Err(invalid("min_points must be at least 1".to_owned()));
        }
        for (i, set) in self.points.iter().enumerate() {
            let bad = set.points.iter().position(|p| {
                let usable = |v: f64| v.abs() <= crate::geometry::MAX_COORDINATE;
                !(usable(p[0]) && usable(p[1]))
            });
            if let Some(k) = bad {
                return Err(invalid(format!(
                    "points[{i}] ({}): point {k} is not a finite coordinate pair within ±{}",
                    set.id,
                    crate::geometry::MAX_COORDINATE
                )));
            }
            if self.points[..i].iter().any(|s| s.id == set.id) {
                return Err(invalid(format!("points[{i}]: duplicate id `{}`", set.id)));
            }
            if self.obstacles.iter().any(|o| o.id == set.id) {
                return Err(invalid(format!(
                    "points[{i}]: id `{}` is also an obstacle's",
                    set.id
                )));
            }
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

    /// Checks the scene's footprint against its obstacles: every outcome
    /// exact (the engine's report with an infinite exact range).
    pub fn evaluate(&self) -> SceneReport {
        let index = ObstacleIndex::new(self.obstacles());
        let footprint = match &self.footprint {
            Some(spec) => spec.to_shape().map_err(FootprintError::Shape),
            None => Err(FootprintError::Missing),
        };
        let mut outcomes = Vec::new();
        if let Ok(shape) = &footprint {
            let all_exact = f64::INFINITY;
            index
                .all()
                .report(shape, self.padding, all_exact, None, &mut outcomes);
        }
        let prediction = match (&footprint, self.motion()) {
            (Ok(shape), Some(motion)) => Some(Prediction::new(
                shape,
                self.padding,
                &index,
                motion,
                self.horizon(),
            )),
            _ => None,
        };
        let point_sets: Vec<(String, PointSet)> = self
            .points
            .iter()
            .map(|set| {
                let mut points = PointSet::with_capacity(set.points.len());
                for p in &set.points {
                    // Checked finite and within range when the scene was read.
                    points.push(Point::new(p[0], p[1]));
                }
                (set.id.clone(), points)
            })
            .collect();
        let point_outcomes = match &footprint {
            Ok(shape) => point_sets
                .iter()
                .map(|(_, points)| {
                    let report = points.report(shape, self.padding);
                    let impact = self.motion().and_then(|motion| {
                        points
                            .first_impact(shape, &motion, self.horizon(), self.padding)
                            .map(|(_, hit)| (hit.time, hit.exact))
                    });
                    PointsOutcome { report, impact }
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        let mut prediction = prediction;
        if let Some(prediction) = &mut prediction {
            prediction.take_points(&point_sets, &point_outcomes, index.len());
        }
        SceneReport {
            footprint,
            obstacles: index.into_obstacles(),
            outcomes,
            prediction,
            point_sets,
            point_outcomes,
            min_points: self.min_points.unwrap_or(1).max(1),
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
    /// Its id.
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
    /// each valid obstacle of `obstacles` within `horizon` seconds (the
    /// engine's [`Span::impacts`](crate::broadphase::Span::impacts)).
    /// Obstacles whose box is apart from the box swept by the footprint are
    /// skipped.
    pub fn new(
        footprint: &Shape,
        padding: f64,
        obstacles: &ObstacleIndex,
        motion: Motion,
        horizon: f64,
    ) -> Self {
        let impacts: Vec<Option<(f64, bool)>> = obstacles
            .all()
            .impacts(footprint, &motion, horizon, padding)
            .into_iter()
            .map(|hit| hit.map(|impact| (impact.time, impact.exact)))
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
                id: obstacles.obstacles()[index].id.clone(),
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

impl Prediction {
    /// Takes the point sets' first contacts into [`first`](Self::first)
    /// (a set's index counts after the `obstacles` ones).
    fn take_points(
        &mut self,
        sets: &[(String, PointSet)],
        outcomes: &[PointsOutcome],
        obstacles: usize,
    ) {
        for (k, ((id, _), outcome)) in sets.iter().zip(outcomes).enumerate() {
            let Some((time, exact)) = outcome.impact else {
                continue;
            };
            if self.first.as_ref().is_some_and(|f| f.time <= time) {
                continue;
            }
            self.first = Some(FirstContact {
                index: obstacles + k,
                id: id.clone(),
                time,
                pose: self.motion.pose_at(time),
                exact,
            });
        }
    }
}

/// One point set checked: its points against the footprint, and the
/// first contact along the scene's motion (time, exact).
#[derive(Clone, Debug)]
pub struct PointsOutcome {
    /// Inside count, deepest and nearest point.
    pub report: PointsReport,
    /// The first contact within the horizon, when the scene moves: its
    /// time (s) and whether it is exact (else a lower bound).
    pub impact: Option<(f64, bool)>,
}

/// One point set's line in the report (also the `--json` schema).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PointsLine {
    /// The set's id.
    pub id: String,
    /// How many points it holds.
    pub points: usize,
    /// How many lie inside the (padded) footprint (touching counts).
    pub points_inside: usize,
    /// Some of its points are inside, and the sets together reach
    /// `min_points`.
    pub colliding: bool,
    /// Depth (m) of its deepest point inside; 0 when none is.
    pub penetration_depth: f64,
    /// Translation `[x, y]` (m) of the footprint off its deepest point.
    pub mtv: [f64; 2],
    /// Clearance (m) to its nearest point; 0 when one is inside; `null`
    /// (infinite) without points or without a valid footprint.
    pub distance: Option<f64>,
    /// Seconds until the moving footprint first touches one of its
    /// points (`null` as for obstacles).
    pub time_to_collision: Option<f64>,
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
    /// The obstacle's id.
    pub id: String,
    /// `ok`, `unchecked` or why the obstacle is invalid.
    pub status: Status,
    /// It touches or overlaps the (padded) footprint.
    pub colliding: bool,
    /// Penetration depth (m); 0 when apart.
    pub penetration_depth: f64,
    /// Translation `[x, y]` (m) of the footprint that separates it; zero when
    /// apart.
    pub mtv: [f64; 2],
    /// Clearance (m); 0 when colliding.
    pub distance: f64,
    /// Unit normal `[x, y]` from the footprint toward the obstacle.
    pub separating_axis: [f64; 2],
    /// Seconds until the moving footprint first touches this obstacle;
    /// `null` without a velocity, without contact within the horizon, or
    /// for an invalid obstacle or footprint.
    pub time_to_collision: Option<f64>,
}

/// Result of checking a scene.
#[derive(Clone, Debug)]
pub struct SceneReport {
    /// The validated footprint, or why there is none.
    pub footprint: Result<Shape, FootprintError>,
    /// The scene's obstacles, validated, in file order.
    pub obstacles: Vec<Obstacle>,
    /// Per obstacle, in order (empty when the footprint is not valid).
    pub outcomes: Vec<ObstacleOutcome>,
    /// With a velocity and a valid footprint: the predicted contacts
    /// (obstacles' and, in [`Prediction::first`], the point sets').
    pub prediction: Option<Prediction>,
    /// The scene's point sets, in file order.
    pub point_sets: Vec<(String, PointSet)>,
    /// Per point set, in order (empty when the footprint is not valid).
    pub point_outcomes: Vec<PointsOutcome>,
    /// The scene's `min_points`.
    pub min_points: usize,
}

/// JSON form of a scene report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct JsonReport {
    /// See [`SceneReport::colliding`].
    pub colliding: bool,
    /// See [`SceneReport::valid`].
    pub valid: bool,
    /// See [`SceneReport::status`].
    pub status: Status,
    /// Seconds to the first predicted contact; `null` without a velocity,
    /// without contact within the horizon, or with an invalid footprint.
    pub time_to_collision: Option<f64>,
    /// The obstacle of that contact (`null` likewise).
    pub predicted_obstacle_id: Option<String>,
    /// The footprint's pose `[x, y, yaw]` (m, m, rad) at that contact
    /// (`null` likewise).
    pub predicted_pose: Option<[f64; 3]>,
    /// One line per obstacle, in file order.
    pub obstacles: Vec<ObstacleLine>,
    /// One line per point set, in file order (absent without point sets).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<PointsLine>,
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

    /// The status is `Ok`.
    pub fn valid(&self) -> bool {
        self.status().is_ok()
    }

    /// True when any obstacle collides, or when the scene is not valid
    /// (fail-safe: an unknown answer is never "clear").
    pub fn colliding(&self) -> bool {
        !self.valid() || summarize(&self.outcomes).any_colliding || self.points_collide()
    }

    /// The points of all sets together inside the footprint reach
    /// `min_points`.
    pub fn points_collide(&self) -> bool {
        let inside: usize = self.point_outcomes.iter().map(|o| o.report.inside).sum();
        inside >= self.min_points
    }

    /// The report's line per point set, in file order.
    pub fn point_lines(&self) -> Vec<PointsLine> {
        let collide = self.points_collide();
        self.point_sets
            .iter()
            .enumerate()
            .map(|(k, (id, points))| {
                let outcome = self.point_outcomes.get(k);
                let deepest = outcome.and_then(|o| o.report.deepest).map(|(_, c)| c);
                let nearest = outcome.and_then(|o| o.report.nearest).map(|(_, c)| c);
                let inside = outcome.map_or(0, |o| o.report.inside);
                PointsLine {
                    id: id.clone(),
                    points: points.len(),
                    points_inside: inside,
                    colliding: collide && inside > 0,
                    penetration_depth: deepest.map_or(0.0, |c| c.depth()),
                    mtv: deepest.map_or([0.0, 0.0], |c| [c.mtv().x, c.mtv().y]),
                    distance: nearest.map(|c| c.distance()),
                    time_to_collision: outcome.and_then(|o| o.impact).map(|(t, _)| t),
                }
            })
            .collect()
    }

    /// The report's line per obstacle, in file order.
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

    /// The report as JSON (the `--json` schema).
    pub fn to_json(&self) -> JsonReport {
        JsonReport {
            colliding: self.colliding(),
            valid: self.valid(),
            status: self.status(),
            time_to_collision: self.first_contact().map(|c| c.time),
            predicted_obstacle_id: self.first_contact().map(|c| c.id.clone()),
            predicted_pose: self.first_contact().map(|c| pose_xyyaw(&c.pose)),
            obstacles: self.lines(),
            points: self.point_lines(),
        }
    }
}

#[cfg(test)]
mod tests;
