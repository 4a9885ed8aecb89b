//! What the node knows, how fresh it is, and what it decides.
//!
//! Pure logic: no ROS, no clock of its own. Callers pass the current time
//! (seconds, any monotonic epoch) with every update and every evaluation.
//!
//! # Fail-safe rule
//! A report is `valid` only when a footprint and obstacle information are
//! present, fresh, in the same frame, and every shape is valid. Otherwise
//! `status` names the first cause found (in the order of [`Cause`]) and,
//! with `fail_safe`, the collision flag reads `true`: when the monitor
//! cannot tell, the robot must not be told "clear".
//!
//! # Freshness
//! One rule for every input whose stamp is used ([`is_stale`]): the
//! footprint, the obstacle array, each obstacle instance (its expiry) and
//! the velocity. An input is fresh while
//! 1. it arrived (the node's clock) within its timeout, and
//! 2. when its header stamp is not 0, the stamp is within the same timeout
//!    of now, either way.
//!
//! (1) bounds how long the node answers about a message, whatever it is
//! stamped, so an input stamped 0 (a publisher that does not stamp) is
//! judged by arrival alone; it is placed with the latest transforms, whose
//! own age TF judges. (2) is needed because placement uses the stamp: a
//! footprint stamped 5 s ago is placed where the robot was 5 s ago, which
//! arriving now does not make current. A publisher whose clock lags behind
//! by more than the timeout is therefore refused (stale): right, since its
//! inputs would be placed where the robot was. A stamp ahead of now by
//! more than the timeout is refused too: no clock the node can trust
//! made it, and without TF nothing else would notice (with TF, a stamp
//! past the newest transform is already `stale_transform`).

use crate::broadphase::ObstacleIndex;
use crate::geometry::{Aabb, Vector};
use crate::geometry::{Impact, Motion};
use crate::geometry::{Point, PolygonBuilder, Shape, ShapeError};
use crate::model::{
    append_outcomes, summarize, Cause, Flag, Obstacle, ObstacleOutcome, Rejection, Report, Status,
    Summary,
};
use crate::planner::{uncancelled, Cancel, Cancelled};
use motion::Velocity;
use nalgebra::Isometry2;
use placement::{Frames, Placements};
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

pub mod clock;
mod motion;
mod placement;

pub use crate::limits::{MAX_INSTANCES, MAX_INSTANCE_VERTICES};
pub use motion::{
    path_times, MotionImpact, PathCheck, Prediction, Sweep, DEFAULT_TIME_HORIZON,
    DEFAULT_VELOCITY_TIMEOUT,
};
pub use placement::{NoTransforms, Transforms};

/// [`MonitorConfig::transform_tolerance`] by default (s).
pub const DEFAULT_TRANSFORM_TOLERANCE: f64 = 0.3;

/// [`MonitorConfig::overload_timeout`] by default (s).
pub const DEFAULT_OVERLOAD_TIMEOUT: f64 = 0.5;

/// Settings that shape the decision.
#[derive(Clone, Debug, PartialEq)]
pub struct MonitorConfig {
    /// Seconds after which the footprint is stale (by arrival or by stamp:
    /// see [Freshness](self#freshness)); 0 = never.
    pub footprint_timeout: f64,
    /// Seconds after which the obstacle array is stale and an obstacle
    /// instance expires (by arrival or by stamp); 0 = never.
    pub obstacles_timeout: f64,
    /// Report a collision whenever the report is not valid.
    pub fail_safe: bool,
    /// Metres by which the footprint is inflated.
    pub padding: f64,
    /// Per-obstacle results stay exact for obstacles whose box is within
    /// this many metres of the padded footprint's box; farther ones get an
    /// honest, flagged lower bound ([`ObstacleOutcome::exact`](crate::model::ObstacleOutcome::exact) false),
    /// which makes a report over thousands of obstacles cost little more
    /// than the pass over their boxes. The collision flag, `min_distance`
    /// and the nearest obstacle stay exact whatever the range.
    /// `f64::INFINITY` (the default), NaN or a negative value: every
    /// outcome exact.
    pub exact_range: f64,
    /// Seconds newer obstacle information may wait to be taken in (validated,
    /// split into convex pieces, indexed) before the answer is
    /// [`Cause::Overloaded`]; 0 = never.
    pub overload_timeout: f64,
    /// The frame of the report, the markers and the planner's poses; empty:
    /// the footprint's frame (else the obstacles'). Must be fixed in the
    /// world (`map`, `odom`) when inputs are stamped at different times:
    /// see `src/monitor/placement.rs`.
    pub global_frame: String,
    /// How far (s) a transform may be from the time asked before it counts
    /// as missing: a stamp past the newest sample, or (for the latest
    /// transform) the newest sample's arrival before now.
    pub transform_tolerance: f64,
    /// The robot's own frame (empty: none): where the footprint is placed
    /// from TF when the node has a robot shape, and the frame of a
    /// velocity that names none.
    pub base_frame: String,
    /// Seconds the footprint is projected along the velocity
    /// ([`Monitor::predict`]).
    pub time_horizon: f64,
    /// Seconds after which the velocity is stale (by arrival or by stamp);
    /// 0 = never.
    pub velocity_timeout: f64,
}

impl Default for MonitorConfig {
    fn default() -> Self {
        MonitorConfig {
            footprint_timeout: 1.0,
            obstacles_timeout: 1.0,
            fail_safe: true,
            padding: 0.0,
            exact_range: f64::INFINITY,
            overload_timeout: DEFAULT_OVERLOAD_TIMEOUT,
            global_frame: String::new(),
            transform_tolerance: DEFAULT_TRANSFORM_TOLERANCE,
            base_frame: String::new(),
            time_horizon: DEFAULT_TIME_HORIZON,
            velocity_timeout: DEFAULT_VELOCITY_TIMEOUT,
        }
    }
}

/// Answer to [`Monitor::check_trajectory`].
#[derive(Clone, Debug, PartialEq)]
pub struct TrajectoryCheck {
    /// The inputs were usable: the answer can be trusted.
    pub valid: bool,
    /// [`Status::Ok`] or why the answer cannot be trusted.
    pub status: Status,
    /// Per pose; with `fail_safe` and not `valid`, every pose colliding.
    pub check: crate::planner::PoseCheck,
}

#[derive(Clone, Debug)]
struct Footprint {
    frame_id: String,
    /// Header stamp (s): the time its transform is looked up at; 0: the
    /// latest.
    stamp: f64,
    shape: Result<Shape, FootprintFault>,
    received: f64,
    generation: u32,
}

/// Why the latest footprint cannot be used.
#[derive(Clone, Debug)]
enum FootprintFault {
    /// Its points are not a valid polygon.
    Shape(ShapeError),
    /// The message was refused before its points were read.
    Rejected(Rejection),
}

/// An obstacle instance's bookkeeping; its obstacle itself is held once,
/// in [`ObstacleSet::obstacles`] (never copied when another is upserted).
#[derive(Clone, Debug)]
struct Instance {
    frame_id: String,
    stamp: f64,
    received: f64,
    generation: u32,
    /// Vertices its obstacle holds ([`held_vertices`]).
    vertices: usize,
}

