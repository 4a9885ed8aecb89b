//! The shape generators of the tests and benchmarks, in one place: outlines
//! as counter-clockwise rings of `nalgebra::Point2<f64>` (the library's
//! `geometry::Point`), so that this crate needs no dependency on the library.
//!
//! * Building blocks without randomness, for the callers' own draws:
//!   [`ellipse_ring`] (convex when the angles are sorted within one turn:
//!   the random convex polygons of the property tests and the n-gons of the
//!   touching cases) and [`polar_ring`] (star-shaped about its centre when the
//!   angles increase within one turn: the random star polygons);
//!   [`spiral`], a hard concave outline for validation and decomposition.
//! * Random simple polygons, each drawn from a [`SplitMix64`] in a fixed
//!   order: [`random_star`], [`random_comb`], [`random_spiral`],
//!   [`random_grid`], [`random_gear`], [`random_needle_comb`] (the families of
//!   the decomposition property tests).
//! * Outlines of `n` vertices at the concave vertex limit, each from a fixed
//!   seed (the `concave_polygon` benchmark's): [`limit_comb`],
//!   [`limit_star`], [`limit_monotone`], [`limit_sawtooth`].
//!
//! Every generator keeps the draw order and the arithmetic of the test it
//! was taken from: a seed names the same case as before it moved here, and
//! a test that depends on exact values (a seed, a regression file) still
//! sees them.

use crate::SplitMix64;
use nalgebra::{Point2, Vector2};
use std::f64::consts::TAU;

/// Points on an ellipse of semi-axes `rx` (along x before the rotation) and
/// `ry`, turned by `rotation` (radians, counter-clockwise) about `centre`,
/// one per angle of `angles` (the angle parameter `t` of
/// `(rx cos t, ry sin t)`), in that order.
///
/// Sorted angles within one turn give a convex ring (counter-clockwise).
/// The angles are read lazily, one per point: they may be drawn from a
/// generator as the ring is built.
pub fn ellipse_ring(
    centre: Point2<f64>,
    rx: f64,
    ry: f64,
    rotation: f64,
    angles: impl IntoIterator<Item = f64>,
) -> Vec<Point2<f64>> {
    let (s, c) = rotation.sin_cos();
    angles
        .into_iter()
        .map(|t| {
            let (x, y) = (rx * t.cos(), ry * t.sin());
            centre + Vector2::new(c * x - s * y, s * x + c * y)
        })
        .collect()
}

/// One point per `(angle, radius)` of `vertices`: `centre` plus `radius` in
/// direction `angle` (radians), in that order.
///
/// Angles increasing within one turn give a ring that is star-shaped about
/// `centre`, hence simple, and usually concave. The pairs are read lazily,
/// one per point: they may be drawn from a generator as the ring is built.
pub fn polar_ring(
    centre: Point2<f64>,
    vertices: impl IntoIterator<Item = (f64, f64)>,
) -> Vec<Point2<f64>> {
    vertices
        .into_iter()
        .map(|(angle, r)| centre + Vector2::new(angle.cos(), angle.sin()) * r)
        .collect()
}

/// A thick Archimedean spiral of `turns` turns starting at radius `start`,
/// growing by `pitch` per turn, its wall `thickness` thick: the outer wall
/// outwards, then the inner wall back, `samples` points each (at least 2).
pub fn spiral(
    turns: f64,
    start: f64,
    pitch: f64,
    thickness: f64,
    samples: usize,
) -> Vec<Point2<f64>> {
    let samples = samples.max(2);
    let arm = |t: f64, offset: f64| {
        let a = t * TAU * turns;
        let r = start + pitch * a / TAU + offset;
        Point2::new(r * a.cos(), r * a.sin())
    };
    let ts: Vec<f64> = (0..samples)
        .map(|k| k as f64 / (samples - 1) as f64)
        .collect();
    let mut ring: Vec<Point2<f64>> = ts.iter().map(|&t| arm(t, thickness)).collect();
    ring.extend(ts.iter().rev().map(|&t| arm(t, 0.0)));
    ring
}

