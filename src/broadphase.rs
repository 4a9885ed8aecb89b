//! Broad phase: one footprint against many obstacles, for the node's
//! per-message report.
//!
//! # What stays exact
//!
//! [`ObstacleIndex::check`] fills the same per-obstacle report as
//! [`check_obstacles`](crate::model::check_obstacles) and returns the same
//! [`Summary`] as [`summarize`](crate::model::summarize) over it. The
//! collision flag, `min_distance` and the nearest obstacle are always
//! **exact**: every obstacle that collides, or that could be the nearest,
//! goes through the exact narrow phase. So does every obstacle whose box is
//! within `exact_range` metres of the padded footprint's box.
//!
//! Any other obstacle is *far*: its outcome has `exact == false` and a
//! cheap answer that is still true, never a guess:
//! * `colliding == false` (certain: its box is farther than the tolerance);
//! * `distance` is a **lower bound** of the clearance: the gap between the
//!   boxes minus the length tolerance;
//! * `axis` is a separating axis (±x or ±y, from the footprint toward the
//!   obstacle), `depth` 0, `mtv` zero, `closest` `None`.
//!
//! With `exact_range = f64::INFINITY` every outcome is exact and identical to
//! [`check_obstacles`](crate::model::check_obstacles).
//!
//! # Why a flat array of boxes (not a grid, a BVH or sort-and-sweep)
//!
//! Obstacles are replaced wholesale by every obstacle message, and the index
//! is queried by one footprint per footprint message. The full report has
//! one entry per obstacle, so each query is Θ(N) whatever the index: a grid
//! or BVH could only shrink the set of obstacles that get the exact
//! narrow phase, and a linear pass over the boxes finds exactly the same set
//! (the threshold is a distance, known after one exact query). What remains
//! is the constant: the boxes live in four contiguous `f64` arrays
//! (structure of arrays), so the pass streams 32 bytes per obstacle with no
//! pointer chasing. Rebuilding is a copy, O(N) with no allocation once the
//! buffers are large enough, against O(N) hashing for a grid (plus choosing a
//! cell size for obstacles of any size) and O(N log N) for a BVH or the sort
//! of sort-and-sweep, which is built for many-against-many pairs. The flag
//! alone ([`ObstacleIndex::any_collision`]) is the same pass without the
//! outcomes. A grid would pay off for many planner poses against one
//! obstacle set; see BENCHMARKS.md.
//!
//! # Bounds are honest
//!
//! The padded footprint's box is the footprint's box grown by `padding` on
//! every side, which contains the footprint grown by a disc of that radius,
//! so the gap between boxes never exceeds the true clearance. The length
//! tolerance subtracted from it covers rounding; the threshold that decides
//! which obstacles get the exact query adds it back twice.

use crate::geometry::{intersects, query, Contact};
use crate::geometry::{length_tolerance, Aabb, Point, Shape, Vector};
use crate::geometry::{time_of_impact, Impact, Motion};
use crate::model::{Obstacle, ObstacleOutcome, Status, Summary};
use nalgebra::Isometry2;

/// Boxes of a set of obstacles, in obstacle order, rebuilt whenever the set
/// changes. Invalid obstacles get an empty box (it is never near anything).
#[derive(Clone, Debug, Default)]
pub struct ObstacleIndex {
    min_x: Vec<f64>,
    min_y: Vec<f64>,
    max_x: Vec<f64>,
    max_y: Vec<f64>,
    /// Indices of invalid obstacles.
    invalid: Vec<usize>,
    /// Largest absolute coordinate of any valid obstacle (tolerance scale).
    magnitude: f64,
}

impl ObstacleIndex {
    /// Indexes the boxes of `obstacles` (the same slice, in the same order,
    /// is passed to every query).
    pub fn new(obstacles: &[Obstacle]) -> Self {
        let mut index = ObstacleIndex::default();
        index.rebuild(obstacles);
        index
    }

