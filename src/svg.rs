//! Offline picture of a checked scene: footprint, obstacles coloured by
//! state, SAT axes with both projection intervals, MTV arrows and clearance
//! segments; with a velocity, the predicted motion (the footprint swept
//! along it, its origin's path and the footprint at the first contact). x
//! to the right, y up (REP-103), 1 grid line per metre (per 10^k metres
//! when that would draw more than [`MAX_GRID_LINES`] lines a way).

use crate::geometry::{Aabb, Point, Shape};
use crate::scene::{Prediction, Scene, SceneReport};
use crate::visual::palette::{
    AXIS, CLEAR, COLLIDING, FOOTPRINT, FOOTPRINT_BAR, INVALID, MTV, OBSTACLE_BAR, PREDICTION,
};
use crate::visual::{explain, PairVisual, Rgb, OUTLINE_SEGMENTS};
use nalgebra::Isometry2;
use std::fmt::Write;

const WIDTH_PX: f64 = 900.0;
const MARGIN_PX: f64 = 40.0;

/// Most grid lines drawn across the picture, each way.
pub const MAX_GRID_LINES: f64 = 200.0;

/// Footprints drawn along the predicted motion: one every
/// `horizon / SWEPT_SAMPLES` seconds, up to the first contact.
pub const SWEPT_SAMPLES: usize = 20;

/// Segments of the origin's path as drawn (at most one turn).
const PATH_SEGMENTS: usize = 128;

/// World-to-pixel mapping with y flipped.
struct View {
    origin: Point,
    top: f64,
    px_per_m: f64,
}

impl View {
    fn new(bounds: Aabb) -> Self {
        let span = (bounds.max.x - bounds.min.x).max(1e-6);
        View {
            origin: bounds.min,
            top: bounds.max.y,
            px_per_m: (WIDTH_PX - 2.0 * MARGIN_PX) / span,
        }
    }

    fn x(&self, p: &Point) -> f64 {
        MARGIN_PX + (p.x - self.origin.x) * self.px_per_m
    }

    fn y(&self, p: &Point) -> f64 {
        MARGIN_PX + (self.top - p.y) * self.px_per_m
    }

