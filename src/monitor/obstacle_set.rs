//! Every obstacle the monitor knows (zones, the latest array, instances),
//! grouped by frame and stamp, held once in the engine's index.

use super::inputs::{Instance, ObstacleArray};
use crate::broadphase::{ObstacleIndex, Span};
use crate::geometry::Shape;
use crate::limits::{MAX_INSTANCES, MAX_INSTANCE_VERTICES};
use crate::model::{Obstacle, Rejection};
use std::collections::BTreeMap;
use std::ops::Range;

/// One obstacle instance to insert or replace by id
/// ([`Monitor::upsert_instances`](super::Monitor::upsert_instances)).
#[derive(Clone, Debug)]
pub struct InstanceUpdate {
    /// The frame of the obstacle's points.
    pub frame_id: String,
    /// Header stamp (s); 0: placed with the latest transform.
    pub stamp: f64,
    /// The obstacle, validated.
    pub obstacle: Obstacle,
    /// Its own lifetime (s; a polygon source's `source_timeout`, 0 =
    /// never); `None`: `obstacles_timeout`.
    pub lifetime: Option<f64>,
    /// When it arrived (s).
    pub received: f64,
}

/// What [`Monitor::upsert_instances`](super::Monitor::upsert_instances) did not simply apply: the refused
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
pub(super) fn held_vertices(obstacle: &Obstacle) -> usize {
    match &obstacle.shape {
        Ok(Shape::Convex(p)) => p.len(),
        Ok(Shape::Compound(c)) => c.outline().len(),
        Ok(Shape::Circle(_)) => 1,
        Err(_) => obstacle.rejected_points.len(),
    }
}

/// A refused obstacle instance: it keeps the report not valid for as long
/// as the instance would have lived.
#[derive(Clone, Copy, Debug)]
pub(super) struct RejectedInstance {
    pub(super) rejection: Rejection,
    pub(super) received: f64,
}

/// Obstacles that share a frame and a stamp: the footprint is placed in
/// their frame once for all of them, and they are one run of the index
/// (queried as one span, with their own tolerance scale).
#[derive(Clone, Debug, Default)]
pub(super) struct Group {
    pub(super) frame_id: String,
    /// Header stamp (s); 0: the latest transform.
    pub(super) stamp: f64,
    /// Where they are in [`ObstacleSet::obstacles`].
    pub(super) range: Range<usize>,
}

/// Every obstacle the monitor knows (zones, the latest array, instances),
/// with when each source arrived, and the boxes of the broad phase.
///
/// Shared behind an [`Arc`](std::sync::Arc): the node builds a new set away from the
/// decision (validating and splitting big shapes takes time) and hands it
/// over whole; a report or a planner query keeps the set it started with.
#[derive(Clone, Debug, Default)]
pub struct ObstacleSet {
    /// Changes whenever the set does (unique in the process): what a viewer
    /// compares to know whether it has drawn this set already.
    pub(super) revision: u64,
    pub(super) array: Option<ObstacleArray>,
    pub(super) zones_frame: Option<String>,
    pub(super) instances: BTreeMap<String, Instance>,
    /// Vertices of every live instance (the sum of their
    /// `InstanceState::vertices`).
    pub(super) instance_vertices: usize,
    pub(super) rejected_instance: Option<RejectedInstance>,
    /// Zones, then the array's obstacles, then instances by frame, stamp
    /// and id (the only copy of each instance's obstacle), with their
    /// boxes; kept in this order on every change so evaluation walks one
    /// index, a span per group.
    pub(super) index: ObstacleIndex,
    /// Obstacles of instances upserted since the index was last rebuilt,
    /// in order, each with whether it replaces one already there: moved in
    /// by [`rebuild_instances`](Self::rebuild_instances), so a batch of
    /// upserts indexes the boxes once.
    staged: Vec<(Obstacle, bool)>,
    pub(super) zones_len: usize,
    pub(super) array_len: usize,
    /// The index by frame and stamp (its runs); rebuilt with it.
    pub(super) groups: Vec<Group>,
}

impl ObstacleSet {
    /// See [`ObstacleSet::revision`]'s field: equal revisions, equal sets.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Every obstacle: zones, array, instances.
    pub fn obstacles(&self) -> &[Obstacle] {
        self.index.obstacles()
    }

