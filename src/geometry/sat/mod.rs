//! Separating Axis Theorem between convex *cores*.
//!
//! A core is a convex polygon or a single point (a circle's centre). Shapes
//! are cores inflated by a radius, like Box2D's rounded polygons; the query
//! module adds the radii, this module only measures the cores.
//!
//! # Why the edge normals give exact answers
//!
//! The edge normals of A and of B are the face normals of the Minkowski
//! difference `D = A − B = {a − b}`. The cores overlap iff the origin lies in
//! `D`; the penetration depth is the distance from the origin to `D`'s
//! boundary (containment either way included) and the clearance is the
//! distance from the origin to `D`. Each face of `D` is an edge of one core
//! plus the other core's *support* vertex: its deepest vertex against that
//! edge. The face's separation (how far that vertex lies beyond the edge's
//! line) is the signed distance from the origin to the face's line, so:
//!
//! * overlapping: depth = −(largest separation), along that face's normal;
//! * apart: clearance = the smallest distance between a face's edge and its
//!   vertex. The largest separation alone would underestimate it when the
//!   closest features are two vertices.
//!
//! # Why it is O(n + m)
//!
//! As the edge normals of one core turn counter-clockwise, the other core's
//! support vertex for the opposite direction turns with them. Visiting the
//! faces of `D` in angular order (both cores' normals merged, as in the
//! Minkowski sum of convex polygons) moves one of two pointers forward per
//! face, after a single O(log n) support search.
//!
//! # Clearance without the full walk
//!
//! The closest points of cores that are apart need not visit every face:
//! `separation_from` (what [`query`](super::query()) uses) descends from a
//! separating face near the support vertex for a separating direction to
//! the nearest face, and stops on an exact certificate of optimality (see
//! `descend`); two small polygons whose boxes are apart are measured by
//! brute force over their vertex and vertex–edge pairs (`small_clearance`).
//! `clearance`, the full walk, stays the reference and the fallback.

use super::{unit, Point, Vector};
pub(crate) use core::Core;
use faces::{
    edge_face, face_after, face_at, face_before, find_support, for_each_face, next, Candidate, Face,
};

/// Signed distance between two cores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Separation {
    /// The clearance when `> 0`; minus the penetration depth when `<= 0`.
    pub value: f64,
    /// Unit axis from A toward B: the direction of the closest points when
    /// apart, the axis of least penetration otherwise.
    pub axis: Vector,
    /// Closest points (on A, on B) when apart.
    pub closest: Option<(Point, Point)>,
}

/// Exact signed distance between two cores. No allocation, O(n + m).
pub fn separation(a: Core, b: Core) -> Separation {
    match points_or_overlap(a, b) {
        Ok(separation) => separation,
        Err(_) => clearance(a, b),
    }
}

/// The first walk of [`separation`] and [`separation_from`]: two point
/// cores are measured at once; otherwise a light walk over the faces stops
/// at the first one with a positive separation. `Ok`: the answer (points,
/// or overlapping cores, whose deepest face it is); `Err`: the normal of a
/// face along which the cores are apart (the clearance is still to find).
#[inline(always)]
fn points_or_overlap(a: Core, b: Core) -> Result<Separation, Vector> {
    if let (Some(p), Some(q)) = (a.as_point(), b.as_point()) {
        return Ok(point_separation(p, q));
    }
    let (max_sep, axis) = deepest_separation(a, b, |sep| sep > 0.0);
    if max_sep > 0.0 {
        return Err(axis);
    }
    // The walk visited every face: its deepest face is the answer. A
    // polygon core always has faces; with none, `max_sep` is -inf and this
    // fails safe (overlapping).
    Ok(Separation {
        value: if max_sep.is_finite() { max_sep } else { 0.0 },
        axis,
        closest: None,
    })
}