    /// Re-indexes `obstacles`, reusing the buffers: no allocation once they
    /// have held as many obstacles.
    pub fn rebuild(&mut self, obstacles: &[Obstacle]) {
        self.min_x.clear();
        self.min_y.clear();
        self.max_x.clear();
        self.max_y.clear();
        self.invalid.clear();
        self.magnitude = 0.0;
        for (i, obstacle) in obstacles.iter().enumerate() {
            match &obstacle.shape {
                Ok(shape) => {
                    let aabb = shape.aabb();
                    self.magnitude = self.magnitude.max(aabb.magnitude());
                    self.min_x.push(aabb.min.x);
                    self.min_y.push(aabb.min.y);
                    self.max_x.push(aabb.max.x);
                    self.max_y.push(aabb.max.y);
                }
                Err(_) => {
                    self.invalid.push(i);
                    self.min_x.push(f64::INFINITY);
                    self.min_y.push(f64::INFINITY);
                    self.max_x.push(f64::NEG_INFINITY);
                    self.max_y.push(f64::NEG_INFINITY);
                }
            }
        }
    }

    /// Number of obstacles indexed.
    pub fn len(&self) -> usize {
        self.min_x.len()
    }

    /// True when no obstacle is indexed.
    pub fn is_empty(&self) -> bool {
        self.min_x.is_empty()
    }

    /// The report for `footprint` (inflated by `padding`) against
    /// `obstacles`, which must be the slice this index was last rebuilt
    /// from. Writes one outcome per obstacle into `out` (cleared first) and
    /// returns what [`summarize`](crate::model::summarize) would return for
    /// it. Outcomes of obstacles farther than `exact_range` (box to box) that
    /// cannot be the nearest are lower bounds; see the module documentation.
    /// No allocation once `out` has held as many outcomes.
    pub fn check(
        &self,
        footprint: &Shape,
        padding: f64,
        obstacles: &[Obstacle],
        exact_range: f64,
        out: &mut Vec<ObstacleOutcome>,
    ) -> Summary {
        out.clear();
        self.check_append(footprint, padding, obstacles, exact_range, out)
    }

    /// [`check`](Self::check), with the outcomes appended to `out` (what
    /// is already there stays): a report over obstacles in several frames
    /// checks each frame's obstacles with its own index into one buffer.
    /// The summary's `nearest` counts from the first appended outcome.
    pub fn check_append(
        &self,
        footprint: &Shape,
        padding: f64,
        obstacles: &[Obstacle],
        exact_range: f64,
        out: &mut Vec<ObstacleOutcome>,
    ) -> Summary {
        self.check_append_to(footprint, padding, obstacles, exact_range, None, out)
    }

    /// [`check_append`](Self::check_append), each outcome turned by `pose`
    /// (`None`: as it is) as it is written: the obstacles' frame into the
    /// report's (see [`ObstacleOutcome::transform`]). The far outcomes'
    /// axes come from a table of the four turned box normals, so turning
    /// costs the pass over 10,000 obstacles nothing per obstacle.
    pub fn check_append_to(
        &self,
        footprint: &Shape,
        padding: f64,
        obstacles: &[Obstacle],
        exact_range: f64,
        pose: Option<&Isometry2<f64>>,
        out: &mut Vec<ObstacleOutcome>,
    ) -> Summary {
        let normals = [Vector::x(), -Vector::x(), Vector::y(), -Vector::y()];
        let axes = pose.map_or(normals, |p| normals.map(|n| p.rotation * n));
        assert_eq!(
            obstacles.len(),
            self.len(),
            "ObstacleIndex::check: index not rebuilt for these obstacles"
        );
        let padding = padding.max(0.0);
        let probe = Probe::new(self, footprint, padding);
        let (fp, tol) = (probe.fp, probe.tol);
        let gaps = |i: usize| probe.gaps(self, i);

        // Pass 1, over the boxes only: the obstacle whose box is nearest.
        // One exact query against it bounds the nearest clearance: anything
        // whose box is farther cannot be the nearest, nor collide.
        let mut nearest_box = None;
        let mut nearest_squared = f64::INFINITY;
        for i in 0..self.len() {
            let (dx, dy) = gaps(i);
            let squared = dx * dx + dy * dy;
            if squared < nearest_squared {
                nearest_squared = squared;
                nearest_box = Some(i);
            }
        }
        let first = nearest_box.map(|i| (i, exact(footprint, padding, &obstacles[i])));
        let threshold = match first {
            Some((_, outcome)) => exact_range.max(outcome.contact.map_or(0.0, |c| c.distance())),
            None => exact_range,
        } + 2.0 * tol;

        // Pass 2: every obstacle gets its honest far answer (a tight loop
        // that only streams boxes in and outcomes out); the few within the
        // threshold are remembered (on the stack: no allocation).
        let mut near = [0usize; NEAR_CAPACITY];
        let mut near_len = 0;
        let base = out.len();
        out.extend((0..self.len()).map(|i| {
            let (dx, dy) = gaps(i);
            let distance = box_distance(dx, dy);
            if distance <= threshold {
                if near_len < NEAR_CAPACITY {
                    near[near_len] = i;
                }
                near_len += 1;
            }
            far_outcome(distance - tol, self.axis(i, &fp, dx, dy, &axes))
        }));

        // Pass 3: exact answers within the threshold, and the summary over
        // them in obstacle order (ties resolve as in `summarize`: the first
        // one wins). Far outcomes cannot change it: their distance exceeds
        // the nearest's. More near obstacles than the stack holds: find
        // them again.
        let mut summary = Summary::empty();
        summary.any_invalid = !self.invalid.is_empty();
        let mut visit = |i: usize| {
            if obstacles[i].shape.is_err() {
                return;
            }
            let mut outcome = match first {
                Some((j, outcome)) if j == i => outcome,
                _ => exact(footprint, padding, &obstacles[i]),
            };
            if let Some(pose) = pose {
                outcome.transform(pose);
            }
            out[base + i] = outcome;
            if let Some(contact) = &outcome.contact {
                summary.record(i, contact);
            }
        };
        if near_len <= NEAR_CAPACITY {
            near[..near_len].iter().for_each(|&i| visit(i));
        } else {
            (0..self.len())
                .filter(|&i| {
                    let (dx, dy) = gaps(i);
                    box_distance(dx, dy) <= threshold
                })
                .for_each(visit);
        }
        for &i in &self.invalid {
            let status = match &obstacles[i].shape {
                Err(e) => Status::from(e),
                Ok(_) => unreachable!("index out of date"),
            };
            out[base + i] = ObstacleOutcome {
                status,
                contact: None,
                exact: true,
            };
        }
        summary
    }
}

