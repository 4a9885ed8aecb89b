//! Points as obstacles (laser scans, point clouds, range readings): a
//! [`PointSet`] and its queries: the flag ([`PointSet::count_inside`]), the
//! report ([`PointSet::report`]), the markers' list ([`PointSet::inside`]),
//! the first contact along a motion ([`PointSet::first_impact`]), the time
//! by which `k` points are touched ([`PointSet::kth_impact`]), whether a
//! motion takes no point deeper ([`PointSet::escapes`]) and what lies near
//! a path ([`PointSet::near`]).
//!
//! A point is an obstacle of zero size: it collides when it lies in the
//! padded footprint (touching counts, under the tolerance policy of
//! [`geometry`](crate::geometry)), and its clearance is the exact distance
//! from the padded footprint to it: every answer is
//! [`point_contact`](crate::geometry::point_contact)'s for that point, or
//! [`point_time_of_impact`]'s.
//!
//! # How it stays fast
//!
//! The points live in two flat arrays (structure of arrays), with the box
//! of every block of [`BLOCK`] consecutive points. Every query first passes
//! over them with a box test: blocks whose box misses the query's box are
//! skipped whole (sensors give points in scan order, so most are), and in
//! the others groups of [`LANES`] points are tested without a branch (the
//! compiler turns the comparisons and their or-reduction into vector
//! instructions: 8 instructions a point on SSE2), and only a group with a
//! point inside is looked at point by point. Only the points inside the box go on: to
//! bounds from the footprint's faces (`PointProbe`, a few multiplications
//! per edge), and only when those cannot decide, to the exact
//! [`point_contact`](crate::geometry::point_contact). No query allocates
//! (but [`PointSet::near`], which keeps its list).
//!
//! # Why no pruning rule drops an answer
//!
//! Write `tol` for the set's tolerance: `length_tolerance` of the largest of
//! the padded footprint's box, the set's box and the padding (of the swept
//! box too for a motion). It is at least the tolerance of every single
//! point's query, whose own scale is the footprint's, the padding and that
//! one point's. `fp` is the footprint's box grown by the padding: it holds
//! the padded footprint (a disc of radius `padding` swept over a shape
//! inside the footprint's box stays inside that box grown by `padding`).
//!
//! 1. **A colliding point lies in `fp` grown by `2·tol`.** It collides when
//!    its computed clearance is at most its tolerance (`<= tol`); the
//!    computed clearance is the true one up to rounding (a few ulps of the
//!    coordinates, far below `tol`), and the true clearance is at least the
//!    distance from the point to `fp`. So the point is within `tol` plus
//!    rounding of `fp`, and the growth of `2·tol` also covers the rounding
//!    of the box's own corners. The flag, the count, the list and the
//!    report's inside pass only look inside that box.
//! 2. **Face bounds.** For a point in that box, `PointProbe::bounds` gives,
//!    per convex piece of the footprint, the largest separation of the
//!    point beyond the piece's edges, computed exactly as the pair test
//!    computes it. A separation `<= 0` puts the point in the piece's core:
//!    it collides (no exact test needed to count it). `lower`, the least of
//!    those separations minus the piece's radius and the padding, is a
//!    lower bound of the point's clearance and `-lower` an upper bound of
//!    its depth (see `PointProbe`): `lower > tol` proves it apart.
//! 3. **The deepest point** (the report): a point in a core whose depth
//!    bound `-lower` does not exceed the deepest depth found so far cannot
//!    replace it (a tie keeps the earlier point, and points are visited in
//!    index order): it is counted without its contact.
//! 4. **The nearest point** when none collides (the report): start from an
//!    exact clearance `best` (the nearest apart point met in the first
//!    pass, else the point whose box distance to `fp` is least). A point can
//!    only beat or tie it if its clearance is at most `best`, hence if its
//!    distance to `fp` is at most `best` plus rounding: only points in `fp`
//!    grown by `best + 2·tol` are visited; among them, a point whose box
//!    distance or face bound exceeds `best + tol` is skipped (its clearance
//!    is larger than `best`, so it can neither win nor tie). The rest get
//!    their exact contact, and the least `(clearance, index)` wins.
//! 5. **The first contact along a motion.** A point that the padded
//!    footprint touches lies in the box it sweeps
//!    ([`Motion::swept_aabb`], grown by `2·tol`). Every point of the padded
//!    footprint moves at most at `speed = |v| + |ω|·ρ`, with `ρ` the
//!    farthest a point of it can be from the body origin (the corners of
//!    the footprint's box plus the padding), so its distance to a fixed
//!    point shrinks at most at that rate: a point at distance `g` from the
//!    padded footprint's box at the start cannot be reached (within the
//!    tolerance, `<= 2·tol`) before `(g − 3·tol) / speed`. When that is
//!    later than the earliest contact found so far, the point cannot be
//!    touched earlier, nor at the same time: it is not tried. The others
//!    are tried only up to that earliest contact
//!    ([`point_time_of_impact`]'s `duration`): one that is not touched by
//!    then costs one closed form (a translation) or a few advancement
//!    steps. On a tie the point of lower index wins. The `k`-th contact
//!    ([`PointSet::kth_impact`]) is the same search with the latest of the
//!    `k` earliest contacts found so far in place of the earliest, once `k`
//!    are known (a point that cannot beat it could at best tie it, which
//!    leaves the `k`-th time unchanged).
//! 6. **A turning twist** (`ω != 0`) is a rotation about a fixed centre
//!    `C`, whose body coordinates `c = (−v_y/ω, v_x/ω)` do not change: a
//!    fixed point `p` stays, in the body frame, on the circle of radius
//!    `ρ = |p − C|` about `c`. Every point `x` of the padded footprint has
//!    `r_min <= |x − c| <= r_max` (`r_max`: the farthest vertex, or the
//!    circle's far side, plus the padding; `r_min`: the footprint's
//!    distance to `c` minus the padding), so the distance from `p` to it
//!    is at least `ρ − r_max` and at least `r_min − ρ`, at every time. A
//!    point with `ρ` outside `[r_min, r_max]` by more than `4·tol` (plus the
//!    rounding of these distances, `1e-14` of the coordinates involved) is
//!    never touched: it is not tried.
//!
//! [`BLOCK`]: set::BLOCK
//! [`LANES`]: set::LANES
//! [`point_time_of_impact`]: crate::geometry::point_time_of_impact
//! [`Motion::swept_aabb`]: crate::geometry::Motion::swept_aabb

// Not in the alphabet's order: rustdoc lists `PointSet`'s methods impl block
// by impl block, in the order of these modules (the set, then its queries).
mod set;

mod report;

mod impact;
mod near;

pub use near::NearPoints;
pub use report::PointsReport;
pub use set::PointSet;

#[cfg(test)]
mod tests;