/// [`separation`] of cores known to be apart along some face (a walk over
/// every face found a positive separation): exactly what [`separation`]
/// returns for them, without its first walk. Not for two points.
pub(crate) fn clearance(a: Core, b: Core) -> Separation {
    let mut deepest = f64::NEG_INFINITY;
    let mut deepest_axis = Vector::x();
    // The nearest face's squared distance, whether its closest point is
    // inside its edge, and its indices; its closest points are only worked
    // out once it has won.
    let mut nearest: Option<(f64, bool, bool, usize, usize)> = None;
    for_each_face(a, b, |face| {
        if face.sep > deepest {
            deepest = face.sep;
            deepest_axis = face.axis;
        }
        // A face's edge is at least |sep| from its vertex: skip faces that
        // cannot beat the nearest so far. Faces with sep <= 0 are kept: when
        // edges are parallel, rounding can give the face that holds the
        // closest point a separation of exactly 0 and its neighbour 1e-16.
        // Squared distances: no square root until the winner is known.
        if nearest.is_none_or(|(best, ..)| face.sep * face.sep <= best) {
            let candidate = face.candidate();
            let (distance_squared, interior) = (candidate.distance_squared, candidate.interior());
            // On a tie an edge's normal beats a vertex–vertex direction. Ties
            // come from squares underflowing to 0 (cores 1e-160 or less
            // apart): the vertex–vertex direction is then that of a vertex
            // next to the closest point, not of the closest point, and may
            // point anywhere; an edge's normal is a separating axis.
            let better = |(best, best_interior, ..): (f64, bool, bool, usize, usize)| {
                distance_squared < best || (distance_squared == best && interior && !best_interior)
            };
            if nearest.is_none_or(better) {
                nearest = Some((
                    distance_squared,
                    interior,
                    face.edge_on_a,
                    face.edge_index,
                    face.vertex_index,
                ));
            }
        }
        true
    });
    let Some((_, _, edge_on_a, edge, vertex)) = nearest else {
        return Separation {
            value: 0.0,
            axis: Vector::x(),
            closest: None,
        };
    };
    let n = face_at(a, b, edge_on_a, edge, vertex).candidate().closest();
    // Exactly, the clearance is at least every separation; keep that after
    // rounding so that `deepest_separation`'s early exit agrees. When rounding
    // broke it, the closest points are nearer than the faces' own rounding
    // (e.g. a circle's centre 1e-17 from a vertex, against a separation of
    // 4e-16 that is exactly 0): the direction between them, which then
    // orients the MTV, is noise and may leave the vertex's normal cone. The
    // deepest face's normal is a separating axis: use it.
    let axis = if deepest > n.distance {
        deepest_axis
    } else {
        n.axis
    };
    Separation {
        value: n.distance.max(deepest),
        axis,
        closest: Some((n.on_a, n.on_b)),
    }
}

/// A face with a positive separation at the support vertex of `A − B`
/// for `direction`: the one leaving it, else the one entering it (when
/// `direction` separates the cores, one of them has). Two points have no
/// face.
fn support_face(a: Core, b: Core, direction: &Vector) -> Option<Face> {
    if a.is_point() && b.is_point() {
        return None;
    }
    let state = (find_support(a, direction), find_support(b, &-direction));
    let after = face_after(a, b, state);
    if after.sep > 0.0 {
        return Some(after);
    }
    let before = face_before(a, b, state);
    (before.sep > 0.0).then_some(before)
}

/// [`clearance`] by a local descent over the faces of `A − B` from `face`
/// (which must have a positive separation), for cores that are apart: O(the
/// faces between it and the closest feature). `None` when it cannot certify
/// its answer, or as soon as a face is no farther than `beyond` (the
/// clearance is at most that): then use [`separation`].
///
/// [`separation_from`] starts it on a face with a positive separation at
/// the support vertex of `A − B` for a direction that separates the cores
/// (O(log n + log m)), or for the normal of the face at which the
/// early-exit walk stopped. From a face whose closest point to the
/// origin is one of its ends, it moves to the neighbouring face at that end
/// unless that face's closest point is the same end. Each move reaches a
/// face with a nearer point (the neighbour's nearest point is not the shared
/// end, so its distance is smaller), so the descent cannot cycle, and it
/// always turns the same way (a face it moved to forward has its closest
/// point past its start).
///
/// It stops with an exact certificate of optimality for convex `A − B`:
/// * a face with a positive separation whose closest point is inside its
///   edge: `A − B` lies in the face's half-plane, at that separation from
///   the origin, and the point is in `A − B`;
/// * an end shared by two faces whose closest points are both that end: the
///   direction to the origin is in that vertex's normal cone.
///
/// Each candidate is computed exactly as [`clearance`] computes it, and the
/// answer is that candidate's: the two differ only when rounding picks a
/// different face among faces that tie to within a few ulps of the
/// coordinates.
fn descend(a: Core, b: Core, face: Face, beyond: f64) -> Option<Separation> {
    if face.sep <= 0.0 {
        return None;
    }
    let beyond_squared = match beyond > 0.0 {
        true => beyond * beyond,
        false => f64::NEG_INFINITY,
    };
    let mut deepest = face.sep;
    let mut deepest_axis = face.axis;
    let mut candidate = face.candidate();
    let (na, nb) = (a.normals.len(), b.normals.len());
    let steps = na + nb;
    for _ in 0..steps {
        if candidate.distance_squared <= beyond_squared {
            return None;
        }
        if candidate.interior() {
            break; // Certified if the origin is beyond the face's line.
        }
        // Closest at the face's start: the face before shares it.
        let at_start = candidate.along <= 0.0;
        let neighbour = match at_start {
            true => face_before(a, b, candidate.face.start_state()),
            false => face_after(a, b, candidate.face.end_state(na, nb)),
        };
        if neighbour.sep > deepest {
            deepest = neighbour.sep;
            deepest_axis = neighbour.axis;
        }
        let next = neighbour.candidate();
        // The neighbour's closest point is the shared end: certified.
        let shared = !next.interior() && (next.along <= 0.0) != at_start;
        if shared {
            let sep = finish(&candidate, deepest, deepest_axis);
            return (sep.value > beyond).then_some(sep);
        }
        candidate = next;
    }
    // Out of steps (rounding broke convexity) or an interior point of a
    // face that does not separate: not certified.
    let certified = candidate.interior() && candidate.face.sep > 0.0;
    let sep = certified.then(|| finish(&candidate, deepest, deepest_axis))?;
    (sep.value > beyond).then_some(sep)
}