    /// A group's obstacles, for the engine's queries.
    pub(super) fn span(&self, group: &Group) -> Span<'_> {
        self.index.span(group.range.clone())
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
        let others = self.instance_vertices - old.map_or(0, |i| i.payload.vertices);
        if others.saturating_add(vertices) > MAX_INSTANCE_VERTICES {
            return Err(Rejection::TooManyVertices);
        }
        Ok(())
    }

    /// The earliest time at which an instance expires: with `timeout`, or
    /// with its own lifetime (a polygon source's `source_timeout`); a
    /// lifetime of 0 never expires.
    pub fn next_expiry(&self, timeout: f64) -> Option<f64> {
        self.instances
            .values()
            .filter_map(|i| {
                let lifetime = i.payload.lifetime(timeout);
                (lifetime > 0.0).then(|| i.expiry(lifetime))
            })
            .reduce(f64::min)
    }

    pub(super) fn set_zones(&mut self, frame_id: &str, zones: Vec<Obstacle>) {
        self.zones_frame = (!zones.is_empty()).then(|| frame_id.to_owned());
        let old_len = std::mem::replace(&mut self.zones_len, zones.len());
        self.rebuild_with(|obstacles, _| {
            let rest = obstacles.split_off(old_len);
            *obstacles = zones;
            obstacles.extend(rest);
        });
    }

    pub(super) fn set_array(&mut self, array: ObstacleArray, obstacles: Vec<Obstacle>) {
        self.array = Some(array);
        let (zones_len, old_start) = (self.zones_len, self.instances_start());
        self.array_len = obstacles.len();
        let array = obstacles;
        self.rebuild_with(|obstacles, _| {
            let instances = obstacles.split_off(old_start);
            obstacles.truncate(zones_len);
            obstacles.extend(array);
            obstacles.extend(instances);
        });
        self.shrink();
    }

    /// Records a refused instance; of two, the one received last (it lives
    /// longest).
    pub(super) fn refuse(&mut self, rejection: Rejection, received: f64) {
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
    pub(super) fn instances_start(&self) -> usize {
        self.zones_len + self.array_len
    }

    /// Inserts or replaces an instance's obstacle (moved in, replacing the
    /// old one in place, when [`rebuild_instances`](Self::rebuild_instances)
    /// puts it in its place: the caller calls it after a batch).
    pub(super) fn upsert(&mut self, instance: Instance, obstacle: Obstacle) {
        self.instance_vertices += instance.payload.vertices;
        let replaces = match self.instances.insert(obstacle.id.clone(), instance) {
            Some(old) => {
                self.instance_vertices -= old.payload.vertices;
                true
            }
            None => false,
        };
        self.staged.push((obstacle, replaces));
    }

    /// Drops the instances `gone` says so of (their obstacles with them).
    /// Returns how many.
    pub(super) fn drop_instances(&mut self, mut gone: impl FnMut(&Instance) -> bool) -> usize {
        self.drop_instances_where(|_, i| gone(i))
    }

    /// Drops the instances whose id `gone` names. Returns how many.
    pub(super) fn drop_instances_by_id(&mut self, mut gone: impl FnMut(&str) -> bool) -> usize {
        self.drop_instances_where(|id, _| gone(id))
    }

    fn drop_instances_where(&mut self, mut gone: impl FnMut(&str, &Instance) -> bool) -> usize {
        let before = self.instances.len();
        self.instances.retain(|id, i| !gone(id, i));
        let count = before - self.instances.len();
        if count > 0 {
            let start = self.instances_start();
            self.rebuild_with(|obstacles, instances| {
                let mut k = 0;
                obstacles.retain(|o| {
                    k += 1;
                    k <= start || instances.contains_key(&o.id)
                });
            });
            self.instance_vertices = self.instances.values().map(|i| i.payload.vertices).sum();
        }
        count
    }

    /// Moves the staged instances in, puts the instances (after the zones
    /// and the array) in frame, stamp and id order (those that share a
    /// frame and a stamp are one group), moving them, indexes the boxes and
    /// rebuilds the groups.
    pub(super) fn rebuild_instances(&mut self) {
        self.rebuild_with(|_, _| {});
    }

    /// [`rebuild_instances`](Self::rebuild_instances) after `edit` has
    /// changed the obstacles (given the instances' bookkeeping, already
    /// up to date): one indexing of the boxes for the whole change.
    fn rebuild_with(&mut self, edit: impl FnOnce(&mut Vec<Obstacle>, &BTreeMap<String, Instance>)) {
        let start = self.instances_start();
        let instances = &self.instances;
        let staged = &mut self.staged;
        self.index.update(|obstacles| {
            edit(obstacles, instances);
            for (obstacle, replaces) in staged.drain(..) {
                let old = match replaces {
                    true => obstacles[start..].iter().position(|o| o.id == obstacle.id),
                    false => None,
                };
                match old {
                    Some(i) => obstacles[start + i] = obstacle,
                    None => obstacles.push(obstacle),
                }
            }
            let key = |o: &Obstacle| instances.get(&o.id).map(|i| (&i.frame_id, i.stamp));
            obstacles[start..].sort_by(|a, b| match (key(a), key(b)) {
                (Some((fa, sa)), Some((fb, sb))) => {
                    fa.cmp(fb).then(sa.total_cmp(&sb)).then(a.id.cmp(&b.id))
                }
                _ => a.id.cmp(&b.id),
            });
        });
        let spans = self.spans();
        self.rebuild_groups(spans);
    }

    /// `(frame, stamp, count)` of each group, in `obstacles` order: the
    /// zones, the array, then runs of instances (sorted) that share a
    /// frame and a stamp.
    pub(super) fn spans(&self) -> Vec<(String, f64, usize)> {
        let mut spans: Vec<(String, f64, usize)> = Vec::new();
        if self.zones_len > 0 {
            let frame = self.zones_frame.clone().unwrap_or_default();
            spans.push((frame, 0.0, self.zones_len));
        }
        if let Some(array) = self.array.as_ref().filter(|_| self.array_len > 0) {
            spans.push((array.frame_id.clone(), array.stamp, self.array_len));
        }
        let fixed = spans.len();
        let instances = self.obstacles()[self.instances_start()..]
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

    /// The groups of `spans`, each one run of the index.
    pub(super) fn rebuild_groups(&mut self, spans: Vec<(String, f64, usize)>) {
        self.groups.clear();
        let mut start = 0;
        for (frame_id, stamp, len) in spans {
            self.groups.push(Group {
                frame_id,
                stamp,
                range: start..start + len,
            });
            start += len;
        }
        self.index.split(self.groups.iter().map(|g| g.range.len()));
    }

    /// Whether any obstacle is invalid.
    pub(super) fn any_invalid(&self) -> bool {
        self.index.any_invalid()
    }

    /// Gives memory back after a large message or many instances gone: a
    /// buffer more than four times (and 4,096 entries) larger than what it
    /// holds shrinks.
    pub(super) fn shrink(&mut self) {
        self.index.shrink();
    }
}
