//! RViz markers that show why the node decided: outlines coloured by state,
//! the SAT axis of each pair, both projection intervals on it, penetration
//! arrows and labels.
//!
//! Marker ids are stable per obstacle id, and markers whose obstacle (or
//! whose reason to exist) vanished are deleted explicitly, so RViz never
//! shows ghosts.

use super::convert::header;
use crate::geometry::{Point, Shape};
use crate::model::{Obstacle, Report};
use crate::monitor::Prediction;
use crate::visual::{explain, palette, sweep_outlines, PairVisual, Rgb, OUTLINE_SEGMENTS};
use nalgebra::Isometry2;
use r2r::builtin_interfaces::msg::Duration as RosDuration;
use r2r::geometry_msgs::msg::{Point as RosPoint, Pose, Quaternion, Vector3};
use r2r::std_msgs::msg::{ColorRGBA, Header};
use r2r::visualization_msgs::msg::{Marker, MarkerArray};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::time::Duration;

/// Namespace of the footprint's markers.
pub const NS_FOOTPRINT: &str = "footprint";
/// Namespace of the obstacles' markers.
pub const NS_OBSTACLES: &str = "obstacles";
/// Namespace of the separating axes.
pub const NS_AXES: &str = "separating_axes";
/// Namespace of the projections on the separating axes.
pub const NS_PROJECTIONS: &str = "projections";
/// Namespace of the penetration (MTV) arrows.
pub const NS_PENETRATION: &str = "penetration";
/// Namespace of the text labels.
pub const NS_LABELS: &str = "labels";
/// The footprint swept along the velocity, and where it first touches.
pub const NS_PREDICTION: &str = "prediction";
/// Namespace of the sensor sources' points inside the padded footprint
/// (one `POINTS` marker).
pub const NS_SOURCE_POINTS: &str = "source_points";
/// Namespace of each sensor source's nearest point: its clearance segment
/// from the footprint (a sphere at the point when it is inside), and its
/// label (id: the source's position in the report).
pub const NS_SOURCE_NEAREST: &str = "source_nearest";

/// The fleet's peers (`type: fleet`): each one's footprint grown by its
/// age (red when it touches the footprint, grey when stale), by its
/// position in the report.
pub const NS_FLEET: &str = "fleet";

/// The fleet's peers' labels: robot id, status, clearance, and the
/// predicted contact's time when the prediction meets that peer first.
pub const NS_FLEET_LABELS: &str = "fleet_labels";

/// Points drawn inside the footprint at most (a marker of 24,000 points is
/// 0.6 MB at 10 Hz for nothing a viewer can tell apart).
pub const MAX_DRAWN_SOURCE_POINTS: usize = 5_000;

// visualization_msgs/Marker type and action values.
const ARROW: i32 = 0;
const SPHERE: i32 = 2;
const POINTS: i32 = 8;
const LINE_STRIP: i32 = 4;
const LINE_LIST: i32 = 5;
const TEXT_VIEW_FACING: i32 = 9;
const ADD: i32 = 0;
const DELETE: i32 = 2;
const DELETEALL: i32 = 3;

const OUTLINE_WIDTH: f64 = 0.03;
const AXIS_WIDTH: f64 = 0.015;
const BAR_WIDTH: f64 = 0.05;
const TEXT_HEIGHT: f64 = 0.12;

/// A colour of the palette ([`crate::visual::palette`]) with opacity `a`.
fn rgba(colour: Rgb, a: f32) -> ColorRGBA {
    let [r, g, b] = colour.unit();
    ColorRGBA { r, g, b, a }
}

fn clear_color() -> ColorRGBA {
    rgba(palette::CLEAR, 1.0)
}
fn colliding_color() -> ColorRGBA {
    rgba(palette::COLLIDING, 1.0)
}
fn invalid_color() -> ColorRGBA {
    rgba(palette::INVALID, 1.0)
}
fn footprint_color() -> ColorRGBA {
    rgba(palette::FOOTPRINT, 1.0)
}
fn axis_color() -> ColorRGBA {
    rgba(palette::AXIS, 0.9)
}
fn footprint_bar_color() -> ColorRGBA {
    rgba(palette::FOOTPRINT_BAR, 0.8)
}
fn obstacle_bar_color() -> ColorRGBA {
    rgba(palette::OBSTACLE_BAR, 0.8)
}
fn mtv_color() -> ColorRGBA {
    rgba(palette::MTV, 1.0)
}
/// Labels: white, readable on RViz's dark background (the SVG's are black
/// on white).
fn label_color() -> ColorRGBA {
    ColorRGBA {
        r: 1.0,
        g: 1.0,
        b: 1.0,
        a: 1.0,
    }
}

