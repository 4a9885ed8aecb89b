//! Regions fixed to the robot, now: the velocity gate's zones against the
//! sensor sources.
//!
//! A zone is a shape in the robot's base frame `B` as it is now; a source's
//! points are in their frame `F` as it was at their stamp `t_o`. As for
//! the footprint (see `placement`), the zone is moved, not the points:
//! into `F` by `T(F ← O, t_o) · T(O ← B, latest)` through a frame `O`
//! fixed in the world (nav2's `odom_frame_id`, with
//! `base_shift_correction`: the robot's motion since the points were
//! taken is accounted for), or by `T(F ← B, t_o)` without it (the points
//! are taken as if the robot had not moved since). A motion of the zone,
//! a body twist of `B`, is carried into `F` by the same pose.
//!
//! # A message in the base frame needs no transform
//! When a message's own frame is `B` (not a point cloud moved into `B`
//! from its sensor's frame), the zone is placed by the identity, with or
//! without `base_shift_correction`, and no transform is looked up: as
//! nav2, which asks TF for nothing when a source's frame is
//! `base_frame_id` (`costmap.cpp`: `if (src != base_frame_id_)` around
//! `getTransform`). Proof that this is the rule without the correction,
//! and what the correction would add:
//!
//! * Without it the pose is `T(F ← B, t_o)` with `F = B`: the identity
//!   whatever `t_o`, as every transform of a frame to itself (`frames`
//!   answers it so without a sample): nothing is asked that could fail.
//! * With it the pose is `T(B@t_o ← O, t_o) · T(O ← B, latest)`: the
//!   robot's motion between `t_o` and now, which only `O` (odometry) can
//!   tell. The identity takes the points as if the robot had not moved
//!   since `t_o`, as the correction off does for every source: the error
//!   is at most the robot's motion over the data's age, which
//!   `source_timeout` bounds (a source older is stale, and stops the
//!   gate). Asking `O` for it would make a missing or stale odometry
//!   transform (at start-up, in a recorded bag without `odom`) stop the
//!   gate for a source that needs no transform to be read.
//!
//! Every other case keeps its lookups and their fail-safe causes: a
//! message in another frame, and a point cloud moved into `B` from its
//! sensor's frame (`SourceInput::moved`: it is where `B` was at `t_o`,
//! reached through a transform, and nav2 corrects it too), need
//! `T(F ← O, t_o)` and `T(O ← B, latest)` with the correction,
//! `T(F ← B, t_o)` without, and stop the gate when one fails. A polygon
//! source's polygons follow the same rule by their group's frame.

use super::motion::MovingObstacle;
use super::placement::{non_identity, Transforms};
use super::sources::{cells_inside, first_moving_impact};
use super::state::Monitor;
use crate::broadphase::{ImpactBuffers, ObstacleIndex, PointSet};
use crate::geometry::{self, Motion, Point, Shape, Vector};
use crate::model::Cause;
use nalgebra::Isometry2;
use std::cell::RefCell;

/// Where the robot's base frame is, now, in the frame of each source's
/// latest points and of each group of obstacles, and whether the gate can
/// judge at all: what [`Monitor::place_base`] finds, for the region
/// queries of one check.
#[derive(Clone, Debug, Default)]
pub struct BasePlacement {
    /// Why the sources cannot be judged now, if they cannot (see
    /// [`fault`](Self::fault)).
    fault: Option<SourceFault>,
    /// Aligned with the configured sources: `T(F ← B)` (`None`: identity),
    /// or why the source cannot be used; `Ok(None)` too for a disabled or
    /// polygon source.
    sources: Vec<Result<Option<Isometry2<f64>>, Cause>>,
    /// Aligned with the obstacle set's groups: `T(F ← B)` for the groups
    /// holding polygon sources' obstacles (`None`: identity, or a group
    /// that could not be placed or holds none of them).
    groups: Vec<Option<Result<Option<Isometry2<f64>>, Cause>>>,
    /// The region queries' buffers, kept across checks (the caller reuses
    /// the placement every cycle): no allocation once they have grown.
    scratch: RefCell<Scratch>,
}

