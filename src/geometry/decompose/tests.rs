use super::*;
use crate::geometry::cross;
use crate::geometry::polygon::{twice_signed_area, MAX_CONCAVE_VERTICES};
use crate::geometry::predicates::{orient, turn_float};
use sat_collision_testkit::SplitMix64 as Rng;

fn pts(coords: &[(f64, f64)]) -> Vec<Point> {
    coords.iter().map(|&(x, y)| Point::new(x, y)).collect()
}

fn inside_even_odd(ring: &[Point], p: Point) -> bool {
    let n = ring.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) > p.x {
            inside = !inside;
        }
    }
    inside
}

/// Pieces strictly convex, areas adding up, random points inside the
/// ring in some piece, outside in none.
fn check_cover(ring: &[Point], pieces: &[Vec<Point>], rng: &mut Rng) {
    for piece in pieces {
        let m = piece.len();
        assert!(m >= 3);
        for i in 0..m {
            let (a, b, c) = (piece[(i + m - 1) % m], piece[i], piece[(i + 1) % m]);
            assert!(
                turn_float(a, b, c) > 0.0 && orient(a, b, c) > 0.0,
                "{piece:?}"
            );
        }
    }
    let expected = twice_signed_area(ring);
    let sum: f64 = pieces.iter().map(|p| twice_signed_area(p.as_slice())).sum();
    assert!(
        (sum - expected).abs() <= 1e-9 * expected,
        "{sum} vs {expected}"
    );
    let (lo, hi) = ring.iter().fold((ring[0], ring[0]), |(lo, hi), p| {
        (
            Point::new(lo.x.min(p.x), lo.y.min(p.y)),
            Point::new(hi.x.max(p.x), hi.y.max(p.y)),
        )
    });
    for _ in 0..200 {
        let p = Point::new(
            lo.x + (hi.x - lo.x) * rng.unit(),
            lo.y + (hi.y - lo.y) * rng.unit(),
        );
        let covered = pieces.iter().any(|piece| {
            let m = piece.len();
            (0..m).all(|i| orient(piece[i], piece[(i + 1) % m], p) >= 0.0)
        });
        assert_eq!(covered, inside_even_odd(ring, p), "{p:?}");
    }
}

fn random_star(rng: &mut Rng, n: usize) -> Vec<Point> {
    (0..n)
        .map(|k| {
            let a = (k as f64 + 0.9 * rng.unit()) * std::f64::consts::TAU / n as f64;
            let r = 0.2 + 0.8 * rng.unit();
            Point::new(r * a.cos(), r * a.sin())
        })
        .collect()
}

fn random_histogram(rng: &mut Rng, columns: usize) -> Vec<Point> {
    let mut ring = vec![Point::new(0.0, 0.0), Point::new(columns as f64, 0.0)];
    for i in (0..columns).rev() {
        let h = (1 + rng.below(5)) as f64;
        ring.push(Point::new((i + 1) as f64, h));
        ring.push(Point::new(i as f64, h));
    }
    ring
}

/// Exact sign of the orientation of integer points scaled by 2^-shift.
fn reference_sign(a: (i64, i64), b: (i64, i64), c: (i64, i64)) -> f64 {
    let det = (a.0 - c.0) as i128 * (b.1 - c.1) as i128 - (a.1 - c.1) as i128 * (b.0 - c.0) as i128;
    det.signum() as f64
}

