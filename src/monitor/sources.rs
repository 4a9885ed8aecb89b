//! Sensor sources: laser scans, point clouds and range sensors as point
//! obstacles, and polygon sources, configured as nav2's collision monitor
//! configures them (`observation_sources`, `<name>.type`, ...).
//!
//! A point source is an input kind like the others ([`SourcePoints`], see
//! ARCHITECTURE.md, "Adding an input kind"): stamped on arrival, judged by
//! the one freshness rule with its own `source_timeout`, and its points are
//! obstacles of zero size in the engine ([`PointSet`]), placed by TF like
//! every obstacle group (one frame, one stamp). A polygon source's
//! polygons are obstacle instances with the source's timeout.

use super::config::{SourceKind, SourceSpec};
use super::inputs::{Now, SourceData, SourcePoints};
use super::motion::MovingObstacle;
use super::placement::Placement;
use super::state::Monitor;
use crate::broadphase::{ObstacleIndex, PointSet};
use crate::geometry::{moving_time_of_impact, query, Contact, Impact, Motion, Point, Shape};
use crate::model::{Cause, FirstCause, PeerOutcome, PeerStatus, SourceOutcome, Status};
use std::sync::Arc;

/// A point source placed: its data and the footprint in its frame.
pub(super) struct PlacedSource<'a> {
    /// Position in [`MonitorConfig::sources`](super::MonitorConfig::sources).
    pub(super) index: usize,
    pub(super) points: &'a PointSet,
    /// A costmap's cells, a fleet's peers (empty for the other sources).
    pub(super) cells: &'a ObstacleIndex,
    /// A fleet's peers moving, one per cell (empty for the other sources).
    pub(super) moving: &'a [MovingObstacle],
    /// A fleet's peers' statuses, one per cell.
    pub(super) peer_statuses: &'a [PeerStatus],
    pub(super) placement: &'a Placement,
}

/// How many toward `min_points` `cells` inside `shape` (padded) count, up
/// to `need`: a costmap's cell one each, a fleet's peer (`peers`) `need`
/// alone: one robot is enough.
pub(super) fn cells_inside(
    cells: &ObstacleIndex,
    peers: bool,
    shape: &Shape,
    padding: f64,
    need: usize,
) -> usize {
    if peers {
        if cells.all().count_colliding(shape, padding, 1) > 0 {
            need
        } else {
            0
        }
    } else {
        cells.all().count_colliding(shape, padding, need)
    }
}

/// The first contact of `shape` moved by `motion` over `[0, duration]`
/// (padded by `padding`) with any of `moving` (each padded by its own):
/// both motions, rotation included, never late
/// ([`moving_time_of_impact`]); the peer's position and the impact. Only
/// peers whose swept box meets the shape's are tried.
pub(super) fn first_moving_impact(
    shape: &Shape,
    motion: &Motion,
    moving: &[MovingObstacle],
    duration: f64,
    padding: f64,
) -> Option<(usize, Impact)> {
    let mut best: Option<(usize, Impact)> = None;
    let swept = motion.swept_aabb(shape, padding, duration);
    for (i, peer) in moving.iter().enumerate() {
        let horizon = best.map_or(duration, |(_, b)| b.time);
        let theirs = peer.motion.swept_aabb(&peer.shape, peer.padding, horizon);
        if !swept.intersects(&theirs) {
            continue;
        }
        let hit = moving_time_of_impact(
            shape,
            motion,
            &peer.shape,
            &peer.motion,
            horizon,
            padding + peer.padding,
        );
        if let Some(hit) = hit {
            if best.is_none_or(|(_, b)| hit.time < b.time) {
                best = Some((i, hit));
            }
        }
    }
    best
}

/// The id of polygon `id` of the polygon source `source` (in reports,
/// markers and the obstacle set): `<source>/<id>`.
pub fn source_polygon_id(source: &str, id: i64) -> String {
    format!("{}{id}", source_polygon_prefix(source))
}

/// What the ids of the polygon source `source`'s polygons start with:
/// `<source>/` (a source's name holds no `/`, see `config`).
pub fn source_polygon_prefix(source: &str) -> String {
    format!("{source}/")
}

impl Monitor {
    /// The position of the source named `name` in the configuration.
    fn source_index(&self, name: &str) -> Option<usize> {
        self.config.sources.iter().position(|s| s.name == name)
    }