/// Random angles around a centre, a random radius per angle: star-shaped
/// with respect to the centre, hence simple.
pub fn random_star(rng: &mut SplitMix64, n: usize) -> Vec<Point2<f64>> {
    // One angle per sector of 2π/n, so no gap reaches π and the centre is
    // in the kernel (n >= 4).
    let angles: Vec<f64> = (0..n)
        .map(|k| (k as f64 + 0.95 * rng.unit()) * TAU / n as f64)
        .collect();
    let (inner, outer) = (rng.range(0.05, 0.6), 1.0);
    angles
        .iter()
        .map(|a| {
            let r = rng.range(inner, outer);
            Point2::new(r * a.cos(), r * a.sin())
        })
        .collect()
}

/// A bar along x with `teeth` slanted teeth on top and slots cut from
/// below.
pub fn random_comb(rng: &mut SplitMix64, teeth: usize) -> Vec<Point2<f64>> {
    let width = teeth as f64;
    let mut ring = vec![Point2::new(0.0, 0.0)];
    // Bottom, left to right, with slots going up into the bar.
    for k in 0..teeth {
        if rng.unit() < 0.5 {
            let x = k as f64 + rng.range(0.1, 0.4);
            let w = rng.range(0.1, 0.4);
            let depth = rng.range(0.1, 0.9);
            ring.push(Point2::new(x, 0.0));
            ring.push(Point2::new(x + rng.range(-0.05, 0.05), depth));
            ring.push(Point2::new(x + w, depth + rng.range(-0.05, 0.05)));
            ring.push(Point2::new(x + w, 0.0));
        }
    }
    ring.push(Point2::new(width, 0.0));
    ring.push(Point2::new(width, 1.0));
    // Top, right to left, with teeth.
    for k in (0..teeth).rev() {
        let x = k as f64 + rng.range(0.55, 0.9);
        let w = rng.range(0.05, 0.4);
        ring.push(Point2::new(x, 1.0));
        ring.push(Point2::new(
            x + rng.range(-0.05, 0.05),
            1.0 + rng.range(0.5, 5.0),
        ));
        ring.push(Point2::new(x - w, 1.0 + rng.range(0.5, 5.0)));
        ring.push(Point2::new(x - w, 1.0));
    }
    ring.push(Point2::new(0.0, 1.0));
    ring
}

/// A thick Archimedean spiral: the outer wall out, the inner wall back.
pub fn random_spiral(rng: &mut SplitMix64, samples: usize) -> Vec<Point2<f64>> {
    let turns = rng.range(0.8, 3.0);
    let pitch = rng.range(0.5, 2.0);
    let thickness = pitch * rng.range(0.2, 0.8);
    let start = rng.range(0.5, 2.0);
    // Enough samples that the walls stay apart.
    let samples = samples.max((turns * 24.0) as usize);
    spiral(turns, start, pitch, thickness, samples)
}

/// An orthogonal polygon on the integer grid: columns with random top and
/// bottom heights (a double-sided histogram). Exact arithmetic, straight
/// angles at many junctions.
pub fn random_grid(rng: &mut SplitMix64, columns: usize) -> Vec<Point2<f64>> {
    let tops: Vec<f64> = (0..columns)
        .map(|_| (1 + rng.below_usize(6)) as f64)
        .collect();
    let bottoms: Vec<f64> = (0..columns).map(|_| -(rng.below_usize(4) as f64)).collect();
    let mut ring = Vec::new();
    for (i, &b) in bottoms.iter().enumerate() {
        ring.push(Point2::new(i as f64, b));
        ring.push(Point2::new((i + 1) as f64, b));
    }
    for (i, &t) in tops.iter().enumerate().rev() {
        ring.push(Point2::new((i + 1) as f64, t));
        ring.push(Point2::new(i as f64, t));
    }
    ring
}

