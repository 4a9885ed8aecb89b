//! What to draw to explain one footprint–obstacle decision: the axis SAT
//! settled on, both shapes' projection intervals on it, the penetration
//! vector and the clearance segment, in which colours ([`palette`]), with
//! circles drawn as [`OUTLINE_SEGMENTS`]-gons. Shared by the RViz markers
//! and the offline SVG so both always tell the same story.

use crate::geometry::Contact;
use crate::geometry::{cross, Point, Shape, Vector};
use std::fmt;

/// Segments of a circle's outline as drawn, in RViz and in the SVG alike.
pub const OUTLINE_SEGMENTS: usize = 48;

/// A colour, 8 bits per sRGB channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// The channels from 0 to 1 (`std_msgs/ColorRGBA`).
    pub fn unit(self) -> [f32; 3] {
        [self.0, self.1, self.2].map(|c| f32::from(c) / 255.0)
    }
}

/// CSS hex notation: `#2e9d4a`.
impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// What each colour means, in the markers and in the SVG (and its legend).
pub mod palette {
    use super::Rgb;

    /// An obstacle checked and clear.
    pub const CLEAR: Rgb = Rgb(0x2e, 0x9d, 0x4a);
    /// An obstacle the footprint collides with, and the footprint then.
    pub const COLLIDING: Rgb = Rgb(0xd7, 0x30, 0x1f);
    /// An obstacle (or a footprint) that could not be checked.
    pub const INVALID: Rgb = Rgb(0x9e, 0x9e, 0x9e);
    /// The footprint, clear.
    pub const FOOTPRINT: Rgb = Rgb(0x1f, 0x5f, 0xbf);
    /// The SAT axis and the separating line.
    pub const AXIS: Rgb = Rgb(0x6a, 0x3d, 0x9a);
    /// The footprint's projection interval on the axis.
    pub const FOOTPRINT_BAR: Rgb = FOOTPRINT;
    /// The obstacle's projection interval on the axis.
    pub const OBSTACLE_BAR: Rgb = Rgb(0xe6, 0x86, 0x0b);
    /// The penetration vector (MTV).
    pub const MTV: Rgb = Rgb(0xc2, 0x18, 0x5b);
    /// The predicted motion: the footprint swept along it, the path of its
    /// origin, and the footprint at the first predicted contact.
    pub const PREDICTION: Rgb = Rgb(0x00, 0x97, 0xa7);
}

/// Where the projection axis is drawn: beside both shapes, this far out
/// (fractions of the drawing scale), with the two projection bars further
/// out still, so neither hides the shapes.
const AXIS_OFFSET: f64 = 0.15;
const FOOTPRINT_BAR_OFFSET: f64 = 0.22;
const OBSTACLE_BAR_OFFSET: f64 = 0.29;
/// How far lines run past what they span, as a fraction of the drawing
/// scale.
const OVERHANG: f64 = 0.1;
/// Segments used to approximate a circle when clipping overlap regions.
/// Not [`OUTLINE_SEGMENTS`]: this polygon is never drawn, it only places
/// the anchor of a colliding pair (the centroid of the overlap), and a
/// different count would move the penetration arrows and labels.
const CLIP_CIRCLE_SEGMENTS: usize = 32;

/// Drawing primitives in the inputs' frame (metres).
#[derive(Clone, Debug, PartialEq)]
pub struct PairVisual {
    /// The axis SAT settled on (the separating axis of a clear pair, the
    /// axis of least overlap of a colliding one), drawn beside the shapes.
    pub axis: (Point, Point),
    /// Clear pairs: the separating line, perpendicular to the axis, through
    /// the middle of the gap.
    pub separating_line: Option<(Point, Point)>,
    /// The footprint's projection interval on the axis, offset beside it.
    pub footprint_interval: (Point, Point),
    /// The obstacle's projection interval on the axis, offset beside it.
    pub obstacle_interval: (Point, Point),
    /// Penetration vector: starts inside the overlap, `end - start == mtv`.
    pub penetration: Option<(Point, Point)>,
    /// Closest points of a clear pair.
    pub clearance: Option<(Point, Point)>,
    /// Where a label goes: inside the overlap, or mid-gap.
    pub anchor: Point,
}

