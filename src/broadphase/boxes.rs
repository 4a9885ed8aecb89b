//! The boxes of the indexed obstacles, in four flat arrays (see "Why a
//! flat array" in the module documentation), and what one query against
//! them works with: the padded footprint's box and the tolerance.

use crate::geometry::{length_tolerance, query, Aabb, Contact, Point, Shape, Vector};
use crate::model::{Obstacle, ObstacleOutcome, Status};
use std::ops::Range;

/// Boxes of a set of obstacles, in obstacle order, rebuilt whenever the set
/// changes. Invalid obstacles get an empty box (it is never near anything).
#[derive(Clone, Debug, Default)]
pub(super) struct Boxes {
    min_x: Vec<f64>,
    min_y: Vec<f64>,
    max_x: Vec<f64>,
    max_y: Vec<f64>,
    /// Indices of invalid obstacles, ascending.
    invalid: Vec<usize>,
    /// Largest absolute coordinate of any valid obstacle (tolerance scale).
    magnitude: f64,
    /// Consecutive runs that keep their own tolerance scale (see
    /// [`ObstacleIndex::split`](super::ObstacleIndex::split)): ascending,
    /// covering every obstacle; one run of them all after a rebuild.
    parts: Vec<Part>,
}

/// The box of an invalid obstacle: empty, never near anything.
const EMPTY: Aabb = Aabb {
    min: Point::new(f64::INFINITY, f64::INFINITY),
    max: Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
};

/// A run of obstacles and the largest absolute coordinate among them.
#[derive(Clone, Copy, Debug)]
struct Part {
    start: usize,
    end: usize,
    magnitude: f64,
}

impl Boxes {
    /// Re-indexes `obstacles`, reusing the buffers: no allocation once they
    /// have held as many obstacles (and as many runs).
    pub(super) fn rebuild(&mut self, obstacles: &[Obstacle]) {
        // Sized first (every entry is written below: what was there stays
        // until then), then written in one pass over the four arrays
        // together: no capacity check per box.
        for column in [
            &mut self.min_x,
            &mut self.min_y,
            &mut self.max_x,
            &mut self.max_y,
        ] {
            column.resize(obstacles.len(), 0.0);
        }
        self.invalid.clear();
        let mut magnitude = 0.0f64;
        let columns = self
            .min_x
            .iter_mut()
            .zip(self.min_y.iter_mut())
            .zip(self.max_x.iter_mut().zip(self.max_y.iter_mut()));
        for (i, (obstacle, ((min_x, min_y), (max_x, max_y)))) in
            obstacles.iter().zip(columns).enumerate()
        {
            let aabb = match &obstacle.shape {
                Ok(shape) => {
                    let aabb = shape.aabb();
                    magnitude = magnitude.max(aabb.magnitude());
                    aabb
                }
                Err(_) => {
                    self.invalid.push(i);
                    EMPTY
                }
            };
            *min_x = aabb.min.x;
            *min_y = aabb.min.y;
            *max_x = aabb.max.x;
            *max_y = aabb.max.y;
        }
        self.magnitude = magnitude;
        self.parts.clear();
        self.parts.push(Part {
            start: 0,
            end: obstacles.len(),
            magnitude: self.magnitude,
        });
    }

    /// Cuts the boxes into consecutive runs of `lengths` obstacles, each
    /// with its own tolerance scale; a length past the end is cut short,
    /// and what the lengths leave over is one more run.
    pub(super) fn split(&mut self, lengths: impl IntoIterator<Item = usize>) {
        let len = self.min_x.len();
        self.parts.clear();
        let mut start = 0usize;
        for length in lengths {
            let end = start.saturating_add(length).min(len);
            let magnitude = self.magnitude_over(start..end);
            self.parts.push(Part {
                start,
                end,
                magnitude,
            });
            start = end;
        }
        if start < len || self.parts.is_empty() {
            let magnitude = self.magnitude_over(start..len);
            self.parts.push(Part {
                start,
                end: len,
                magnitude,
            });
        }
    }

    /// The tolerance scale of the obstacles in `range`: a run's own when
    /// `range` is one (a binary search), else the largest box coordinate
    /// over `range` (a pass over it).
    pub(super) fn magnitude(&self, range: Range<usize>) -> f64 {
        if range == (0..self.min_x.len()) {
            return self.magnitude;
        }
        let k = self.parts.partition_point(|p| p.start < range.start);
        match self.parts.get(k) {
            Some(part) if part.start == range.start && part.end == range.end => part.magnitude,
            _ => self.magnitude_over(range),
        }
    }

