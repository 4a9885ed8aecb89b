//! Offline picture of a checked scene: footprint, obstacles coloured by
//! state, SAT axes with both projection intervals, MTV arrows and clearance
//! segments. x to the right, y up (REP-103), 1 grid line per metre.

use crate::geometry::{Aabb, Point, Shape};
use crate::scene::{Scene, SceneReport};
use crate::visual::palette::{
    AXIS, CLEAR, COLLIDING, FOOTPRINT, FOOTPRINT_BAR, INVALID, MTV, OBSTACLE_BAR,
};
use crate::visual::{explain, PairVisual, Rgb, OUTLINE_SEGMENTS};
use std::fmt::Write;

const WIDTH_PX: f64 = 900.0;
const MARGIN_PX: f64 = 40.0;

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
        .map(Shape::aabb);
    let footprint = report
        .footprint
        .as_ref()
        .ok()
        .map(|f| f.aabb().inflated(padding));
    let first = footprint.or_else(|| boxes.next()).unwrap_or(Aabb {
        min: Point::new(-1.0, -1.0),
        max: Point::new(1.0, 1.0),
    });
    let all = boxes.fold(first, |acc, b| acc.union(&b));
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
    legend(&mut out);
    out.push_str("</svg>\n");
    out
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

fn grid(out: &mut String, view: &View, bounds: &Aabb) {
    let mut x = bounds.min.x.ceil();
    while x <= bounds.max.x {
        let style = r##"stroke="#e4e4e4" stroke-width="1""##;
        view.line(
            out,
            (Point::new(x, bounds.min.y), Point::new(x, bounds.max.y)),
            style,
        );
        x += 1.0;
    }
    let mut y = bounds.min.y.ceil();
    while y <= bounds.max.y {
        let style = r##"stroke="#e4e4e4" stroke-width="1""##;
        view.line(
            out,
            (Point::new(bounds.min.x, y), Point::new(bounds.max.x, y)),
            style,
        );
        y += 1.0;
    }
}

fn legend(out: &mut String) {
    let entries = [
        (FOOTPRINT, "footprint"),
        (CLEAR, "obstacle clear"),
        (COLLIDING, "colliding"),
        (INVALID, "invalid"),
        (AXIS, "SAT axis / separating line"),
        (FOOTPRINT_BAR, "footprint projection"),
        (OBSTACLE_BAR, "obstacle projection"),
        (MTV, "MTV (moves footprint out)"),
    ];
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
