//! Two polygons under a pure translation: the swept SAT over the face
//! normals of `B ⊕ −A`, in closed form (see the [module documentation](super)).

use super::super::{cross, ConvexPolygon, Point, Vector};
use nalgebra::Isometry2;

/// What the swept SAT of two polygons under a translation proves.
pub(super) enum Swept {
    /// No contact over the span.
    Miss,
    /// First contact at `time`, touching along `axis` (from A toward B).
    Hit { time: f64, axis: Vector },
    /// No contact before `time`; the advancement has to finish.
    From(f64),
}

/// The face of the entry so far: whose edge, and the other polygon's
/// support vertex.
#[derive(Clone, Copy)]
enum Face {
    A { edge: usize, support: usize },
    B { edge: usize, support: usize },
}

/// Swept SAT of polygon `a` (placed at the start, moving at `velocity`)
/// against the fixed polygon `b`, both inflated together by `radius` (the
/// padding plus the tolerance), over `[0, duration]`.
///
/// Along every edge normal `u` of either polygon (the face normals of the
/// Minkowski difference `B ⊕ −A`) the gap between the projections changes
/// linearly in time; the shapes can only be within `radius` while every gap
/// is, so the latest entry time is a lower bound of the first contact (the
/// normals bound `B ⊕ −A` grown by `radius` with sharp corners, which holds
/// the rounded one), and an empty interval proves a miss. At that time the
/// entry face's support sets (an edge and the other polygon's support
/// vertex, or the vertices within `eps` of its support line) are `radius`
/// apart along `u`; when their extents across `u` overlap, the shapes are
/// within `radius + eps`: the contact itself. Otherwise the entry is through
/// a rounded corner, which the advancement finishes from there. One
/// support walk per polygon: O(n + m), no allocation.
pub(super) fn translation_convex(
    a: &ConvexPolygon,
    start: &Isometry2<f64>,
    b: &ConvexPolygon,
    velocity: Vector,
    duration: f64,
    radius: f64,
    eps: f64,
) -> Swept {
    let (av, an) = (a.vertices(), a.normals());
    let (bv, bn) = (b.vertices(), b.normals());
    let (n, m) = (av.len(), bv.len());
    if n < 3 || m < 3 || an.len() != n || bn.len() != m {
        return Swept::From(0.0);
    }
    let rotation = start.rotation;
    let (mut enter, mut exit) = (0.0_f64, duration);
    let mut face = None;
    // One gap `sep` at t = 0 closing at `rate` (m/s): the interval where it
    // stays within `radius`.
    let mut gap = |sep: f64, rate: f64, which: Face| -> bool {
        if sep > radius {
            if rate <= 0.0 {
                return false;
            }
            let t = (sep - radius) / rate;
            if t > enter {
                enter = t;
                face = Some(which);
            }
        } else if rate < 0.0 {
            exit = exit.min((radius - sep) / -rate);
        }
        enter <= exit
    };
    // The faces of B ⊕ −A in angular order (the edges of A and of B merged
    // by the angle of their normals, as for a Minkowski sum): each face's
    // support vertex on the other polygon is the one whose normal cone the
    // face's normal crosses, so it moves forward with the walk; one search
    // for the first, then one comparison per face. A is placed vertex by
    // vertex as the walk reaches it (no buffer).
    let first = start * av[0];
    let mut jb = lowest(bv, &(rotation * an[0]));
    let mut b_left = m;
    for ka in 0..n {
        let u = rotation * an[ka];
        let corner = if ka == 0 { first } else { start * av[ka] };
        // B's edges whose normal comes before A's edge `ka`, against A's
        // vertex `ka` (whose cone they cross).
        while b_left > 0 && cross(&u, &bn[jb]) > 0.0 {
            let normal = &bn[jb];
            let sep = normal.dot(&(corner - bv[jb]));
            if !gap(
                sep,
                -velocity.dot(normal),
                Face::B {
                    edge: jb,
                    support: ka,
                },
            ) {
                return Swept::Miss;
            }
            b_left -= 1;
            jb = if jb + 1 == m { 0 } else { jb + 1 };
        }
        // A's edge `ka` against B's current support vertex.
        let sep = u.dot(&(bv[jb] - corner));
        if !gap(
            sep,
            velocity.dot(&u),
            Face::A {
                edge: ka,
                support: jb,
            },
        ) {
            return Swept::Miss;
        }
    }
    // The rest of B's edges, up to a full turn: against A's vertex 0.
    for _ in 0..b_left {
        let normal = &bn[jb];
        let sep = normal.dot(&(first - bv[jb]));
        if !gap(
            sep,
            -velocity.dot(normal),
            Face::B {
                edge: jb,
                support: 0,
            },
        ) {
            return Swept::Miss;
        }
        jb = if jb + 1 == m { 0 } else { jb + 1 };
    }
    let Some(face) = face else {
        return Swept::From(0.0); // Within `radius` at the start already.
    };
    // Extents across the entry normal (from A toward B) of both support
    // sets, A moved to the entry time.
    let moved = Isometry2::from_parts(
        (start.translation.vector + velocity * enter).into(),
        rotation,
    );
    let (axis, a_range, b_range) = match face {
        Face::A { edge, support } => {
            let u = rotation * an[edge];
            let next = if edge + 1 == n { 0 } else { edge + 1 };
            let across = perp(&u);
            let a_range = range(
                across.dot(&(moved * av[edge]).coords),
                across.dot(&(moved * av[next]).coords),
            );
            // B's vertices on its support line: the support and its
            // neighbours within `eps` of it (an edge parallel to A's).
            let level = bv[support].coords.dot(&u) + eps;
            let on_line = |i: usize| bv[i].coords.dot(&u) <= level;
            let b_range = tied_range(bv, support, |p| across.dot(&p.coords), on_line);
            (u, a_range, b_range)
        }
        Face::B { edge, support } => {
            let u = bn[edge];
            let u_body = rotation.inverse_transform_vector(&u);
            let next = if edge + 1 == m { 0 } else { edge + 1 };
            let across = perp(&u);
            let b_range = range(across.dot(&bv[edge].coords), across.dot(&bv[next].coords));
            let level = av[support].coords.dot(&u_body) + eps;
            let on_line = |i: usize| av[i].coords.dot(&u_body) <= level;
            let a_range = tied_range(av, support, |p| across.dot(&(moved * p).coords), on_line);
            (-u, a_range, b_range)
        }
    };
    if a_range.0 <= b_range.1 && b_range.0 <= a_range.1 {
        Swept::Hit { time: enter, axis }
    } else {
        Swept::From(enter)
    }
}

#[inline]
fn perp(u: &Vector) -> Vector {
    Vector::new(-u.y, u.x)
}

/// Index of a vertex of least projection on `u`.
#[inline]
fn lowest(vertices: &[Point], u: &Vector) -> usize {
    let mut best = (0, f64::INFINITY);
    for (i, p) in vertices.iter().enumerate() {
        let value = p.coords.dot(u);
        if value < best.1 {
            best = (i, value);
        }
    }
    best.0
}

#[inline]
fn range(x: f64, y: f64) -> (f64, f64) {
    (x.min(y), x.max(y))
}

/// Extent of `at` over vertex `support` and its neighbours for which
/// `on_line` holds.
#[inline]
fn tied_range(
    vertices: &[Point],
    support: usize,
    at: impl Fn(&Point) -> f64,
    on_line: impl Fn(usize) -> bool,
) -> (f64, f64) {
    let n = vertices.len();
    let x = at(&vertices[support]);
    let mut r = (x, x);
    for i in [(support + 1) % n, (support + n - 1) % n] {
        if on_line(i) {
            let x = at(&vertices[i]);
            r = (r.0.min(x), r.1.max(x));
        }
    }
    r
}