#[test]
fn orient_sign_is_exact_for_nearly_collinear_points() {
    let mut rng = Rng(7);
    let scale = (2.0f64).powi(-30);
    let to_point = |p: (i64, i64)| Point::new(p.0 as f64 * scale, p.1 as f64 * scale);
    let mut degenerate = 0;
    for _ in 0..20_000 {
        // Two random points and a third on, or one unit off, their line,
        // far from the origin: the float filter cannot decide these.
        let base = 1i64 << 45;
        let a = (base + rng.below(1 << 20), base + rng.below(1 << 20));
        let d = (rng.below(1 << 10) - 512, rng.below(1 << 10) - 512);
        let k = rng.below(1 << 10) + 1;
        let b = (a.0 + d.0, a.1 + d.1);
        let wobble = rng.below(3) - 1;
        let c = (a.0 + k * d.0 + wobble, a.1 + k * d.1);
        let expected = reference_sign(a, b, c);
        let got = orient(to_point(a), to_point(b), to_point(c)).signum();
        let got = if orient(to_point(a), to_point(b), to_point(c)) == 0.0 {
            0.0
        } else {
            got
        };
        assert_eq!(got, expected, "{a:?} {b:?} {c:?}");
        degenerate += (expected == 0.0) as usize;
    }
    assert!(degenerate > 1000);
    // The classic failure of the naive formula (Kettner et al.).
    let p = Point::new(0.5 + 2f64.powi(-52) * 3.0, 0.5 + 2f64.powi(-52) * 3.0);
    assert_eq!(
        orient(p, Point::new(12.0, 12.0), Point::new(24.0, 24.0)),
        0.0
    );
}

#[test]
fn orient_agrees_with_plain_formula_when_clear() {
    let (a, b, c) = (
        Point::new(0.0, 0.0),
        Point::new(1.0, 0.0),
        Point::new(0.0, 1.0),
    );
    assert!(orient(a, b, c) > 0.0);
    assert!(orient(a, c, b) < 0.0);
    assert_eq!(orient(a, b, Point::new(2.0, 0.0)), 0.0);
}

/// The trapezoid fallback, alone and after part of the ears were
/// clipped, covers exactly.
#[test]
fn fallback_covers_what_ear_clipping_left() {
    let mut rng = Rng(11);
    for round in 0..300 {
        let ring = if round % 2 == 0 {
            random_star(&mut rng, 4 + (round % 40))
        } else {
            random_histogram(&mut rng, 1 + (round % 15))
        };
        let polygon = SimplePolygon::new(&ring).unwrap();
        let points = polygon.vertices();
        let n = points.len();
        check_cover(points, &trapezoid_cover(points), &mut rng);
        for budget in [0, 1, n / 3, n / 2] {
            check_cover(points, &decompose_ring(points, budget), &mut rng);
        }
    }
}

/// Triangles (before merging) and pieces (after) add up to the area.
fn check_areas(ring: &[Point]) {
    let polygon = SimplePolygon::new(ring).unwrap();
    let points = polygon.vertices();
    let mut mesh = Mesh::default();
    let leftover = EarClipper::new(points).triangulate(&mut mesh, usize::MAX);
    assert!(leftover.is_none());
    let expected = twice_signed_area(points);
    let triangles: f64 = mesh
        .origin
        .chunks(3)
        .map(|t| twice_signed_area(&[points[t[0]], points[t[1]], points[t[2]]]))
        .sum();
    assert!(
        (triangles - expected).abs() < 1e-9 * expected,
        "triangles {triangles} vs {expected}"
    );
    mesh.merge_inessential_diagonals(points);
    let pieces: f64 = mesh
        .pieces(points)
        .iter()
        .map(|p| twice_signed_area(p.as_slice()))
        .sum();
    assert!(
        (pieces - expected).abs() < 1e-9 * expected,
        "pieces {pieces} vs {expected}"
    );
}

