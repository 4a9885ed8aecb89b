//! `sat_collision._core`: the extension module of the Python package
//! `sat_collision`, on the library's public API (no ROS).
//!
//! One class, `Index`: the obstacles validated and indexed once
//! ([`ObstacleIndex`]), and the questions a planner asks of them, each
//! answered with the GIL released (pyo3's `Python::detach`, formerly
//! `allow_threads`):
//!
//! | method | what | the library's |
//! | --- | --- | --- |
//! | `check` | per pose: colliding, clearance, depth, MTV, the deepest or nearest obstacle | `query` |
//! | `collides` | per pose: colliding | `intersects` |
//! | `check_path` | the first contact along a path, continuous between poses | `Span::near`, `Near::first_impact` per segment (the node's `check_path`) |
//! | `time_to_collision` | the first contact under a constant twist | `Span::first_impact` (`time_of_impact`, `Motion::twist`) |
//!
//! One pose's questions start from a grid over the obstacles' boxes
//! (`grid.rs`): the few obstacles near the footprint, without a pass over
//! all of them; the exact answers are the library's pair queries. A path's
//! segments are taken in runs of `RUN`, each asking the index once for
//! what lies near the box the run sweeps ([`Span::near`]).
//!
//! The Python layer (`sat_collision/__init__.py`) turns shapely
//! geometries and array-likes into the float64 arrays this module takes;
//! this module checks them again (shapes, finiteness): bad input is a
//! `ValueError`, never a panic. A panic all the same (a bug) is caught
//! and raised as `RuntimeError`.
//!
//! [`Span::near`]: sat_collision::broadphase::Span::near

#![warn(missing_docs)]

use nalgebra::{Isometry2, Vector2};
use numpy::ndarray::{Array2, ArrayView1, ArrayView2};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use sat_collision::broadphase::ObstacleIndex;
use sat_collision::geometry::{
    intersects, length_tolerance, query, Aabb, Contact, Motion, Point, Shape, Vector,
    MAX_COORDINATE,
};
use sat_collision::model::{Obstacle, ObstacleGeometry};
use std::ops::{ControlFlow, Range};
use std::panic::{catch_unwind, AssertUnwindSafe};

mod grid;
use grid::Grid;

/// Path segments per run: one region query of the index each.
const RUN: usize = 32;

/// Most obstacles one index holds: the grid lists each in up to 64 cells
/// (32-bit numbers), which bounds its memory.
const MAX_OBSTACLES: usize = 1 << 20;

/// Fewest poses one thread is given: a smaller batch is one thread's.
const PER_THREAD: usize = 2048;

/// The threads a call of `n` poses uses: up to `asked`, fewer when each
/// would have fewer than [`PER_THREAD`] poses.
fn threads_for(n: usize, asked: usize) -> Answer<usize> {
    if asked == 0 {
        return Err("threads must be >= 1".to_string());
    }
    Ok(asked.min(n / PER_THREAD).max(1))
}

/// `work` over `0..n` cut into `threads` consecutive ranges, each on a
/// scoped thread (the first on this one); the answers in order. A thread
/// that cannot be started leaves its range to this one; a panic on
/// another thread goes on here (and becomes `RuntimeError`).
fn split<T: Send>(n: usize, threads: usize, work: impl Fn(Range<usize>) -> T + Sync) -> Vec<T> {
    if threads <= 1 {
        return vec![work(0..n)];
    }
    let size = n.div_ceil(threads);
    let ranges: Vec<Range<usize>> = (0..threads)
        .map(|t| (t * size).min(n)..((t + 1) * size).min(n))
        .collect();
    let work = &work;
    std::thread::scope(|scope| {
        let started: Vec<_> = ranges[1..]
            .iter()
            .map(|range| {
                let mine = range.clone();
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || work(mine))
                    .map_err(|_| range.clone())
            })
            .collect();
        let mut out = vec![work(ranges[0].clone())];
        for thread in started {
            out.push(match thread {
                Ok(handle) => match handle.join() {
                    Ok(answer) => answer,
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                Err(range) => work(range),
            });
        }
        out
    })
}