/// One obstacle instance to insert or replace by id
/// ([`Monitor::upsert_instances`]).
#[derive(Clone, Debug)]
pub struct InstanceUpdate {
    /// The frame of the obstacle's points.
    pub frame_id: String,
    /// Header stamp (s); 0: placed with the latest transform.
    pub stamp: f64,
    /// The obstacle, validated.
    pub obstacle: Obstacle,
    /// When it arrived (s).
    pub received: f64,
}

/// What [`Monitor::upsert_instances`] did not simply apply: the refused
/// instances' ids with why, and the ids of those stale on arrival with how
/// long before arriving they were stamped (s).
#[derive(Debug, Default)]
pub struct InstancesApplied {
    /// Not applied: over a limit.
    pub refused: Vec<(String, Rejection)>,
    /// Applied, and gone at the next expiry: stamped beyond the timeout.
    pub stale: Vec<(String, f64)>,
}

/// The vertices an obstacle holds: its outline, its rejected points, or
/// the centre of a circle. What [`MAX_INSTANCE_VERTICES`] counts.
fn held_vertices(obstacle: &Obstacle) -> usize {
    match &obstacle.shape {
        Ok(Shape::Convex(p)) => p.len(),
        Ok(Shape::Compound(c)) => c.outline().len(),
        Ok(Shape::Circle(_)) => 1,
        Err(_) => obstacle.rejected_points.len(),
    }
}

#[derive(Clone, Debug)]
struct ObstacleArray {
    frame_id: String,
    stamp: f64,
    received: f64,
    generation: u32,
    /// Set when the array was refused as a whole (it then holds no obstacle).
    rejected: Option<Rejection>,
}

/// A refused obstacle instance: it keeps the report not valid for as long
/// as the instance would have lived.
#[derive(Clone, Copy, Debug)]
struct RejectedInstance {
    rejection: Rejection,
    received: f64,
}

/// Obstacles that share a frame and a stamp: the footprint is placed in
/// their frame once for all of them, and they have their own box index.
#[derive(Clone, Debug, Default)]
struct Group {
    frame_id: String,
    /// Header stamp (s); 0: the latest transform.
    stamp: f64,
    /// Where they are in [`ObstacleSet::obstacles`].
    range: Range<usize>,
    index: ObstacleIndex,
}

/// Every obstacle the monitor knows (zones, the latest array, instances),
/// with when each source arrived, and the boxes of the broad phase.
///
/// Shared behind an [`Arc`]: the node builds a new set away from the
/// decision (validating and splitting big shapes takes time) and hands it
/// over whole; a report or a planner query keeps the set it started with.
#[derive(Clone, Debug, Default)]
pub struct ObstacleSet {
    /// Changes whenever the set does (unique in the process): what a viewer
    /// compares to know whether it has drawn this set already.
    revision: u64,
    array: Option<ObstacleArray>,
    zones_frame: Option<String>,
    instances: BTreeMap<String, Instance>,
    /// Vertices of every live instance (the sum of their
    /// [`Instance::vertices`]).
    instance_vertices: usize,
    rejected_instance: Option<RejectedInstance>,
    /// Zones, then the array's obstacles, then instances by frame, stamp
    /// and id (the only copy of each instance's obstacle); kept in this
    /// order on every change so evaluation walks one slice.
    obstacles: Vec<Obstacle>,
    zones_len: usize,
    array_len: usize,
    /// `obstacles` by frame and stamp, each with its boxes; rebuilt with
    /// it.
    groups: Vec<Group>,
}

impl ObstacleSet {
    /// See [`ObstacleSet::revision`]'s field: equal revisions, equal sets.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Every obstacle: zones, array, instances.
    pub fn obstacles(&self) -> &[Obstacle] {
        &self.obstacles
    }

    /// How many obstacle instances are alive.
    pub fn instance_count(&self) -> usize {
        self.instances.len()
    }

    /// Whether an instance with this id is alive.
    pub fn has_instance(&self, id: &str) -> bool {
        self.instances.contains_key(id)
    }

    /// Vertices held by the live instances, in total.
    pub fn instance_vertices(&self) -> usize {
        self.instance_vertices
    }

    /// Whether an instance `id` holding `vertices` may be upserted: a new
    /// id beyond [`MAX_INSTANCES`] is `too_many_obstacles`, one that would
    /// take the instances' vertices beyond [`MAX_INSTANCE_VERTICES`]
    /// (counting what it replaces as gone) `too_many_vertices`.
    pub fn admits(&self, id: &str, vertices: usize) -> Result<(), Rejection> {
        let old = self.instances.get(id);
        if old.is_none() && self.instances.len() >= MAX_INSTANCES {
            return Err(Rejection::TooManyObstacles);
        }
        let others = self.instance_vertices - old.map_or(0, |i| i.vertices);
        if others.saturating_add(vertices) > MAX_INSTANCE_VERTICES {
            return Err(Rejection::TooManyVertices);
        }
        Ok(())
    }

    /// The earliest time at which an instance expires with `timeout`.
    pub fn next_expiry(&self, timeout: f64) -> Option<f64> {
        if timeout <= 0.0 {
            return None;
        }
        self.instances
            .values()
            .map(|i| age_origin(i.received, i.stamp) + timeout)
            .reduce(f64::min)
    }

    fn set_zones(&mut self, frame_id: &str, zones: Vec<Obstacle>) {
        self.zones_frame = (!zones.is_empty()).then(|| frame_id.to_owned());
        let rest = self.obstacles.split_off(self.zones_len);
        self.zones_len = zones.len();
        self.obstacles = zones;
        self.obstacles.extend(rest);
        self.rebuild_instances();
    }

    fn set_array(&mut self, array: ObstacleArray, obstacles: Vec<Obstacle>) {
        self.array = Some(array);
        let instances = self.obstacles.split_off(self.instances_start());
        self.obstacles.truncate(self.zones_len);
        self.array_len = obstacles.len();
        self.obstacles.extend(obstacles);
        self.obstacles.extend(instances);
        self.rebuild_instances();
        self.shrink();
    }

    /// Records a refused instance; of two, the one received last (it lives
    /// longest).
    fn refuse(&mut self, rejection: Rejection, received: f64) {
        if self
            .rejected_instance
            .is_none_or(|r| r.received <= received)
        {
            self.rejected_instance = Some(RejectedInstance {
                rejection,
                received,
            });
        }
    }

    /// Where the instances start in `obstacles`.
    fn instances_start(&self) -> usize {
        self.zones_len + self.array_len
    }

    /// Inserts or replaces an instance's obstacle (moved in, replacing the
    /// old one in place); [`rebuild_instances`](Self::rebuild_instances)
    /// puts it in its place.
    fn upsert(&mut self, instance: Instance, obstacle: Obstacle) {
        self.instance_vertices += instance.vertices;
        let start = self.instances_start();
        match self.instances.insert(obstacle.id.clone(), instance) {
            Some(old) => {
                self.instance_vertices -= old.vertices;
                match self.obstacles[start..]
                    .iter()
                    .position(|o| o.id == obstacle.id)
                {
                    Some(i) => self.obstacles[start + i] = obstacle,
                    None => self.obstacles.push(obstacle),
                }
            }
            None => self.obstacles.push(obstacle),
        }
    }