impl ObstacleIndex {
    /// Whether `footprint` (inflated by `padding`) touches or overlaps any
    /// of `obstacles` (the slice this index was last rebuilt from): the
    /// `any_colliding` of [`check`](Self::check), without the report. One
    /// pass over the boxes; only obstacles whose box comes within the
    /// threshold `check` uses for "could collide" get the exact test, and
    /// it stops at the first collision.
    pub fn any_collision(&self, footprint: &Shape, padding: f64, obstacles: &[Obstacle]) -> bool {
        assert_eq!(
            obstacles.len(),
            self.len(),
            "ObstacleIndex::any_collision: index not rebuilt for these obstacles"
        );
        let padding = padding.max(0.0);
        let probe = Probe::new(self, footprint, padding);
        let reach = 2.0 * probe.tol;
        (0..self.len()).any(|i| {
            let (dx, dy) = probe.gaps(self, i);
            // Per-axis first: most boxes are rejected without the square root.
            dx <= reach
                && dy <= reach
                && box_distance(dx, dy) <= reach
                && obstacles[i]
                    .shape
                    .as_ref()
                    .is_ok_and(|shape| intersects(footprint, shape, padding))
        })
    }

    /// Whether any indexed obstacle is invalid.
    pub fn any_invalid(&self) -> bool {
        !self.invalid.is_empty()
    }
}

/// Shortest clearance found by [`Candidates::nearest`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nearest {
    /// Exact clearance (m) from the padded footprint to the nearest valid
    /// obstacle; 0 when one touches or overlaps it; infinite when there is
    /// none.
    pub distance: f64,
    /// That obstacle (the first colliding one when colliding).
    pub index: Option<usize>,
}