/// Builds the picture of one pair; `scale` (metres) sizes the offsets,
/// typically the footprint's size.
pub fn explain(
    footprint: &Shape,
    obstacle: &Shape,
    padding: f64,
    contact: &Contact,
    scale: f64,
) -> PairVisual {
    let axis = contact.axis();
    let side = Vector::new(-axis.y, axis.x);
    let (f_lo, f_hi) = footprint.project(&axis);
    let (f_lo, f_hi) = (f_lo - padding, f_hi + padding);
    let (o_lo, o_hi) = obstacle.project(&axis);
    let (fs_lo, fs_hi) = footprint.project(&side);
    let (os_lo, os_hi) = obstacle.project(&side);
    let side_lo = (fs_lo - padding).min(os_lo);
    let side_hi = (fs_hi + padding).max(os_hi);

    // A point at axis coordinate `t` and side coordinate `s`.
    let at = |t: f64, s: f64| Point::from(axis * t + side * s);
    let lo = f_lo.min(o_lo) - OVERHANG * scale;
    let hi = f_hi.max(o_hi) + OVERHANG * scale;
    let beside = |fraction: f64| side_hi + fraction * scale;

    let gap_mid = || {
        let (a, b) = closest_or_centres(footprint, obstacle, contact);
        a + (b - a) * 0.5
    };
    let anchor = if contact.colliding() {
        // Only the padding may overlap: then the middle of the gap.
        overlap_centroid(footprint, obstacle).unwrap_or_else(gap_mid)
    } else {
        gap_mid()
    };
    let separating_line = (!contact.colliding()).then(|| {
        let t = 0.5 * (f_hi + o_lo);
        (
            at(t, side_lo - OVERHANG * scale),
            at(t, beside(AXIS_OFFSET)),
        )
    });

    PairVisual {
        axis: (at(lo, beside(AXIS_OFFSET)), at(hi, beside(AXIS_OFFSET))),
        separating_line,
        footprint_interval: (
            at(f_lo, beside(FOOTPRINT_BAR_OFFSET)),
            at(f_hi, beside(FOOTPRINT_BAR_OFFSET)),
        ),
        obstacle_interval: (
            at(o_lo, beside(OBSTACLE_BAR_OFFSET)),
            at(o_hi, beside(OBSTACLE_BAR_OFFSET)),
        ),
        penetration: (contact.colliding() && contact.depth() > 0.0)
            .then(|| (anchor, anchor + contact.mtv())),
        clearance: (!contact.colliding()).then(|| closest_or_centres(footprint, obstacle, contact)),
        anchor,
    }
}

fn closest_or_centres(footprint: &Shape, obstacle: &Shape, contact: &Contact) -> (Point, Point) {
    contact
        .closest()
        .unwrap_or_else(|| (aabb_centre(footprint), aabb_centre(obstacle)))
}

fn aabb_centre(shape: &Shape) -> Point {
    let b = shape.aabb();
    nalgebra::center(&b.min, &b.max)
}

/// Centroid of the largest overlap between convex pieces of the two shapes.
fn overlap_centroid(a: &Shape, b: &Shape) -> Option<Point> {
    let mut best: Option<(f64, Point)> = None;
    for pa in convex_rings(a) {
        for pb in convex_rings(b) {
            let clipped = clip_convex(&pa, &pb);
            if let Some((area, centroid)) = area_centroid(&clipped) {
                if best.is_none_or(|(best_area, _)| area > best_area) {
                    best = Some((area, centroid));
                }
            }
        }
    }
    best.map(|(_, c)| c)
}

fn convex_rings(shape: &Shape) -> Vec<Vec<Point>> {
    match shape {
        Shape::Convex(p) => vec![p.vertices().to_vec()],
        Shape::Compound(c) => c.pieces().iter().map(|p| p.vertices().to_vec()).collect(),
        Shape::Circle(_) => vec![shape.outline(CLIP_CIRCLE_SEGMENTS)],
    }
}

/// Sutherland–Hodgman: `subject` clipped by the convex CCW `clip` polygon.
fn clip_convex(subject: &[Point], clip: &[Point]) -> Vec<Point> {
    let mut output = subject.to_vec();
    let n = clip.len();
    for i in 0..n {
        let (e0, e1) = (clip[i], clip[(i + 1) % n]);
        let edge = e1 - e0;
        let inside = |p: &Point| cross(&edge, &(p - e0)) >= 0.0;
        let input = std::mem::take(&mut output);
        for j in 0..input.len() {
            let current = input[j];
            let previous = input[(j + input.len() - 1) % input.len()];
            let (cur_in, prev_in) = (inside(&current), inside(&previous));
            if cur_in != prev_in {
                let d = current - previous;
                let denom = cross(&edge, &d);
                if denom != 0.0 {
                    let t = cross(&edge, &(e0 - previous)) / denom;
                    output.push(previous + d * t);
                }
            }
            if cur_in {
                output.push(current);
            }
        }
        if output.is_empty() {
            break;
        }
    }
    output
}

