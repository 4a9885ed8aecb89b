//! Points as obstacles (laser scans, point clouds, range readings): a
//! [`PointSet`] and its queries, the flag, the report, the markers' list,
//! the first contact along a motion, and what lies near a path.
//!
//! A point is an obstacle of zero size: it collides when it lies in the
//! padded footprint (touching counts, under the tolerance policy of
//! [`geometry`](crate::geometry)), and its clearance is the exact distance
//! from the padded footprint to it ([`point_contact`]).

use super::near::Nearest;
use crate::geometry::{
    point_contact, point_time_of_impact, Aabb, Contact, Impact, Motion, Point, Shape,
    MAX_COORDINATE,
};

/// A set of points in one frame, kept as two arrays (structure of arrays:
/// the queries stream the coordinates) with their bounding box.
#[derive(Clone, Debug, Default)]
pub struct PointSet {
    xs: Vec<f64>,
    ys: Vec<f64>,
    /// The box of the points; meaningless when empty.
    bounds: Bounds,
}

/// A box that starts empty.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    min: Point,
    max: Point,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            min: Point::new(f64::INFINITY, f64::INFINITY),
            max: Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        }
    }
}

/// What [`PointSet::report`] finds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointsReport {
    /// Points inside the padded footprint (touching counts).
    pub inside: usize,
    /// The deepest point inside and its contact (`Colliding`); on a tie,
    /// the first.
    pub deepest: Option<(usize, Contact)>,
    /// The point of least clearance and its contact (the deepest when some
    /// are inside; on a tie, the first); `None` when the set is empty.
    pub nearest: Option<(usize, Contact)>,
}

impl PointSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty set with room for `n` points.
    pub fn with_capacity(n: usize) -> Self {
        PointSet {
            xs: Vec::with_capacity(n),
            ys: Vec::with_capacity(n),
            bounds: Bounds::default(),
        }
    }

    /// Removes every point (the buffers stay).
    pub fn clear(&mut self) {
        self.xs.clear();
        self.ys.clear();
        self.bounds = Bounds::default();
    }

    /// Adds `p`; false (and not kept) for a point that is not finite or
    /// beyond [`MAX_COORDINATE`] in magnitude.
    pub fn push(&mut self, p: Point) -> bool {
        let usable = |v: f64| v.abs() <= MAX_COORDINATE; // false for NaN and inf
        if !(usable(p.x) && usable(p.y)) {
            return false;
        }
        self.xs.push(p.x);
        self.ys.push(p.y);
        let b = &mut self.bounds;
        b.min = Point::new(b.min.x.min(p.x), b.min.y.min(p.y));
        b.max = Point::new(b.max.x.max(p.x), b.max.y.max(p.y));
        true
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.xs.len()
    }

    /// True when the set holds no point.
    pub fn is_empty(&self) -> bool {
        self.xs.is_empty()
    }

    /// Point `i` (`i < len()`).
    pub fn point(&self, i: usize) -> Point {
        Point::new(self.xs[i], self.ys[i])
    }

    /// The points' bounding box; `None` when empty.
    pub fn aabb(&self) -> Option<Aabb> {
        (!self.is_empty()).then_some(Aabb {
            min: self.bounds.min,
            max: self.bounds.max,
        })
    }

    fn points(&self) -> impl Iterator<Item = (usize, Point)> + '_ {
        self.xs
            .iter()
            .zip(&self.ys)
            .map(|(&x, &y)| Point::new(x, y))
            .enumerate()
    }

    /// Points in the padded footprint (touching counts), counting stops at
    /// `enough` (the flag asks `enough = min_points`).
    pub fn count_inside(&self, footprint: &Shape, padding: f64, enough: usize) -> usize {
        let mut count = 0;
        for (_, p) in self.points() {
            if count >= enough {
                break;
            }
            if point_contact(footprint, p, padding).colliding() {
                count += 1;
            }
        }
        count
    }

    /// The points inside the padded footprint, the deepest, and the
    /// nearest (see [`PointsReport`]).
    pub fn report(&self, footprint: &Shape, padding: f64) -> PointsReport {
        let mut report = PointsReport {
            inside: 0,
            deepest: None,
            nearest: None,
        };
        for (i, p) in self.points() {
            let contact = point_contact(footprint, p, padding);
            if contact.colliding() {
                report.inside += 1;
                if report
                    .deepest
                    .is_none_or(|(_, d)| contact.depth() > d.depth())
                {
                    report.deepest = Some((i, contact));
                }
            } else if report
                .nearest
                .is_none_or(|(_, n)| contact.distance() < n.distance())
            {
                report.nearest = Some((i, contact));
            }
        }
        if report.deepest.is_some() {
            report.nearest = report.deepest;
        }
        report
    }

    /// The indices of the points inside the padded footprint (for
    /// markers), ascending, appended to `out`.
    pub fn inside(&self, footprint: &Shape, padding: f64, out: &mut Vec<usize>) {
        out.extend(
            self.points()
                .filter(|&(_, p)| point_contact(footprint, p, padding).colliding())
                .map(|(i, _)| i),
        );
    }

    /// The first contact of `footprint` (body frame) moved by `motion` over
    /// `[0, duration]`, inflated by `padding`, with any point: the point
    /// and its [`Impact`] (on a tie, the first point).
    pub fn first_impact(
        &self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
    ) -> Option<(usize, Impact)> {
        let mut best: Option<(usize, Impact)> = None;
        for (i, p) in self.points() {
            let horizon = best.map_or(duration, |(_, b)| b.time);
            if let Some(impact) = point_time_of_impact(footprint, motion, p, horizon, padding) {
                if best.is_none_or(|(_, b)| impact.time < b.time) {
                    best = Some((i, impact));
                }
            }
        }
        best
    }

    /// The points near `region` (a path's swept box), for the per-pose
    /// clearances ([`NearPoints::nearest`]) and the per-segment first
    /// contacts ([`NearPoints::first_impact`]) of footprints and motions
    /// inside it.
    pub fn near(&self, region: &Aabb) -> NearPoints<'_> {
        let mut near: Vec<(f64, usize)> = self
            .points()
            .map(|(i, p)| {
                let b = Aabb { min: p, max: p };
                (region.distance(&b), i)
            })
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        NearPoints { set: self, near }
    }
}