impl ObstacleIndex {
    /// The valid obstacles near a region (a path's swept box): each with
    /// the gap between its box and `region` (a lower bound of its distance
    /// to anything inside `region`), nearest first. Built once per path,
    /// it serves every pose and every segment inside the region
    /// ([`Candidates::nearest`], [`Candidates::first_impact`]): a query
    /// walks it in order and stops at the first gap beyond what it needs,
    /// instead of passing over every box again.
    pub fn candidates(&self, region: &Aabb, obstacles: &[Obstacle]) -> Candidates {
        let mut near: Vec<(f64, usize)> = Vec::new();
        if obstacles.len() == self.len() {
            near.extend(
                obstacles
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| o.shape.is_ok())
                    .map(|(i, _)| {
                        let aabb = Aabb {
                            min: Point::new(self.min_x[i], self.min_y[i]),
                            max: Point::new(self.max_x[i], self.max_y[i]),
                        };
                        (region.distance(&aabb), i)
                    }),
            );
            near.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        }
        Candidates {
            near,
            magnitude: self.magnitude.max(region.magnitude()),
            consistent: obstacles.len() == self.len(),
        }
    }

    /// The first contact of `footprint` (in its body frame) moved by
    /// `motion` over `[0, duration]`, inflated by `padding`, with any
    /// valid obstacle: the obstacle and its [`Impact`]. Only obstacles
    /// whose box meets the box swept by the footprint are tried, and each
    /// one only up to the earliest contact found so far.
    pub fn first_impact(
        &self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
        obstacles: &[Obstacle],
    ) -> Option<(usize, Impact)> {
        if obstacles.len() != self.len() {
            return None;
        }
        let padding = padding.max(0.0);
        let swept = motion.swept_aabb(footprint, padding, duration);
        let scale = swept.magnitude().max(self.magnitude).max(padding);
        let swept = swept.inflated(2.0 * length_tolerance(scale));
        let mut best: Option<(usize, Impact)> = None;
        for (i, obstacle) in obstacles.iter().enumerate() {
            let aabb = Aabb {
                min: Point::new(self.min_x[i], self.min_y[i]),
                max: Point::new(self.max_x[i], self.max_y[i]),
            };
            if !swept.intersects(&aabb) {
                continue;
            }
            let Ok(shape) = &obstacle.shape else {
                continue;
            };
            earlier_impact(&mut best, i, footprint, motion, duration, shape, padding);
        }
        best
    }
}

/// The padded footprint's box and the tolerance one query against an index
/// works with.
struct Probe {
    fp: Aabb,
    /// At least the tolerance of every pair `query` will look at.
    tol: f64,
}

impl Probe {
    fn new(index: &ObstacleIndex, footprint: &Shape, padding: f64) -> Self {
        let fp = footprint.aabb().inflated(padding);
        let scale = fp.magnitude().max(index.magnitude).max(padding);
        Probe {
            fp,
            tol: length_tolerance(scale),
        }
    }

    /// Gaps between obstacle `i`'s box and the padded footprint's box along
    /// x and y (0 when they overlap).
    #[inline]
    fn gaps(&self, index: &ObstacleIndex, i: usize) -> (f64, f64) {
        let obstacle = Aabb {
            min: Point::new(index.min_x[i], index.min_y[i]),
            max: Point::new(index.max_x[i], index.max_y[i]),
        };
        let gaps = self.fp.gaps(&obstacle);
        (gaps.x, gaps.y)
    }
}

impl ObstacleIndex {
    /// A separating axis of the padded footprint's box `fp` and obstacle
    /// `i`'s box, given their gaps: from the footprint toward the obstacle.
    #[inline]
    /// `axes`: +x, -x, +y, -y (turned into the report's frame).
    fn axis(&self, i: usize, fp: &Aabb, dx: f64, dy: f64, axes: &[Vector; 4]) -> Vector {
        match dx >= dy {
            true if self.min_x[i] >= fp.max.x => axes[0],
            true => axes[1],
            false if self.min_y[i] >= fp.max.y => axes[2],
            false => axes[3],
        }
    }
}

/// Near obstacles remembered on the stack by one check; more are found by a
/// second pass over the boxes.
const NEAR_CAPACITY: usize = 64;

/// Euclidean length of the gaps, without overflow.
#[inline]
fn box_distance(dx: f64, dy: f64) -> f64 {
    let squared = dx * dx + dy * dy;
    match squared.is_finite() {
        true => squared.sqrt(),
        false => dx.hypot(dy),
    }
}

/// The honest answer for a far obstacle: `bound` is a lower bound of the
/// clearance, `axis` separates.
#[inline]
fn far_outcome(bound: f64, axis: Vector) -> ObstacleOutcome {
    ObstacleOutcome {
        status: Status::Ok,
        contact: Some(Contact::Apart {
            distance: bound.max(0.0),
            axis,
            closest: None,
        }),
        exact: false,
    }
}