fn area_centroid(ring: &[Point]) -> Option<(f64, Point)> {
    let origin = *ring.first()?;
    let (mut area2, mut sum) = (0.0, Vector::zeros());
    for i in 1..ring.len().saturating_sub(1) {
        let (a, b) = (ring[i] - origin, ring[i + 1] - origin);
        let w = cross(&a, &b);
        area2 += w;
        sum += (a + b) * w;
    }
    (area2 > 0.0).then(|| (area2 / 2.0, origin + sum / (3.0 * area2)))
}

/// Footprint outlines drawn along a motion: how many poses, start and
/// end included.
pub const SWEEP_SAMPLES: usize = 11;

/// The footprint `shape` (body frame) at [`SWEEP_SAMPLES`] poses evenly
/// spread over `[0, duration]` of `motion`, each a closed outline, and the
/// path of the body origin (one point per 1/40 of the span): the swept
/// footprint as drawn in RViz and in the SVG.
pub fn sweep_outlines(
    shape: &crate::geometry::Shape,
    motion: &crate::geometry::Motion,
    duration: f64,
) -> (Vec<Vec<Point>>, Vec<Point>) {
    let duration = if duration.is_finite() {
        duration.max(0.0)
    } else {
        0.0
    };
    let outline = shape.outline(OUTLINE_SEGMENTS);
    let at = |k: usize, n: usize| duration * k as f64 / n as f64;
    let outlines = (0..SWEEP_SAMPLES)
        .map(|k| {
            let pose = motion.pose_at(at(k, SWEEP_SAMPLES - 1));
            outline.iter().map(|p| pose * p).collect()
        })
        .collect();
    let path = (0..=40)
        .map(|k| Point::from(motion.pose_at(at(k, 40)).translation.vector))
        .collect();
    (outlines, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::query;

    fn square(cx: f64, cy: f64, half: f64) -> Shape {
        Shape::polygon(&[
            Point::new(cx - half, cy - half),
            Point::new(cx + half, cy - half),
            Point::new(cx + half, cy + half),
            Point::new(cx - half, cy + half),
        ])
        .unwrap()
    }

    /// The SVG writes the palette in CSS notation, the markers in units.
    #[test]
    fn palette_colours_read_as_css_and_as_units() {
        assert_eq!(palette::CLEAR.to_string(), "#2e9d4a");
        assert_eq!(palette::MTV.to_string(), "#c2185b");
        assert_eq!(Rgb(0, 0x0a, 0xff).to_string(), "#000aff");
        assert_eq!(Rgb(0, 51, 255).unit(), [0.0, 0.2, 1.0]);
    }

    #[test]
    fn colliding_pair_arrow_starts_in_overlap_and_equals_mtv() {
        let a = square(0.0, 0.0, 1.0);
        let b = square(1.5, 0.0, 1.0);
        let c = query(&a, &b, 0.0);
        let v = explain(&a, &b, 0.0, &c, 1.0);
        let (start, end) = v.penetration.unwrap();
        assert!((start - Point::new(0.75, 0.0)).norm() < 1e-9);
        assert!(((end - start) - c.mtv()).norm() < 1e-12);
        assert!(v.clearance.is_none());
    }

    #[test]
    fn clear_pair_axis_runs_through_gap_and_intervals_match_projections() {
        let a = square(0.0, 0.0, 1.0);
        let b = square(3.0, 0.0, 1.0);
        let c = query(&a, &b, 0.0);
        let v = explain(&a, &b, 0.0, &c, 1.0);
        assert!(v.penetration.is_none());
        let (p, q) = v.clearance.unwrap();
        assert!(((q - p).norm() - 1.0).abs() < 1e-9);
        assert!((v.anchor.x - 1.5).abs() < 1e-9);
        let (s0, s1) = v.separating_line.unwrap();
        assert!((s0.x - 1.5).abs() < 1e-9 && (s1.x - 1.5).abs() < 1e-9);
        assert!(v.axis.0.y > 1.0 && (v.axis.0.y - v.axis.1.y).abs() < 1e-12);
        let f = v.footprint_interval;
        assert!(((f.1 - f.0).norm() - 2.0).abs() < 1e-9);
        let o = v.obstacle_interval;
        assert!(((o.1 - o.0).norm() - 2.0).abs() < 1e-9);
    }
}
