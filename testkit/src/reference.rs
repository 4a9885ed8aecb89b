//! Independent reference answers that tests in more than one place check
//! the library against, written here once and never calling it.

use nalgebra::Point2;

/// `p` inside the ring by the even-odd rule (the crossing number): a
/// horizontal ray from `p` to +x crosses the ring's edges (the last
/// vertex joined to the first) an odd number of times. Any orientation;
/// a self-crossing ring counts its overlaps as outside.
///
/// Points on an edge may fall on either side (the crossing's abscissa is
/// rounded): tests keep their points off the edges, or check the boundary
/// another way. An empty ring holds nothing.
pub fn inside_even_odd(ring: &[Point2<f64>], p: Point2<f64>) -> bool {
    let n = ring.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
            if x > p.x {
                inside = !inside;
            }
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_concave_ring_either_way_round() {
        // A "C": the notch between x = 1 and 3, y = 1 and 2, is outside.
        let c = [
            Point2::new(0.0, 0.0),
            Point2::new(3.0, 0.0),
            Point2::new(3.0, 1.0),
            Point2::new(1.0, 1.0),
            Point2::new(1.0, 2.0),
            Point2::new(3.0, 2.0),
            Point2::new(3.0, 3.0),
            Point2::new(0.0, 3.0),
        ];
        assert!(inside_even_odd(&c, Point2::new(0.5, 1.5)));
        assert!(inside_even_odd(&c, Point2::new(2.0, 0.5)));
        assert!(!inside_even_odd(&c, Point2::new(2.0, 1.5)));
        assert!(!inside_even_odd(&c, Point2::new(-1.0, 1.5)));
        let clockwise: Vec<_> = c.iter().rev().copied().collect();
        assert!(inside_even_odd(&clockwise, Point2::new(0.5, 1.5)));
        assert!(!inside_even_odd(&clockwise, Point2::new(2.0, 1.5)));
        assert!(!inside_even_odd(&[], Point2::new(0.0, 0.0)));
    }
}