/// The separation of a winning candidate, as [`clearance`] finishes it.
fn finish(candidate: &Candidate, deepest: f64, deepest_axis: Vector) -> Separation {
    let n = candidate.closest();
    let axis = if deepest > n.distance {
        deepest_axis
    } else {
        n.axis
    };
    Separation {
        value: n.distance.max(deepest),
        axis,
        closest: Some((n.on_a, n.on_b)),
    }
}

/// [`separation`] with the full walk of [`clearance`] replaced by the
/// descent of [`descend`] (from the support vertex for `direction`
/// when there is one, else for the normal of the face at which the
/// early-exit walk of [`separation`] stopped) whenever `accept` holds for the descent's value.
/// Pass a direction only for cores whose boxes are apart (so the cores are
/// disjoint): two small polygons are then measured by
/// [`small_clearance`]. Callers accept only
/// clearances `> beyond`, far enough (beyond rounding) from their own
/// decision threshold that the full walk could not decide otherwise; the
/// descent gives up as soon as it reaches a face that is not farther.
/// Overlapping cores give exactly [`separation`].
pub(crate) fn separation_from(
    a: Core,
    b: Core,
    direction: Option<&Vector>,
    beyond: f64,
) -> Separation {
    if let Some(direction) = direction {
        if a.normals.len() * b.normals.len() <= SMALL_PAIRS && !a.is_point() && !b.is_point() {
            let sep = small_clearance(a, b);
            return match sep.value > beyond {
                true => sep,
                false => separation(a, b),
            };
        }
        if let Some(start) = support_face(a, b, direction) {
            return descend(a, b, start, beyond).unwrap_or_else(|| separation(a, b));
        }
    }
    // `separation`'s first walk. A face with a positive separation
    // separates the cores: the descent starts at the support vertex for it.
    let axis = match points_or_overlap(a, b) {
        Ok(separation) => return separation,
        Err(axis) => axis,
    };
    support_face(a, b, &axis)
        .and_then(|face| descend(a, b, face, beyond))
        .unwrap_or_else(|| clearance(a, b))
}

/// Largest `n × m` for which [`small_clearance`] replaces the descent: its
/// loops have fixed trip counts and no data-dependent branch to mispredict
/// (the descent's time for two triangles is mostly its branches).
const SMALL_PAIRS: usize = 16;

/// Clearance of two polygon cores whose boxes are apart (so the polygons
/// are disjoint), by brute force: the distance between disjoint convex
/// polygons is the smallest distance between a vertex of one and an edge
/// of the other, i.e. between two vertices, or from a vertex beyond an edge
/// (positive separation) whose foot falls inside the edge. Every such
/// candidate is the distance between a point of A and a point of B, so none
/// is below the clearance, and the smallest is it. Candidates are measured
/// as [`clearance`] measures its faces (squared separation, squared
/// vertex–vertex distance).
fn small_clearance(a: Core, b: Core) -> Separation {
    // (squared distance, index in A, index in B, which: 0 two vertices,
    // 1 A's edge and B's vertex, 2 B's edge and A's vertex).
    let mut best = (f64::INFINITY, 0, 0, 0);
    for (i, p) in a.vertices.iter().enumerate() {
        for (j, q) in b.vertices.iter().enumerate() {
            let d = q - p;
            let squared = d.dot(&d);
            if squared < best.0 {
                best = (squared, i, j, 0);
            }
        }
    }
    for (owner, other, which) in [(a, b, 1), (b, a, 2)] {
        let n = owner.normals.len();
        for (i, (start, normal)) in owner.vertices.iter().zip(owner.normals).enumerate() {
            let edge = owner.vertices[next(i, n)] - start;
            let length_squared = edge.dot(&edge);
            for (j, vertex) in other.vertices.iter().enumerate() {
                let d = vertex - start;
                let (along, sep) = (d.dot(&edge), d.dot(normal));
                let squared = sep * sep;
                let inside = along > 0.0 && along < length_squared && sep > 0.0;
                if inside && squared < best.0 {
                    best = match which {
                        1 => (squared, i, j, 1),
                        _ => (squared, j, i, 2),
                    };
                }
            }
        }
    }
    let (squared, i, j, which) = best;
    if which != 0 {
        let face = match which {
            1 => edge_face(a, i, b, j, true),
            _ => edge_face(b, j, a, i, false),
        };
        return finish(&face.candidate(), face.sep, face.axis);
    }
    let (p, q) = (a.vertices[i], b.vertices[j]);
    let d = q - p;
    let length = match (1e-290..=1e290).contains(&squared) {
        true => squared.sqrt(),
        false => d.x.hypot(d.y),
    };
    Separation {
        value: length,
        axis: if length > 0.0 {
            unit(d, length)
        } else {
            Vector::x()
        },
        closest: Some((p, q)),
    }
}