/// A usable point source in a region query: its points, its cells (a
/// costmap's, a fleet's peers), its peers' motions (empty but for a
/// fleet) and `T(F ← B)`.
type RegionSet<'a> = (
    &'a PointSet,
    &'a ObstacleIndex,
    &'a [MovingObstacle],
    Option<Isometry2<f64>>,
);

/// Why the sources cannot be judged: the cause, and the configured source
/// it concerns (`None`: the clock, which every source is judged by).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceFault {
    /// The source's index in [`MonitorConfig::sources`](super::MonitorConfig::sources);
    /// `None` for the clock.
    pub source: Option<usize>,
    /// Why.
    pub cause: Cause,
}

impl BasePlacement {
    /// The first reason, in the order of [`Cause`], why the sources cannot
    /// be judged now: the clock's cause (`no_clock`, `clock_stalled`),
    /// any enabled source's data by the rule the flag uses
    /// (`Monitor::source_data_cause`: nothing received, stale, from before
    /// a clock jump, malformed, a polygon source holding no polygon or an
    /// invalid one), or the base frame's placement in a source's frame.
    /// The velocity gate stops on it; `None`: every enabled source can be
    /// used.
    pub fn fault(&self) -> Option<SourceFault> {
        self.fault
    }

    /// Keeps `cause` of `source` when it comes before the fault so far.
    fn note(&mut self, source: Option<usize>, cause: Cause) {
        if self.fault.is_none_or(|f| cause < f.cause) {
            self.fault = Some(SourceFault { source, cause });
        }
    }
}

/// Buffers of the region queries: zones moved into a source's frame, the
/// contact times, the indices of the points inside.
#[derive(Clone, Debug, Default)]
struct Scratch {
    /// Moved zones, one per layout seen (at most [`SHAPES`]).
    shapes: Vec<Shape>,
    times: Vec<f64>,
    inside: Vec<usize>,
    /// A costmap's cells' contact search (`Span::first_impacts`).
    cells: ImpactBuffers,
}

/// At most this many moved-zone buffers (a gate has a few zones; beyond,
/// the last buffer is overwritten, reallocating when its layout differs).
const SHAPES: usize = 8;

impl Scratch {
    /// `region` moved by `pose` into a buffer of its layout.
    fn moved(&mut self, region: &Shape, pose: &Isometry2<f64>) -> &Shape {
        let index = match self.shapes.iter().position(|s| s.same_layout(region)) {
            Some(i) => i,
            None if self.shapes.len() < SHAPES => {
                self.shapes.push(region.clone());
                self.shapes.len() - 1
            }
            None => SHAPES - 1,
        };
        let slot = &mut self.shapes[index];
        slot.set_transformed(region, pose);
        slot
    }
}

impl BasePlacement {
    /// Runs `f` with the placement's buffers (fresh ones in the unexpected
    /// case they are in use: a re-entrant call).
    fn with_scratch<R>(&self, f: impl FnOnce(&mut Scratch) -> R) -> R {
        match self.scratch.try_borrow_mut() {
            Ok(mut scratch) => f(&mut scratch),
            Err(_) => f(&mut Scratch::default()),
        }
    }
}

/// The frames of a region query.
#[derive(Clone, Copy, Debug)]
pub struct BaseFrames<'a> {
    /// The robot's base frame (`base_frame_id`): the zones' frame.
    pub base: &'a str,
    /// The frame fixed in the world the points are carried through
    /// (`odom_frame_id`), when `base_shift_correction` is on.
    pub fixed: Option<&'a str>,
}