/// What a call gives back or refuses: a refusal is a `ValueError`.
type Answer<T> = Result<T, String>;

/// Runs `work` with the GIL released; a refusal becomes `ValueError`, a
/// panic `RuntimeError` (never an abort).
fn detached<T: Send>(py: Python<'_>, work: impl FnOnce() -> Answer<T> + Send) -> PyResult<T> {
    match py.detach(|| catch_unwind(AssertUnwindSafe(work))) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(message)) => Err(PyValueError::new_err(message)),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown".to_string());
            Err(PyRuntimeError::new_err(format!(
                "sat_collision internal error (please report): {what}"
            )))
        }
    }
}

/// The points of an `(M, 2)` array.
fn points(array: &ArrayView2<'_, f64>, what: &str) -> Answer<Vec<Point>> {
    if array.ncols() != 2 {
        return Err(format!(
            "{what}: expected an (M, 2) array of points, got shape {:?}",
            array.shape()
        ));
    }
    Ok(array
        .rows()
        .into_iter()
        .map(|row| Point::new(row[0], row[1]))
        .collect())
}

/// The footprint: a polygon (convex or concave) in the robot's frame.
fn footprint(array: &ArrayView2<'_, f64>) -> Answer<Shape> {
    Shape::polygon(&points(array, "footprint")?).map_err(|e| format!("footprint: {e}"))
}

/// One pose `(x, y, yaw)`; `what` names it in the refusal.
fn pose(x: f64, y: f64, yaw: f64, what: impl FnOnce() -> String) -> Answer<Isometry2<f64>> {
    let within = |v: f64| v.is_finite() && v.abs() <= MAX_COORDINATE;
    if within(x) && within(y) && yaw.is_finite() {
        Ok(Isometry2::new(Vector2::new(x, y), yaw))
    } else {
        Err(format!(
            "{}: x and y must be finite and within ±{MAX_COORDINATE:e}, yaw finite; got ({x}, {y}, {yaw})",
            what()
        ))
    }
}

/// The poses of an `(N, 3)` array of `x, y, yaw`, checked as [`pose`]
/// checks them but not made into transforms.
fn raw_poses(array: &ArrayView2<'_, f64>) -> Answer<Vec<[f64; 3]>> {
    if array.ncols() != 3 {
        return Err(format!(
            "poses: expected an (N, 3) array of x, y, yaw, got shape {:?}",
            array.shape()
        ));
    }
    let within = |v: f64| v.is_finite() && v.abs() <= MAX_COORDINATE;
    let mut out = Vec::with_capacity(array.nrows());
    for (k, row) in array.rows().into_iter().enumerate() {
        let (x, y, yaw) = (row[0], row[1], row[2]);
        if !(within(x) && within(y) && yaw.is_finite()) {
            pose(x, y, yaw, || format!("poses: pose {k}"))?;
        }
        out.push([x, y, yaw]);
    }
    Ok(out)
}

/// Each pose of an `(N, 3)` array of `x, y, yaw` into `visit`, in order,
/// checked as [`pose`] checks them (the first bad one refuses the call),
/// without a copy of the array.
fn each_pose(array: &ArrayView2<'_, f64>, mut visit: impl FnMut([f64; 3])) -> Answer<()> {
    if array.ncols() != 3 {
        return Err(format!(
            "poses: expected an (N, 3) array of x, y, yaw, got shape {:?}",
            array.shape()
        ));
    }
    let within = |v: f64| v.is_finite() && v.abs() <= MAX_COORDINATE;
    let mut one = |k: usize, x: f64, y: f64, yaw: f64| -> Answer<()> {
        if !(within(x) && within(y) && yaw.is_finite()) {
            pose(x, y, yaw, || format!("poses: pose {k}"))?;
        }
        visit([x, y, yaw]);
        Ok(())
    };
    match array.as_slice() {
        Some(flat) => {
            for (k, p) in flat.chunks_exact(3).enumerate() {
                one(k, p[0], p[1], p[2])?;
            }
        }
        None => {
            for (k, p) in array.rows().into_iter().enumerate() {
                one(k, p[0], p[1], p[2])?;
            }
        }
    }
    Ok(())
}