fn ros_point(p: &Point) -> RosPoint {
    RosPoint {
        x: p.x,
        y: p.y,
        z: 0.0,
    }
}

/// A `POINTS` marker of `points` (planar, z = 0) in `header`'s frame, ns
/// `ns`, each a square of `size`, locked to its frame: what the gate's
/// `collision_points_marker` and `triggering_points` publish per zone or
/// source.
pub(crate) fn points_marker(
    header: Header,
    ns: String,
    size: f64,
    color: ColorRGBA,
    points: &[Point],
) -> Marker {
    Marker {
        header,
        ns,
        id: 0,
        type_: POINTS,
        action: ADD,
        pose: identity_pose(),
        scale: Vector3 {
            x: size,
            y: size,
            z: 0.0,
        },
        color,
        frame_locked: true,
        points: points.iter().map(ros_point).collect(),
        ..Default::default()
    }
}

fn closed(ring: &[Point]) -> Vec<RosPoint> {
    ring.iter().chain(ring.first()).map(ros_point).collect()
}

fn identity_pose() -> Pose {
    Pose {
        orientation: Quaternion {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            w: 1.0,
        },
        ..Default::default()
    }
}

/// Where each group of obstacles is in the report's frame: the range of
/// their indices and the pose of their frame (`None`: it could not be
/// placed, and they are not drawn).
pub type GroupPoses = [(Range<usize>, Option<Isometry2<f64>>)];

/// Everything the markers are drawn from. Everything is drawn in the
/// report's frame (the global frame).
pub struct MarkerInput<'a> {
    /// The report drawn.
    pub report: &'a Report,
    /// The footprint, in the report's frame.
    pub footprint: Option<&'a Shape>,
    /// The padding (m) around the footprint.
    pub padding: f64,
    /// Each in its own frame; `groups` places them.
    pub obstacles: &'a [Obstacle],
    /// Where each group of `obstacles` lies (see [`GroupPoses`]).
    pub groups: &'a GroupPoses,
    /// [`crate::monitor::ObstacleSet::revision`] of `obstacles`.
    pub obstacles_revision: u64,
    /// The prediction along the velocity, when there is one.
    pub prediction: Option<&'a Prediction>,
    /// The sources' points inside the padded footprint, in the report's
    /// frame (at most [`MAX_DRAWN_SOURCE_POINTS`]).
    pub source_points: &'a [Point],
    /// The markers' stamp.
    pub stamp: Duration,
}

/// Builds marker arrays and remembers what it published, to delete what is
/// gone and to keep each obstacle's marker id stable.
#[derive(Default)]
pub struct MarkerBuilder {
    ids: HashMap<String, i32>,
    /// Ids of obstacles that vanished, handed out again so that the map
    /// stays as large as the current obstacle set however ids churn.
    free_ids: Vec<i32>,
    next_id: i32,
    live: HashSet<(&'static str, i32)>,
    cleared: bool,
    /// The obstacle outlines drawn since the last full array: the set they
    /// came from (its revision), their frame, and each
    /// outline's colour. An outline already drawn in the same colour from
    /// the same set is not sent again: RViz keeps it.
    outlines: OutlinesSent,
}

/// See [`MarkerBuilder::outlines`].
#[derive(Default)]
struct OutlinesSent {
    set: Option<u64>,
    frame_id: String,
    /// The groups' poses they were drawn at: a frame that moved draws its
    /// outlines again.
    groups: Vec<(Range<usize>, Option<Isometry2<f64>>)>,
    colors: HashMap<i32, [u32; 4]>,
    /// Which tenth of the outlines is sent again in this array.
    round: i32,
}

/// Every array also sends again the outlines whose marker id is this round
/// modulo `REFRESH_ROUNDS`: a viewer that subscribes late has them all
/// within `REFRESH_ROUNDS` arrays (1 s at the default 10 Hz), and no
/// array carries them all at once.
const REFRESH_ROUNDS: i32 = 10;

fn color_key(c: &ColorRGBA) -> [u32; 4] {
    [c.r.to_bits(), c.g.to_bits(), c.b.to_bits(), c.a.to_bits()]
}

impl MarkerBuilder {
    /// The stable marker id of an obstacle id.
    pub fn id_of(&mut self, obstacle_id: &str) -> i32 {
        if let Some(&id) = self.ids.get(obstacle_id) {
            return id;
        }
        let id = self.free_ids.pop().unwrap_or_else(|| {
            self.next_id += 1;
            self.next_id
        });
        self.ids.insert(obstacle_id.to_owned(), id);
        id
    }