/// The points of a [`PointSet`] near a region (see [`PointSet::near`]).
#[derive(Clone, Debug)]
pub struct NearPoints<'a> {
    set: &'a PointSet,
    near: Vec<(f64, usize)>,
}

impl NearPoints<'_> {
    /// The exact clearance from a `footprint` inside the region (inflated
    /// by `padding`) to the nearest point (see [`Nearest`]; on a tie, the
    /// first point; when colliding, some colliding point).
    pub fn nearest(&mut self, footprint: &Shape, padding: f64) -> Nearest {
        let mut best = Nearest {
            distance: f64::INFINITY,
            index: None,
            colliding: false,
        };
        for &(_, i) in &self.near {
            let contact = point_contact(footprint, self.set.point(i), padding);
            if contact.colliding() {
                return Nearest {
                    distance: 0.0,
                    index: Some(i),
                    colliding: true,
                };
            }
            let nearer = contact.distance() < best.distance
                || (contact.distance() == best.distance && best.index.is_none_or(|j| i < j));
            if nearer {
                best = Nearest {
                    distance: contact.distance(),
                    index: Some(i),
                    colliding: false,
                };
            }
        }
        best
    }

    /// [`PointSet::first_impact`] for a motion whose swept box is inside
    /// the region (on a tie, the first point too). `swept`: the motion's swept box when the caller has it
    /// (or any box holding it); `None`: computed here.
    pub fn first_impact(
        &mut self,
        footprint: &Shape,
        motion: &Motion,
        duration: f64,
        padding: f64,
        swept: Option<&Aabb>,
    ) -> Option<(usize, Impact)> {
        let _ = swept;
        let mut best: Option<(usize, Impact)> = None;
        for &(_, i) in &self.near {
            let horizon = best.map_or(duration, |(_, b)| b.time);
            let p = self.set.point(i);
            if let Some(impact) = point_time_of_impact(footprint, motion, p, horizon, padding) {
                let earlier = |&(j, b): &(usize, Impact)| {
                    impact.time < b.time || (impact.time == b.time && i < j)
                };
                if best.is_none_or(|b| earlier(&b)) {
                    best = Some((i, impact));
                }
            }
        }
        best
    }
}
