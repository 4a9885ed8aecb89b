use super::faces::find_support_linear;
use super::*;
use crate::geometry::ConvexPolygon;
use sat_collision_testkit::SplitMix64 as Rng;
use std::f64::consts::TAU;

/// Index of a vertex of `p` with the largest projection on `direction`
/// (plain arg-max, the reference of the support searches).
fn support_index(p: &ConvexPolygon, direction: &Vector) -> usize {
    let mut best = 0;
    let mut best_value = f64::NEG_INFINITY;
    for (i, v) in p.vertices().iter().enumerate() {
        let value = v.coords.dot(direction);
        if value > best_value {
            best_value = value;
            best = i;
        }
    }
    best
}

/// The descent of [`descend`] from the support vertex for `direction`
/// (from A toward B): what [`separation_from`] does when the boxes are
/// apart, without the fallback. The tests' entry point.
fn clearance_from(a: Core, b: Core, direction: &Vector) -> Option<Separation> {
    descend(a, b, support_face(a, b, direction)?, f64::NEG_INFINITY)
}

/// Convex polygon with `n` vertices at jittered angles on an ellipse,
/// or a regular one, rotated and moved.
fn polygon(rng: &mut Rng, n: usize, regular: bool) -> ConvexPolygon {
    let (rx, ry) = (rng.range(0.1, 2.0), rng.range(0.1, 2.0));
    let (rx, ry) = if regular { (rx, rx) } else { (rx, ry) };
    let (s, c) = rng.range(0.0, TAU).sin_cos();
    let centre = Vector::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
    let points: Vec<Point> = (0..n)
        .map(|k| {
            let jitter = if regular { 0.0 } else { rng.range(-0.35, 0.35) };
            let t = (k as f64 + jitter) * TAU / n as f64;
            let (x, y) = (rx * t.cos(), ry * t.sin());
            Point::new(c * x - s * y, s * x + c * y) + centre
        })
        .collect();
    ConvexPolygon::new(&points).expect("convex test polygon")
}

fn random_polygons(count: usize) -> Vec<ConvexPolygon> {
    let mut rng = Rng(7);
    let sizes = [3, 4, 5, 8, 13, 64, 257];
    (0..count)
        .map(|k| polygon(&mut rng, sizes[k % sizes.len()], k % 3 == 0))
        .collect()
}

#[test]
fn bisection_support_is_the_linear_one() {
    let mut rng = Rng(11);
    for p in random_polygons(300) {
        let core = Core::polygon(&p);
        // Random directions, and every normal exactly and reversed (ties).
        let mut directions: Vec<Vector> = (0..20)
            .map(|_| {
                let t = rng.range(0.0, TAU);
                Vector::new(t.cos(), t.sin())
            })
            .collect();
        directions.extend(p.normals().iter().flat_map(|n| [*n, -n]));
        for d in directions {
            assert_eq!(
                find_support(core, &d),
                find_support_linear(core, &d),
                "direction {d:?}"
            );
        }
    }
}

#[test]
fn logarithmic_contains_is_the_half_plane_test() {
    let mut rng = Rng(13);
    for p in random_polygons(300) {
        let core = Core::polygon(&p);
        let aabb = p.aabb().inflated(0.1);
        let all = |q: &Point| {
            p.vertices()
                .iter()
                .zip(p.normals())
                .all(|(v, n)| (q - v).dot(n) <= 0.0)
        };
        let mut points: Vec<Point> = (0..200)
            .map(|_| {
                Point::new(
                    rng.range(aabb.min.x, aabb.max.x),
                    rng.range(aabb.min.y, aabb.max.y),
                )
            })
            .collect();
        // Vertices, and points on the diagonals from vertex 0.
        points.extend(p.vertices().iter().copied());
        let v0 = p.vertices()[0];
        points.extend(p.vertices().iter().map(|v| v0 + (v - v0) * 0.5));
        for q in points {
            let inside = core.contains(&q);
            if inside != all(&q) {
                // Only within rounding of the boundary.
                let gap = p
                    .vertices()
                    .iter()
                    .zip(p.normals())
                    .map(|(v, n)| (q - v).dot(n))
                    .fold(f64::NEG_INFINITY, f64::max);
                assert!(gap.abs() < 1e-14, "{q:?}: {inside}, gap {gap:e}");
            }
        }
    }
}

/// `b` moved so that its extreme vertex against `d` lies `gap` beyond
/// `a`'s extreme vertex along the unit `d` (negative: overlapping).
fn placed(a: &ConvexPolygon, b: &ConvexPolygon, d: Vector, gap: f64) -> ConvexPolygon {
    let top = a.vertices()[support_index(a, &d)];
    let bottom = b.vertices()[support_index(b, &-d)];
    let shift = top + d * gap - bottom;
    b.transformed(&nalgebra::Isometry2::translation(shift.x, shift.y))
}