/// The poses of an `(N, 3)` array of `x, y, yaw`.
fn poses(array: &ArrayView2<'_, f64>) -> Answer<Vec<Isometry2<f64>>> {
    Ok(raw_poses(array)?
        .into_iter()
        .map(|[x, y, yaw]| Isometry2::new(Vector2::new(x, y), yaw))
        .collect())
}

/// A `(3,)` array: `what` names it.
fn triple(array: &ArrayView1<'_, f64>, what: &str) -> Answer<[f64; 3]> {
    match array.as_slice() {
        Some(&[a, b, c]) => Ok([a, b, c]),
        _ if array.len() == 3 => Ok([array[0], array[1], array[2]]),
        _ => Err(format!(
            "{what}: expected 3 numbers, got shape {:?}",
            array.shape()
        )),
    }
}

/// A padding (m): finite and `>= 0`.
fn padding(padding: f64) -> Answer<f64> {
    if padding.is_finite() && padding >= 0.0 {
        Ok(padding)
    } else {
        Err(format!("padding must be finite and >= 0, got {padding}"))
    }
}

/// `(x, y, yaw)` of a pose, the yaw in `(-π, π]`.
fn xy_yaw(pose: &Isometry2<f64>) -> [f64; 3] {
    [
        pose.translation.vector.x,
        pose.translation.vector.y,
        pose.rotation.angle(),
    ]
}

/// The obstacles one search has visited: a stamp per obstacle, the
/// search's own stamp a new one each time (no clearing).
struct Seen {
    stamps: Vec<u32>,
    stamp: u32,
}

impl Seen {
    fn new(len: usize) -> Self {
        Seen {
            stamps: vec![0; len],
            stamp: 0,
        }
    }

    /// A new search: nothing visited.
    fn next(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
    }

    /// Whether obstacle `i` is visited for the first time in this search
    /// (it is marked visited).
    fn first(&mut self, i: usize) -> bool {
        let first = self.stamps[i] != self.stamp;
        self.stamps[i] = self.stamp;
        first
    }
}

/// Per pose, what [`Index::check`] answers.
struct PoseAnswers {
    colliding: Vec<bool>,
    clearance: Vec<f64>,
    depth: Vec<f64>,
    /// `x, y` per pose.
    mtv: Vec<f64>,
    obstacle: Vec<i64>,
}

/// The first contact along a path: the segment, the time from the first
/// pose, the obstacle, the pose at contact, whether exact, the distance
/// travelled.
type PathContact = (usize, f64, i64, [f64; 3], bool, f64);

/// The first contact along a path, and every pose's clearance.
type PathAnswer = (Option<PathContact>, Vec<f64>);

/// The first contact of a motion: the time, the obstacle, the pose at
/// contact, whether exact.
type MotionContact = (f64, i64, [f64; 3], bool);

/// The obstacles, validated and indexed once, and the questions asked of
/// them. Obstacles are named by their position in the input (`owners`).
#[pyclass(frozen, module = "sat_collision._core")]
struct Index {
    index: ObstacleIndex,
    /// Each obstacle's box (all are valid).
    boxes: Vec<Aabb>,
    /// Each obstacle's position in the input.
    owners: Vec<i64>,
    /// Largest absolute coordinate of the obstacles: the tolerance scale.
    magnitude: f64,
    /// The boxes in a grid: the obstacles a single footprint may meet.
    grid: Grid,
}