/// The largest separation over the faces, stopping at the first one for
/// which `stop` holds, and the axis (unit, from A toward B) of the first face
/// that reaches it. The separation is a lower bound of
/// `separation(a, b).value` (equal when overlapping), computed with the same
/// arithmetic: a separation `s` returned here always satisfies
/// `s <= separation(a, b).value`. When `stop` never holds, every face is visited and this
/// is the face [`separation`] reports for overlapping cores. Two points give
/// `(-inf, x)`: use [`separation`] for them.
pub fn deepest_separation(a: Core, b: Core, stop: impl Fn(f64) -> bool) -> (f64, Vector) {
    let mut best = f64::NEG_INFINITY;
    let mut axis = Vector::x();
    for_each_face(a, b, |face| {
        if face.sep > best {
            best = face.sep;
            axis = face.axis;
        }
        !stop(face.sep)
    });
    (best, axis)
}

/// The separation of [`deepest_separation`], and whether it is *witnessed*: the first deepest
/// face's vertex is close to that face's edge, so the cores are no farther
/// apart than this separation or than `near`. Either the vertex's foot falls
/// inside the edge (then `separation(a, b).value` is exactly this separation:
/// same faces, same arithmetic), or the vertex is within `near` of the
/// edge's end (vertex on vertex): then `separation(a, b).value`, whose
/// nearest face is at most that far, exceeds `near` by a few ulps at most.
/// Two points: their exact separation, witnessed. Only a positive
/// separation at which `stop` does not hold is ever witnessed.
pub(crate) fn max_separation_witnessed(
    a: Core,
    b: Core,
    near: f64,
    stop: impl Fn(f64) -> bool,
) -> (f64, bool) {
    if let (Some(p), Some(q)) = (a.as_point(), b.as_point()) {
        return (point_separation(p, q).value, true);
    }
    // The deepest face by its separation and indices: cheaper to keep
    // than the face, which is built again (same arithmetic) if needed.
    let mut sep = f64::NEG_INFINITY;
    let mut deepest = (true, 0, 0);
    for_each_face(a, b, |face| {
        if face.sep > sep {
            sep = face.sep;
            deepest = (face.edge_on_a, face.edge_index, face.vertex_index);
        }
        !stop(face.sep)
    });
    // Only a positive separation at which the walk did not stop needs a
    // witness.
    if sep <= 0.0 || stop(sep) {
        return (sep, false);
    }
    let (edge_on_a, edge, vertex) = deepest;
    let candidate = face_at(a, b, edge_on_a, edge, vertex).candidate();
    (
        sep,
        candidate.interior() || candidate.distance_squared <= near * near,
    )
}

/// A lower bound of `separation(core, Core::point(p)).value`, the core as
/// A: for a polygon the largest of the faces' separations
/// `(p − start)·normal`, each computed as the walk computes it (bit for
/// bit), so it equals that value when it is `<= 0` (`p` inside) and is at
/// most it otherwise (the clearance is at least every face's separation,
/// and [`clearance`] keeps it so after rounding); for a point core, the
/// distance itself ([`point_separation`]'s).
pub(crate) fn point_bound(core: Core, p: &Point) -> f64 {
    if let Some(q) = core.as_point() {
        return point_separation(q, *p).value;
    }
    let mut bound = f64::NEG_INFINITY;
    for (v, normal) in core.vertices.iter().zip(core.normals) {
        let sep = (p - v).dot(normal);
        if sep > bound {
            bound = sep;
        }
    }
    bound
}

/// Separation between two points (the cores of two circles). Coincident
/// points overlap along `+x`: a fixed axis rather than a NaN.
pub fn point_separation(a: Point, b: Point) -> Separation {
    let d = b - a;
    let length = d.x.hypot(d.y);
    if length > 0.0 {
        Separation {
            value: length,
            axis: unit(d, length),
            closest: Some((a, b)),
        }
    } else {
        Separation {
            value: 0.0,
            axis: Vector::x(),
            closest: None,
        }
    }
}

mod core;
mod faces;

#[cfg(test)]
mod tests;
