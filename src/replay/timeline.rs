//! The replay's timeline as an SVG (`--svg`): the flag, the gate's action,
//! the commanded speed in and out and the least clearance over ROS time, in the offline
//! picture's style ([`crate::svg`]: white page, sans-serif, a legend).
//! Memory is bounded: at most [`MAX_SAMPLES`] samples per series, every
//! other one dropped (and the rest taken at half the rate) when full.

use crate::gate::Action;
use std::fmt::Write;

/// Samples kept per series at most.
pub const MAX_SAMPLES: usize = 4_096;

const WIDTH_PX: f64 = 900.0;
const MARGIN_PX: f64 = 40.0;
const LABEL_PX: f64 = 90.0;
const BAND_PX: f64 = 22.0;
const PLOT_PX: f64 = 160.0;
/// A plot's top at most (m/s, m): a far obstacle does not flatten the rest.
const PLOT_CAP: f64 = 5.0;

/// A series of `(t, value)`, decimated to stay within [`MAX_SAMPLES`].
#[derive(Debug, Default)]
struct Series {
    samples: Vec<(f64, f64)>,
    /// One sample kept of this many.
    stride: u64,
    seen: u64,
}

impl Series {
    fn push(&mut self, t: f64, value: f64) {
        self.stride = self.stride.max(1);
        self.seen += 1;
        if (self.seen - 1) % self.stride != 0 {
            return;
        }
        if self.samples.len() >= MAX_SAMPLES {
            let mut keep = false;
            self.samples.retain(|_| {
                keep = !keep;
                keep
            });
            self.stride *= 2;
        }
        self.samples.push((t, value));
    }
}

/// States along time: a change kept, with its value.
#[derive(Debug, Default)]
struct Bands {
    changes: Vec<(f64, u8)>,
}

impl Bands {
    fn set(&mut self, t: f64, value: u8) {
        if self.changes.last().is_some_and(|&(_, v)| v == value) {
            return;
        }
        if self.changes.len() >= MAX_SAMPLES {
            // Keep the latest state: merge the two oldest changes.
            self.changes.remove(1);
        }
        self.changes.push((t, value));
    }
}

/// What the timeline draws.
#[derive(Debug, Default)]
pub(super) struct Timeline {
    /// 0 clear, 1 colliding, 2 not valid.
    flag: Bands,
    /// The action's code.
    action: Bands,
    speed_in: Series,
    speed_out: Series,
    /// The least clearance at each tick (m).
    clearance: Series,
}

/// One plot's series: the samples, colour, dash attribute and class.
type Line<'a> = (&'a Series, &'a str, &'a str, &'a str);

/// A plot of `lines` at `y` (0 at the bottom, the largest finite value
/// at the top, at most [`PLOT_CAP`]), labelled `label`.
fn plot(
    out: &mut String,
    y: f64,
    label: &str,
    lines: &[Line<'_>],
    x: &dyn Fn(f64) -> f64,
    width: f64,
) {
    let top = lines
        .iter()
        .flat_map(|l| &l.0.samples)
        .map(|s| s.1)
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max)
        .clamp(0.1, PLOT_CAP);
    let py = |v: f64| y + PLOT_PX - (v.clamp(0.0, top) / top) * PLOT_PX;
    let _ = writeln!(
        out,
        r#"<text x="8" y="{:.1}">{label}</text><text x="{:.1}" y="{:.1}" text-anchor="end">{top:.2}</text>"#,
        y + 14.0,
        LABEL_PX - 4.0,
        y + 10.0
    );
    let _ = writeln!(
        out,
        r##"<rect x="{LABEL_PX}" y="{y:.1}" width="{width:.1}" height="{PLOT_PX}" fill="none" stroke="#bdbdbd"/>"##
    );
    for (series, color, dash, class) in lines {
        let points: Vec<String> = series
            .samples
            .iter()
            .filter(|s| s.1.is_finite())
            .map(|&(t, v)| format!("{:.2},{:.2}", x(t), py(v)))
            .collect();
        if points.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            r#"<polyline class="{class}" points="{}" fill="none" stroke="{color}" stroke-width="1.5"{dash}/>"#,
            points.join(" ")
        );
    }
}

/// A band's colour of each value.
type Colors = dyn Fn(u8) -> &'static str;

/// Flag colours: clear, colliding, not valid.
const FLAG_COLORS: [&str; 3] = ["#2e7d32", "#c62828", "#9e9e9e"];

fn action_color(code: u8) -> &'static str {
    match code {
        1 => "#c62828", // stop
        2 => "#ef6c00", // slowdown
        3 => "#ad1457", // approach
        4 => "#f9a825", // limit
        _ => "#e0e0e0", // none
    }
}