    /// Drops the instances `gone` says so of (their obstacles with them).
    /// Returns how many.
    fn drop_instances(&mut self, mut gone: impl FnMut(&Instance) -> bool) -> usize {
        let before = self.instances.len();
        self.instances.retain(|_, i| !gone(i));
        let count = before - self.instances.len();
        if count > 0 {
            let start = self.instances_start();
            let instances = &self.instances;
            let mut k = 0;
            self.obstacles.retain(|o| {
                k += 1;
                k <= start || instances.contains_key(&o.id)
            });
            self.instance_vertices = instances.values().map(|i| i.vertices).sum();
            self.rebuild_instances();
        }
        count
    }

    /// Puts the instances (after the zones and the array) in frame, stamp
    /// and id order (those that share a frame and a stamp are one group),
    /// moving them, and rebuilds the groups.
    fn rebuild_instances(&mut self) {
        let start = self.instances_start();
        let instances = &self.instances;
        let key = |o: &Obstacle| instances.get(&o.id).map(|i| (&i.frame_id, i.stamp));
        self.obstacles[start..].sort_by(|a, b| match (key(a), key(b)) {
            (Some((fa, sa)), Some((fb, sb))) => {
                fa.cmp(fb).then(sa.total_cmp(&sb)).then(a.id.cmp(&b.id))
            }
            _ => a.id.cmp(&b.id),
        });
        let spans = self.spans();
        self.rebuild_groups(spans);
    }

    /// `(frame, stamp, count)` of each group, in `obstacles` order: the
    /// zones, the array, then runs of instances (sorted) that share a
    /// frame and a stamp.
    fn spans(&self) -> Vec<(String, f64, usize)> {
        let mut spans: Vec<(String, f64, usize)> = Vec::new();
        if self.zones_len > 0 {
            let frame = self.zones_frame.clone().unwrap_or_default();
            spans.push((frame, 0.0, self.zones_len));
        }
        if let Some(array) = self.array.as_ref().filter(|_| self.array_len > 0) {
            spans.push((array.frame_id.clone(), array.stamp, self.array_len));
        }
        let fixed = spans.len();
        let instances = self.obstacles[self.instances_start()..]
            .iter()
            .filter_map(|o| self.instances.get(&o.id));
        for instance in instances {
            let open = spans.len() > fixed;
            match spans.last_mut() {
                Some((frame, stamp, len))
                    if open
                        && *frame == instance.frame_id
                        && stamp.to_bits() == instance.stamp.to_bits() =>
                {
                    *len += 1;
                }
                _ => spans.push((instance.frame_id.clone(), instance.stamp, 1)),
            }
        }
        spans
    }

    /// The groups of `spans`, each with the boxes of its obstacles; the
    /// previous groups' index buffers are reused.
    fn rebuild_groups(&mut self, spans: Vec<(String, f64, usize)>) {
        let mut old = std::mem::take(&mut self.groups).into_iter();
        let mut start = 0;
        for (frame_id, stamp, len) in spans {
            let range = start..start + len;
            start += len;
            let mut group = old.next().unwrap_or_default();
            group.index.rebuild(&self.obstacles[range.clone()]);
            group.frame_id = frame_id;
            group.stamp = stamp;
            group.range = range;
            self.groups.push(group);
        }
    }

    /// Whether any obstacle is invalid.
    fn any_invalid(&self) -> bool {
        self.groups.iter().any(|g| g.index.any_invalid())
    }

    /// Gives memory back after a large message or many instances gone: a
    /// buffer more than four times (and 4,096 entries) larger than what it
    /// holds shrinks.
    fn shrink(&mut self) {
        let len = self.obstacles.len();
        if self.obstacles.capacity() > 4 * len.max(1024) {
            self.obstacles.shrink_to_fit();
        }
    }
}

/// The freshness rule (see [Freshness](self#freshness)): whether an input
/// that arrived at `received`, stamped `stamp` (0: not stamped), is stale
/// at `now` with `timeout` (s; 0: never).
pub fn is_stale(timeout: f64, now: f64, received: f64, stamp: f64) -> bool {
    timeout > 0.0
        && (now - age_origin(received, stamp) > timeout || (stamp != 0.0 && stamp - now > timeout))
}

/// What an input's age counts from: its arrival, or its stamp when that is
/// earlier and not 0. With a timeout, it is stale past this plus the
/// timeout ([`is_stale`]).
fn age_origin(received: f64, stamp: f64) -> f64 {
    match stamp == 0.0 {
        true => received,
        false => received.min(stamp),
    }
}

/// The monitor's state: the footprint and the obstacle set, each with the
/// time it arrived, the clock's condition, and the settings.
#[derive(Debug, Default)]
pub struct Monitor {
    config: MonitorConfig,
    footprint: Option<Footprint>,
    set: Arc<ObstacleSet>,
    /// Backward jumps of the clock so far (see [`clock::ClockWatch`]):
    /// inputs received under an older generation are not trusted.
    generation: u32,
    /// `NoClock` or `ClockStalled`, from the last clock reading.
    clock_cause: Option<Cause>,
    /// Arrival time of the oldest obstacle input not yet in `set`.
    pending_since: Option<f64>,
    /// Validates each new footprint in the previous one's buffers.
    builder: PolygonBuilder,
    /// The footprint placed in each obstacle group's frame, for the
    /// current footprint and set (see [`Monitor::place`]).
    placements: Placements,
    /// The robot's latest velocity (see [`Monitor::predict`]).
    velocity: Option<motion::Velocity>,
}

/// A copy shares the obstacle set (cheap: what a report or a planner query
/// on another thread takes); the footprint buffers are not copied.
impl Clone for Monitor {
    fn clone(&self) -> Self {
        Monitor {
            config: self.config.clone(),
            footprint: self.footprint.clone(),
            set: Arc::clone(&self.set),
            generation: self.generation,
            clock_cause: self.clock_cause,
            pending_since: self.pending_since,
            builder: PolygonBuilder::default(),
            placements: self.placements.clone(),
            velocity: self.velocity.clone(),
        }
    }
}

impl Monitor {
    /// A monitor that knows nothing yet: its answers are not valid
    /// until the inputs arrive.
    pub fn new(config: MonitorConfig) -> Self {
        let mut monitor = Monitor {
            config,
            ..Default::default()
        };
        monitor.replace();
        monitor
    }

    /// The settings in force.
    pub fn config(&self) -> &MonitorConfig {
        &self.config
    }

    /// Replaces the settings; a new global frame places the inputs
    /// again, without TF (see [`place`](Self::place)).
    pub fn set_config(&mut self, config: MonitorConfig) {
        let replace = config.global_frame != self.config.global_frame;
        self.config = config;
        if replace {
            self.replace();
        }
    }

    /// Sets [`MonitorConfig::exact_range`] alone.
    pub fn set_exact_range(&mut self, metres: f64) {
        self.config.exact_range = metres;
    }