    /// Forgets the ids of obstacles no longer present, after their markers
    /// were deleted in this array: a released id goes to a new obstacle in a
    /// later array only, never to a ghost.
    fn release_absent(&mut self, obstacles: &[Obstacle]) {
        let present: HashSet<&str> = obstacles.iter().map(|o| o.id.as_str()).collect();
        let free_ids = &mut self.free_ids;
        self.ids.retain(|id, marker_id| {
            let keep = present.contains(id.as_str());
            if !keep {
                free_ids.push(*marker_id);
            }
            keep
        });
    }

    /// The marker array to publish for `input`.
    pub fn build(&mut self, input: &MarkerInput<'_>) -> MarkerArray {
        let mut markers = Vec::new();
        if !self.cleared {
            // Leftovers of an earlier run of this node on the same topic.
            markers.push(Marker {
                action: DELETEALL,
                ..Default::default()
            });
            self.cleared = true;
        }
        let mut frame = Frame {
            frame_id: &input.report.frame_id,
            stamp: input.stamp,
            markers: &mut markers,
            live: HashSet::new(),
        };
        let report = input.report;
        let set = Some(input.obstacles_revision);
        let sent = &mut self.outlines;
        sent.round = (sent.round + 1) % REFRESH_ROUNDS;
        if sent.set != set || sent.frame_id != report.frame_id || sent.groups != input.groups {
            sent.set = set;
            sent.frame_id.clone_from(&report.frame_id);
            sent.groups.clear();
            sent.groups.extend_from_slice(input.groups);
            sent.colors.clear();
        }
        if let Some(footprint) = input.footprint {
            let color = if !report.valid {
                invalid_color()
            } else if report.colliding {
                colliding_color()
            } else {
                footprint_color()
            };
            frame.line_strip(
                NS_FOOTPRINT,
                0,
                closed(&footprint.outline(OUTLINE_SEGMENTS)),
                color,
            );
        }
        if let Some(sweep) = input.prediction.and_then(|p| p.sweep.as_ref()) {
            // id 0: the footprint at evenly spread poses up to the contact
            // (or the horizon); id 1: the origin's path; id 2: the
            // footprint where it first touches.
            let (outlines, path) = sweep_outlines(&sweep.shape, &sweep.motion, sweep.duration);
            let m = frame.marker(NS_PREDICTION, 0, LINE_LIST, width(0.5 * OUTLINE_WIDTH));
            m.points = outlines
                .iter()
                .flat_map(|ring| {
                    let next = ring.iter().cycle().skip(1);
                    ring.iter()
                        .zip(next)
                        .flat_map(|(a, b)| [ros_point(a), ros_point(b)])
                })
                .collect();
            m.color = rgba(palette::PREDICTION, 0.5);
            frame.line_strip(
                NS_PREDICTION,
                1,
                path.iter().map(ros_point).collect(),
                rgba(palette::PREDICTION, 0.8),
            );
            if input.prediction.and_then(|p| p.impact).is_some() {
                if let Some(last) = outlines.last() {
                    frame.line_strip(NS_PREDICTION, 2, closed(last), colliding_color());
                }
            }
        }
        let scale = input
            .footprint
            .map(|f| {
                let b = f.aabb();
                (b.max - b.min).norm()
            })
            .unwrap_or(1.0)
            .max(0.2);
        let placed = input
            .groups
            .iter()
            .flat_map(|(range, pose)| range.clone().map(move |i| (i, *pose)));
        for (i, pose) in placed {
            // A frame that could not be placed: nothing to draw (what was
            // drawn is deleted below).
            let (Some(obstacle), Some(pose)) = (input.obstacles.get(i), pose) else {
                continue;
            };
            let pose = (pose != Isometry2::identity()).then_some(pose);
            let id = self.id_of(&obstacle.id);
            let outcome = report.outcomes.get(i);
            let contact = outcome.and_then(|o| o.contact);
            let moved = match (&obstacle.shape, pose) {
                (Ok(shape), Some(pose)) => Some(shape.transformed(&pose)),
                _ => None,
            };
            let shape = moved.as_ref().or(obstacle.shape.as_ref().ok());
            let color = match contact {
                Some(c) if c.colliding() => colliding_color(),
                Some(_) => clear_color(),
                None => invalid_color(),
            };
            let outline = match shape {
                Some(s) => s.outline(OUTLINE_SEGMENTS),
                None => match pose {
                    Some(pose) => obstacle.rejected_points.iter().map(|p| pose * p).collect(),
                    None => obstacle.rejected_points.clone(),
                },
            };
            if outline.len() >= 2 {
                let key = color_key(&color);
                let refresh = id.rem_euclid(REFRESH_ROUNDS) == self.outlines.round;
                if !refresh && self.outlines.colors.get(&id) == Some(&key) {
                    // Unchanged since it was sent: RViz still has it.
                    frame.live.insert((NS_OBSTACLES, id));
                } else {
                    frame.line_strip(NS_OBSTACLES, id, closed(&outline), color);
                    self.outlines.colors.insert(id, key);
                }
            }
            // Beyond `exact_range` the result is a flagged lower bound: the
            // outline alone. Drawing axis, projections and label for every
            // far obstacle made a 1,000-obstacle array 1.6 MB at 10 Hz,
            // for clutter nobody reads.
            if outcome.is_some_and(|o| !o.exact) {
                continue;
            }
            let label = match (contact, outcome) {
                (Some(c), _) if c.colliding() => {
                    format!("{}: depth {:.3} m", obstacle.id, c.depth())
                }
                (Some(c), _) => format!("{}: {:.3} m", obstacle.id, c.distance()),
                (None, Some(o)) => format!("{}: {}", obstacle.id, o.status),
                (None, None) => obstacle.id.clone(),
            };
            let (Some(footprint), Some(shape), Some(contact)) = (input.footprint, shape, contact)
            else {
                if let Some(p) = outline.first() {
                    frame.text(id, *p, label);
                }
                continue;
            };
            let visual = explain(footprint, shape, input.padding, &contact, scale);
            frame.pair(id, &visual);
            frame.text(id, visual.anchor, label);
        }
        frame.sources(report, input.source_points);
        frame.peers(report, input.prediction);
        for &(ns, id) in self.live.difference(&frame.live) {
            frame.markers.push(Marker {
                header: header(frame.frame_id, frame.stamp),
                ns: ns.to_owned(),
                id,
                action: DELETE,
                ..Default::default()
            });
        }
        self.live = frame.live;
        self.release_absent(input.obstacles);
        MarkerArray { markers }
    }
}

/// One marker array being filled.
struct Frame<'a> {
    frame_id: &'a str,
    stamp: Duration,
    markers: &'a mut Vec<Marker>,
    live: HashSet<(&'static str, i32)>,
}

impl Frame<'_> {
    fn marker(&mut self, ns: &'static str, id: i32, type_: i32, scale: Vector3) -> &mut Marker {
        self.live.insert((ns, id));
        self.markers.push(Marker {
            header: header(self.frame_id, self.stamp),
            ns: ns.to_owned(),
            id,
            type_,
            action: ADD,
            pose: identity_pose(),
            scale,
            lifetime: RosDuration { sec: 0, nanosec: 0 },
            ..Default::default()
        });
        let last = self.markers.len() - 1;
        &mut self.markers[last]
    }