impl Monitor {
    /// Places the base frame, now, in every source's frame and every
    /// polygon source's group (see the module documentation), judged at
    /// `now` with the monitor's `transform_tolerance`, and judges whether
    /// the sources can be used at all ([`BasePlacement::fault`]): the
    /// clock and each source's data by the flag's own rule
    /// (`Monitor::source_data_cause`), so the gate never acts on a source
    /// whose data the flag calls unusable, then this placement.
    pub fn place_base(
        &self,
        tf: &(impl Transforms + ?Sized),
        frames: BaseFrames<'_>,
        now: f64,
        out: &mut BasePlacement,
    ) {
        let at = self.now(now);
        let tolerance = self.config.transform_tolerance;
        // T(O ← B) at the latest, once.
        let base_in_fixed = frames
            .fixed
            .filter(|fixed| *fixed != frames.base)
            .map(|fixed| tf.lookup(fixed, frames.base, 0.0, now, tolerance));
        // `moved`: points moved into `frame` from their message's frame
        // (a cloud's), which the correction still applies to.
        let place =
            |frame: &str, stamp: f64, moved: bool| -> Result<Option<Isometry2<f64>>, Cause> {
                // In the base frame as the message gave them, or stamped 0
                // (now), or without the correction: the identity, nothing
                // looked up (the module's "A message in the base frame").
                if frame == frames.base && (!moved || frames.fixed.is_none() || stamp == 0.0) {
                    return Ok(None);
                }
                let pose = match (frames.fixed, &base_in_fixed) {
                    (Some(fixed), Some(base)) => {
                        let base = (*base)?;
                        if frame == fixed {
                            base
                        } else {
                            tf.lookup(frame, fixed, stamp, now, tolerance)? * base
                        }
                    }
                    // The fixed frame is the base frame: nothing moves.
                    (Some(_), None) => tf.lookup(frame, frames.base, stamp, now, tolerance)?,
                    (None, _) => tf.lookup(frame, frames.base, stamp, now, tolerance)?,
                };
                Ok(non_identity(pose))
            };
        out.fault = None;
        if let Some(cause) = self.clock_cause {
            out.note(None, cause);
        }
        out.sources.clear();
        for (index, spec) in self.config.sources.iter().enumerate() {
            if !spec.enabled {
                out.sources.push(Ok(None));
                continue;
            }
            if let Some(cause) = self.source_data_cause(index, at) {
                out.note(Some(index), cause);
                out.sources.push(Err(cause));
                continue;
            }
            let placed = match self.sources.get(index).and_then(Option::as_ref) {
                Some(data) if spec.kind.is_points() => {
                    place(&data.frame_id, data.stamp, data.payload.moved)
                }
                _ => Ok(None),
            };
            if let Err(cause) = placed {
                out.note(Some(index), cause);
            }
            out.sources.push(placed);
        }
        out.groups.clear();
        for group in &self.set.groups {
            let obstacles = &self.set.obstacles()[group.range.clone()];
            let source = obstacles.iter().find_map(|o| self.polygon_source_of(&o.id));
            let Some(source) = source else {
                out.groups.push(None);
                continue;
            };
            let placed = place(&group.frame_id, group.stamp, false);
            if let Err(cause) = placed {
                out.note(Some(source), cause);
            }
            out.groups.push(Some(placed));
        }
    }

    /// The index of the enabled polygon source whose obstacle has this id
    /// (`<source>/<id>`).
    fn polygon_source_of(&self, id: &str) -> Option<usize> {
        let (name, _) = id.split_once('/')?;
        self.config
            .sources
            .iter()
            .position(|s| s.name == name && !s.kind.is_points() && s.enabled)
    }