/// The exact outcome for one valid obstacle.
fn exact(footprint: &Shape, padding: f64, obstacle: &Obstacle) -> ObstacleOutcome {
    ObstacleOutcome {
        status: Status::Ok,
        contact: obstacle
            .shape
            .as_ref()
            .ok()
            .map(|shape| query(footprint, shape, padding)),
        exact: true,
    }
}

#[cfg(test)]
pub(crate) mod tests;

/// Obstacles sorted by their box's gap to a region; see
/// [`ObstacleIndex::candidates`].
#[derive(Clone, Debug, Default)]
pub struct Candidates {
    /// (gap to the region, obstacle index), ascending.
    near: Vec<(f64, usize)>,
    /// Tolerance scale of the index and the region.
    magnitude: f64,
    /// Built for the obstacles it was asked about.
    consistent: bool,
}

impl Candidates {
    /// The exact clearance from a `footprint` inside the region (inflated
    /// by `padding`) to the nearest valid obstacle: the `min_distance` of
    /// [`ObstacleIndex::check`] without a report. Its box is inside the
    /// region, so no obstacle nearer to it than the region's gap exists:
    /// the walk stops at the first gap beyond the best clearance so far.
    pub fn nearest(&self, footprint: &Shape, padding: f64, obstacles: &[Obstacle]) -> Nearest {
        let mut best = Nearest {
            distance: f64::INFINITY,
            index: None,
        };
        if !self.consistent {
            best.distance = 0.0;
            return best;
        }
        let padding = padding.max(0.0);
        let fp = footprint.aabb().inflated(padding);
        let tol = length_tolerance(fp.magnitude().max(self.magnitude).max(padding));
        for &(region_gap, i) in &self.near {
            if best.distance <= 0.0 || region_gap - tol >= best.distance {
                break;
            }
            let Ok(shape) = &obstacles[i].shape else {
                continue;
            };
            if fp.distance(&shape.aabb()) - tol >= best.distance {
                continue;
            }
            let contact = query(footprint, shape, padding);
            if contact.distance() < best.distance {
                best = Nearest {
                    distance: contact.distance(),
                    index: Some(i),
                };
            }
        }
        best
    }

    /// [`ObstacleIndex::first_impact`] for a motion whose swept box is
    /// inside the region: only obstacles touching the region are tried.
    pub fn first_impact(
        &self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
        obstacles: &[Obstacle],
    ) -> Option<(usize, Impact)> {
        let swept = motion.swept_aabb(footprint, padding.max(0.0), duration);
        self.first_impact_within(&swept, footprint, motion, duration, padding, obstacles)
    }

    /// [`first_impact`](Self::first_impact) with the motion's swept box
    /// (`motion.swept_aabb(footprint, padding, duration)`, or any box
    /// holding it) computed by the caller, who needed it already.
    pub fn first_impact_within(
        &self,
        swept: &Aabb,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
        obstacles: &[Obstacle],
    ) -> Option<(usize, Impact)> {
        if !self.consistent {
            return None;
        }
        let padding = padding.max(0.0);
        let tol = length_tolerance(swept.magnitude().max(self.magnitude).max(padding));
        let swept = swept.inflated(2.0 * tol);
        let mut best: Option<(usize, Impact)> = None;
        for &(region_gap, i) in &self.near {
            if region_gap > 2.0 * tol {
                break;
            }
            let Ok(shape) = &obstacles[i].shape else {
                continue;
            };
            if !swept.intersects(&shape.aabb()) {
                continue;
            }
            earlier_impact(&mut best, i, footprint, motion, duration, shape, padding);
        }
        best
    }
}

/// One obstacle's turn in a search for the first impact: `shape` (obstacle
/// `i`) is tried only up to the earliest contact found so far (else up to
/// `duration`), and becomes `best` when it is touched earlier.
fn earlier_impact(
    best: &mut Option<(usize, Impact)>,
    i: usize,
    footprint: &Shape,
    motion: &Motion,
    duration: f64,
    shape: &Shape,
    padding: f64,
) {
    let horizon = best.map_or(duration, |(_, impact)| impact.time);
    if let Some(impact) = time_of_impact(footprint, motion, horizon, shape, padding) {
        if best.is_none_or(|(_, b)| impact.time < b.time) {
            *best = Some((i, impact));
        }
    }
}
