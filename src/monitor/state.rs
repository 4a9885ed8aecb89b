//! The monitor's state and its decision: the collision flag and the
//! report.

use super::config::MonitorConfig;
use super::inputs::{
    is_stale, ArrayState, Footprint, FootprintFault, FootprintShape, Instance, InstanceState, Now,
    ObstacleArray, SourceData, Stamped, Velocity,
};
use super::obstacle_set::{held_vertices, Group, InstanceUpdate, InstancesApplied, ObstacleSet};
use super::placement::{self, Frames, NoTransforms, Placements, Transforms};
use crate::geometry::{Point, PolygonBuilder, Shape, ShapeError, Vector};
use crate::model::{
    Cause, FirstCause, Flag, Obstacle, ObstacleOutcome, Rejection, Report, SourceOutcome, Status,
    Summary, Verdict,
};
use std::ops::Range;
use std::sync::Arc;

/// The monitor's state: the footprint and the obstacle set, each with the
/// time it arrived, the clock's condition, and the settings.
#[derive(Debug, Default)]
pub struct Monitor {
    pub(super) config: MonitorConfig,
    pub(super) footprint: Option<Footprint>,
    pub(super) set: Arc<ObstacleSet>,
    /// Backward jumps of the clock so far (see [`clock::ClockWatch`]):
    /// inputs received under an older generation are not trusted.
    pub(super) generation: u32,
    /// `NoClock` or `ClockStalled`, from the last clock reading.
    pub(super) clock_cause: Option<Cause>,
    /// Arrival time of the oldest obstacle input not yet in `set`.
    pub(super) pending_since: Option<f64>,
    /// Validates each new footprint in the previous one's buffers.
    pub(super) builder: PolygonBuilder,
    /// The footprint placed in each obstacle group's frame, for the
    /// current footprint and set (see [`Monitor::place`]).
    pub(super) placements: Placements,
    /// The robot's latest velocity (see [`Monitor::predict`]).
    pub(super) velocity: Option<Velocity>,
    /// Each configured source's latest message (aligned with
    /// [`MonitorConfig::sources`]; `None`: nothing yet, or a polygon
    /// source).
    pub(super) sources: Vec<Option<SourceData>>,
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
            sources: self.sources.clone(),
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
        monitor.align_sources(&[]);
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
        let old = std::mem::replace(&mut self.config, config);
        let sources_changed = old.sources != self.config.sources;
        if sources_changed {
            self.align_sources(&old.sources);
        }
        if sources_changed || old.global_frame != self.config.global_frame {
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

    pub(super) fn finite_exact_range(&self) -> Option<f64> {
        let metres = self.config.exact_range;
        (metres.is_finite() && metres >= 0.0).then_some(metres)
    }

    /// What the clock reading said (see [`clock::ClockWatch::observe`](super::clock::ClockWatch::observe)):
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

    /// The clock as inputs are judged at `now` (s).
    pub(super) fn now(&self, now: f64) -> Now {
        Now {
            time: now,
            generation: self.generation,
        }
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
    pub(super) fn change_set<R>(&mut self, change: impl FnOnce(&mut ObstacleSet) -> R) -> R {
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
                .filter(|f| f.payload.0.is_ok())
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
        placements.sources.clear();
        for (spec, data) in self.config.sources.iter().zip(&self.sources) {
            placements.sources.push(match data {
                Some(data) if spec.enabled && data.payload.fault.is_none() => frames.group(
                    tf,
                    &data.frame_id,
                    data.stamp,
                    shape,
                    placements.footprint.as_ref(),
                ),
                _ => Ok(placement::Placement::default()),
            });
        }
        self.placements = placements;
    }

    /// Places again without TF after a change (see [`place`](Self::place)).
    pub(super) fn replace(&mut self) {
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
            if let Ok(shape) = previous.payload.0 {
                self.builder.recycle(shape);
            }
        }
        frame.clear();
        frame.push_str(frame_id);
        let shape = self.builder.polygon(points).map_err(FootprintFault::Shape);
        self.footprint = Some(Footprint {
            frame_id: frame,
            stamp,
            received: now,
            generation: self.generation,
            payload: FootprintShape(shape),
        });
        self.replace();
    }

    /// A footprint that is already a shape (a circle for round robots).
    /// It is placed with the latest transform; the node sets the robot's
    /// own footprint in its `base_frame` this way at every cycle.
    pub fn set_footprint_shape(&mut self, frame_id: &str, shape: Shape, now: f64) {
        let shape = FootprintShape(Ok(shape));
        self.footprint = Some(Stamped::new(frame_id, 0.0, shape, self.now(now)));
        self.replace();
    }

    /// A footprint message refused before its points were read: it replaces
    /// the previous footprint, and the report is not valid until a good one
    /// arrives.
    pub fn reject_footprint(&mut self, rejection: Rejection, now: f64) {
        let refused = FootprintShape(Err(FootprintFault::Rejected(rejection)));
        self.footprint = Some(Stamped::new("", 0.0, refused, self.now(now)));
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
        let array = ObstacleArray::new(
            frame_id,
            stamp,
            ArrayState { rejected: None },
            self.now(now),
        );
        self.change_set(|set| set.set_array(array, obstacles));
    }

    /// An obstacle array refused as a whole: it replaces the previous one
    /// (whose obstacles are gone), and the report is not valid until a good
    /// array arrives.
    pub fn reject_obstacles(&mut self, rejection: Rejection, now: f64) {
        let refused = ArrayState {
            rejected: Some(rejection),
        };
        let array = ObstacleArray::new("", 0.0, refused, self.now(now));
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
            lifetime: None,
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
                let instance = Instance {
                    frame_id: update.frame_id,
                    stamp: update.stamp,
                    received: update.received,
                    generation,
                    payload: InstanceState {
                        vertices,
                        lifetime: update.lifetime,
                        valid: update.obstacle.shape.is_ok(),
                    },
                };
                let lifetime = instance.payload.lifetime(timeout);
                if instance.is_stale(update.received, lifetime) {
                    stale.push((update.obstacle.id.clone(), update.received - update.stamp));
                }
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
        let expired = |received: f64, stamp: f64| is_stale(timeout, now, received, stamp);
        let gone = |i: &Instance| i.is_stale(now, i.payload.lifetime(timeout));
        let any = self.set.instances.values().any(gone)
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
            let count = set.drop_instances(gone);
            set.shrink();
            count
        })
    }

    /// Drops the instances whose id starts with `prefix` (a polygon
    /// source's, `<name>/`, when it is disabled). Returns how many.
    pub fn drop_instances_of(&mut self, prefix: &str) -> usize {
        if !self.set.instances.keys().any(|id| id.starts_with(prefix)) {
            return 0;
        }
        self.change_set(|set| {
            let count = set.drop_instances_by_id(|id| id.starts_with(prefix));
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
        self.set.obstacles()
    }

    /// Why the last footprint was rejected, when it was.
    pub fn footprint_error(&self) -> Option<&ShapeError> {
        match self.footprint.as_ref().map(|f| &f.payload.0) {
            Some(Err(FootprintFault::Shape(e))) => Some(e),
            _ => None,
        }
    }

    /// The footprint shape, when one has arrived and is valid.
    pub fn footprint(&self) -> Option<&Shape> {
        self.footprint
            .as_ref()
            .and_then(|f| f.payload.0.as_ref().ok())
    }

    /// The footprint's frame and stamp, with its shape, when one has
    /// arrived and is valid (the fleet publishes it in the base frame).
    pub fn footprint_stamped(&self) -> Option<(&Shape, &str, f64)> {
        let f = self.footprint.as_ref()?;
        let shape = f.payload.0.as_ref().ok()?;
        Some((shape, f.frame_id.as_str(), f.stamp))
    }

    /// The robot's velocity (body twist: m/s, rad/s) when one is held,
    /// valid and fresh at `now` (`velocity_timeout`).
    pub fn fresh_velocity(&self, now: f64) -> Option<(Vector, f64)> {
        let velocity = self.velocity.as_ref()?;
        let now = self.now(now);
        if velocity.cause(now, self.config.velocity_timeout).is_some() {
            return None;
        }
        velocity.payload.twist
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
            .filter(|f| !matches!(f.payload.0, Err(FootprintFault::Rejected(_))))
            .map(|f| f.frame_id.as_str())
            .or(self
                .set
                .array
                .as_ref()
                .filter(|a| a.payload.rejected.is_none())
                .map(|a| a.frame_id.as_str()))
            .or(self.set.zones_frame.as_deref())
            .unwrap_or("")
    }

    /// Whether the obstacle information is missing, stale, refused or still
    /// being taken in, ignoring the footprint: what a planner query against
    /// the obstacles depends on. The first such cause in the order of
    /// [`Cause`].
    pub fn obstacles_cause(&self, now: f64) -> Option<Cause> {
        let mut first = FirstCause::default();
        self.obstacle_causes(self.now(now), Self::source_cause, &mut first);
        first.get()
    }

    /// The causes the obstacle inputs hold against an answer (see
    /// [`obstacles_cause`](Self::obstacles_cause)), each source's by
    /// `source` (its data and the footprint's placement in its frame,
    /// `source_cause`; or its data alone, `source_data_cause`).
    fn obstacle_causes(
        &self,
        now: Now,
        source: fn(&Self, usize, Now) -> Option<Cause>,
        first: &mut FirstCause,
    ) {
        let set = &self.set;
        let refused_instance = set
            .rejected_instance
            .map(|r| Cause::RejectedObstacles(r.rejection));
        let nothing = set.array.is_none() && set.instances.is_empty() && set.zones_len == 0;
        if nothing && !self.any_source_data() {
            first.note(refused_instance.or(Some(Cause::NoObstacles)));
            return;
        }
        if let Some(array) = &set.array {
            first.note(array.cause(now, self.config.obstacles_timeout));
        }
        // Instances past their lifetime are dropped by `expire_instances`;
        // until then they only add obstacles (never a wrong "clear"):
        // judged for clock jumps alone (timeout 0).
        if !set.instances.is_empty() {
            first.note(set.instances.values().find_map(|i| i.cause(now, 0.0)));
        }
        if self.overloaded(now.time) {
            first.note(Some(Cause::Overloaded));
        }
        first.note(refused_instance);
        for index in 0..self.config.sources.len() {
            first.note(source(self, index, now));
        }
    }

    /// Newer obstacle input has waited longer than `overload_timeout` at
    /// `now` (ROS time, s): the answer is `overloaded` (whether or not
    /// another cause comes first).
    pub fn overloaded(&self, now: f64) -> bool {
        let overload = self.config.overload_timeout;
        self.pending_since
            .is_some_and(|since| overload > 0.0 && now - since > overload)
    }

    /// Every cause that holds against the report at `now`, one entry per
    /// input kind: the clock, the footprint, the obstacle inputs, the
    /// transforms. This is where an input kind is registered (see
    /// ARCHITECTURE.md, "Adding an input kind"), each noted in `first`,
    /// which keeps the first in the order of [`Cause`].
    pub(super) fn causes(&self, now: f64, first: &mut FirstCause) {
        let now = self.now(now);
        first.note(self.clock_cause);
        first.note(match &self.footprint {
            None => Some(Cause::NoFootprint),
            Some(footprint) => footprint.cause(now, self.config.footprint_timeout),
        });
        self.obstacle_causes(now, Self::source_cause, first);
        first.note(self.placements.cause());
    }

    /// The first cause at `now` that holds against the answer apart from
    /// the footprint's, in the order of [`Cause`]: what a node with no
    /// footprint configured (a velocity gate alone) still judges.
    /// `no_footprint` comes before every source's cause, so the flag's own
    /// status would hide them.
    /// The footprint's placements (in the obstacles' and the point
    /// sources' frames) are the footprint's too: left out.
    pub fn cause_apart_from_footprint(&self, now: f64) -> Option<Cause> {
        let mut first = FirstCause::default();
        first.note(self.clock_cause);
        self.obstacle_causes(self.now(now), Self::source_data_cause, &mut first);
        first.get()
    }

    /// The verdict on the inputs at `now`, with `more` causes (an invalid
    /// obstacle, the velocity's).
    pub(super) fn verdict(&self, now: f64, more: [Option<Cause>; 2]) -> Verdict {
        let mut first = FirstCause::default();
        self.causes(now, &mut first);
        more.into_iter().for_each(|cause| first.note(cause));
        Verdict::decided(first, self.config.fail_safe)
    }

    /// The decision of [`evaluate`](Self::evaluate) without the
    /// per-obstacle report: the same `colliding`, `valid` and `status`, for
    /// one pass over the obstacles' boxes and the exact test on the few
    /// that could touch the footprint. What the node publishes first.
    pub fn flag(&self, now: f64) -> Flag {
        let geometry = self.footprint().is_some_and(|footprint| {
            self.placed_groups().any(|(group, placement)| {
                self.set
                    .span(group)
                    .any_collision(placement.footprint(footprint), self.config.padding)
            }) || self.points_collide(footprint)
        });
        let invalid = self.set.any_invalid().then_some(Cause::InvalidObstacle);
        self.verdict(now, [invalid, None]).flag(geometry)
    }

    /// The groups that could be placed, with their placement.
    pub(super) fn placed_groups(&self) -> impl Iterator<Item = (&Group, &placement::Placement)> {
        self.set
            .groups
            .iter()
            .zip(&self.placements.groups)
            .filter_map(|(g, p)| p.as_ref().ok().map(|p| (g, p)))
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
            outcomes: Vec::with_capacity(self.obstacles().len()),
            sources: Vec::new(),
            peers: Vec::new(),
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
        let obstacles = self.obstacles();
        if report.outcomes.capacity() > 4 * obstacles.len().max(1024) {
            report.outcomes.shrink_to_fit();
        }
        // Geometry is still computed when only freshness or frames are in
        // doubt: it explains the picture, but it no longer decides alone.
        let mut summary = Summary::empty();
        if let Some(footprint) = self.footprint() {
            // No range: every outcome exact.
            let range = self.finite_exact_range().unwrap_or(f64::INFINITY);
            let padding = self.config.padding;
            for (group, placement) in self.set.groups.iter().zip(&self.placements.groups) {
                let placement = match placement {
                    Ok(placement) => placement,
                    Err(cause) => {
                        // Not placed: no geometry, the transform's status.
                        report
                            .outcomes
                            .extend(group.range.clone().map(|_| ObstacleOutcome {
                                status: Status::from(*cause),
                                contact: None,
                                exact: true,
                            }));
                        continue;
                    }
                };
                // Turned into the global frame as they are written.
                let part = self.set.span(group).report(
                    placement.footprint(footprint),
                    padding,
                    range,
                    placement.to_global.as_ref(),
                    &mut report.outcomes,
                );
                summary.merge(&part);
            }
        }
        let mut sources = std::mem::take(&mut report.sources);
        let inside = self.source_outcomes(self.footprint(), self.now(now), &mut sources);
        let mut peers = std::mem::take(&mut report.peers);
        self.peer_outcomes(self.footprint(), &mut peers);
        report.peers = peers;
        let points_collide = inside >= self.min_points();
        report.min_distance = summary.min_distance;
        // The nearest of the obstacles and the sources' nearest points
        // (ties: the obstacle).
        let nearest_source = sources
            .iter()
            .filter(|s| s.contact.is_some())
            .min_by(|a, b| a.rank().total_cmp(&b.rank()))
            .filter(|s| s.rank() < summary.nearest_rank() || summary.nearest.is_none());
        report.min_distance = sources
            .iter()
            .map(SourceOutcome::distance)
            .fold(summary.min_distance, f64::min);
        match (nearest_source, summary.nearest) {
            (Some(source), _) => report.nearest_obstacle_id.push_str(&source.name),
            (None, Some(i)) => report.nearest_obstacle_id.push_str(&obstacles[i].id),
            (None, None) => {}
        }
        report.sources = sources;
        let invalid = summary.any_invalid.then_some(Cause::InvalidObstacle);
        let decision = self
            .verdict(now, [invalid, None])
            .flag(summary.any_colliding || points_collide);
        report.colliding = decision.colliding;
        report.valid = decision.valid;
        report.status = decision.status;
    }
}