    /// The latest message of the point source `name`: its points in
    /// `frame_id` (a point cloud's: in the base frame, after the 3-D
    /// transform), stamped `stamp` (its header time, s; 0: placed with the
    /// latest transform), arriving `now`. False (and nothing kept) for a
    /// name that is not a configured point source.
    pub fn set_source_points(
        &mut self,
        name: &str,
        frame_id: &str,
        stamp: f64,
        points: PointSet,
        now: f64,
    ) -> bool {
        self.set_points(name, frame_id, stamp, points, false, now)
    }

    /// [`set_source_points`](Self::set_source_points) for points moved
    /// into `frame_id` from their message's own frame by its transform at
    /// `stamp` (a point cloud's, into the base frame): they are where that
    /// frame was at `stamp`, so the velocity gate's `base_shift_correction`
    /// still applies to them (see `monitor::regions`), where the points of
    /// a message in the base frame itself need no transform.
    pub fn set_moved_source_points(
        &mut self,
        name: &str,
        frame_id: &str,
        stamp: f64,
        points: PointSet,
        now: f64,
    ) -> bool {
        self.set_points(name, frame_id, stamp, points, true, now)
    }

    /// The two above: `moved`, the points were moved into `frame_id`.
    fn set_points(
        &mut self,
        name: &str,
        frame_id: &str,
        stamp: f64,
        points: PointSet,
        moved: bool,
        now: f64,
    ) -> bool {
        let payload = SourcePoints {
            points: Arc::new(points),
            cells: Arc::default(),
            moving: Arc::default(),
            peer_statuses: Arc::default(),
            fault: None,
            moved,
        };
        self.set_source(name, frame_id, stamp, payload, now)
    }

    /// The latest costmap of the costmap source `name`: its obstacle
    /// cells, each the square it covers (`sensors::costmap_cells`), in
    /// `frame_id` stamped `stamp` (its header time, s), arriving `now`.
    /// They are obstacles counted as points are: each cell touching the
    /// padded footprint or a zone counts one toward `min_points`. False
    /// (and nothing kept) for a name that is not a configured costmap
    /// source.
    pub fn set_source_cells(
        &mut self,
        name: &str,
        frame_id: &str,
        stamp: f64,
        cells: ObstacleIndex,
        now: f64,
    ) -> bool {
        let costmap = self
            .source_index(name)
            .is_some_and(|i| self.config.sources[i].kind == SourceKind::Costmap);
        if !costmap {
            return false;
        }
        let payload = SourcePoints {
            points: Arc::default(),
            cells: Arc::new(cells),
            moving: Arc::default(),
            peer_statuses: Arc::default(),
            fault: None,
            moved: false,
        };
        self.set_source(name, frame_id, stamp, payload, now)
    }

    /// The fleet source `name`'s peers at `now` (see [`crate::fleet`]):
    /// `cells`, each peer's footprint grown by its age, in `frame_id` (the
    /// shared frame), `moving`, the same peers (one per cell, in its
    /// order) moving for the prediction, and their `statuses` (for the
    /// report). Stamped `now`: the peers' own
    /// ages are in their growth. False (and nothing kept) for a name that
    /// is not a configured fleet source, or when the two lists differ in
    /// length.
    pub fn set_source_peers(
        &mut self,
        name: &str,
        frame_id: &str,
        cells: ObstacleIndex,
        moving: Vec<MovingObstacle>,
        statuses: Vec<PeerStatus>,
        now: f64,
    ) -> bool {
        let fleet = self
            .source_index(name)
            .is_some_and(|i| self.config.sources[i].kind == SourceKind::Fleet);
        if !fleet || cells.len() != moving.len() || cells.len() != statuses.len() {
            return false;
        }
        let payload = SourcePoints {
            points: Arc::default(),
            cells: Arc::new(cells),
            moving: moving.into(),
            peer_statuses: statuses.into(),
            fault: None,
            moved: false,
        };
        self.set_source(name, frame_id, now, payload, now)
    }

    /// Whether the source at `index` is a fleet.
    pub(super) fn source_is_fleet(&self, index: usize) -> bool {
        self.config
            .sources
            .get(index)
            .is_some_and(|s| s.kind == SourceKind::Fleet)
    }

    /// The cells held by the source at `index` (a costmap's, a fleet's
    /// peers).
    pub(super) fn source_cells(&self, index: usize) -> Option<&ObstacleIndex> {
        Some(&self.sources.get(index)?.as_ref()?.payload.cells)
    }