    fn points(&self, ring: &[Point]) -> String {
        ring.iter()
            .map(|p| format!("{:.2},{:.2}", self.x(p), self.y(p)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn line(&self, out: &mut String, (a, b): (Point, Point), style: &str) {
        let _ = writeln!(
            out,
            r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" {style}/>"#,
            self.x(&a),
            self.y(&a),
            self.x(&b),
            self.y(&b)
        );
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn polygon(out: &mut String, view: &View, shape: &Shape, stroke: Rgb, id: &str, class: &str) {
    let _ = writeln!(
        out,
        r#"<polygon class="{class}" data-id="{}" points="{}" fill="{stroke}" fill-opacity="0.18" stroke="{stroke}" stroke-width="2"/>"#,
        escape(id),
        view.points(&shape.outline(OUTLINE_SEGMENTS))
    );
}

fn bounds_of(report: &SceneReport, padding: f64) -> Aabb {
    let mut boxes = report
        .obstacles
        .iter()
        .filter_map(|o| o.shape.as_ref().ok())
        .map(Shape::aabb)
        .chain(report.point_sets.iter().filter_map(|(_, set)| set.aabb()));
    let footprint = report
        .footprint
        .as_ref()
        .ok()
        .map(|f| f.aabb().inflated(padding));
    let first = footprint.or_else(|| boxes.next()).unwrap_or(Aabb {
        min: Point::new(-1.0, -1.0),
        max: Point::new(1.0, 1.0),
    });
    let mut all = boxes.fold(first, |acc, b| acc.union(&b));
    if let (Ok(footprint), Some(prediction)) = (&report.footprint, &report.prediction) {
        let poses = swept_poses(prediction)
            .into_iter()
            .chain(prediction.first.as_ref().map(|f| f.pose));
        for pose in poses {
            all = all.union(&footprint.transformed(&pose).aabb().inflated(padding));
        }
        for p in path_points(prediction) {
            all = all.union(&Aabb { min: p, max: p });
        }
    }
    let span = (all.max.x - all.min.x).max(all.max.y - all.min.y);
    all.inflated(0.15 * span.max(0.5))
}

/// Draws the scene and its report as a standalone SVG document.
pub fn render(scene: &Scene, report: &SceneReport) -> String {
    let bounds = bounds_of(report, scene.padding);
    let view = View::new(bounds);
    let height = 2.0 * MARGIN_PX + (bounds.max.y - bounds.min.y) * view.px_per_m;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH_PX:.0}" height="{height:.0}" viewBox="0 0 {WIDTH_PX:.0} {height:.0}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        out,
        r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{MTV}"/></marker></defs>"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    grid(&mut out, &view, &bounds);

    for (obstacle, line) in report.obstacles.iter().zip(report.lines()) {
        let color = match (&obstacle.shape, line.colliding) {
            (Err(_), _) => INVALID,
            (Ok(_), true) => COLLIDING,
            (Ok(_), false) if line.status != "ok" => INVALID,
            (Ok(_), false) => CLEAR,
        };
        if let Ok(shape) = &obstacle.shape {
            polygon(&mut out, &view, shape, color, &obstacle.id, "obstacle");
        }
    }
    if let Ok(footprint) = &report.footprint {
        let color = if report.colliding() {
            COLLIDING
        } else {
            FOOTPRINT
        };
        polygon(&mut out, &view, footprint, color, "footprint", "footprint");
        if scene.padding > 0.0 {
            let _ = writeln!(
                out,
                r#"<!-- footprint padding {:.3} m is included in every depth and clearance -->"#,
                scene.padding
            );
        }
        if let Some(prediction) = &report.prediction {
            predicted(&mut out, &view, footprint, prediction);
        }
        let size = footprint.aabb();
        let scale = (size.max - size.min).norm().max(0.2);
        for (i, obstacle) in report.obstacles.iter().enumerate() {
            let (Ok(shape), Some(contact)) = (
                &obstacle.shape,
                report.outcomes.get(i).and_then(|o| o.contact),
            ) else {
                continue;
            };
            let visual = explain(footprint, shape, scene.padding, &contact, scale);
            pair(&mut out, &view, &visual);
            let text = if contact.colliding() {
                format!("{}: depth {:.3} m", obstacle.id, contact.depth())
            } else {
                format!("{}: {:.3} m clear", obstacle.id, contact.distance())
            };
            let _ = writeln!(
                out,
                r#"<text class="label" x="{:.2}" y="{:.2}" fill="black">{}</text>"#,
                view.x(&visual.anchor) + 6.0,
                view.y(&visual.anchor) - 6.0,
                escape(&text)
            );
        }
    }
    points(&mut out, &view, report, scene.padding);
    legend(&mut out, report.prediction.is_some());
    out.push_str("</svg>\n");
    out
}

/// The point sets: every point a dot (red inside the footprint, grey
/// outside), and each set's nearest point with its clearance segment and
/// a label.
fn points(out: &mut String, view: &View, report: &SceneReport, padding: f64) {
    let footprint = report.footprint.as_ref().ok();
    let lines = report.point_lines();
    for (k, ((id, set), line)) in report.point_sets.iter().zip(&lines).enumerate() {
        let _ = writeln!(out, r#"<g class="points" id="{}">"#, escape(id));
        let mut inside = Vec::new();
        if let (Some(footprint), Some(outcome)) = (footprint, report.point_outcomes.get(k)) {
            if outcome.report.inside > 0 {
                set.inside(footprint, padding, &mut inside);
            }
        }
        let mut is_inside = vec![false; set.len()];
        for &i in &inside {
            is_inside[i] = true;
        }
        for (i, inside) in is_inside.iter().enumerate() {
            let p = set.point(i);
            let color = if *inside { COLLIDING } else { INVALID };
            let _ = writeln!(
                out,
                r#"<circle cx="{:.2}" cy="{:.2}" r="2" fill="{color}"/>"#,
                view.x(&p),
                view.y(&p)
            );
        }
        let nearest = report
            .point_outcomes
            .get(k)
            .and_then(|o| o.report.nearest)
            .map(|(i, c)| (set.point(i), c));
        if let Some((point, contact)) = nearest {
            if let Some((on_footprint, _)) = contact.closest() {
                view.line(
                    out,
                    (on_footprint, point),
                    &format!(r#"stroke="{CLEAR}" stroke-width="1.5" stroke-dasharray="4 3""#),
                );
            }
            let text = if line.colliding || contact.colliding() {
                format!(
                    "{id}: {} inside, depth {:.3} m",
                    line.points_inside, line.penetration_depth
                )
            } else {
                format!("{id}: {:.3} m clear", contact.distance())
            };
            let _ = writeln!(
                out,
                r#"<text class="label" x="{:.2}" y="{:.2}" fill="black">{}</text>"#,
                view.x(&point) + 6.0,
                view.y(&point) - 6.0,
                escape(&text)
            );
        }
        out.push_str("</g>\n");
    }
}

/// The poses the swept footprint is drawn at: every `horizon /
/// SWEPT_SAMPLES` s, before the first contact (up to the horizon without
/// one); none when the footprint does not move.
fn swept_poses(prediction: &Prediction) -> Vec<Isometry2<f64>> {
    let motion = &prediction.motion;
    if motion.speed() == 0.0 && motion.angular() == 0.0 {
        return Vec::new();
    }
    (1..=SWEPT_SAMPLES)
        .map(|k| prediction.horizon * k as f64 / SWEPT_SAMPLES as f64)
        .filter(|t| prediction.first.as_ref().is_none_or(|f| *t < f.time))
        .map(|t| motion.pose_at(t))
        .collect()
}

/// The origin's path from the start to the first contact (or the
/// horizon); at most one turn (the arc retraces its circle after that).
fn path_points(prediction: &Prediction) -> Vec<Point> {
    let end = prediction
        .first
        .as_ref()
        .map_or(prediction.horizon, |f| f.time);
    let turn_rate = prediction.motion.angular().abs();
    let end = if turn_rate > 0.0 {
        end.min(std::f64::consts::TAU / turn_rate)
    } else {
        end
    };
    (0..=PATH_SEGMENTS)
        .map(|j| {
            let pose = prediction
                .motion
                .pose_at(end * j as f64 / PATH_SEGMENTS as f64);
            Point::from(pose.translation.vector)
        })
        .collect()
}

/// The swept footprint (thin, dashed), the origin's path, and the
/// footprint at the first contact with its time.
fn predicted(out: &mut String, view: &View, footprint: &Shape, prediction: &Prediction) {
    for pose in swept_poses(prediction) {
        let _ = writeln!(
            out,
            r#"<polygon class="swept" points="{}" fill="none" stroke="{PREDICTION}" stroke-width="1" stroke-opacity="0.7" stroke-dasharray="4 3"/>"#,
            view.points(&footprint.transformed(&pose).outline(OUTLINE_SEGMENTS))
        );
    }
    let path = path_points(prediction);
    if path.iter().any(|p| *p != path[0]) {
        let _ = writeln!(
            out,
            r#"<polyline class="path" points="{}" fill="none" stroke="{PREDICTION}" stroke-width="1.5" stroke-dasharray="2 2"/>"#,
            view.points(&path)
        );
    }
    if let Some(first) = &prediction.first {
        let placed = footprint.transformed(&first.pose);
        polygon(out, view, &placed, PREDICTION, &first.id, "prediction");
        let anchor = placed.aabb().max;
        let _ = writeln!(
            out,
            r#"<text class="prediction-label" x="{:.2}" y="{:.2}" fill="{PREDICTION}">{}</text>"#,
            view.x(&anchor) + 4.0,
            view.y(&anchor) - 4.0,
            escape(&format!(
                "first contact: {} in {}{:.3} s",
                first.id,
                if first.exact { "" } else { "at least " },
                first.time
            ))
        );
    }
}

fn pair(out: &mut String, view: &View, v: &PairVisual) {
    view.line(
        out,
        v.axis,
        &format!(r#"class="axis" stroke="{AXIS}" stroke-width="1.5" stroke-dasharray="6 4""#),
    );
    if let Some(line) = v.separating_line {
        view.line(
            out,
            line,
            &format!(r#"class="separating-line" stroke="{AXIS}" stroke-width="2""#),
        );
    }
    view.line(
        out,
        v.footprint_interval,
        &format!(
            r#"class="projection" stroke="{FOOTPRINT_BAR}" stroke-width="5" stroke-opacity="0.8""#
        ),
    );
    view.line(
        out,
        v.obstacle_interval,
        &format!(
            r#"class="projection" stroke="{OBSTACLE_BAR}" stroke-width="5" stroke-opacity="0.8""#
        ),
    );
    if let Some(arrow) = v.penetration {
        view.line(
            out,
            arrow,
            &format!(r#"class="mtv" stroke="{MTV}" stroke-width="2.5" marker-end="url(#arrow)""#),
        );
    }
    if let Some(segment) = v.clearance {
        view.line(
            out,
            segment,
            r#"class="clearance" stroke="black" stroke-width="1.2" stroke-dasharray="2 3""#,
        );
    }
}

/// Grid spacing (m): 1, or the power of 10 that keeps the lines across
/// the larger side within [`MAX_GRID_LINES`].
fn grid_step(bounds: &Aabb) -> f64 {
    let span = (bounds.max.x - bounds.min.x).max(bounds.max.y - bounds.min.y);
    let mut step = 1.0;
    while span / step > MAX_GRID_LINES && step < 1e300 {
        step *= 10.0;
    }
    step
}

/// Multiples of `step` in `[min, max]`, at most [`MAX_GRID_LINES`] + 1 of
/// them (counted, not accumulated: far from the origin `x + step` may
/// round back to `x`).
fn grid_lines(min: f64, max: f64, step: f64) -> impl Iterator<Item = f64> {
    let first = (min / step).ceil() * step;
    let count = ((max - first) / step).floor();
    let count = if count.is_finite() && count >= 0.0 {
        count.min(MAX_GRID_LINES) as usize + 1
    } else {
        0
    };
    (0..count).map(move |i| first + i as f64 * step)
}

fn grid(out: &mut String, view: &View, bounds: &Aabb) {
    let step = grid_step(bounds);
    let style = r##"stroke="#e4e4e4" stroke-width="1""##;
    for x in grid_lines(bounds.min.x, bounds.max.x, step) {
        view.line(
            out,
            (Point::new(x, bounds.min.y), Point::new(x, bounds.max.y)),
            style,
        );
    }
    for y in grid_lines(bounds.min.y, bounds.max.y, step) {
        view.line(
            out,
            (Point::new(bounds.min.x, y), Point::new(bounds.max.x, y)),
            style,
        );
    }
}

fn legend(out: &mut String, prediction: bool) {
    let mut entries = vec![
        (FOOTPRINT, "footprint"),
        (CLEAR, "obstacle clear"),
        (COLLIDING, "colliding"),
        (INVALID, "invalid"),
        (AXIS, "SAT axis / separating line"),
        (FOOTPRINT_BAR, "footprint projection"),
        (OBSTACLE_BAR, "obstacle projection"),
        (MTV, "MTV (moves footprint out)"),
    ];
    if prediction {
        entries.push((
            PREDICTION,
            "prediction: swept footprint and path (dashed), first contact",
        ));
    }
    for (i, (color, text)) in entries.iter().enumerate() {
        let y = 16.0 + 16.0 * i as f64;
        let _ = writeln!(
            out,
            r#"<rect x="8" y="{:.0}" width="12" height="10" fill="{color}"/><text x="26" y="{:.0}">{text}</text>"#,
            y - 9.0,
            y
        );
    }
}