    fn line_strip(&mut self, ns: &'static str, id: i32, points: Vec<RosPoint>, color: ColorRGBA) {
        let m = self.marker(ns, id, LINE_STRIP, width(OUTLINE_WIDTH));
        m.points = points;
        m.color = color;
    }

    /// The sensor sources: their points inside the footprint, and each
    /// one's nearest point with its clearance segment and a label.
    fn sources(&mut self, report: &Report, inside: &[Point]) {
        if !inside.is_empty() {
            let size = 0.05;
            let m = self.marker(
                NS_SOURCE_POINTS,
                0,
                POINTS,
                Vector3 {
                    x: size,
                    y: size,
                    z: 0.0,
                },
            );
            m.points = inside.iter().map(ros_point).collect();
            m.color = colliding_color();
        }
        for (k, source) in report.sources.iter().enumerate() {
            let (Some(contact), Some(point)) = (source.contact, source.point) else {
                continue;
            };
            let id = i32::try_from(k).unwrap_or(i32::MAX);
            let label = match contact.closest() {
                Some((on_footprint, _)) if !contact.colliding() => {
                    let m = self.marker(NS_SOURCE_NEAREST, id, LINE_LIST, width(AXIS_WIDTH));
                    m.points = vec![ros_point(&on_footprint), ros_point(&point)];
                    m.color = clear_color();
                    format!("{}: {:.3} m", source.name, contact.distance())
                }
                _ => {
                    let d = 0.08;
                    let m =
                        self.marker(NS_SOURCE_NEAREST, id, SPHERE, Vector3 { x: d, y: d, z: d });
                    m.pose.position = ros_point(&point);
                    m.color = if contact.colliding() {
                        colliding_color()
                    } else {
                        clear_color()
                    };
                    format!(
                        "{}: {} inside, depth {:.3} m",
                        source.name,
                        source.points_inside,
                        contact.depth()
                    )
                }
            };
            // Labels of sources: negative ids, apart from the obstacles'.
            self.text(-1 - id, point, label);
        }
    }