    /// The point source `name`'s latest message could not be used:
    /// `cause` ([`Cause::InvalidSource`] for a malformed message, a
    /// transform's cause when its frame could not be placed in 3-D). It
    /// replaces the previous message: the source holds no point and the
    /// answer is not valid until a good message arrives (or, stale, after
    /// its timeout). False for a name that is not a configured point
    /// source.
    pub fn reject_source(&mut self, name: &str, cause: Cause, now: f64) -> bool {
        let payload = SourcePoints {
            points: Arc::default(),
            cells: Arc::default(),
            moving: Arc::default(),
            peer_statuses: Arc::default(),
            fault: Some(cause),
            moved: false,
        };
        self.set_source(name, "", 0.0, payload, now)
    }

    fn set_source(
        &mut self,
        name: &str,
        frame_id: &str,
        stamp: f64,
        payload: SourcePoints,
        now: f64,
    ) -> bool {
        let Some(i) = self.source_index(name) else {
            return false;
        };
        if !self.config.sources[i].kind.is_points() {
            return false;
        }
        let now = self.now(now);
        self.sources[i] = Some(SourceData::new(frame_id, stamp, payload, now));
        self.replace();
        true
    }

    /// Enables or disables the source `name` (`<name>.enabled`); a disabled
    /// source counts for nothing. False for an unknown name.
    pub fn set_source_enabled(&mut self, name: &str, enabled: bool) -> bool {
        let Some(i) = self.source_index(name) else {
            return false;
        };
        self.config.sources[i].enabled = enabled;
        self.replace();
        true
    }

    /// The point buffer of the source `name`'s previous message, emptied,
    /// when no report holds it any more: the next message's points are
    /// read into it (no allocation per message once it has grown).
    pub fn recycle_source_points(&mut self, name: &str) -> PointSet {
        let data = self
            .source_index(name)
            .and_then(|i| self.sources.get_mut(i))
            .and_then(Option::as_mut);
        match data.and_then(|d| Arc::get_mut(&mut d.payload.points)) {
            Some(points) => {
                let mut points = std::mem::take(points);
                points.clear();
                points
            }
            None => PointSet::new(),
        }
    }

    /// How many sensor points are in use: those of every enabled source
    /// whose data are usable and placed, a costmap's cells counted as
    /// points (`/diagnostics`).
    pub fn source_points_in_use(&self) -> usize {
        self.placed_sources()
            .map(|s| s.points.len() + s.cells.len())
            .sum()
    }

    /// The points of every placed source inside the padded footprint, in
    /// the global frame, at most `limit` of them, appended to `out`: what
    /// the markers draw.
    pub fn source_points_inside(&self, limit: usize, out: &mut Vec<Point>) {
        let Some(footprint) = self.footprint() else {
            return;
        };
        let mut inside = Vec::new();
        for source in self.placed_sources() {
            inside.clear();
            let placed = source.placement.footprint(footprint);
            source
                .points
                .inside(placed, self.config.padding, &mut inside);
            let room = limit.saturating_sub(out.len());
            let points = inside.iter().take(room).map(|&i| source.points.point(i));
            match &source.placement.to_global {
                Some(pose) => out.extend(points.map(|p| pose * p)),
                None => out.extend(points),
            }
        }
    }

    /// Aligns the sources' data with a new configuration, by name.
    pub(super) fn align_sources(&mut self, old: &[SourceSpec]) {
        let mut previous = std::mem::take(&mut self.sources);
        self.sources = self
            .config
            .sources
            .iter()
            .map(|spec| {
                old.iter()
                    .position(|o| o.name == spec.name && o.kind == spec.kind)
                    .and_then(|i| previous.get_mut(i).and_then(Option::take))
            })
            .collect();
    }

