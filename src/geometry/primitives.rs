//! The plane's basic types: points, vectors, boxes, and the length
//! tolerance of the module-level tolerance policy.

/// A point in the plane (metres).
pub type Point = nalgebra::Point2<f64>;
/// A vector in the plane (metres, or unitless when a direction).
pub type Vector = nalgebra::Vector2<f64>;

/// Relative tolerance; multiplied by the scale of the coordinates involved.
pub const REL_TOLERANCE: f64 = 1e-12;

/// Absolute length tolerance for coordinates whose magnitude is at most
/// `scale` metres. See the module documentation.
#[inline]
pub fn length_tolerance(scale: f64) -> f64 {
    REL_TOLERANCE * scale.max(1.0)
}

/// `d / length` with `length = |d| > 0`: the unit vector along `d`. When
/// `length` is subnormal (points 1e-308 apart or less) it is rounded to
/// the subnormal grid, a few significant bits, and `d / length` is not unit
/// (0.1 % off for points 1e-321 apart, which a large padding or radius then
/// multiplies into the MTV): there `d` is scaled to its largest component
/// first.
#[inline]
pub(crate) fn unit(d: Vector, length: f64) -> Vector {
    if length >= f64::MIN_POSITIVE {
        return d / length;
    }
    let scaled = d / d.x.abs().max(d.y.abs());
    scaled / scaled.x.hypot(scaled.y)
}

/// 2-D cross product (z component of the 3-D cross product).
#[inline]
pub fn cross(a: &Vector, b: &Vector) -> f64 {
    a.x * b.y - a.y * b.x
}

/// Axis-aligned bounding box, used for scale and as a broad-phase pre-test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Lower-left corner.
    pub min: Point,
    /// Upper-right corner.
    pub max: Point,
}

impl Aabb {
    /// The smallest box containing `points`; `None` when `points` is empty.
    pub fn from_points(points: &[Point]) -> Option<Self> {
        let first = points.first()?;
        let mut aabb = Aabb {
            min: *first,
            max: *first,
        };
        for p in &points[1..] {
            aabb.min.x = aabb.min.x.min(p.x);
            aabb.min.y = aabb.min.y.min(p.y);
            aabb.max.x = aabb.max.x.max(p.x);
            aabb.max.y = aabb.max.y.max(p.y);
        }
        Some(aabb)
    }

    /// The box's centre.
    #[inline]
    pub fn center(&self) -> Point {
        nalgebra::center(&self.min, &self.max)
    }

    /// This box grown by `margin` on every side.
    pub fn inflated(&self, margin: f64) -> Self {
        let m = Vector::new(margin, margin);
        Aabb {
            min: self.min - m,
            max: self.max + m,
        }
    }

    /// The smallest box containing both.
    pub fn union(&self, other: &Aabb) -> Self {
        Aabb {
            min: Point::new(self.min.x.min(other.min.x), self.min.y.min(other.min.y)),
            max: Point::new(self.max.x.max(other.max.x), self.max.y.max(other.max.y)),
        }
    }

    /// Closed-set overlap test (touching boxes overlap).
    #[inline]
    pub fn intersects(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// Euclidean distance between the boxes; 0 when they overlap. A lower
    /// bound of the distance between anything inside them.
    pub fn distance(&self, other: &Aabb) -> f64 {
        let gaps = self.gaps(other);
        gaps.x.hypot(gaps.y)
    }

    /// The gaps between the boxes along x and along y, each `>= 0` (0 where
    /// their projections overlap).
    #[inline]
    pub fn gaps(&self, other: &Aabb) -> Vector {
        Vector::new(
            (other.min.x - self.max.x)
                .max(self.min.x - other.max.x)
                .max(0.0),
            (other.min.y - self.max.y)
                .max(self.min.y - other.max.y)
                .max(0.0),
        )
    }

    /// Largest absolute coordinate: the scale used by the tolerance policy.
    #[inline]
    pub fn magnitude(&self) -> f64 {
        // The largest |coordinate| is max(-min, max) per axis.
        let x = (-self.min.x).max(self.max.x);
        let y = (-self.min.y).max(self.max.y);
        x.max(y)
    }
}