    /// The exact range in force; `f64::INFINITY` when every outcome is exact.
    pub fn exact_range(&self) -> f64 {
        self.finite_exact_range().unwrap_or(f64::INFINITY)
    }

    fn finite_exact_range(&self) -> Option<f64> {
        let metres = self.config.exact_range;
        (metres.is_finite() && metres >= 0.0).then_some(metres)
    }

    /// What the clock reading said (see [`clock::ClockWatch::observe`]):
    /// its generation (inputs from an older one are not trusted) and its
    /// cause, if ROS time cannot judge freshness now.
    pub fn set_clock(&mut self, generation: u32, cause: Option<Cause>) {
        self.generation = generation;
        self.clock_cause = cause;
    }

    /// The clock generation that new inputs are tagged with.
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// Obstacle information arrived at `since` and is being taken in
    /// elsewhere (`None`: nothing waiting). Past
    /// [`MonitorConfig::overload_timeout`] the answer is `overloaded`.
    pub fn set_pending_obstacles(&mut self, since: Option<f64>) {
        self.pending_since = since;
    }

    /// The obstacle set, to share or to build the next one from.
    pub fn obstacle_set(&self) -> &Arc<ObstacleSet> {
        &self.set
    }

    /// Replaces the obstacle set with one built elsewhere.
    pub fn set_obstacle_set(&mut self, set: Arc<ObstacleSet>) {
        self.set = set;
        self.replace();
    }

    /// Changes the set through `change`, copied first when a report or
    /// query still holds it, under a new revision.
    fn change_set<R>(&mut self, change: impl FnOnce(&mut ObstacleSet) -> R) -> R {
        static REVISIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let set = Arc::make_mut(&mut self.set);
        set.revision = REVISIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let result = change(set);
        self.replace();
        result
    }

    /// Places the footprint in every obstacle group's frame with the
    /// transforms of `tf` (the node: its TF buffer), judged at `now`. The
    /// node calls it before every [`flag`](Self::flag) and
    /// [`evaluate_into`](Self::evaluate_into); each change of the inputs
    /// places again without TF ([`NoTransforms`]), so an unplaced monitor
    /// answers for inputs in one frame and reports
    /// [`Cause::FrameMismatch`] otherwise, never a guess.
    pub fn place(&mut self, tf: &(impl Transforms + ?Sized), now: f64) {
        let mut placements = std::mem::take(&mut self.placements);
        let frames = Frames {
            global: self.frame_id(),
            footprint: self
                .footprint
                .as_ref()
                .filter(|f| f.shape.is_ok())
                .map(|f| (f.frame_id.as_str(), f.stamp)),
            now,
            tolerance: self.config.transform_tolerance,
        };
        let shape = self.footprint();
        placements.footprint = frames.footprint_to_global(tf);
        placements.groups.clear();
        for group in &self.set.groups {
            placements.groups.push(frames.group(
                tf,
                &group.frame_id,
                group.stamp,
                shape,
                placements.footprint.as_ref(),
            ));
        }
        self.placements = placements;
    }

    /// Places again without TF after a change (see [`place`](Self::place)).
    fn replace(&mut self) {
        self.place(&NoTransforms, 0.0);
    }

    /// The footprint's pose in the global frame (the transform
    /// [`place`](Self::place) found; identity when the footprint is in
    /// it), when there is a valid, placed footprint: where the markers
    /// draw it.
    pub fn footprint_to_global(&self) -> Option<nalgebra::Isometry2<f64>> {
        match self.placements.footprint {
            Some(Ok(pose)) => Some(pose.unwrap_or_else(nalgebra::Isometry2::identity)),
            _ => None,
        }
    }