/// Regular angles, each vertex on one of two circles: many diagonals pass
/// (nearly) through other vertices, the hard case for ear tests.
pub fn random_gear(rng: &mut SplitMix64, n: usize) -> Vec<Point2<f64>> {
    let inner = rng.range(0.3, 0.95);
    (0..n)
        .map(|k| {
            let a = k as f64 * TAU / n as f64;
            let r = if rng.unit() < 0.5 { 1.0 } else { inner };
            Point2::new(r * a.cos(), r * a.sin())
        })
        .collect()
}

/// A comb whose teeth and slots are needles: widths down to 1e-7 of the
/// comb's size.
pub fn random_needle_comb(rng: &mut SplitMix64, teeth: usize) -> Vec<Point2<f64>> {
    let width = teeth as f64;
    let mut ring = vec![
        Point2::new(0.0, 0.0),
        Point2::new(width, 0.0),
        Point2::new(width, 1.0),
    ];
    for k in (0..teeth).rev() {
        let x = k as f64 + 0.5;
        let w = 10f64.powf(rng.range(-7.0, -1.0)); // Teeth are 1 apart.
        let h = rng.range(0.5, 3.0);
        if rng.unit() < 0.5 {
            // A needle up.
            ring.extend([
                Point2::new(x + w, 1.0),
                Point2::new(x + w, 1.0 + h),
                Point2::new(x, 1.0 + h),
                Point2::new(x, 1.0),
            ]);
        } else {
            // A needle-thin slot down, almost to the bottom.
            ring.extend([
                Point2::new(x + w, 1.0),
                Point2::new(x + w * 0.5, 1e-3),
                Point2::new(x, 1.0),
            ]);
        }
    }
    ring.push(Point2::new(0.0, 1.0));
    ring
}

// The outlines of the `concave_polygon` benchmark: `n` vertices (4,096 there,
// the concave vertex limit), each from its own fixed seed.

/// A vertical bar (x in [0, 1]) with `(n - 4) / 4` slanted teeth to the right.
pub fn limit_comb(n: usize) -> Vec<Point2<f64>> {
    let teeth = (n - 4) / 4;
    let mut rng = SplitMix64(1);
    let height = teeth as f64;
    let mut ring = vec![Point2::new(0.0, 0.0), Point2::new(1.0, 0.0)];
    for k in 0..teeth {
        let y = k as f64 + rng.range(0.1, 0.3);
        let w = rng.range(0.3, 0.6);
        let length = rng.range(5.0, 50.0);
        let slant = rng.range(-0.05, 0.05);
        ring.push(Point2::new(1.0, y));
        ring.push(Point2::new(1.0 + length, y + slant));
        ring.push(Point2::new(
            1.0 + length + rng.range(-0.5, 0.5),
            y + w + slant,
        ));
        ring.push(Point2::new(1.0, y + w));
    }
    ring.push(Point2::new(1.0, height));
    ring.push(Point2::new(0.0, height));
    ring
}

/// Star-shaped: even vertices on the unit circle, odd ones further in.
pub fn limit_star(n: usize) -> Vec<Point2<f64>> {
    let mut rng = SplitMix64(2);
    (0..n)
        .map(|k| {
            let a = k as f64 * TAU / n as f64;
            let r = if k % 2 == 0 {
                1.0
            } else {
                rng.range(0.3, 0.95)
            };
            Point2::new(r * a.cos(), r * a.sin())
        })
        .collect()
}

/// Random points sorted by x; those above the line from the leftmost to the
/// rightmost form the upper chain (right to left), the others the lower one.
pub fn limit_monotone(n: usize) -> Vec<Point2<f64>> {
    let mut rng = SplitMix64(4);
    let mut points: Vec<Point2<f64>> = (0..n)
        .map(|_| Point2::new(rng.unit(), rng.unit()))
        .collect();
    points.sort_by(|a, b| a.x.total_cmp(&b.x));
    let (first, last) = (points[0], points[n - 1]);
    let above = |p: &Point2<f64>| (last - first).perp(&(p - first)) > 0.0;
    let mut ring: Vec<Point2<f64>> = points.iter().filter(|p| !above(p)).copied().collect();
    ring.extend(points.iter().rev().filter(|p| above(p)));
    ring
}