/// A rotated orthogonal polygon: many nearly collinear diagonals. With
/// plain floating-point predicates the remaining ring stopped being
/// simple and the triangles covered 3% more than the polygon.
#[test]
fn rotated_grid_polygon_triangulates_exactly() {
    check_areas(&pts(&[
        (0.4563079922344965, 0.0046965796160298775),
        (0.45474246569581983, 0.15679924369419537),
        (0.30263980161765436, 0.15523371715551873),
        (0.3010742750789777, 0.30733638123368423),
        (0.14897161100081224, 0.3057708546950076),
        (0.1474060844621356, 0.4578735187731731),
        (0.29950874854030113, 0.4594390453118497),
        (0.2979432220016245, 0.6115417093900152),
        (0.14584055792345899, 0.6099761828513386),
        (0.14427503138478237, 0.762078846929504),
        (0.29637769546294784, 0.7636443734681807),
        (0.2948121689242712, 0.9157470375463462),
        (0.44691483300243673, 0.9173125640850227),
        (0.4453493064637601, 1.0694152281631883),
        (-0.010958685770736382, 1.0647186485471585),
        (-0.012524212309413007, 1.216821312625324),
        (-0.925140196778406, 1.207428153393264),
        (-0.9235746702397293, 1.0553254893150987),
        (-0.6193693420833984, 1.058456542392452),
        (-0.6178038155447217, 0.9063538783142864),
        (-0.7699064796228872, 0.9047883517756098),
        (-0.766775426545534, 0.6005830236192788),
        (-0.31046743431103746, 0.6052796032353087),
        (-0.30733638123368423, 0.3010742750789777),
        (-0.7636443734681807, 0.29637769546294784),
        (-0.762078846929504, 0.14427503138478237),
        (-0.9141815110076695, 0.14270950484610573),
        (-0.912615984468993, -0.009393159232059755),
    ]));
}

/// Exact grid polygon: clipping makes vertices exactly straight.
#[test]
fn straight_vertices_are_dropped_from_the_ring() {
    check_areas(&pts(&[
        (0., 0.),
        (1., 0.),
        (1., -1.),
        (2., -1.),
        (2., 0.),
        (3., 0.),
        (3., 3.),
        (2., 3.),
        (2., 1.),
        (1., 1.),
        (1., 2.),
        (0., 2.),
    ]));
    let mut rng = Rng(3);
    for columns in 1..40 {
        check_areas(&random_histogram(&mut rng, columns));
    }
}

#[test]
fn convex_input_is_one_unchanged_piece() {
    let square = SimplePolygon::new(&pts(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)])).unwrap();
    let pieces = convex_decomposition(&square);
    assert_eq!(pieces.len(), 1);
    assert_eq!(pieces[0].vertices(), square.vertices());
}

/// A 4,096-vertex comb (teeth along x, the worst case of a sweep over
/// x extents) validates, and decomposes into convex pieces whose areas
/// add up to its area.
#[test]
fn comb_at_the_concave_limit_validates_and_decomposes() {
    let teeth = (MAX_CONCAVE_VERTICES - 4) / 4;
    let mut ring = vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0)];
    for k in 0..teeth {
        let y = k as f64;
        let length = 5.0 + (k % 7) as f64;
        ring.extend([
            Point::new(1.0, y + 0.2),
            Point::new(1.0 + length, y + 0.25),
            Point::new(1.0 + length, y + 0.7),
            Point::new(1.0, y + 0.8),
        ]);
    }
    ring.extend([Point::new(1.0, teeth as f64), Point::new(0.0, teeth as f64)]);
    assert_eq!(ring.len(), MAX_CONCAVE_VERTICES);
    let polygon = SimplePolygon::new(&ring).unwrap();
    assert!(!polygon.is_convex());
    assert_eq!(polygon.vertices().len(), MAX_CONCAVE_VERTICES);
    let pieces = convex_decomposition(&polygon);
    assert!(pieces.len() > teeth);
    for piece in &pieces {
        let v = piece.vertices();
        let m = v.len();
        assert!(m >= 3);
        for i in 0..m {
            let (a, b, c) = (v[(i + m - 1) % m], v[i], v[(i + 1) % m]);
            assert!(cross(&(b - a), &(c - b)) > 0.0, "{v:?}");
        }
    }
    let sum: f64 = pieces.iter().map(|p| twice_signed_area(p.vertices())).sum();
    let expected = 2.0 * polygon.area();
    assert!(
        (sum - expected).abs() <= 1e-9 * expected,
        "{sum} vs {expected}"
    );
}