    /// Each obstacle group: its obstacles' range in
    /// [`obstacles`](Self::obstacles) and the pose of its frame in the
    /// global frame (`None` when it could not be placed).
    pub fn groups_to_global(
        &self,
    ) -> impl Iterator<Item = (Range<usize>, Option<nalgebra::Isometry2<f64>>)> + '_ {
        self.set
            .groups
            .iter()
            .zip(&self.placements.groups)
            .map(|(g, p)| {
                let pose = p
                    .as_ref()
                    .ok()
                    .map(|p| p.to_global.unwrap_or_else(nalgebra::Isometry2::identity));
                (g.range.clone(), pose)
            })
    }

    /// Static keep-out zones: never stale, never expire.
    pub fn set_zones(&mut self, frame_id: &str, zones: Vec<Obstacle>) {
        self.change_set(|set| set.set_zones(frame_id, zones));
    }

    /// A new footprint polygon (validated here). Reuses the previous
    /// footprint's buffers: no allocation per call once they have grown.
    pub fn set_footprint(&mut self, frame_id: &str, points: &[Point], now: f64) {
        self.set_footprint_at(frame_id, 0.0, points, now);
    }

    /// [`set_footprint`](Self::set_footprint) for a footprint stamped
    /// `stamp` (its header time, s; 0: place it with the latest
    /// transform).
    pub fn set_footprint_at(&mut self, frame_id: &str, stamp: f64, points: &[Point], now: f64) {
        let mut frame = String::new();
        if let Some(previous) = self.footprint.take() {
            frame = previous.frame_id;
            if let Ok(shape) = previous.shape {
                self.builder.recycle(shape);
            }
        }
        frame.clear();
        frame.push_str(frame_id);
        self.footprint = Some(Footprint {
            frame_id: frame,
            stamp,
            shape: self.builder.polygon(points).map_err(FootprintFault::Shape),
            received: now,
            generation: self.generation,
        });
        self.replace();
    }

    /// A footprint that is already a shape (a circle for round robots).
    /// It is placed with the latest transform; the node sets the robot's
    /// own footprint in its `base_frame` this way at every cycle.
    pub fn set_footprint_shape(&mut self, frame_id: &str, shape: Shape, now: f64) {
        self.footprint = Some(Footprint {
            frame_id: frame_id.to_owned(),
            stamp: 0.0,
            shape: Ok(shape),
            received: now,
            generation: self.generation,
        });
        self.replace();
    }

    /// A footprint message refused before its points were read: it replaces
    /// the previous footprint, and the report is not valid until a good one
    /// arrives.
    pub fn reject_footprint(&mut self, rejection: Rejection, now: f64) {
        self.footprint = Some(Footprint {
            frame_id: String::new(),
            stamp: 0.0,
            shape: Err(FootprintFault::Rejected(rejection)),
            received: now,
            generation: self.generation,
        });
        self.replace();
    }

    /// Replaces the obstacle array.
    pub fn set_obstacles(&mut self, frame_id: &str, obstacles: Vec<Obstacle>, now: f64) {
        self.set_obstacles_at(frame_id, 0.0, obstacles, now);
    }

    /// [`set_obstacles`](Self::set_obstacles) for an array stamped `stamp`
    /// (its header time, s; 0: placed with the latest transform).
    pub fn set_obstacles_at(
        &mut self,
        frame_id: &str,
        stamp: f64,
        obstacles: Vec<Obstacle>,
        now: f64,
    ) {
        let array = ObstacleArray {
            frame_id: frame_id.to_owned(),
            stamp,
            received: now,
            generation: self.generation,
            rejected: None,
        };
        self.change_set(|set| set.set_array(array, obstacles));
    }

    /// An obstacle array refused as a whole: it replaces the previous one
    /// (whose obstacles are gone), and the report is not valid until a good
    /// array arrives.
    pub fn reject_obstacles(&mut self, rejection: Rejection, now: f64) {
        let array = ObstacleArray {
            frame_id: String::new(),
            stamp: 0.0,
            received: now,
            generation: self.generation,
            rejected: Some(rejection),
        };
        self.change_set(|set| set.set_array(array, Vec::new()));
    }

    /// Inserts or replaces one obstacle instance by id (see
    /// [`upsert_instances`](Self::upsert_instances): one the limits refuse
    /// becomes the refused instance).
    pub fn upsert_instance(&mut self, frame_id: &str, obstacle: Obstacle, now: f64) {
        self.upsert_instance_at(frame_id, 0.0, obstacle, now);
    }

    /// [`upsert_instance`](Self::upsert_instance) for an instance stamped
    /// `stamp` (its header time, s; 0: placed with the latest transform).
    /// False when its stamp makes it stale already: it goes at the next
    /// [`expire_instances`](Self::expire_instances), with the one it
    /// replaced.
    pub fn upsert_instance_at(
        &mut self,
        frame_id: &str,
        stamp: f64,
        obstacle: Obstacle,
        now: f64,
    ) -> bool {
        self.upsert_instances([InstanceUpdate {
            frame_id: frame_id.to_owned(),
            stamp,
            obstacle,
            received: now,
        }])
        .stale
        .is_empty()
    }

    /// Inserts or replaces obstacle instances by id, in order, as one change
    /// of the set: the set is copied at most once (when a report still
    /// holds it), each obstacle is moved in (no other instance is copied),
    /// and the groups are rebuilt once. An instance the limits refuse
    /// ([`ObstacleSet::admits`]) is not applied and becomes the refused
    /// instance (the one it would have replaced stays until it expires).
    /// One whose stamp makes it stale already ([`is_stale`]) is applied and
    /// goes at the next [`expire_instances`](Self::expire_instances), with
    /// the one it replaced. Returns the refused and the stale ids.
    pub fn upsert_instances(
        &mut self,
        updates: impl IntoIterator<Item = InstanceUpdate>,
    ) -> InstancesApplied {
        let timeout = self.config.obstacles_timeout;
        let generation = self.generation;
        self.change_set(|set| {
            let mut refused = Vec::new();
            let mut stale = Vec::new();
            for update in updates {
                let vertices = held_vertices(&update.obstacle);
                if let Err(rejection) = set.admits(&update.obstacle.id, vertices) {
                    set.refuse(rejection, update.received);
                    refused.push((update.obstacle.id, rejection));
                    continue;
                }
                if is_stale(timeout, update.received, update.received, update.stamp) {
                    stale.push((update.obstacle.id.clone(), update.received - update.stamp));
                }
                let instance = Instance {
                    frame_id: update.frame_id,
                    stamp: update.stamp,
                    received: update.received,
                    generation,
                    vertices,
                };
                set.upsert(instance, update.obstacle);
            }
            set.rebuild_instances();
            InstancesApplied { refused, stale }
        })
    }

    /// An obstacle instance refused (its frame id, or one instance too
    /// many): the report is not valid for as long as it would have lived.
    pub fn reject_instance(&mut self, rejection: Rejection, now: f64) {
        self.change_set(|set| set.refuse(rejection, now));
    }

    /// Drops instances (and a refused instance) older than the obstacles
    /// timeout, by arrival or by stamp ([`is_stale`]). Returns how many
    /// instances.
    pub fn expire_instances(&mut self, now: f64) -> usize {
        let timeout = self.config.obstacles_timeout;
        if timeout <= 0.0 {
            return 0;
        }
        let expired = |received: f64, stamp: f64| is_stale(timeout, now, received, stamp);
        let any = self
            .set
            .instances
            .values()
            .any(|i| expired(i.received, i.stamp))
            || self
                .set
                .rejected_instance
                .is_some_and(|r| expired(r.received, 0.0));
        if !any {
            return 0;
        }
        self.change_set(|set| {
            if set
                .rejected_instance
                .is_some_and(|r| expired(r.received, 0.0))
            {
                set.rejected_instance = None;
            }
            let count = set.drop_instances(|i| expired(i.received, i.stamp));
            set.shrink();
            count
        })
    }

    /// Drops every instance and a refused one: after a backward jump of
    /// the clock their arrival times mean nothing (they would never
    /// expire).
    pub fn forget_instances(&mut self) {
        if self.set.instances.is_empty() && self.set.rejected_instance.is_none() {
            return;
        }
        self.change_set(|set| {
            set.drop_instances(|_| true);
            set.rejected_instance = None;
            set.shrink();
        });
    }

    /// Every obstacle currently known: zones, array, instances.
    pub fn obstacles(&self) -> &[Obstacle] {
        &self.set.obstacles
    }

    /// Why the last footprint was rejected, when it was.
    pub fn footprint_error(&self) -> Option<&ShapeError> {
        match self.footprint.as_ref().map(|f| &f.shape) {
            Some(Err(FootprintFault::Shape(e))) => Some(e),
            _ => None,
        }
    }

    /// The footprint shape, when one has arrived and is valid.
    pub fn footprint(&self) -> Option<&Shape> {
        self.footprint.as_ref().and_then(|f| f.shape.as_ref().ok())
    }

    /// The global frame: the report's, the markers' and the planner's
    /// poses'. [`MonitorConfig::global_frame`], else the footprint's, else
    /// the obstacles'.
    pub fn frame_id(&self) -> &str {
        if !self.config.global_frame.is_empty() {
            return &self.config.global_frame;
        }
        self.footprint
            .as_ref()
            .filter(|f| !matches!(f.shape, Err(FootprintFault::Rejected(_))))
            .map(|f| f.frame_id.as_str())
            .or(self
                .set
                .array
                .as_ref()
                .filter(|a| a.rejected.is_none())
                .map(|a| a.frame_id.as_str()))
            .or(self.set.zones_frame.as_deref())
            .unwrap_or("")
    }

    /// An input received under an older clock generation, or "in the
    /// future" (only a jump back makes that): from before a jump.
    fn before_jump(&self, received: f64, generation: u32, now: f64) -> bool {
        generation != self.generation || received > now + clock::JUMP_TOLERANCE
    }

    /// Whether the obstacle information is missing, stale, refused or still
    /// being taken in, ignoring the footprint: what a planner query against
    /// the obstacles depends on.
    pub fn obstacles_cause(&self, now: f64) -> Option<Cause> {
        let set = &self.set;
        if set.array.is_none() && set.instances.is_empty() && set.zones_len == 0 {
            if let Some(r) = set.rejected_instance {
                return Some(Cause::RejectedObstacles(r.rejection));
            }
            return Some(Cause::NoObstacles);
        }
        let timeout = self.config.obstacles_timeout;
        if let Some(array) = &set.array {
            if self.before_jump(array.received, array.generation, now) {
                return Some(Cause::ClockJumpedBack);
            }
            if is_stale(timeout, now, array.received, array.stamp) {
                return Some(Cause::StaleObstacles);
            }
        }
        if set
            .instances
            .values()
            .any(|i| self.before_jump(i.received, i.generation, now))
        {
            return Some(Cause::ClockJumpedBack);
        }
        // Instances past their lifetime are dropped by `expire_instances`;
        // until then they only add obstacles (never a wrong "clear").
        let overload = self.config.overload_timeout;
        if self
            .pending_since
            .is_some_and(|since| overload > 0.0 && now - since > overload)
        {
            return Some(Cause::Overloaded);
        }
        if let Some(rejection) = set.array.as_ref().and_then(|a| a.rejected) {
            return Some(Cause::RejectedObstacles(rejection));
        }
        if let Some(r) = set.rejected_instance {
            return Some(Cause::RejectedObstacles(r.rejection));
        }
        None
    }

    /// The planner's question: is this robot-frame `footprint`, placed at
    /// each of `poses` (in the obstacles' frame), clear of every current
    /// obstacle with `padding` (added to the configured padding)? Fails safe
    /// like [`evaluate`](Self::evaluate): when the answer cannot be trusted,
    /// `valid` is false and, with `fail_safe`, every pose reads colliding.
    pub fn check_trajectory(
        &self,
        footprint: &Shape,
        poses: &[nalgebra::Isometry2<f64>],
        padding: f64,
        now: f64,
    ) -> TrajectoryCheck {
        uncancelled(|cancel| self.check_trajectory_until(footprint, poses, padding, now, cancel))
    }

    /// [`check_trajectory`](Self::check_trajectory) that stops when
    /// `cancel` is set (looked at before every pose).
    pub fn check_trajectory_until(
        &self,
        footprint: &Shape,
        poses: &[nalgebra::Isometry2<f64>],
        padding: f64,
        now: f64,
        cancel: &Cancel,
    ) -> Result<TrajectoryCheck, Cancelled> {
        let padding = self.config.padding + padding.max(0.0);
        let mut check = crate::planner::PoseCheck {
            colliding: vec![false; poses.len()],
            distance: vec![f64::INFINITY; poses.len()],
            first_collision: None,
            invalid_obstacles: 0,
        };
        let mut local = Vec::with_capacity(poses.len());
        for (group, placement) in self.placed_groups() {
            // The poses are in the global frame; this group's obstacles in
            // its own.
            local.clear();
            match placement.to_global {
                Some(to_global) => {
                    let from_global = to_global.inverse();
                    local.extend(poses.iter().map(|p| from_global * p));
                }
                None => local.extend_from_slice(poses),
            }
            let part = crate::planner::check_poses_until(
                footprint,
                &local,
                padding,
                &self.set.obstacles[group.range.clone()],
                cancel,
            )?;
            for (all, one) in check.colliding.iter_mut().zip(&part.colliding) {
                *all |= *one;
            }
            for (all, one) in check.distance.iter_mut().zip(&part.distance) {
                *all = all.min(*one);
            }
            check.invalid_obstacles += part.invalid_obstacles;
        }
        check.first_collision = check.colliding.iter().position(|&c| c);
        let cause = self
            .clock_cause
            .or_else(|| self.obstacles_cause(now))
            .or_else(|| self.placements.groups_cause())
            .or_else(|| (check.invalid_obstacles > 0).then_some(Cause::InvalidObstacle));
        let mut result = TrajectoryCheck {
            valid: cause.is_none(),
            status: Status::of(cause),
            check,
        };
        if !result.valid && self.config.fail_safe {
            result.check.colliding.iter_mut().for_each(|c| *c = true);
            result.check.first_collision = (!poses.is_empty()).then_some(0);
        }
        Ok(result)
    }

    /// The first reason the inputs cannot be trusted, if any (before looking
    /// at individual obstacles).
    fn input_cause(&self, now: f64) -> Option<Cause> {
        if let Some(cause) = self.clock_cause {
            return Some(cause);
        }
        let Some(footprint) = &self.footprint else {
            return Some(Cause::NoFootprint);
        };
        if self.before_jump(footprint.received, footprint.generation, now) {
            return Some(Cause::ClockJumpedBack);
        }
        let timeout = self.config.footprint_timeout;
        if is_stale(timeout, now, footprint.received, footprint.stamp) {
            return Some(Cause::StaleFootprint);
        }
        match footprint.shape {
            Err(FootprintFault::Rejected(rejection)) => {
                return Some(Cause::RejectedFootprint(rejection))
            }
            Err(FootprintFault::Shape(_)) => return Some(Cause::InvalidFootprint),
            Ok(_) => {}
        }
        if let Some(cause) = self.obstacles_cause(now) {
            return Some(cause);
        }
        self.placements.cause()
    }

    /// The decision of [`evaluate`](Self::evaluate) without the
    /// per-obstacle report: the same `colliding`, `valid` and `status`, for
    /// one pass over the obstacles' boxes and the exact test on the few
    /// that could touch the footprint. What the node publishes first.
    pub fn flag(&self, now: f64) -> Flag {
        let geometry = self.footprint().is_some_and(|footprint| {
            self.placed_groups().any(|(group, placement)| {
                group.index.any_collision(
                    placement.footprint(footprint),
                    self.config.padding,
                    &self.set.obstacles[group.range.clone()],
                )
            })
        });
        self.decide(self.input_cause(now), self.set.any_invalid(), geometry)
    }

    /// The groups that could be placed, with their placement.
    fn placed_groups(&self) -> impl Iterator<Item = (&Group, &placement::Placement)> {
        self.set
            .groups
            .iter()
            .zip(&self.placements.groups)
            .filter_map(|(g, p)| p.as_ref().ok().map(|p| (g, p)))
    }

    /// The fail-safe rule, shared by [`flag`](Self::flag) and
    /// [`evaluate_into`](Self::evaluate_into) so the two cannot drift:
    /// `input_cause`, else an invalid obstacle, makes the answer not valid
    /// and, with `fail_safe`, colliding.
    fn decide(&self, input_cause: Option<Cause>, any_invalid: bool, geometry: bool) -> Flag {
        let cause = input_cause.or(any_invalid.then_some(Cause::InvalidObstacle));
        Flag {
            colliding: geometry || (cause.is_some() && self.config.fail_safe),
            valid: cause.is_none(),
            status: Status::of(cause),
        }
    }

    /// Decides. Instances past their timeout should be expired first with
    /// [`expire_instances`](Self::expire_instances).
    pub fn evaluate(&self, now: f64) -> Report {
        let mut report = Report {
            colliding: false,
            valid: true,
            status: Status::Ok,
            frame_id: String::new(),
            min_distance: f64::INFINITY,
            nearest_obstacle_id: String::new(),
            outcomes: Vec::with_capacity(self.set.obstacles.len()),
        };
        self.evaluate_into(now, &mut report);
        report
    }

    /// [`evaluate`](Self::evaluate) into an existing report, reusing its
    /// buffers (outcomes, frame and nearest id): no allocation per call in
    /// the steady state. A buffer grown by a much larger obstacle set
    /// shrinks back.
    pub fn evaluate_into(&self, now: f64, report: &mut Report) {
        report.frame_id.clear();
        report.frame_id.push_str(self.frame_id());
        report.min_distance = f64::INFINITY;
        report.nearest_obstacle_id.clear();
        report.outcomes.clear();
        let obstacles = &self.set.obstacles;
        if report.outcomes.capacity() > 4 * obstacles.len().max(1024) {
            report.outcomes.shrink_to_fit();
        }
        let cause = self.input_cause(now);
        // Geometry is still computed when only freshness or frames are in
        // doubt: it explains the picture, but it no longer decides alone.
        let mut summary = Summary::empty();
        if let Some(footprint) = self.footprint() {
            let range = self.finite_exact_range();
            let padding = self.config.padding;
            for (group, placement) in self.set.groups.iter().zip(&self.placements.groups) {
                let base = report.outcomes.len();
                let members = &obstacles[group.range.clone()];
                let placement = match placement {
                    Ok(placement) => placement,
                    Err(cause) => {
                        // Not placed: no geometry, the transform's status.
                        report
                            .outcomes
                            .extend(members.iter().map(|_| ObstacleOutcome {
                                status: Status::from(*cause),
                                contact: None,
                                exact: true,
                            }));
                        continue;
                    }
                };
                let shape = placement.footprint(footprint);
                let pose = placement.to_global.as_ref();
                let part = match range {
                    // Turned into the global frame as they are written.
                    Some(range) => group.index.check_append_to(
                        shape,
                        padding,
                        members,
                        range,
                        pose,
                        &mut report.outcomes,
                    ),
                    None => {
                        append_outcomes(shape, padding, members, &mut report.outcomes);
                        if let Some(pose) = pose {
                            for outcome in &mut report.outcomes[base..] {
                                outcome.transform(pose);
                            }
                        }
                        summarize(&report.outcomes[base..])
                    }
                };
                summary.merge(&part, base);
            }
        }
        report.min_distance = summary.min_distance;
        if let Some(i) = summary.nearest {
            report.nearest_obstacle_id.push_str(&obstacles[i].id);
        }
        let decision = self.decide(cause, summary.any_invalid, summary.any_colliding);
        report.colliding = decision.colliding;
        report.valid = decision.valid;
        report.status = decision.status;
    }
}