impl Index {
    /// Validates and indexes the polygons and circles, numbered by
    /// `owners` (default: polygons first, then circles).
    fn build(
        polygons: &[ArrayView2<'_, f64>],
        circles: Option<&ArrayView2<'_, f64>>,
        owners: Option<&[i64]>,
    ) -> Answer<Self> {
        let count = polygons.len() + circles.map_or(0, |c| c.nrows());
        if count > MAX_OBSTACLES {
            return Err(format!(
                "at most {MAX_OBSTACLES} obstacles are accepted, got {count}"
            ));
        }
        let owners: Vec<i64> = match owners {
            Some(owners) if owners.len() == count => owners.to_vec(),
            Some(owners) => {
                return Err(format!(
                    "owners: one per obstacle ({count}), got {}",
                    owners.len()
                ))
            }
            None => (0..count as i64).collect(),
        };
        let mut obstacles = Vec::with_capacity(count);
        for (k, polygon) in polygons.iter().enumerate() {
            let what = format!("obstacle {}", owners[k]);
            let geometry = ObstacleGeometry::Polygon(points(polygon, &what)?);
            obstacles.push(Obstacle::new(what, &geometry));
        }
        if let Some(circles) = circles {
            if circles.ncols() != 3 {
                return Err(format!(
                    "circles: expected a (C, 3) array of cx, cy, r, got shape {:?}",
                    circles.shape()
                ));
            }
            for (j, row) in circles.rows().into_iter().enumerate() {
                let what = format!("obstacle {} (circle {j})", owners[polygons.len() + j]);
                let geometry = ObstacleGeometry::Circle {
                    center: Point::new(row[0], row[1]),
                    radius: row[2],
                };
                obstacles.push(Obstacle::new(what, &geometry));
            }
        }
        let mut boxes = Vec::with_capacity(count);
        for obstacle in &obstacles {
            match &obstacle.shape {
                Ok(shape) => boxes.push(shape.aabb()),
                Err(e) => return Err(format!("{}: {e}", obstacle.id)),
            }
        }
        let magnitude = boxes.iter().map(Aabb::magnitude).fold(0.0, f64::max);
        Ok(Index {
            index: ObstacleIndex::new(obstacles),
            grid: Grid::new(&boxes),
            boxes,
            owners,
            magnitude,
        })
    }

    /// What a box test must allow for around `region` so that no
    /// obstacle the exact tests could call touching is left out.
    fn margin(&self, region: &Aabb, padding: f64) -> f64 {
        let largest = (-region.min.x)
            .max(region.max.x)
            .max(-region.min.y)
            .max(region.max.y);
        4.0 * length_tolerance(self.magnitude.max(largest).max(padding))
    }

    /// [`check`](Self::check)'s answers, the poses cut among `threads`.
    fn check_poses(
        &self,
        footprint: &Shape,
        poses: &[Isometry2<f64>],
        padding: f64,
        threads: usize,
    ) -> PoseAnswers {
        let parts = split(poses.len(), threads, |range| {
            self.check_range(footprint, &poses[range], padding)
        });
        let mut parts = parts.into_iter();
        let mut out = parts.next().unwrap_or(PoseAnswers {
            colliding: Vec::new(),
            clearance: Vec::new(),
            depth: Vec::new(),
            mtv: Vec::new(),
            obstacle: Vec::new(),
        });
        for part in parts {
            out.colliding.extend(part.colliding);
            out.clearance.extend(part.clearance);
            out.depth.extend(part.depth);
            out.mtv.extend(part.mtv);
            out.obstacle.extend(part.obstacle);
        }
        out
    }

    /// Per pose: the footprint placed, its nearest obstacle
    /// ([`nearest`](Self::nearest)) and, when it collides, the deepest one
    /// ([`deepest`](Self::deepest)).
    fn check_range(
        &self,
        footprint: &Shape,
        poses: &[Isometry2<f64>],
        padding: f64,
    ) -> PoseAnswers {
        let n = poses.len();
        let mut out = PoseAnswers {
            colliding: vec![false; n],
            clearance: vec![f64::INFINITY; n],
            depth: vec![0.0; n],
            mtv: vec![0.0; 2 * n],
            obstacle: vec![-1; n],
        };
        if self.index.is_empty() {
            return out;
        }
        let mut placed = footprint.clone();
        let mut seen = Seen::new(self.index.len());
        for (k, pose) in poses.iter().enumerate() {
            placed.set_transformed(footprint, pose);
            let (clearance, nearest, colliding) = self.nearest(&placed, padding, &mut seen);
            out.clearance[k] = clearance;
            out.obstacle[k] = nearest.map_or(-1, |i| self.owners[i]);
            if !colliding {
                continue;
            }
            out.colliding[k] = true;
            if let Some((i, contact)) = self.deepest(&placed, padding) {
                let mtv = contact.mtv();
                out.depth[k] = contact.depth();
                out.mtv[2 * k] = mtv.x;
                out.mtv[2 * k + 1] = mtv.y;
                out.obstacle[k] = self.owners[i];
            }
        }
        out
    }

    /// The exact clearance from `shape` (placed, inflated by `padding`) to
    /// the nearest obstacle, that obstacle (the lower position on a tie),
    /// and whether it touches or overlaps (then the clearance is 0 and the
    /// obstacle the first found touching). The grid gives the obstacles
    /// whose box meets the footprint's box grown by a search radius, each
    /// once: an obstacle whose box is farther than the best clearance so
    /// far (less the margin) cannot be nearer and gets no exact query. The
    /// radius starts at a cell and grows (doubling, or to the best
    /// clearance so far) until it holds the best clearance: every obstacle
    /// outside is farther.
    fn nearest(&self, shape: &Shape, padding: f64, seen: &mut Seen) -> (f64, Option<usize>, bool) {
        let obstacles = self.index.obstacles();
        let Some(bounds) = self.grid.bounds() else {
            return (f64::INFINITY, None, false);
        };
        let fp = shape.aabb().inflated(padding);
        let margin = self.margin(&fp, padding);
        seen.next();
        let (mut best, mut best_i, mut colliding) = (f64::INFINITY, None, false);
        let mut radius = self.grid.side().max(margin);
        loop {
            let reach = fp.inflated(radius);
            let _ = self.grid.each(&reach, &self.boxes, |i| {
                if !seen.first(i) {
                    return ControlFlow::Continue(());
                }
                let bound = best + margin;
                if fp.gaps(&self.boxes[i]).norm_squared() > bound * bound {
                    return ControlFlow::Continue(());
                }
                let Ok(obstacle) = &obstacles[i].shape else {
                    return ControlFlow::Continue(());
                };
                let contact = query(shape, obstacle, padding);
                if contact.colliding() {
                    (best, best_i, colliding) = (0.0, Some(i), true);
                    return ControlFlow::Break(());
                }
                let d = contact.distance();
                if d < best || (d == best && best_i.is_some_and(|j| i < j)) {
                    (best, best_i) = (d, Some(i));
                }
                ControlFlow::Continue(())
            });
            let everything = reach.min.x <= bounds.min.x
                && reach.min.y <= bounds.min.y
                && reach.max.x >= bounds.max.x
                && reach.max.y >= bounds.max.y;
            if colliding || best + margin <= radius || everything {
                return (best, best_i, colliding);
            }
            radius = if best.is_finite() {
                best + margin
            } else {
                // Nothing yet: at least out to the obstacles' box.
                (2.0 * radius).max(fp.distance(&bounds) + self.grid.side())
            };
        }
    }

    /// The box of `shape` grown by `padding` and the margin: what an
    /// obstacle's box must meet to touch it.
    fn reach(&self, shape: &Shape, padding: f64) -> Aabb {
        let b = shape.aabb();
        let grow = padding + self.margin(&b, padding);
        // `Aabb::inflated`, written out: a call per pose otherwise.
        Aabb {
            min: Point::new(b.min.x - grow, b.min.y - grow),
            max: Point::new(b.max.x + grow, b.max.y + grow),
        }
    }

    /// The deepest of the obstacles `shape` (placed, inflated by
    /// `padding`) touches or overlaps (the first on a tie), with its
    /// contact.
    fn deepest(&self, shape: &Shape, padding: f64) -> Option<(usize, Contact)> {
        let obstacles = self.index.obstacles();
        let mut deepest: Option<(usize, Contact)> = None;
        let _ = self
            .grid
            .each(&self.reach(shape, padding), &self.boxes, |i| {
                if let Ok(obstacle) = &obstacles[i].shape {
                    let contact = query(shape, obstacle, padding);
                    let deeper = match deepest {
                        None => true,
                        Some((j, d)) => {
                            contact.depth() > d.depth() || (contact.depth() == d.depth() && i < j)
                        }
                    };
                    if contact.colliding() && deeper {
                        deepest = Some((i, contact));
                    }
                }
                ControlFlow::Continue(())
            });
        deepest
    }

    /// [`collides`](Self::collides)'s answers: per pose, the obstacles the
    /// grid gives near the disc the footprint can reach about the pose's
    /// origin (no order needed); when there are any, the footprint placed
    /// and tried against each by the exact test until one touches.
    fn collide_poses(
        &self,
        footprint: &Shape,
        poses: &ArrayView2<'_, f64>,
        padding: f64,
        threads: usize,
    ) -> Answer<Vec<bool>> {
        let mut read = Vec::with_capacity(poses.nrows());
        each_pose(poses, |p| read.push(p))?;
        let threads = threads_for(read.len(), threads)?;
        let parts = split(read.len(), threads, |range| {
            self.collide_range(footprint, &read[range], padding)
        });
        Ok(parts.concat())
    }

    /// [`collide_poses`](Self::collide_poses) for `poses`, checked.
    fn collide_range(&self, footprint: &Shape, poses: &[[f64; 3]], padding: f64) -> Vec<bool> {
        let obstacles = self.index.obstacles();
        // The footprint's farthest point from its origin, at most.
        let b = footprint.aabb();
        let radius = [
            b.min,
            b.max,
            Point::new(b.min.x, b.max.y),
            Point::new(b.max.x, b.min.y),
        ]
        .iter()
        .map(|p| p.coords.norm())
        .fold(0.0, f64::max);
        let reach_radius = radius + padding;
        let mut placed = footprint.clone();
        let mut out = Vec::with_capacity(poses.len());
        for &[x, y, yaw] in poses {
            // The box of the disc the padded footprint can reach, grown by
            // the margin (of the largest coordinate it can hold).
            let scale = self.magnitude.max(x.abs().max(y.abs()) + reach_radius);
            let r = reach_radius + 4.0 * length_tolerance(scale);
            let disc = Aabb {
                min: Point::new(x - r, y - r),
                max: Point::new(x + r, y + r),
            };
            // Placed at the first obstacle near the disc, if any.
            let mut reach: Option<Aabb> = None;
            let touches = self
                .grid
                .each(&disc, &self.boxes, |i| {
                    let reach = *reach.get_or_insert_with(|| {
                        placed.set_transformed(footprint, &Isometry2::new(Vector2::new(x, y), yaw));
                        self.reach(&placed, padding)
                    });
                    let touches = reach.intersects(&self.boxes[i])
                        && obstacles[i]
                            .shape
                            .as_ref()
                            .is_ok_and(|obstacle| intersects(&placed, obstacle, padding));
                    match touches {
                        true => ControlFlow::Break(()),
                        false => ControlFlow::Continue(()),
                    }
                })
                .is_break();
            out.push(touches);
        }
        out
    }

    /// [`check_path`](Self::check_path)'s answer: the node's rule (a
    /// straight line between poses, the yaw turning the short way, both
    /// linear in time; a path of one pose is that pose).
    fn path(
        &self,
        footprint: &Shape,
        poses: &[Isometry2<f64>],
        times: &[f64],
        padding: f64,
    ) -> PathAnswer {
        let clearance = self.check_range(footprint, poses, padding).clearance;
        let segments: Vec<(Motion, f64)> = match poses {
            [] => Vec::new(),
            [only] => vec![(Motion::segment(only, only, 1.0), 0.0)],
            _ => poses
                .windows(2)
                .zip(times.windows(2))
                .map(|(p, t)| (Motion::segment(&p[0], &p[1], t[1] - t[0]), t[1] - t[0]))
                .collect(),
        };
        let span = self.index.all();
        let mut first = None;
        'runs: for (r, run) in segments.chunks(RUN).enumerate() {
            let swept: Vec<Aabb> = run
                .iter()
                .map(|(motion, duration)| motion.swept_aabb(footprint, padding, *duration))
                .collect();
            let Some(region) = swept.iter().copied().reduce(|a, b| a.union(&b)) else {
                continue;
            };
            let mut near = span.near(&region);
            for (j, ((motion, duration), swept)) in run.iter().zip(&swept).enumerate() {
                let hit = near.first_impact(footprint, motion, *duration, padding, Some(swept));
                if let Some((i, impact)) = hit {
                    first = Some((r * RUN + j, i, impact));
                    break 'runs;
                }
            }
        }
        let contact = first.map(|(k, i, impact)| {
            let (motion, _) = &segments[k];
            let travelled: f64 = segments[..k].iter().map(|(m, d)| m.speed() * d).sum();
            let t0 = times.first().copied().unwrap_or(0.0);
            (
                k,
                times[k] - t0 + impact.time,
                self.owners[i],
                xy_yaw(&motion.pose_at(impact.time)),
                impact.exact,
                travelled + motion.speed() * impact.time,
            )
        });
        (contact, clearance)
    }
}