    /// The fleet's peers: outline and label each (see [`NS_FLEET`]).
    fn peers(&mut self, report: &Report, prediction: Option<&Prediction>) {
        let impact = prediction.and_then(|p| p.impact);
        for (k, peer) in report.peers.iter().enumerate() {
            let id = i32::try_from(k).unwrap_or(i32::MAX);
            let color = if peer.colliding {
                colliding_color()
            } else if peer.status == crate::model::PeerStatus::Ok {
                clear_color()
            } else {
                invalid_color()
            };
            if peer.outline.len() >= 2 {
                self.line_strip(NS_FLEET, id, closed(&peer.outline), color);
            }
            let mut label = match peer.contact {
                Some(c) if c.colliding() => format!("{}: depth {:.3} m", peer.id, c.depth()),
                Some(c) => format!("{}: {:.3} m", peer.id, c.distance()),
                None => peer.id.clone(),
            };
            if peer.status != crate::model::PeerStatus::Ok {
                label.push_str(&format!(" ({})", peer.status.as_str()));
            }
            let first =
                impact.filter(|i| i.source == Some(peer.index.0) && i.cell == Some(peer.index.1));
            if let Some(hit) = first {
                label.push_str(&format!(", contact in {:.2} s", hit.time));
            }
            if let Some(at) = peer.outline.first() {
                self.text_in(NS_FLEET_LABELS, id, *at, label);
            }
        }
    }

    fn text(&mut self, id: i32, at: Point, text: String) {
        self.text_in(NS_LABELS, id, at, text);
    }

    /// A label `text` just above `at`, in the namespace `ns`.
    fn text_in(&mut self, ns: &'static str, id: i32, at: Point, text: String) {
        let m = self.marker(
            ns,
            id,
            TEXT_VIEW_FACING,
            Vector3 {
                x: 0.0,
                y: 0.0,
                z: TEXT_HEIGHT,
            },
        );
        m.pose.position = ros_point(&(at + nalgebra::Vector2::new(0.0, 0.1)));
        m.color = label_color();
        m.text = text;
    }