/// Where the robot is going: see `src/monitor/motion.rs`.
impl Monitor {
    /// The robot's latest velocity: `linear` (m/s, in `frame_id`'s axes)
    /// and `angular` (rad/s) of `frame_id` (empty: `base_frame`),
    /// received at `now`, not stamped. A non-finite component makes the
    /// prediction `invalid_velocity` until the next one.
    pub fn set_velocity(&mut self, frame_id: &str, linear: Vector, angular: f64, now: f64) {
        self.set_velocity_at(frame_id, 0.0, linear, angular, now);
    }

    /// [`set_velocity`](Self::set_velocity) for a velocity stamped `stamp`
    /// (its header time, s; 0: judged by arrival alone).
    pub fn set_velocity_at(
        &mut self,
        frame_id: &str,
        stamp: f64,
        linear: Vector,
        angular: f64,
        now: f64,
    ) {
        let finite = linear.x.is_finite() && linear.y.is_finite() && angular.is_finite();
        let velocity = self.velocity.get_or_insert_with(|| Velocity {
            frame_id: String::new(),
            twist: None,
            stamp,
            received: now,
            generation: self.generation,
        });
        velocity.frame_id.clear();
        velocity.frame_id.push_str(frame_id);
        velocity.twist = finite.then_some((linear, angular));
        velocity.stamp = stamp;
        velocity.received = now;
        velocity.generation = self.generation;
    }