#[pymethods]
impl Index {
    /// Validates and indexes the obstacles: `polygons`, a list of float64
    /// `(M, 2)` arrays (convex or concave: a concave one is decomposed
    /// into convex pieces, as the node does); `circles`, a float64
    /// `(C, 3)` array of `cx, cy, r`; `owners`, each obstacle's number in
    /// the answers (default: polygons first, then circles). Raises
    /// `ValueError` naming the first bad obstacle and why.
    #[new]
    #[pyo3(signature = (polygons, circles=None, owners=None))]
    fn new(
        py: Python<'_>,
        polygons: Vec<PyReadonlyArray2<'_, f64>>,
        circles: Option<PyReadonlyArray2<'_, f64>>,
        owners: Option<PyReadonlyArray1<'_, i64>>,
    ) -> PyResult<Self> {
        let views: Vec<ArrayView2<'_, f64>> = polygons.iter().map(|p| p.as_array()).collect();
        let circles = circles.as_ref().map(|c| c.as_array());
        let owners = owners.as_ref().map(|o| o.as_array().to_vec());
        detached(py, || {
            Index::build(&views, circles.as_ref(), owners.as_deref())
        })
    }

    /// Number of obstacles indexed (a multi-part input counts each part).
    fn __len__(&self) -> usize {
        self.index.len()
    }