impl Timeline {
    pub(super) fn flag(&mut self, t: f64, colliding: bool, valid: bool) {
        let value = match (valid, colliding) {
            (false, _) => 2,
            (true, true) => 1,
            (true, false) => 0,
        };
        self.flag.set(t, value);
    }

    pub(super) fn action(&mut self, t: f64, action: Action) {
        self.action.set(t, action.code());
    }

    pub(super) fn speed_in(&mut self, t: f64, speed: f64) {
        self.speed_in.push(t, speed);
    }

    pub(super) fn speed_out(&mut self, t: f64, speed: f64) {
        self.speed_out.push(t, speed);
    }

    pub(super) fn clearance(&mut self, t: f64, metres: f64) {
        self.clearance.push(t, metres);
    }

    /// The SVG of ROS time `start..end`.
    pub(super) fn render(&self, start: f64, end: f64) -> String {
        let span = (end - start).max(1e-6);
        let plot_w = WIDTH_PX - MARGIN_PX - LABEL_PX;
        let x = |t: f64| LABEL_PX + (t - start) / span * plot_w;
        let plots = if self.clearance.samples.is_empty() {
            1.0
        } else {
            2.0
        };
        let height = 2.0 * MARGIN_PX + 2.0 * (BAND_PX + 10.0) + plots * (PLOT_PX + 16.0) + 64.0;
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH_PX:.0}" height="{height:.0}" viewBox="0 0 {WIDTH_PX:.0} {height:.0}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let mut y = MARGIN_PX;
        let bands: [(&str, &Bands, &Colors); 2] = [
            ("flag", &self.flag, &|v| FLAG_COLORS[usize::from(v.min(2))]),
            ("gate action", &self.action, &action_color),
        ];
        for (label, bands, color) in bands {
            let _ = writeln!(
                out,
                r#"<text x="8" y="{:.1}">{label}</text>"#,
                y + BAND_PX * 0.7
            );
            for (i, &(t, v)) in bands.changes.iter().enumerate() {
                let next = bands.changes.get(i + 1).map_or(end, |c| c.0);
                let (a, b) = (x(t.max(start)), x(next.min(end)));
                let _ = writeln!(
                    out,
                    r#"<rect class="{}" x="{a:.2}" y="{y:.1}" width="{:.2}" height="{BAND_PX}" fill="{}"/>"#,
                    label.replace(' ', "_"),
                    (b - a).max(0.5),
                    color(v)
                );
            }
            y += BAND_PX + 10.0;
        }
        let speeds = [
            (&self.speed_in, "#1565c0", "", "speed_in"),
            (
                &self.speed_out,
                "#000000",
                r#" stroke-dasharray="4 3""#,
                "speed_out",
            ),
        ];
        plot(&mut out, y, "speed (m/s)", &speeds, &x, plot_w);
        y += PLOT_PX + 16.0;
        if !self.clearance.samples.is_empty() {
            let clearance = [(&self.clearance, "#6a1b9a", "", "clearance")];
            plot(&mut out, y, "clearance (m)", &clearance, &x, plot_w);
            y += PLOT_PX + 16.0;
        }
        let _ = writeln!(
            out,
            r#"<text x="{LABEL_PX}" y="{y:.1}">{start:.3} s</text><text x="{:.1}" y="{y:.1}" text-anchor="end">{end:.3} s (ROS time)</text>"#,
            WIDTH_PX - MARGIN_PX
        );
        y += 20.0;
        let legend = [
            (FLAG_COLORS[0], "clear"),
            (FLAG_COLORS[1], "colliding / stop"),
            (FLAG_COLORS[2], "flag not valid"),
            (action_color(2), "slowdown"),
            (action_color(4), "limit"),
            (action_color(3), "approach"),
            ("#1565c0", "speed in"),
            ("#000000", "speed out"),
            ("#6a1b9a", "clearance"),
        ];
        for (i, (color, text)) in legend.iter().enumerate() {
            let lx = 8.0 + 98.0 * i as f64;
            let _ = writeln!(
                out,
                r#"<rect x="{lx:.0}" y="{:.0}" width="12" height="10" fill="{color}"/><text x="{:.0}" y="{y:.0}">{text}</text>"#,
                y - 9.0,
                lx + 16.0
            );
        }
        out.push_str("</svg>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_stay_bounded() {
        let mut s = Series::default();
        for i in 0..100_000 {
            s.push(f64::from(i), 1.0);
        }
        assert!(s.samples.len() <= MAX_SAMPLES);
        assert!(s.samples.len() > MAX_SAMPLES / 4);
        let mut b = Bands::default();
        for i in 0..100_000u32 {
            b.set(f64::from(i), (i % 2) as u8);
        }
        assert!(b.changes.len() <= MAX_SAMPLES);
        assert_eq!(b.changes.last().map(|c| c.1), Some(1));
    }
}