    /// Largest absolute coordinate of the valid boxes in `range` (0 for
    /// none: an invalid obstacle's empty box counts -∞).
    fn magnitude_over(&self, range: Range<usize>) -> f64 {
        self.iter(range)
            .fold(0.0, |m: f64, aabb| m.max(aabb.magnitude()))
    }

    /// Obstacle `i`'s box (empty for an invalid one).
    #[inline]
    pub(super) fn aabb(&self, i: usize) -> Aabb {
        Aabb {
            min: Point::new(self.min_x[i], self.min_y[i]),
            max: Point::new(self.max_x[i], self.max_y[i]),
        }
    }

    /// The boxes of `range`, in order: the four arrays walked together
    /// (sliced once, so the passes over them check no index per box).
    #[inline]
    pub(super) fn iter(&self, range: Range<usize>) -> impl Iterator<Item = Aabb> + '_ {
        let min_x = &self.min_x[range.clone()];
        let min_y = &self.min_y[range.clone()];
        let max_x = &self.max_x[range.clone()];
        let max_y = &self.max_y[range];
        min_x
            .iter()
            .zip(min_y)
            .zip(max_x.iter().zip(max_y))
            .map(|((&x0, &y0), (&x1, &y1))| Aabb {
                min: Point::new(x0, y0),
                max: Point::new(x1, y1),
            })
    }

    /// The invalid obstacles among `range`, ascending.
    pub(super) fn invalid(&self, range: Range<usize>) -> &[usize] {
        let from = self.invalid.partition_point(|&i| i < range.start);
        let to = self.invalid.partition_point(|&i| i < range.end);
        &self.invalid[from..to]
    }

    /// Gives memory back: each buffer more than four times (and 4,096
    /// entries) larger than what it holds shrinks.
    pub(super) fn shrink(&mut self) {
        let len = self.min_x.len();
        for v in [
            &mut self.min_x,
            &mut self.min_y,
            &mut self.max_x,
            &mut self.max_y,
        ] {
            if v.capacity() > 4 * len.max(1024) {
                v.shrink_to_fit();
            }
        }
        if self.invalid.capacity() > 4 * self.invalid.len().max(1024) {
            self.invalid.shrink_to_fit();
        }
    }
}

/// The padded footprint's box and the tolerance one query against an index
/// works with.
pub(super) struct Probe {
    pub(super) fp: Aabb,
    /// At least the tolerance of every pair `query` will look at.
    pub(super) tol: f64,
}

impl Probe {
    /// For `footprint` inflated by `padding` (`>= 0`) against obstacles of
    /// tolerance scale `magnitude`.
    pub(super) fn new(magnitude: f64, footprint: &Shape, padding: f64) -> Self {
        let fp = footprint.aabb().inflated(padding);
        let scale = fp.magnitude().max(magnitude).max(padding);
        Probe {
            fp,
            tol: length_tolerance(scale),
        }
    }

    /// Gaps between an obstacle's box and the padded footprint's box along
    /// x and y (0 when they overlap).
    #[inline]
    pub(super) fn gaps(&self, obstacle: &Aabb) -> (f64, f64) {
        let gaps = self.fp.gaps(obstacle);
        (gaps.x, gaps.y)
    }

    /// A separating axis of the padded footprint's box and an obstacle's
    /// box, given their gaps: from the footprint toward the obstacle.
    /// `axes`: +x, -x, +y, -y (turned into the report's frame).
    #[inline]
    pub(super) fn axis(&self, obstacle: &Aabb, dx: f64, dy: f64, axes: &[Vector; 4]) -> Vector {
        match dx >= dy {
            true if obstacle.min.x >= self.fp.max.x => axes[0],
            true => axes[1],
            false if obstacle.min.y >= self.fp.max.y => axes[2],
            false => axes[3],
        }
    }
}

/// Euclidean length of the gaps, without overflow.
#[inline]
pub(super) fn box_distance(dx: f64, dy: f64) -> f64 {
    let squared = dx * dx + dy * dy;
    match squared.is_finite() {
        true => squared.sqrt(),
        false => dx.hypot(dy),
    }
}

/// The honest answer for a far obstacle: `bound` is a lower bound of the
/// clearance, `axis` separates.
#[inline]
pub(super) fn far_outcome(bound: f64, axis: Vector) -> ObstacleOutcome {
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

/// The exact outcome for one obstacle: [`query`] for a valid one, its
/// shape error for an invalid one.
pub(super) fn exact(footprint: &Shape, padding: f64, obstacle: &Obstacle) -> ObstacleOutcome {
    match &obstacle.shape {
        Ok(shape) => ObstacleOutcome {
            status: Status::Ok,
            contact: Some(query(footprint, shape, padding)),
            exact: true,
        },
        Err(e) => ObstacleOutcome {
            status: Status::from(e),
            contact: None,
            exact: true,
        },
    }
}