    /// Per pose: `(colliding, clearance, depth, mtv, obstacle)`; a batch
    /// of at least 4,096 poses cut among up to `threads` threads.
    #[pyo3(signature = (footprint, poses, padding=0.0, threads=1))]
    #[allow(clippy::type_complexity)]
    fn check<'py>(
        &self,
        py: Python<'py>,
        footprint: PyReadonlyArray2<'py, f64>,
        poses: PyReadonlyArray2<'py, f64>,
        padding: f64,
        threads: usize,
    ) -> PyResult<(
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<f64>>,
        Bound<'py, PyArray1<f64>>,
        Bound<'py, PyArray2<f64>>,
        Bound<'py, PyArray1<i64>>,
    )> {
        let (fp, ps) = (footprint.as_array(), poses.as_array());
        let out = detached(py, || {
            let (fp, ps, padding) = (
                self::footprint(&fp)?,
                self::poses(&ps)?,
                self::padding(padding)?,
            );
            let threads = threads_for(ps.len(), threads)?;
            Ok(self.check_poses(&fp, &ps, padding, threads))
        })?;
        let n = out.colliding.len();
        let mtv = Array2::from_shape_vec((n, 2), out.mtv)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok((
            out.colliding.into_pyarray(py),
            out.clearance.into_pyarray(py),
            out.depth.into_pyarray(py),
            mtv.into_pyarray(py),
            out.obstacle.into_pyarray(py),
        ))
    }

    /// Per pose: colliding (touching counts); threads as `check`'s.
    #[pyo3(signature = (footprint, poses, padding=0.0, threads=1))]
    fn collides<'py>(
        &self,
        py: Python<'py>,
        footprint: PyReadonlyArray2<'py, f64>,
        poses: PyReadonlyArray2<'py, f64>,
        padding: f64,
        threads: usize,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let (fp, ps) = (footprint.as_array(), poses.as_array());
        let out = detached(py, || {
            let (fp, padding) = (self::footprint(&fp)?, self::padding(padding)?);
            self.collide_poses(&fp, &ps, padding, threads)
        })?;
        Ok(out.into_pyarray(py))
    }

    /// The first contact along the path: `((segment, time, obstacle,
    /// pose, exact, distance) or None, clearance)`.
    #[pyo3(signature = (footprint, poses, times=None, padding=0.0))]
    fn check_path<'py>(
        &self,
        py: Python<'py>,
        footprint: PyReadonlyArray2<'py, f64>,
        poses: PyReadonlyArray2<'py, f64>,
        times: Option<PyReadonlyArray1<'py, f64>>,
        padding: f64,
    ) -> PyResult<(Option<PathContact>, Bound<'py, PyArray1<f64>>)> {
        let (fp, ps) = (footprint.as_array(), poses.as_array());
        let times = times.as_ref().map(|t| t.as_array());
        let (contact, clearance) = detached(py, || {
            let (fp, ps, padding) = (
                self::footprint(&fp)?,
                self::poses(&ps)?,
                self::padding(padding)?,
            );
            let times: Vec<f64> = match times {
                None => (0..ps.len()).map(|k| k as f64).collect(),
                Some(t) if t.len() != ps.len() => {
                    return Err(format!(
                        "times: one per pose ({}), got {}",
                        ps.len(),
                        t.len()
                    ))
                }
                Some(t) => t.to_vec(),
            };
            if !times.iter().all(|t| t.is_finite()) || !times.windows(2).all(|w| w[1] > w[0]) {
                return Err("times must be finite and strictly increasing".to_string());
            }
            Ok(self.path(&fp, &ps, &times, padding))
        })?;
        Ok((contact, clearance.into_pyarray(py)))
    }

    /// The first contact of the footprint moved from `pose` by the
    /// constant body `twist` within `horizon` seconds: `(time, obstacle,
    /// pose, exact)`, or `None`.
    #[pyo3(signature = (footprint, pose, twist, horizon, padding=0.0))]
    fn time_to_collision<'py>(
        &self,
        py: Python<'py>,
        footprint: PyReadonlyArray2<'py, f64>,
        pose: PyReadonlyArray1<'py, f64>,
        twist: PyReadonlyArray1<'py, f64>,
        horizon: f64,
        padding: f64,
    ) -> PyResult<Option<MotionContact>> {
        let (fp, start, twist) = (footprint.as_array(), pose.as_array(), twist.as_array());
        detached(py, || {
            let fp = self::footprint(&fp)?;
            let [x, y, yaw] = triple(&start, "pose")?;
            let start = self::pose(x, y, yaw, || "pose".to_string())?;
            let [vx, vy, wz] = triple(&twist, "twist")?;
            if !(vx.is_finite() && vy.is_finite() && wz.is_finite()) {
                return Err(format!("twist must be finite, got ({vx}, {vy}, {wz})"));
            }
            if !(horizon.is_finite() && horizon >= 0.0) {
                return Err(format!("horizon must be finite and >= 0, got {horizon}"));
            }
            let padding = self::padding(padding)?;
            let motion = Motion::twist(&start, Vector::new(vx, vy), wz);
            let hit = self
                .index
                .all()
                .first_impact(&fp, &motion, horizon, padding);
            Ok(hit.map(|(i, impact)| {
                (
                    impact.time,
                    self.owners[i],
                    xy_yaw(&motion.pose_at(impact.time)),
                    impact.exact,
                )
            }))
        })
    }
}

/// The extension module: [`Index`] and `__version__`.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Index>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