/// The descent (`clearance_from`) and the brute force of small pairs
/// (`small_clearance`) against the full walk of
/// `separation`: random convex pairs (regular and jittered, 3 to 257
/// vertices) far apart, near, nearly touching and overlapping, also
/// turned and moved 1e5 m away (rounded coordinates, normals turned
/// rather than recomputed). Whenever the descent answers, its clearance
/// is the full walk's to within tol / 8 (the margin `query` relies on),
/// its closest points are on the polygons and that far apart, and its
/// axis is the full walk's; it answers for nearly every pair apart by
/// more than the tolerance.
#[test]
fn descent_clearance_is_the_full_walk() {
    let mut rng = Rng(17);
    let sizes = [3, 4, 5, 8, 13, 64, 257];
    let gaps = [30.0, 5.0, 0.5, 1e-3, 1e-6, 1e-10, 0.0, -1e-3, -0.3];
    let (mut apart, mut answered, mut answered_close) = (0, 0, 0);
    let (mut answered_from_support, mut small) = (0, 0);
    for k in 0..30_000 {
        let pa = polygon(&mut rng, sizes[k % sizes.len()], k % 3 == 0);
        let pb = polygon(&mut rng, sizes[(k / 3) % sizes.len()], k % 4 == 0);
        let t = rng.range(0.0, TAU);
        let d = Vector::new(t.cos(), t.sin());
        let gap = gaps[k % gaps.len()] * rng.range(0.5, 1.5);
        let pb = placed(&pa, &pb, d, gap);
        let (pa, pb) = match k % 5 {
            0 | 1 => {
                let pose = nalgebra::Isometry2::new(
                    Vector::new(rng.range(-1e5, 1e5), rng.range(-1e5, 1e5)),
                    rng.range(0.0, TAU),
                );
                (pa.transformed(&pose), pb.transformed(&pose))
            }
            _ => (pa, pb),
        };
        let scale = pa.aabb().magnitude().max(pb.aabb().magnitude());
        let tol = super::super::length_tolerance(scale);
        // One pair in six: B is a point (a circle's core), one of its
        // vertices.
        let point_b = k % 6 == 5;
        let vertex_b = pb.vertices()[0];
        let (a, b) = match point_b {
            true => (Core::polygon(&pa), Core::point(&vertex_b)),
            false => (Core::polygon(&pa), Core::polygon(&pb)),
        };
        let full = separation(a, b);
        let direction = match point_b {
            true => vertex_b - pa.aabb().center(),
            false => pb.aabb().center() - pa.aabb().center(),
        };
        let from_support = clearance_from(a, b, &direction);
        if from_support.is_some() {
            answered_from_support += 1;
        }
        let fast = from_support.or_else(|| {
            let sep = separation_from(a, b, None, f64::NEG_INFINITY);
            (sep.value > 0.0).then_some(sep)
        });
        let what = || format!("case {k}: gap {gap:e}, full {full:?}, fast {fast:?}");
        // Small polygons whose boxes are apart: the brute force.
        let gaps = pa.aabb().gaps(pb.aabb());
        if !point_b && (gaps.x > 0.0 || gaps.y > 0.0) && pa.len() * pb.len() <= SMALL_PAIRS {
            small += 1;
            let brute = small_clearance(a, b);
            assert!(
                (brute.value - full.value).abs() <= tol / 8.0,
                "{brute:?}: {}",
                what()
            );
            assert!(
                full.value <= 1e-9 || (brute.axis - full.axis).norm() <= 1e-9,
                "{brute:?}: {}",
                what()
            );
            let (p, q) = brute.closest.expect("closest points");
            assert!(((q - p).norm() - brute.value).abs() <= tol, "{}", what());
        }
        if full.value <= tol {
            // Touching or overlapping: at most a rounding-size clearance.
            assert!(fast.is_none_or(|f| f.value <= tol), "{}", what());
            continue;
        }
        apart += 1;
        let Some(fast) = fast else {
            continue;
        };
        answered += 1;
        if full.value < 1e-2 {
            answered_close += 1;
        }
        assert!((fast.value - full.value).abs() <= tol / 8.0, "{}", what());
        let (p, q) = fast.closest.expect("closest points");
        assert!(((q - p).norm() - fast.value).abs() <= tol, "{}", what());
        if point_b {
            assert_eq!(q, vertex_b, "{}", what());
        }
        for (point, polygon) in [(p, &pa), (q, &pb)] {
            let outside = polygon
                .vertices()
                .iter()
                .zip(polygon.normals())
                .map(|(v, n)| (point - v).dot(n))
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(outside.abs() <= tol, "{}: off by {outside:e}", what());
        }
        if full.value > 1e-9 {
            assert!((fast.axis - full.axis).norm() <= 1e-9, "{}", what());
        }
    }
    eprintln!(
        "{answered} of {apart} apart answered, {answered_from_support} from the support; \
         {small} small pairs by brute force"
    );
    assert!(small > 1000, "{small}");
    assert!(answered >= apart * 99 / 100, "{answered} of {apart}");
    assert!(answered_close > 500, "{answered_close}");
}

/// The merged walk visits every edge of both cores once, each with the
/// other core's deepest vertex against it.
#[test]
fn merged_walk_visits_every_face_with_its_support() {
    let polygons = random_polygons(120);
    for (k, pa) in polygons.iter().enumerate() {
        for pb in polygons.iter().skip(k % 7).step_by(17) {
            let (a, b) = (Core::polygon(pa), Core::polygon(pb));
            let mut seen_a = vec![0; pa.len()];
            let mut seen_b = vec![0; pb.len()];
            for_each_face(a, b, |face| {
                let (owner, other, seen) = match face.edge_on_a {
                    true => (pa, pb, &mut seen_a),
                    false => (pb, pa, &mut seen_b),
                };
                seen[face.edge_index] += 1;
                let start = owner.vertices()[face.edge_index];
                let normal = owner.normals()[face.edge_index];
                let best = other
                    .vertices()
                    .iter()
                    .map(|v| (v - start).dot(&normal))
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    (face.sep - best).abs() <= 1e-12,
                    "face {face:?}: {} vs {best}",
                    face.sep
                );
                true
            });
            assert!(seen_a.iter().chain(&seen_b).all(|&c| c == 1));
        }
    }
}
