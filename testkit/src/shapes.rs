//! Outlines of hard concave polygons, shared by the property tests and the
//! benchmarks that feed them to validation and decomposition.

use nalgebra::Point2;
use std::f64::consts::TAU;

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
}