    fn pair(&mut self, id: i32, v: &PairVisual) {
        let m = self.marker(NS_AXES, id, LINE_STRIP, width(AXIS_WIDTH));
        m.points = vec![ros_point(&v.axis.0), ros_point(&v.axis.1)];
        m.color = axis_color();

        let m = self.marker(NS_PROJECTIONS, id, LINE_LIST, width(BAR_WIDTH));
        m.points = [
            v.footprint_interval.0,
            v.footprint_interval.1,
            v.obstacle_interval.0,
            v.obstacle_interval.1,
        ]
        .iter()
        .map(ros_point)
        .collect();
        m.colors = vec![
            footprint_bar_color(),
            footprint_bar_color(),
            obstacle_bar_color(),
            obstacle_bar_color(),
        ];
        m.color = obstacle_bar_color();

        if let Some((start, end)) = v.penetration {
            let length = (end - start).norm();
            // Shaft and head scale with the arrow so short ones stay arrows.
            let shaft = (0.25 * length).clamp(0.005, 0.03);
            let m = self.marker(
                NS_PENETRATION,
                id,
                ARROW,
                Vector3 {
                    x: shaft,
                    y: 2.0 * shaft,
                    z: (0.3 * length).max(1e-3),
                },
            );
            m.points = vec![ros_point(&start), ros_point(&end)];
            m.color = mtv_color();
        }
    }
}

fn width(w: f64) -> Vector3 {
    Vector3 {
        x: w,
        y: 0.0,
        z: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ObstacleGeometry;
    use crate::monitor::tests::square;
    use crate::monitor::{Monitor, MonitorConfig};

    fn build(builder: &mut MarkerBuilder, monitor: &Monitor) -> MarkerArray {
        let report = monitor.evaluate(0.0);
        let groups: Vec<_> = monitor.groups_to_global().collect();
        builder.build(&MarkerInput {
            report: &report,
            footprint: monitor.footprint(),
            padding: 0.0,
            obstacles: monitor.obstacles(),
            groups: &groups,
            obstacles_revision: monitor.obstacle_set().revision(),
            prediction: None,
            source_points: &[],
            stamp: Duration::ZERO,
        })
    }

    fn outlines(array: &MarkerArray) -> Vec<(i32, i32)> {
        array
            .markers
            .iter()
            .filter(|m| m.ns == NS_OBSTACLES)
            .map(|m| (m.id, m.action))
            .collect()
    }

    /// An outline already sent in the same colour from the same obstacle set
    /// is not sent again (but in its refresh round), and not deleted either;
    /// a colour change or a new set sends it again.
    #[test]
    fn unchanged_outlines_are_sent_once_per_refresh_round() {
        let mut m = Monitor::new(MonitorConfig::default());
        m.set_footprint("map", &square(0.0, 0.0, 0.5), 0.0);
        let obstacles = vec![
            Obstacle::new("a", &ObstacleGeometry::Polygon(square(3.0, 0.0, 0.5))),
            Obstacle::new("b", &ObstacleGeometry::Polygon(square(0.0, 3.0, 0.5))),
        ];
        m.set_obstacles("map", obstacles.clone(), 0.0);
        let mut builder = MarkerBuilder::default();
        let first = build(&mut builder, &m);
        assert_eq!(outlines(&first).len(), 2);
        let (a, b) = (builder.id_of("a"), builder.id_of("b"));
        // The next REFRESH_ROUNDS arrays send each outline once more, in
        // its round, and delete none.
        let mut sent = Vec::new();
        for _ in 0..REFRESH_ROUNDS {
            let array = build(&mut builder, &m);
            assert!(outlines(&array).len() <= 1, "{:?}", outlines(&array));
            sent.extend(outlines(&array));
        }
        sent.sort_unstable();
        assert_eq!(sent, vec![(a, ADD), (b, ADD)]);
        // Into `a`: its outline turns red and is sent at once (in the next
        // array, with `b` only if it is `b`'s round).
        m.set_footprint("map", &square(2.5, 0.0, 0.5), 0.0);
        let third = build(&mut builder, &m);
        assert!(
            outlines(&third).contains(&(a, ADD)),
            "{:?}",
            outlines(&third)
        );
        // The same obstacles in a new set: all of them again.
        m.set_obstacles("map", obstacles, 0.0);
        assert_eq!(outlines(&build(&mut builder, &m)).len(), 2);
    }
}