    /// The usable point sets among `sources` (with a costmap's cells, a
    /// fleet's peers and their motions), each with `T(F ← B)`.
    fn region_sets<'a>(
        &'a self,
        placed: &'a BasePlacement,
        sources: &'a [usize],
    ) -> impl Iterator<Item = RegionSet<'a>> + 'a {
        sources.iter().filter_map(move |&i| {
            let spec = self.config.sources.get(i)?;
            if !(spec.enabled && spec.kind.is_points()) {
                return None;
            }
            let pose = *placed.sources.get(i)?.as_ref().ok()?;
            let data = self.sources.get(i)?.as_ref()?;
            data.payload.fault.is_none().then_some((
                &*data.payload.points,
                &*data.payload.cells,
                &*data.payload.moving,
                pose,
            ))
        })
    }

    /// The polygon sources' obstacles among `sources`: each with `T(F ←
    /// B)` of its group.
    fn region_polygons<'a>(
        &'a self,
        placed: &'a BasePlacement,
        sources: &'a [usize],
    ) -> impl Iterator<Item = (&'a Shape, Option<Isometry2<f64>>)> + 'a {
        self.set
            .groups
            .iter()
            .zip(&placed.groups)
            .filter_map(|(group, pose)| Some((group, (*pose.as_ref()?).ok()?)))
            .flat_map(move |(group, pose)| {
                self.set.obstacles()[group.range.clone()]
                    .iter()
                    .filter(move |o| {
                        self.polygon_source_of(&o.id)
                            .is_some_and(|s| sources.contains(&s))
                    })
                    .filter_map(move |o| Some((o.shape.as_ref().ok()?, pose)))
            })
    }

    /// Points of `sources` inside or touching `region` (base frame, now),
    /// counting stops at `enough`.
    pub fn region_points_inside(
        &self,
        placed: &BasePlacement,
        region: &Shape,
        sources: &[usize],
        enough: usize,
    ) -> usize {
        placed.with_scratch(|scratch| {
            let mut count = 0;
            for (set, cells, moving, pose) in self.region_sets(placed, sources) {
                if count >= enough {
                    break;
                }
                let moved = match pose {
                    Some(p) => scratch.moved(region, &p),
                    None => region,
                };
                count += set.count_inside(moved, 0.0, enough - count);
                let peers = !moving.is_empty();
                count += cells_inside(cells, peers, moved, 0.0, enough - count);
            }
            count
        })
    }

    /// The points of `sources` inside or touching `region`, in the base
    /// frame now, at most `limit`, appended to `out`.
    pub fn region_points(
        &self,
        placed: &BasePlacement,
        region: &Shape,
        sources: &[usize],
        limit: usize,
        out: &mut Vec<Point>,
    ) {
        placed.with_scratch(|scratch| {
            let mut inside = std::mem::take(&mut scratch.inside);
            for (set, cells, _, pose) in self.region_sets(placed, sources) {
                inside.clear();
                let moved = match pose {
                    Some(p) => scratch.moved(region, &p),
                    None => region,
                };
                set.inside(moved, 0.0, &mut inside);
                let back = pose.map(|p| p.inverse());
                let room = limit.saturating_sub(out.len());
                out.extend(inside.iter().take(room).map(|&i| {
                    let p = set.point(i);
                    back.map_or(p, |b| b * p)
                }));
                // A costmap's cells inside or touching: their centres.
                let room = limit.saturating_sub(out.len());
                let touching = cells.obstacles().iter().filter_map(|o| {
                    let cell = o.shape.as_ref().ok()?;
                    geometry::intersects(moved, cell, 0.0).then(|| cell.aabb().center())
                });
                out.extend(touching.take(room).map(|p| back.map_or(p, |b| b * p)));
            }
            scratch.inside = inside;
        })
    }

    /// Whether a polygon of the polygon sources among `sources` touches or
    /// overlaps `region`.
    pub fn region_polygons_touch(
        &self,
        placed: &BasePlacement,
        region: &Shape,
        sources: &[usize],
    ) -> bool {
        placed.with_scratch(|scratch| {
            self.region_polygons(placed, sources).any(|(shape, pose)| {
                let moved = match pose {
                    Some(p) => scratch.moved(region, &p),
                    None => region,
                };
                geometry::intersects(moved, shape, 0.0)
            })
        })
    }

    /// Moving `region` by the body twist (`linear`, `angular`) of the base
    /// frame from now: the first time in `[0, horizon]` at which it holds
    /// `min_points` points of `sources` (the `min_points`-th point's first
    /// contact, over all sources together: never later than the time they
    /// are inside at once) or touches one of their polygons.
    #[allow(clippy::too_many_arguments)]
    pub fn region_contact(
        &self,
        placed: &BasePlacement,
        region: &Shape,
        sources: &[usize],
        linear: Vector,
        angular: f64,
        horizon: f64,
        min_points: usize,
    ) -> Option<f64> {
        let motion = |pose: Option<Isometry2<f64>>| {
            Motion::twist(&pose.unwrap_or_else(Isometry2::identity), linear, angular)
        };
        let mut best: Option<f64> = None;
        // The k-th time over every source together: each source's own
        // first k times, merged (in the placement's buffer).
        let k = min_points.max(1);
        placed.with_scratch(|scratch| {
            let (times, buffers) = (&mut scratch.times, &mut scratch.cells);
            times.clear();
            for (set, cells, moving, pose) in self.region_sets(placed, sources) {
                let motion = motion(pose);
                set.first_impacts(region, &motion, horizon, 0.0, k, times);
                if moving.is_empty() {
                    // A costmap's cells, each its own first contact: the
                    // `k` earliest are all the merge can take from them.
                    cells
                        .all()
                        .first_impacts(region, &motion, horizon, 0.0, k, buffers, times);
                } else if let Some((_, hit)) =
                    first_moving_impact(region, &motion, moving, horizon, 0.0)
                {
                    // A fleet's first peer, both moving: enough alone.
                    times.extend(std::iter::repeat_n(hit.time, k));
                }
            }
            if times.len() >= k {
                // Unstable: no buffer (equal times are alike).
                times.sort_unstable_by(f64::total_cmp);
                best = Some(times[k - 1]);
            }
        });
        for (shape, pose) in self.region_polygons(placed, sources) {
            let within = best.unwrap_or(horizon);
            if let Some(hit) = geometry::time_of_impact(region, &motion(pose), within, shape, 0.0) {
                best = Some(best.map_or(hit.time, |b| b.min(hit.time)));
            }
        }
        best
    }

    /// Whether moving `region` by the body twist (`linear`, `angular`) of
    /// the base frame over `[0, horizon]` lets no point or polygon of
    /// `sources` new into it and takes none already in it deeper
    /// (`geometry::point_escapes`, `geometry::polygon_escapes`).
    pub fn region_escapes(
        &self,
        placed: &BasePlacement,
        region: &Shape,
        sources: &[usize],
        linear: Vector,
        angular: f64,
        horizon: f64,
    ) -> bool {
        let motion = |pose: Option<Isometry2<f64>>| {
            Motion::twist(&pose.unwrap_or_else(Isometry2::identity), linear, angular)
        };
        let points = self
            .region_sets(placed, sources)
            .all(|(set, cells, moving, pose)| {
                let m = motion(pose);
                set.escapes(region, &m, horizon)
                    && if moving.is_empty() {
                        self.cells_escape(placed, region, cells, &m, horizon)
                    } else {
                        // A fleet's peers move on their own: escaping one is
                        // leaving it behind, which a moving peer may not
                        // allow; a region a peer touches, or one a peer meets
                        // within the horizon (both moving), does not escape.
                        first_moving_impact(region, &m, moving, horizon, 0.0).is_none()
                    }
            });
        points
            && self.region_polygons(placed, sources).all(|(shape, pose)| {
                let m = motion(pose);
                let start = m.pose_at(0.0);
                let outside = placed.with_scratch(|scratch| {
                    !geometry::intersects(scratch.moved(region, &start), shape, 0.0)
                });
                if outside {
                    // Outside now: it must stay outside.
                    return geometry::time_of_impact(region, &m, horizon, shape, 0.0).is_none();
                }
                geometry::polygon_escapes(region, &m, shape, horizon)
            })
    }

    /// Whether moving `region` by `motion` over `[0, horizon]` lets no
    /// cell of a costmap new into it and takes none already in it deeper:
    /// a cell it does not touch now must not be reached (no impact within
    /// the horizon); one it touches, by [`geometry::polygon_escapes`] (the
    /// rule of a polygon source's polygons). Only cells the moving region
    /// can reach are tried (the impacts' swept box).
    fn cells_escape(
        &self,
        placed: &BasePlacement,
        region: &Shape,
        cells: &ObstacleIndex,
        motion: &Motion,
        horizon: f64,
    ) -> bool {
        if cells.is_empty() {
            return true;
        }
        let start = motion.pose_at(0.0);
        let hits = cells.all().impacts(region, motion, horizon, 0.0);
        hits.iter().zip(cells.obstacles()).all(|(hit, cell)| {
            let (Some(_), Ok(cell)) = (hit, &cell.shape) else {
                return true;
            };
            let touching = placed.with_scratch(|scratch| {
                geometry::intersects(scratch.moved(region, &start), cell, 0.0)
            });
            touching && geometry::polygon_escapes(region, motion, cell, horizon)
        })
    }

    /// The configured sources' names, in order (`sources_names` are their
    /// indices).
    pub fn source_names(&self) -> impl Iterator<Item = &str> {
        self.config.sources.iter().map(|s| s.name.as_str())
    }
}