    /// A velocity message refused (a bad frame id): `invalid_velocity`
    /// until the next one.
    pub fn reject_velocity(&mut self, now: f64) {
        self.set_velocity("", Vector::new(f64::NAN, 0.0), 0.0, now);
    }

    /// Why the velocity cannot be used at `now`, if it cannot.
    fn velocity_cause(&self, now: f64) -> Result<&Velocity, Status> {
        let Some(velocity) = &self.velocity else {
            return Err(Status::NoVelocity);
        };
        if self.before_jump(velocity.received, velocity.generation, now) {
            return Err(Status::ClockJumpedBack);
        }
        let timeout = self.config.velocity_timeout;
        if is_stale(timeout, now, velocity.received, velocity.stamp) {
            return Err(Status::StaleVelocity);
        }
        if velocity.twist.is_none() {
            return Err(Status::InvalidVelocity);
        }
        Ok(velocity)
    }

    /// The footprint moved along the latest velocity (a constant body
    /// twist: an arc) over `time_horizon`: the first contact within it.
    /// Not valid when the report is not (its status), or when the velocity
    /// is missing, stale, not finite, of no known frame, or in a frame `tf`
    /// cannot relate to the footprint's; then, with `fail_safe`, `ahead`
    /// reads true.
    ///
    /// The velocity is the motion of its frame `B` (the message's frame;
    /// empty: `base_frame`; neither: `unknown_velocity_frame`, never a
    /// guess: a body twist applied to another frame turns about that
    /// frame's origin). The footprint rides on `B`: it is taken into `B`
    /// with `T(P ← B)` at the footprint's stamp (`P` the footprint's
    /// frame), and `B` moves on the arc from that pose.
    pub fn predict(&self, tf: &(impl Transforms + ?Sized), now: f64) -> Prediction {
        let fail = |status: Status| Prediction {
            status,
            impact: None,
            ahead: self.config.fail_safe,
            sweep: None,
        };
        let cause = self
            .input_cause(now)
            .or(self.set.any_invalid().then_some(Cause::InvalidObstacle));
        if let Some(cause) = cause {
            return fail(Status::from(cause));
        }
        let velocity = match self.velocity_cause(now) {
            Ok(velocity) => velocity,
            Err(status) => return fail(status),
        };
        let (Some(footprint), Some(shape)) = (&self.footprint, self.footprint()) else {
            return fail(Status::NoFootprint); // `input_cause` said otherwise.
        };
        let Some((linear, angular)) = velocity.twist else {
            return fail(Status::InvalidVelocity);
        };
        let frame = match (velocity.frame_id.as_str(), self.config.base_frame.as_str()) {
            ("", "") => return fail(Status::UnknownVelocityFrame),
            ("", base) => base,
            (frame, _) => frame,
        };
        // T(P ← B): where the moving frame is, in the footprint's.
        let body = if frame == footprint.frame_id {
            Isometry2::identity()
        } else {
            match tf.lookup(
                &footprint.frame_id,
                frame,
                footprint.stamp,
                now,
                self.config.transform_tolerance,
            ) {
                Ok(pose) => pose,
                Err(cause) => return fail(Status::from(cause)),
            }
        };
        let body_shape = match body == Isometry2::identity() {
            true => shape.clone(),
            false => shape.transformed(&body.inverse()),
        };
        let motion = Motion::twist(&body, linear, angular);
        let horizon = self.config.time_horizon.max(0.0);
        let to_global = self
            .footprint_to_global()
            .unwrap_or_else(Isometry2::identity);
        let global = motion.transformed(&to_global);
        let impact = self.first_impact(&body_shape, &motion, horizon, self.config.padding);
        let impact = impact.map(|(obstacle, hit)| MotionImpact {
            time: hit.time,
            obstacle: Some(obstacle),
            pose: global.pose_at(hit.time),
            exact: hit.exact,
        });
        Prediction {
            status: Status::Ok,
            ahead: impact.is_some(),
            sweep: Some(Sweep {
                shape: body_shape,
                motion: global,
                duration: impact.map_or(horizon, |i| i.time),
            }),
            impact,
        }
    }