/// A base with `(n - 4) / 2` teeth of random height (40 to 60) leaning at
/// 45°, one unit wide at the base, on exactly collinear valleys.
pub fn limit_sawtooth(n: usize) -> Vec<Point2<f64>> {
    let teeth = (n - 4) / 2;
    let mut rng = SplitMix64(5);
    let width = teeth as f64;
    let mut ring = vec![
        Point2::new(0.0, -1.0),
        Point2::new(0.5 * width, -1.5),
        Point2::new(width, -1.0),
    ];
    for k in (0..teeth).rev() {
        let x = k as f64;
        let h = rng.range(40.0, 60.0);
        ring.push(Point2::new(x + 1.0, 0.0));
        ring.push(Point2::new(x + 0.5 + h, h));
    }
    ring.push(Point2::new(0.0, 0.0));
    ring
}

/// A `2·half_x × 2·half_y` rectangle centred on the origin with corners
/// cut by `chamfer`: 8 vertices, counter-clockwise from `(half_x,
/// half_y − chamfer)` (the fleet benchmarks' robot footprint).
pub fn chamfered_rectangle(half_x: f64, half_y: f64, chamfer: f64) -> [(f64, f64); 8] {
    let (x, y, c) = (half_x, half_y, chamfer);
    [
        (x, y - c),
        (x - c, y),
        (-x + c, y),
        (-x, y - c),
        (-x, -y + c),
        (-x + c, -y),
        (x - c, -y),
        (x, -y + c),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_go_out_then_back() {
        let ring = spiral(1.0, 1.0, 1.0, 0.5, 5);
        assert_eq!(ring.len(), 10);
        // Outer wall starts at start + thickness on +x, inner wall ends at start.
        assert!((ring[0] - Point2::new(1.5, 0.0)).norm() < 1e-12);
        assert!((ring[9] - Point2::new(1.0, 0.0)).norm() < 1e-12);
        // After one turn the outer wall is one pitch farther out.
        assert!((ring[4] - Point2::new(2.5, 0.0)).norm() < 1e-9);
    }

    #[test]
    fn ellipse_and_polar_rings_put_the_points_where_they_say() {
        let c = Point2::new(1.0, 2.0);
        let ring = ellipse_ring(c, 2.0, 1.0, TAU / 4.0, [0.0, TAU / 4.0]);
        // Turned a quarter: the x semi-axis points up, the y one left.
        assert!((ring[0] - Point2::new(1.0, 4.0)).norm() < 1e-12);
        assert!((ring[1] - Point2::new(0.0, 2.0)).norm() < 1e-12);
        let ring = polar_ring(c, [(0.0, 3.0), (TAU / 2.0, 0.5)]);
        assert!((ring[0] - Point2::new(4.0, 2.0)).norm() < 1e-12);
        assert!((ring[1] - Point2::new(0.5, 2.0)).norm() < 1e-12);
    }

    #[test]
    fn random_families_are_closed_rings_of_their_seed() {
        type Family = fn(&mut SplitMix64, usize) -> Vec<Point2<f64>>;
        let families: [(Family, usize); 6] = [
            (random_star, 12),
            (random_comb, 5),
            (random_spiral, 10),
            (random_grid, 6),
            (random_gear, 12),
            (random_needle_comb, 5),
        ];
        for (family, n) in families {
            let a = family(&mut SplitMix64(9), n);
            assert!(a.len() >= 3);
            assert!(a.iter().all(|p| p.x.is_finite() && p.y.is_finite()));
            // The same seed, the same ring.
            assert_eq!(a, family(&mut SplitMix64(9), n));
        }
    }

    #[test]
    fn limit_outlines_have_their_vertex_count() {
        assert_eq!(limit_comb(64).len(), 64);
        assert_eq!(limit_star(64).len(), 64);
        assert_eq!(limit_monotone(64).len(), 64);
        assert_eq!(limit_sawtooth(64).len(), 64);
    }
}