    /// The enabled point sources whose data are usable (no fault) and
    /// could be placed.
    pub(super) fn placed_sources(&self) -> impl Iterator<Item = PlacedSource<'_>> {
        (0..self.config.sources.len()).filter_map(|index| self.placed_source(index))
    }

    /// The source at `index`, when it is enabled, its data are usable and
    /// it could be placed.
    fn placed_source(&self, index: usize) -> Option<PlacedSource<'_>> {
        let spec = self.config.sources.get(index)?;
        let data = self.sources.get(index)?.as_ref().filter(|_| spec.enabled)?;
        let placement = self.placements.sources.get(index)?.as_ref().ok()?;
        data.payload.fault.is_none().then_some(PlacedSource {
            index,
            points: &data.payload.points,
            cells: &data.payload.cells,
            moving: &data.payload.moving,
            peer_statuses: &data.payload.peer_statuses,
            placement,
        })
    }

    /// [`MonitorConfig::min_points`](super::MonitorConfig::min_points),
    /// at least 1: how many points inside make a collision.
    pub(super) fn min_points(&self) -> usize {
        self.config.min_points.max(1)
    }

    /// The cause the source at `index` holds against the flag and the
    /// report at `now`, if it is enabled: its data's
    /// ([`source_data_cause`](Self::source_data_cause)), or, for a point
    /// source, the cause of placing the footprint in its frame. (A polygon
    /// source's polygons are obstacles of groups, placed with them.)
    pub(super) fn source_cause(&self, index: usize, now: Now) -> Option<Cause> {
        self.source_data_cause(index, now).or_else(|| {
            let spec = self.config.sources.get(index)?;
            if !(spec.enabled && spec.kind.is_points()) {
                return None;
            }
            self.placements
                .sources
                .get(index)
                .and_then(|p| p.as_ref().err().copied())
        })
    }

    /// The cause the data of the source at `index` hold against using it
    /// at `now`, if it is enabled: the one rule that says whether a
    /// source's data can be used, for the flag, the report and the
    /// velocity gate alike (each then places the data its own way: the
    /// footprint into the data's frame, the gate's zones into it).
    ///
    /// * A point source: nothing received ([`Cause::NoSourceData`]), from
    ///   before a clock jump, stale, or its message's fault.
    /// * A polygon source (see [`polygon_source_cause`](Self::polygon_source_cause)):
    ///   no polygon held, a polygon stale or from before a clock jump, or
    ///   one whose shape is invalid.
    pub(super) fn source_data_cause(&self, index: usize, now: Now) -> Option<Cause> {
        let spec = self.config.sources.get(index)?;
        if !spec.enabled {
            return None;
        }
        if !spec.kind.is_points() {
            return self.polygon_source_cause(spec, now);
        }
        match self.sources.get(index).and_then(Option::as_ref) {
            None => Some(Cause::NoSourceData),
            Some(data) => data.cause(now, spec.timeout),
        }
    }

    /// The cause a polygon source holds against an answer at `now`: as
    /// nav2's polygon source, one that holds no polygon (none received,
    /// or every one gone past its `source_timeout`) cannot be used
    /// ([`Cause::NoSourceData`]); a polygon received before a backward
    /// jump of the clock, or stale by the one freshness rule with the
    /// source's timeout (before its expiry drops it), makes it
    /// [`Cause::ClockJumpedBack`] or [`Cause::StaleSource`]; a polygon
    /// whose shape is invalid (crossing itself, fewer than 3 vertices)
    /// makes it [`Cause::InvalidSource`]: nav2 samples such a polygon's
    /// edges and acts on them, this node cannot place a shape that is not
    /// one, so it stops rather than ignore it. Where its polygons' frames
    /// cannot be placed is the placement's cause, judged by who places them.
    fn polygon_source_cause(&self, spec: &SourceSpec, now: Now) -> Option<Cause> {
        let prefix = source_polygon_prefix(&spec.name);
        let mut first = FirstCause::default();
        let mut held = false;
        let polygons = self.set.instances.range::<str, _>((
            std::ops::Bound::Included(prefix.as_str()),
            std::ops::Bound::Unbounded,
        ));
        for (_, polygon) in polygons.take_while(|(id, _)| id.starts_with(&prefix)) {
            held = true;
            if polygon.before_jump(now) {
                first.note(Some(Cause::ClockJumpedBack));
            } else if polygon.is_stale(now.time, spec.timeout) {
                first.note(Some(Cause::StaleSource));
            } else if !polygon.payload.valid {
                first.note(Some(Cause::InvalidSource));
            }
        }
        if !held {
            return Some(Cause::NoSourceData);
        }
        first.get()
    }

    /// Some enabled point source has delivered a message: the monitor has
    /// obstacle information.
    pub(super) fn any_source_data(&self) -> bool {
        self.config
            .sources
            .iter()
            .zip(&self.sources)
            .any(|(spec, data)| spec.enabled && data.is_some())
    }

    /// Whether the points of every placed source together hold at least
    /// [`MonitorConfig::min_points`](super::MonitorConfig::min_points)
    /// inside the padded footprint: the points' part of the flag.
    pub(super) fn points_collide(&self, footprint: &Shape) -> bool {
        let need = self.min_points();
        let mut count = 0;
        for source in self.placed_sources() {
            let placed = source.placement.footprint(footprint);
            count += source
                .points
                .count_inside(placed, self.config.padding, need - count);
            let peers = !source.moving.is_empty();
            count += cells_inside(
                source.cells,
                peers,
                placed,
                self.config.padding,
                need - count,
            );
            if count >= need {
                return true;
            }
        }
        false
    }

    /// The sources' entries of a report (enabled point sources, in the
    /// configuration's order), their contacts in the global frame;
    /// returns the points inside the footprint, all sources together.
    pub(super) fn source_outcomes(
        &self,
        footprint: Option<&Shape>,
        now: Now,
        out: &mut Vec<SourceOutcome>,
    ) -> usize {
        out.clear();
        let mut total = 0;
        for (index, spec) in self.config.sources.iter().enumerate() {
            if !(spec.enabled && spec.kind.is_points()) {
                continue;
            }
            let mut outcome = SourceOutcome {
                name: spec.name.clone(),
                status: Status::of(self.source_cause(index, now)),
                colliding: false,
                points: 0,
                points_inside: 0,
                contact: None,
                point: None,
            };
            if let (Some(source), Some(footprint)) = (self.placed_source(index), footprint) {
                let report = source
                    .points
                    .report(source.placement.footprint(footprint), self.config.padding);
                outcome.points = source.points.len();
                outcome.points_inside = report.inside;
                total += report.inside;
                let mut nearest = report.nearest.map(|(i, c)| (c, source.points.point(i)));
                if !source.cells.is_empty() {
                    let (cells, padding) = (source.cells.all(), self.config.padding);
                    let placed = source.placement.footprint(footprint);
                    outcome.points += cells.len();
                    let inside = cells.count_colliding(placed, padding, usize::MAX);
                    outcome.points_inside += inside;
                    // A fleet's peer is enough alone.
                    total += if source.moving.is_empty() {
                        inside
                    } else {
                        inside.saturating_mul(self.min_points())
                    };
                    // The nearest cell (a touching one when some are), its
                    // contact exact; its point the cell's centre.
                    let near = cells.near(&placed.aabb()).nearest(placed, padding);
                    let cell = near
                        .index
                        .and_then(|i| cells.obstacles()[i].shape.as_ref().ok());
                    if let Some(cell) = cell {
                        let contact = query(placed, cell, padding);
                        if nearest.is_none_or(|(c, _)| rank(&contact) < rank(&c)) {
                            nearest = Some((contact, cell.aabb().center()));
                        }
                    }
                }
                if let Some((contact, point)) = nearest {
                    (outcome.contact, outcome.point) = match &source.placement.to_global {
                        Some(pose) => (Some(contact.transformed(pose)), Some(pose * point)),
                        None => (Some(contact), Some(point)),
                    };
                }
            }
            out.push(outcome);
        }
        let enough = total >= self.min_points();
        for outcome in out.iter_mut() {
            outcome.colliding = enough && outcome.points_inside > 0;
        }
        total
    }
}