    /// The first contact of `shape` (body frame) moved by `motion` (in the
    /// footprint's frame) over `[0, duration]`, over every placed group:
    /// the obstacle (index in [`obstacles`](Self::obstacles)) and the
    /// impact.
    fn first_impact(
        &self,
        shape: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
    ) -> Option<(usize, Impact)> {
        let mut best: Option<(usize, Impact)> = None;
        for (group, placement) in self.placed_groups() {
            let moved = match &placement.pose {
                Some(pose) => motion.transformed(pose),
                None => *motion,
            };
            let horizon = best.map_or(duration, |(_, b)| b.time);
            let members = &self.set.obstacles[group.range.clone()];
            if let Some((i, hit)) = group
                .index
                .first_impact(shape, &moved, horizon, padding, members)
            {
                if best.is_none_or(|(_, b)| hit.time < b.time) {
                    best = Some((group.range.start + i, hit));
                }
            }
        }
        best
    }

    /// The planner's question about a whole path: `footprint` (robot
    /// frame) at `poses` (global frame), moving between consecutive poses
    /// in a straight line while the yaw turns the short way, both linear
    /// in time, at `times` (s, strictly increasing, one per pose). The
    /// first contact (exact where a segment does not turn, never late
    /// where it does) and the clearance at every pose, with `padding` on
    /// top of the configured one. Fails safe like
    /// [`check_trajectory`](Self::check_trajectory): when the answer
    /// cannot be trusted, `valid` is false and, with `fail_safe`, the path
    /// collides at its first pose.
    pub fn check_path(
        &self,
        footprint: &Shape,
        poses: &[Isometry2<f64>],
        times: &[f64],
        padding: f64,
        now: f64,
    ) -> PathCheck {
        uncancelled(|cancel| self.check_path_until(footprint, poses, times, padding, now, cancel))
    }

    /// [`check_path`](Self::check_path) that stops when `cancel` is set
    /// (looked at before every pose's clearance and every segment's
    /// contact).
    pub fn check_path_until(
        &self,
        footprint: &Shape,
        poses: &[Isometry2<f64>],
        times: &[f64],
        padding: f64,
        now: f64,
        cancel: &Cancel,
    ) -> Result<PathCheck, Cancelled> {
        let padding = self.config.padding + padding.max(0.0);
        let mut check = PathCheck {
            valid: true,
            status: Status::Ok,
            first_collision: None,
            impact: None,
            distance_to_collision: None,
            clearance: vec![f64::INFINITY; poses.len()],
        };
        // The segments, in the global frame: each a straight line with the
        // yaw turning the short way (a path of one pose: the pose itself).
        let segments: Vec<(Motion, f64)> = match poses.len() {
            0 => Vec::new(),
            1 => vec![(Motion::segment(&poses[0], &poses[0], 1.0), 0.0)],
            _ => poses
                .windows(2)
                .zip(times.windows(2))
                .map(|(p, t)| (Motion::segment(&p[0], &p[1], t[1] - t[0]), t[1] - t[0]))
                .collect(),
        };
        // Per group: its obstacles near the box the whole path sweeps
        // (nearest first), then every pose's clearance and every segment's
        // first contact from that one list.
        let mut first: Option<(usize, usize, Impact)> = None;
        for (group, placement) in self.placed_groups() {
            let from_global = placement.to_global.map(|p| p.inverse());
            let local = |m: &Motion| match &from_global {
                Some(from) => m.transformed(from),
                None => *m,
            };
            let moved: Vec<(Motion, f64, Aabb)> = segments
                .iter()
                .map(|(m, d)| {
                    let m = local(m);
                    (m, *d, m.swept_aabb(footprint, padding, *d))
                })
                .collect();
            let Some(region) = moved
                .iter()
                .map(|(_, _, swept)| *swept)
                .reduce(|a, b| a.union(&b))
            else {
                continue;
            };
            let members = &self.set.obstacles[group.range.clone()];
            let near = group.index.candidates(&region, members);
            for (k, clearance) in check.clearance.iter_mut().enumerate() {
                cancel.check()?;
                let pose = match &from_global {
                    Some(from) => from * poses[k],
                    None => poses[k],
                };
                let placed = footprint.transformed(&pose);
                *clearance = clearance.min(near.nearest(&placed, padding, members).distance);
            }
            // Segments after one where this group already has a contact
            // cannot hold an earlier one.
            let last = first.map_or(moved.len(), |(k, _, _)| k + 1);
            for (k, (motion, duration, swept)) in moved.iter().enumerate().take(last) {
                cancel.check()?;
                let horizon = match first {
                    Some((fk, _, hit)) if fk == k => hit.time,
                    _ => *duration,
                };
                if let Some((i, hit)) =
                    near.first_impact_within(swept, footprint, motion, horizon, padding, members)
                {
                    let earlier = match first {
                        Some((fk, _, b)) => k < fk || hit.time < b.time,
                        None => true,
                    };
                    if earlier {
                        first = Some((k, group.range.start + i, hit));
                    }
                    break;
                }
            }
        }
        if let Some((k, obstacle, hit)) = first {
            let (segment, _) = &segments[k];
            let travelled: f64 = segments[..k].iter().map(|(m, d)| m.speed() * d).sum();
            let t0 = times.first().copied().unwrap_or(0.0);
            check.first_collision = Some(k);
            check.distance_to_collision = Some(travelled + segment.speed() * hit.time);
            check.impact = Some(MotionImpact {
                time: times[k] - t0 + hit.time,
                obstacle: Some(obstacle),
                pose: segment.pose_at(hit.time),
                exact: hit.exact,
            });
        }
        let cause = self
            .clock_cause
            .or_else(|| self.obstacles_cause(now))
            .or_else(|| self.placements.groups_cause())
            .or_else(|| self.set.any_invalid().then_some(Cause::InvalidObstacle));
        if let Some(cause) = cause {
            check.valid = false;
            check.status = Status::from(cause);
            if self.config.fail_safe && !poses.is_empty() {
                check.first_collision = Some(0);
                check.distance_to_collision = Some(0.0);
                check.impact = Some(MotionImpact {
                    time: 0.0,
                    obstacle: None,
                    pose: poses[0],
                    exact: false,
                });
                check.clearance.iter_mut().for_each(|c| *c = 0.0);
            }
        }
        Ok(check)
    }
}

#[cfg(test)]
pub(crate) mod tests;