/// Segments of a round peer's outline in a report (peers are polygons:
/// only a degenerate one would be round).
const OUTLINE_SEGMENTS: usize = 16;

impl Monitor {
    /// The fleet sources' peers' entries of a report (by source, then the
    /// peers' order), their contacts in the global frame, into `out`.
    pub(super) fn peer_outcomes(&self, footprint: Option<&Shape>, out: &mut Vec<PeerOutcome>) {
        out.clear();
        let Some(footprint) = footprint else {
            return;
        };
        for source in self.placed_sources() {
            if source.moving.is_empty() {
                continue;
            }
            let placed = source.placement.footprint(footprint);
            let peers = source.cells.obstacles().iter().zip(source.peer_statuses);
            for (cell, (peer, &status)) in peers.enumerate() {
                let mut outline = peer
                    .shape
                    .as_ref()
                    .map_or_else(|_| Vec::new(), |s| s.outline(OUTLINE_SEGMENTS));
                if let Some(pose) = &source.placement.to_global {
                    outline.iter_mut().for_each(|p| *p = pose * *p);
                }
                let contact = peer
                    .shape
                    .as_ref()
                    .ok()
                    .map(|shape| query(placed, shape, self.config.padding));
                let contact = match (&source.placement.to_global, contact) {
                    (Some(pose), Some(c)) => Some(c.transformed(pose)),
                    (_, c) => c,
                };
                out.push(PeerOutcome {
                    id: peer.id.clone(),
                    status,
                    colliding: contact.is_some_and(|c| c.colliding()),
                    contact,
                    outline,
                    index: (source.index, cell),
                });
            }
        }
    }
}

/// How near a contact is, lower nearer: the clearance, or minus the depth.
fn rank(contact: &Contact) -> f64 {
    match *contact {
        Contact::Colliding { depth, .. } => -depth,
        Contact::Apart { distance, .. } => distance,
    }
}

#[cfg(test)]
mod tests;
