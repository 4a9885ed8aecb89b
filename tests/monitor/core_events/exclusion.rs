//! Exclusion zones (nav2 main, issue 34 item 2): a source's points inside
//! an enabled zone (its boundary included) and within its height band are
//! masked as the message is read (`SourceReader`, with the core's
//! `ExclusionZones`); a zone that cannot be placed masks nothing and says
//! so (`/diagnostics`, a throttled warning). nav2's
//! `exclusion_zone_test.cpp` scenarios ported where they apply (the
//! `ExclusionZoneTester` ones on a point cloud in the base frame, as its
//! `FakeSource` hands base-frame points; the service ones through
//! `Core::add_exclusion_zone` and `Core::remove_exclusion_zone`), then
//! what nav2's test does not cover: the boundary, a scan in its sensor's
//! frame and its heights, the stale and unknown frames' status, the gate
//! end to end, the lifecycle, refused descriptions.

use super::{config_of, goes, published, Rig, NODE};
use sat_collision::broadphase::PointSet;
use sat_collision::config::{ExclusionDescription, ExclusionZoneConfig, NodeConfig, Value};
use sat_collision::diagnostics::{DiagnosticStatus, Level};
use sat_collision::frames::FrameTree;
use sat_collision::gate::Command;
use sat_collision::geometry::Point;
use sat_collision::model::Cause;
use sat_collision::node::{SourceInput, SourceReader, StatusContext, TfBuffer, TfSample};
use sat_collision::sensors::{LaserScan, PointCloud, PointField, DATATYPE_FLOAT32};
use std::sync::MutexGuard;

/// The robot's frame here (nav2's test's).
const BASE: &str = "base_link";
/// nav2's `UNIT_SQUARE`.
const UNIT_SQUARE: &str = "[[1.0, 1.0], [1.0, -1.0], [-1.0, -1.0], [-1.0, 1.0]]";
/// The sources' indices in [`yaml`]'s `observation_sources`.
const CLOUD: usize = 0;
const SCAN: usize = 1;

/// Two sources, a point cloud and a scan, each with the zone `dock`
/// (`zone` its parameters, a flow mapping's inside), nav2's test's
/// transform tolerance (0.5 s) and no base-shift correction (nav2's
/// `makeZone()` default); `extra`: more lines of `ros__parameters`.
fn yaml(zone: &str, extra: &str) -> String {
    format!(
        "{NODE}:
  ros__parameters:
    base_frame: {BASE}
    base_shift_correction: false
    transform_tolerance: 0.5
    source_timeout: 5.0
    observation_sources: [cloud, scan]
    cloud: {{type: pointcloud, topic: cloud, min_height: -10.0, max_height: 10.0,
             exclusion_zones: [dock]}}
    scan: {{type: scan, topic: scan, exclusion_zones: [dock]}}
    dock: {{{zone}}}
{extra}"
    )
}

/// The TF buffer locked for one read: its tree.
struct Tree<'a>(MutexGuard<'a, TfBuffer>);

impl std::ops::Deref for Tree<'_> {
    type Target = FrameTree;
    fn deref(&self) -> &FrameTree {
        &self.0.tree
    }
}

/// A core and its sources' readers, masking with its zones.
struct Scene {
    rig: Rig,
    readers: Vec<SourceReader>,
    /// The parameters' revision last followed.
    revision: u64,
}

impl Scene {
    fn of(config: NodeConfig) -> Scene {
        let rig = Rig::new(config, 0);
        let readers = SourceReader::all(rig.core.config())
            .into_iter()
            .map(|r| r.with_zones(rig.core.exclusion_zones()))
            .collect();
        Scene {
            rig,
            readers,
            revision: 0,
        }
    }

    fn new(zone: &str) -> Scene {
        Scene::of(config_of(&yaml(zone, "")))
    }

    /// A transform `parent` → `child` (translation `x`, `y`, `z`) stamped
    /// `stamp`, received now; `is_static` for `/tf_static`.
    fn tf(
        &mut self,
        parent: &str,
        child: &str,
        (x, y, z): (f64, f64, f64),
        stamp: f64,
        is_static: bool,
    ) {
        let sample = TfSample {
            parent: Some(parent),
            child: Some(child),
            stamp,
            translation: [x, y, z],
            rotation: [0.0, 0.0, 0.0, 1.0],
        };
        let arrival = self.rig.arrival();
        let tf = std::sync::Arc::clone(self.rig.core.tf());
        let mut buffer = tf.lock().expect("the TF buffer");
        buffer.take([sample], is_static, arrival);
    }

    /// A point cloud of `points` (x, y, z as float32) in `frame`, stamped
    /// now, read by the cloud source's reader and handed to the core.
    fn cloud(&mut self, frame: &str, points: &[(f64, f64, f64)]) -> SourceInput {
        let data: Vec<u8> = points
            .iter()
            .flat_map(|&(x, y, z)| [x as f32, y as f32, z as f32])
            .flat_map(f32::to_le_bytes)
            .collect();
        let fields: Vec<PointField<'_>> = ["x", "y", "z"]
            .iter()
            .enumerate()
            .map(|(k, name)| PointField {
                name: name.as_bytes(),
                offset: 4 * k as u32,
                datatype: DATATYPE_FLOAT32,
                count: 1,
            })
            .collect();
        let cloud = PointCloud {
            height: 1,
            width: points.len() as u32,
            fields: &fields,
            is_bigendian: false,
            point_step: 12,
            row_step: 12 * points.len() as u32,
            data: &data,
        };
        let (t, tf) = (self.rig.t, std::sync::Arc::clone(self.rig.core.tf()));
        let tree = || Tree(tf.lock().expect("the TF buffer"));
        let input = self.readers[CLOUD].cloud(frame, t, &cloud, tree, t, PointSet::new());
        self.hand(&input);
        input
    }

    /// A laser scan in `frame`, stamped now: one ray every half radian
    /// from 0, `ranges` along them (`inf`: none), read by the scan
    /// source's reader and handed to the core.
    fn scan(&mut self, frame: &str, ranges: &[f32]) -> SourceInput {
        let scan = LaserScan {
            angle_min: 0.0,
            angle_max: 0.5 * (ranges.len() as f32 - 1.0),
            angle_increment: 0.5,
            range_min: 0.01,
            range_max: 100.0,
            ranges,
        };
        let (t, tf) = (self.rig.t, std::sync::Arc::clone(self.rig.core.tf()));
        let tree = || Tree(tf.lock().expect("the TF buffer"));
        let input = self.readers[SCAN].scan(frame, t, &scan, tree, t, PointSet::new());
        self.hand(&input);
        input
    }

    /// The core takes what `input` says of its zones (its points stay the
    /// test's), as `Core::on_sources` would.
    fn hand(&mut self, input: &SourceInput) {
        let copy = SourceInput {
            index: input.index,
            frame_id: input.frame_id.clone(),
            moved: input.moved,
            stamp: input.stamp,
            points: Ok(match &input.points {
                Ok(points) => points.clone(),
                Err(_) => PointSet::new(),
            }),
            cells: None,
            reason: "",
            exclusion: input.exclusion.clone(),
        };
        let arrival = self.rig.arrival();
        self.rig.sources(vec![(copy, arrival)]);
    }

    /// Sets a parameter (refused: the error) and lets the core follow it.
    fn set(&mut self, name: &str, value: Value) -> Result<(), String> {
        let mut config = self.rig.core.config().clone();
        config.set(name, &value).map_err(|e| e.to_string())?;
        self.revision += 1;
        self.rig.core.follow(self.revision, || config);
        Ok(())
    }

    /// `<node>: exclusion zones`, if published.
    fn status(&mut self) -> Option<DiagnosticStatus> {
        let context = StatusContext {
            node_name: NODE,
            hardware_id: "hw",
            lifecycle_state: "active",
            reports_skipped: 0,
        };
        let t = self.rig.t;
        let all = self.rig.core.statuses(&context, t);
        all.into_iter()
            .find(|s| s.name == format!("{NODE}: exclusion zones"))
    }
}

/// The points a message kept, as (x, y).
fn kept(input: &SourceInput) -> Vec<(f64, f64)> {
    let points = input.points.as_ref().expect("the message is read");
    (0..points.len())
        .map(|i| {
            let p = points.point(i);
            (p.x, p.y)
        })
        .collect()
}

fn close(a: &[(f64, f64)], b: &[(f64, f64)]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(p, q)| (p.0 - q.0).abs() < 1e-6 && (p.1 - q.1).abs() < 1e-6)
}

/// nav2's `declareZoneParams` and `points`: a polygon zone in
/// `zone_frame`, `enabled` as given.
fn square(enabled: bool) -> String {
    format!("type: polygon, points: \"{UNIT_SQUARE}\", frame_id: zone_frame, enabled: {enabled}")
}

/// nav2's `broadcastTransform`: `odom` → `base_link` the identity and
/// `base_link` → `zone_frame` at (x, y), stamped now.
fn broadcast(scene: &mut Scene, x: f64, y: f64) {
    let t = scene.rig.t;
    scene.tf("odom", BASE, (0.0, 0.0, 0.0), t, false);
    scene.tf(BASE, "zone_frame", (x, y, 0.0), t, false);
}

// ---------------------------------------------------- nav2's ExclusionZoneTester

#[test]
fn a_disabled_zone_keeps_all_points() {
    let mut s = Scene::new(&square(false));
    broadcast(&mut s, 0.0, 0.0);
    let input = s.cloud(BASE, &[(0.0, 0.0, 0.0), (5.0, 5.0, 0.0)]);
    assert_eq!(kept(&input), [(0.0, 0.0), (5.0, 5.0)]);
    assert_eq!(input.exclusion.masked, 0);
}

#[test]
fn a_zone_is_disabled_unless_enabled_is_given() {
    // nav2's default for a parameter zone is false.
    let config = config_of(&yaml(
        &format!("type: polygon, points: \"{UNIT_SQUARE}\""),
        "",
    ));
    assert!(!config.exclusion_zone("dock").expect("dock").enabled);
}

#[test]
fn a_polygon_zone_masks_inside_and_keeps_outside() {
    let mut s = Scene::new(&square(true));
    broadcast(&mut s, 0.0, 0.0);
    let points = [
        (0.0, 0.0, 0.0),
        (0.5, -0.5, 0.0),
        (2.0, 2.0, 0.0),
        (-3.0, 0.0, 0.0),
    ];
    let input = s.cloud(BASE, &points);
    assert_eq!(kept(&input), [(2.0, 2.0), (-3.0, 0.0)]);
    assert_eq!(input.exclusion.masked, 2);
    assert!(input.exclusion.unplaced.is_empty());
}

#[test]
fn the_mask_follows_its_frame() {
    // The zone frame 10 m ahead: the mask covers x in [9, 11].
    let mut s = Scene::new(&square(true));
    broadcast(&mut s, 10.0, 0.0);
    let input = s.cloud(BASE, &[(0.0, 0.0, 0.0), (10.0, 0.0, 0.0)]);
    assert_eq!(kept(&input), [(0.0, 0.0)]);
}

#[test]
fn with_base_shift_correction_the_zone_is_placed_through_odom() {
    let config = config_of(&yaml(&square(true), "").replace(
        "base_shift_correction: false",
        "base_shift_correction: true",
    ));
    assert!(config.gate.base_shift_correction);
    let mut s = Scene::of(config);
    let t = s.rig.t;
    s.tf("odom", BASE, (0.0, 0.0, 0.0), t, false);
    s.tf(BASE, "zone_frame", (0.0, 0.0, 0.0), t, false);
    // A cloud from a sensor frame (moved into the base frame, the
    // correction applies to it): mounted 0.25 m ahead.
    s.tf(BASE, "lidar", (0.25, 0.0, 0.0), t, true);
    let input = s.cloud("lidar", &[(-0.25, 0.0, 0.0), (1.75, 2.0, 0.0)]);
    assert_eq!(kept(&input), [(2.0, 2.0)]);
}

#[test]
fn the_height_band_limits_what_is_masked() {
    let zone = format!("{}, min_height: 0.0, max_height: 0.5", square(true));
    let mut s = Scene::new(&zone);
    broadcast(&mut s, 0.0, 0.0);
    let input = s.cloud(
        BASE,
        &[
            (0.0, 0.0, 0.25),
            (0.0, 0.0, 0.875),
            (0.0, 0.0, -0.125),
            (0.0, 0.0, 0.5),
        ],
    );
    // Above and below the band kept; within it (its bound included) masked.
    assert_eq!(kept(&input), [(0.0, 0.0), (0.0, 0.0)]);
    assert_eq!(input.exclusion.masked, 2);
}

#[test]
fn a_circle_zone_masks_within_its_radius() {
    let mut s = Scene::new("type: circle, radius: 1.0, frame_id: zone_frame, enabled: true");
    broadcast(&mut s, 0.0, 0.0);
    let input = s.cloud(BASE, &[(0.0, 0.0, 0.0), (0.5, 0.5, 0.0), (1.5, 0.0, 0.0)]);
    assert_eq!(kept(&input), [(1.5, 0.0)]);
}

#[test]
fn a_zone_whose_frame_is_unknown_masks_nothing_and_says_so() {
    let zone =
        format!("type: polygon, points: \"{UNIT_SQUARE}\", frame_id: missing_frame, enabled: true");
    let mut s = Scene::new(&zone);
    broadcast(&mut s, 0.0, 0.0);
    let input = s.cloud(BASE, &[(0.0, 0.0, 0.0), (0.5, 0.5, 0.0)]);
    assert_eq!(kept(&input), [(0.0, 0.0), (0.5, 0.5)]);
    let unplaced = &input.exclusion.unplaced;
    assert_eq!(unplaced.len(), 1, "{unplaced:?}");
    assert_eq!(
        (
            unplaced[0].zone.as_str(),
            unplaced[0].frame.as_str(),
            unplaced[0].cause
        ),
        ("dock", "missing_frame", Cause::TransformUnavailable)
    );
    let status = s.status().expect("the exclusion zones' status");
    assert_eq!(status.level, Level::Warn, "{status:?}");
    assert!(
        status
            .message
            .contains("cloud/dock masks nothing: transform_unavailable")
            && status.message.contains("missing_frame"),
        "{status:?}"
    );
    // The throttled log line, at every message (the edge throttles it).
    let notice = s.rig.log.last().expect("an answer");
    assert!(notice.contains("exclusion_zone"), "{notice}");
}

#[test]
fn a_zone_turned_on_at_run_time_masks() {
    let mut s = Scene::new(&square(false));
    broadcast(&mut s, 0.0, 0.0);
    s.set("dock.enabled", Value::Bool(true))
        .expect("enabled at run time");
    assert_eq!(
        s.rig.core.config().get("dock.enabled"),
        Some(Value::Bool(true))
    );
    let input = s.cloud(BASE, &[(0.0, 0.0, 0.0), (5.0, 5.0, 0.0)]);
    assert_eq!(kept(&input), [(5.0, 5.0)]);
}

#[test]
fn new_points_at_run_time_change_the_mask() {
    let mut s = Scene::new(&square(true));
    broadcast(&mut s, 0.0, 0.0);
    assert_eq!(kept(&s.cloud(BASE, &[(2.0, 2.0, 0.0)])), [(2.0, 2.0)]);
    let grown = "[[3.0, 3.0], [3.0, -3.0], [-3.0, -3.0], [-3.0, 3.0]]";
    s.set("dock.points", Value::String(grown.into()))
        .expect("a valid polygon");
    assert!(kept(&s.cloud(BASE, &[(2.0, 2.0, 0.0)])).is_empty());
}

#[test]
fn invalid_points_at_run_time_are_refused_and_the_mask_stays() {
    let mut s = Scene::new(&square(true));
    broadcast(&mut s, 0.0, 0.0);
    let bad = [
        "[[0.0, 0.0], [1.0, 1.0]]",
        "[[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]]",
        "[[0.0, 0.0], [1.0, .nan], [1.0, 0.0]]",
        "not points",
    ];
    for text in bad {
        let refused = s.set("dock.points", Value::String(text.into()));
        assert!(refused.is_err(), "{text}");
    }
    let input = s.cloud(BASE, &[(0.0, 0.0, 0.0), (5.0, 5.0, 0.0)]);
    assert_eq!(kept(&input), [(5.0, 5.0)], "the unit square still masks");
}

#[test]
fn a_new_radius_at_run_time_changes_the_mask_and_0_is_refused() {
    let mut s = Scene::new("type: circle, radius: 1.0, frame_id: zone_frame, enabled: true");
    broadcast(&mut s, 0.0, 0.0);
    assert_eq!(kept(&s.cloud(BASE, &[(1.5, 0.0, 0.0)])), [(1.5, 0.0)]);
    for refused in [0.0, -1.0, f64::NAN] {
        assert!(
            s.set("dock.radius", Value::Double(refused)).is_err(),
            "{refused}"
        );
    }
    assert_eq!(kept(&s.cloud(BASE, &[(1.5, 0.0, 0.0)])), [(1.5, 0.0)]);
    s.set("dock.radius", Value::Double(2.0)).expect("a radius");
    assert!(kept(&s.cloud(BASE, &[(1.5, 0.0, 0.0)])).is_empty());
}

#[test]
fn a_new_height_band_at_run_time_changes_the_mask() {
    let zone = format!("{}, min_height: 0.0, max_height: 0.5", square(true));
    let mut s = Scene::new(&zone);
    broadcast(&mut s, 0.0, 0.0);
    assert_eq!(kept(&s.cloud(BASE, &[(0.0, 0.0, 0.875)])).len(), 1);
    s.set("dock.max_height", Value::Double(1.0))
        .expect("max_height");
    assert!(kept(&s.cloud(BASE, &[(0.0, 0.0, 0.875)])).is_empty());
    assert_eq!(kept(&s.cloud(BASE, &[(0.0, 0.0, -0.25)])).len(), 1);
    s.set("dock.min_height", Value::Double(-0.5))
        .expect("min_height");
    assert!(kept(&s.cloud(BASE, &[(0.0, 0.0, -0.25)])).is_empty());
}

/// nav2's held-zone scene: `odom` → `base_link` and `base_link` →
/// `zone_frame` (x) at the start only, `frame_hold_timeout` as given.
fn held(hold: f64, zone_x: f64) -> Scene {
    let zone = format!("{}, frame_hold_timeout: {hold}", square(true));
    let mut s = Scene::new(&zone);
    let t = s.rig.t;
    s.tf("odom", BASE, (0.0, 0.0, 0.0), t, false);
    s.tf(BASE, "zone_frame", (zone_x, 0.0, 0.0), t, false);
    s
}

#[test]
fn a_held_zone_masks_within_its_window() {
    let mut s = held(5.0, 0.0);
    s.rig.advance(2.0);
    // The base's odometry goes on (the lookup of odom into base stays
    // fresh); the zone's frame is 2 s old, within 5 s.
    let t = s.rig.t;
    s.tf("odom", BASE, (0.0, 0.0, 0.0), t, false);
    let input = s.cloud(BASE, &[(0.0, 0.0, 0.0), (5.0, 5.0, 0.0)]);
    assert_eq!(kept(&input), [(5.0, 5.0)]);
}

#[test]
fn a_held_zone_masks_nothing_once_its_window_is_over() {
    let mut s = held(1.0, 0.0);
    s.rig.advance(3.0);
    let t = s.rig.t;
    s.tf("odom", BASE, (0.0, 0.0, 0.0), t, false);
    let input = s.cloud(BASE, &[(0.0, 0.0, 0.0), (5.0, 5.0, 0.0)]);
    assert_eq!(kept(&input), [(0.0, 0.0), (5.0, 5.0)]);
    assert_eq!(input.exclusion.unplaced[0].cause, Cause::StaleTransform);
    let status = s.status().expect("the status");
    assert_eq!(status.level, Level::Warn);
    assert!(status.message.contains("stale_transform"), "{status:?}");
    // Its frame back: placed again, the status OK.
    let t = s.rig.t;
    s.tf(BASE, "zone_frame", (0.0, 0.0, 0.0), t, false);
    let input = s.cloud(BASE, &[(0.0, 0.0, 0.0), (5.0, 5.0, 0.0)]);
    assert_eq!(kept(&input), [(5.0, 5.0)]);
    let status = s.status().expect("the status");
    assert_eq!((status.level, status.message.as_str()), (Level::Ok, "ok"));
    assert_eq!(status.value("cloud/dock"), Some("masking"));
}

#[test]
fn a_longer_hold_at_run_time_keeps_a_stale_zone_masking() {
    let mut s = held(1.0, 0.0);
    s.rig.advance(3.0);
    let t = s.rig.t;
    s.tf("odom", BASE, (0.0, 0.0, 0.0), t, false);
    assert_eq!(kept(&s.cloud(BASE, &[(0.0, 0.0, 0.0)])).len(), 1);
    assert!(s
        .set("dock.frame_hold_timeout", Value::Double(-1.0))
        .is_err());
    s.set("dock.frame_hold_timeout", Value::Double(5.0))
        .expect("a longer hold");
    assert!(kept(&s.cloud(BASE, &[(0.0, 0.0, 0.0)])).is_empty());
}

#[test]
fn a_held_zone_stays_where_it_was_in_the_world_as_the_robot_moves() {
    // The charger seen 10 m ahead; the robot drives 5 m, the detection is
    // not refreshed: the zone is held at the world's (10, 0), now 5 m
    // ahead of the robot (a zone riding with the robot would be at 10).
    let mut s = held(5.0, 10.0);
    s.rig.advance(0.5);
    let t = s.rig.t;
    s.tf("odom", BASE, (5.0, 0.0, 0.0), t, false);
    let input = s.cloud(BASE, &[(5.0, 0.0, 0.0), (10.0, 0.0, 0.0)]);
    assert_eq!(kept(&input), [(10.0, 0.0)]);
}

#[test]
fn a_source_without_zones_keeps_everything() {
    let config = config_of(&yaml(&square(true), "").replacen(
        "exclusion_zones: [dock]",
        "exclusion_zones: []",
        1,
    ));
    assert!(config.sources[CLOUD].exclusion_zones.is_empty());
    let mut s = Scene::of(config);
    broadcast(&mut s, 0.0, 0.0);
    let input = s.cloud(BASE, &[(0.0, 0.0, 0.0), (5.0, 5.0, 0.0)]);
    assert_eq!(kept(&input), [(0.0, 0.0), (5.0, 5.0)]);
}

// ------------------------------------------------ nav2's ExclusionZoneServiceTester

/// A description as nav2's `makeCircleRequest`/`makePolygonRequest` and
/// the message's defaults make it.
fn description<'a>(
    name: &'a str,
    kind: &'a str,
    radius: f64,
    enabled: bool,
) -> ExclusionDescription<'a> {
    ExclusionDescription {
        name,
        kind,
        frame_id: "",
        radius,
        min_height: -f64::MAX,
        max_height: f64::MAX,
        enabled,
        visualize: false,
        frame_hold_timeout: 0.0,
    }
}

fn unit_square() -> Vec<Point> {
    [(1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0)]
        .iter()
        .map(|&(x, y)| Point::new(x, y))
        .collect()
}

/// `add_exclusion_zone` on the cloud source: the description checked,
/// then added; the answer.
fn add(s: &mut Scene, d: ExclusionDescription<'_>, points: Vec<Point>) -> Result<String, String> {
    let zone =
        ExclusionZoneConfig::from_description(&d, points.into_iter()).map_err(|e| e.to_string())?;
    s.rig.core.add_exclusion_zone("cloud", zone)
}

/// A scene whose sources have no parameter zones.
fn no_zones() -> Scene {
    let config = config_of(
        &yaml(&square(true), "").replace("exclusion_zones: [dock]", "exclusion_zones: []"),
    );
    assert!(config.exclusion_zones.is_empty());
    Scene::of(config)
}

#[test]
fn added_polygon_and_circle_zones_mask() {
    let mut s = no_zones();
    assert!(s.status().is_none(), "no zones, no status");
    add(
        &mut s,
        description("poly", "polygon", 0.0, true),
        unit_square(),
    )
    .expect("added");
    let input = s.cloud(BASE, &[(0.0, 0.0, 0.0), (5.0, 5.0, 0.0)]);
    assert_eq!(kept(&input), [(5.0, 5.0)]);
    add(
        &mut s,
        description("circle", "circle", 10.0, true),
        Vec::new(),
    )
    .expect("added");
    let input = s.cloud(BASE, &[(0.0, 0.0, 0.0), (5.0, 5.0, 0.0)]);
    assert!(kept(&input).is_empty());
    let status = s.status().expect("the status");
    assert_eq!(status.value("cloud/poly"), Some("masking (added)"));
}

#[test]
fn an_added_zone_disabled_does_not_mask() {
    let mut s = no_zones();
    add(
        &mut s,
        description("off_zone", "circle", 2.0, false),
        Vec::new(),
    )
    .expect("added");
    assert_eq!(kept(&s.cloud(BASE, &[(0.0, 0.0, 0.0)])).len(), 1);
}

#[test]
fn removing_a_zone_by_name_restores_its_points() {
    let mut s = no_zones();
    add(&mut s, description("temp", "circle", 2.0, true), Vec::new()).expect("added");
    assert!(kept(&s.cloud(BASE, &[(0.5, 0.5, 0.0)])).is_empty());
    let answer = s.rig.core.remove_exclusion_zone("cloud", "temp", false);
    assert_eq!(
        answer.as_deref(),
        Ok("Removed zone 'temp' from source 'cloud'")
    );
    assert_eq!(kept(&s.cloud(BASE, &[(0.5, 0.5, 0.0)])).len(), 1);
}

#[test]
fn remove_all_removes_every_zone_and_succeeds_on_none() {
    let mut s = no_zones();
    assert!(s.rig.core.remove_exclusion_zone("cloud", "", true).is_ok());
    add(&mut s, description("a", "circle", 1.0, true), Vec::new()).expect("a");
    add(&mut s, description("b", "circle", 1.0, true), Vec::new()).expect("b");
    assert!(s.rig.core.remove_exclusion_zone("cloud", "", true).is_ok());
    assert_eq!(kept(&s.cloud(BASE, &[(0.0, 0.0, 0.0)])).len(), 1);
    assert!(s.status().is_none(), "no zones left");
}

#[test]
fn invalid_descriptions_are_refused_and_nothing_changes() {
    let mut s = no_zones();
    let circle = |name| description(name, "circle", 1.0, true);
    let refused = |s: &mut Scene, d, points| add(s, d, points).expect_err("refused");
    // nav2's: an empty name, an unknown type, a radius of 0 or less, a
    // polygon of two points, a duplicate name.
    assert!(refused(&mut s, circle(""), Vec::new()).contains("needs a name"));
    let triangle = description("z", "triangle", 1.0, true);
    assert!(refused(&mut s, triangle, Vec::new()).contains("polygon or circle"));
    for radius in [-1.0, 0.0, f64::NAN] {
        let d = description("z", "circle", radius, true);
        refused(&mut s, d, Vec::new());
    }
    let two = vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0)];
    refused(&mut s, description("z", "polygon", 0.0, true), two);
    add(&mut s, circle("dup"), Vec::new()).expect("the first");
    assert!(refused(&mut s, circle("dup"), Vec::new()).contains("already has"));
    // And more: NaN vertices, a polygon crossing itself, 10^6 vertices, a
    // 10 kB name, a name that is no parameter token, a NaN height.
    let nan = vec![
        Point::new(0.0, 0.0),
        Point::new(f64::NAN, 1.0),
        Point::new(1.0, 0.0),
    ];
    refused(&mut s, description("z", "polygon", 0.0, true), nan);
    let bowtie = [(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)];
    let bowtie = bowtie.iter().map(|&(x, y)| Point::new(x, y)).collect();
    let message = refused(&mut s, description("z", "polygon", 0.0, true), bowtie);
    assert!(
        message.contains("not a usable exclusion zone polygon"),
        "{message}"
    );
    let million = (0..1_000_000)
        .map(|k| {
            let a = k as f64 * std::f64::consts::TAU / 1e6;
            Point::new(a.cos(), a.sin())
        })
        .collect();
    let message = refused(&mut s, description("z", "polygon", 0.0, true), million);
    assert!(message.contains("at most 256"), "{message}");
    let long = "z".repeat(10_000);
    let message = refused(&mut s, circle(&long), Vec::new());
    assert!(message.contains("longer than 64 bytes"), "{message}");
    refused(&mut s, circle("a/b"), Vec::new());
    let mut high = circle("z");
    high.max_height = f64::NAN;
    refused(&mut s, high, Vec::new());
    // An unknown source: refused (the node has no such service).
    let zone = ExclusionZoneConfig::from_description(&circle("z"), Vec::new().into_iter())
        .expect("a valid zone");
    assert!(s.rig.core.add_exclusion_zone("nosuch", zone).is_err());
    // Nothing changed: the one zone added still alone.
    let states = s.rig.core.exclusion_zones().states();
    assert_eq!(states.len(), 1, "{states:?}");
    assert_eq!(states[0].zone, "dup");
}

#[test]
fn removing_refuses_an_unknown_or_empty_name() {
    let mut s = no_zones();
    let answer = s
        .rig
        .core
        .remove_exclusion_zone("cloud", "nonexistent", false);
    assert_eq!(
        answer,
        Err("Zone 'nonexistent' not found on source 'cloud'".to_owned())
    );
    assert!(s
        .rig
        .core
        .remove_exclusion_zone("cloud", "", false)
        .is_err());
}

#[test]
fn a_source_takes_at_most_16_zones() {
    let mut s = Scene::new(&square(true));
    // One from the parameters, 15 added: the 17th is refused.
    for k in 0..15 {
        let name = format!("z{k}");
        add(&mut s, description(&name, "circle", 1.0, true), Vec::new()).expect("room");
    }
    let refused = add(&mut s, description("z15", "circle", 1.0, true), Vec::new());
    assert!(refused.is_err_and(|m| m.contains("16")));
}

// ------------------------------------------------------- beyond nav2's test

#[test]
fn the_boundary_is_masked() {
    let mut s = Scene::new(&square(true));
    broadcast(&mut s, 0.0, 0.0);
    // On an edge, on a corner; just outside, by a float32 step.
    let outside = f64::from(1.0f32 + f32::EPSILON);
    let input = s.cloud(
        BASE,
        &[(1.0, 0.5, 0.0), (-1.0, -1.0, 0.0), (outside, 0.0, 0.0)],
    );
    assert_eq!(kept(&input), [(outside, 0.0)]);
    let mut s = Scene::new("type: circle, radius: 1.0, frame_id: zone_frame, enabled: true");
    broadcast(&mut s, 0.0, 0.0);
    let input = s.cloud(BASE, &[(0.0, 1.0, 0.0), (0.0, outside, 0.0)]);
    assert_eq!(kept(&input), [(0.0, outside)]);
}

#[test]
fn a_scan_is_masked_in_its_own_frame() {
    // The laser 0.5 m ahead of the base, 0.25 m up; the zone the unit
    // square around the base. Rays at 0 and 0.5 rad: (0.25, 0) in the
    // laser frame is (0.75, 0) in the base frame: masked; 3 m along 0.5
    // rad is outside.
    let mut s = Scene::new(&square(true));
    broadcast(&mut s, 0.0, 0.0);
    let t = s.rig.t;
    s.tf(BASE, "laser", (0.5, 0.0, 0.25), t, true);
    let input = s.scan("laser", &[0.25, 3.0]);
    let far = (3.0 * 0.5f64.cos(), 3.0 * 0.5f64.sin());
    assert!(close(&kept(&input), &[far]), "{:?}", kept(&input));
    assert_eq!(input.frame_id, "laser");
    assert_eq!(input.exclusion.masked, 1);
}

#[test]
fn a_scans_height_is_its_frames_in_the_base_frame() {
    // The laser 0.25 m up: its points are at z = 0.25 in the base frame.
    let band = |lo: f64, hi: f64| format!("{}, min_height: {lo}, max_height: {hi}", square(true));
    for ((lo, hi), masked) in [((0.0, 0.5), 1), ((0.5, 1.0), 0), ((0.25, 0.25), 1)] {
        let mut s = Scene::new(&band(lo, hi));
        broadcast(&mut s, 0.0, 0.0);
        let t = s.rig.t;
        s.tf(BASE, "laser", (0.0, 0.0, 0.25), t, true);
        let input = s.scan("laser", &[0.5]);
        assert_eq!(input.exclusion.masked, masked, "band [{lo}, {hi}]");
    }
    // A band, and the laser's frame unknown to TF: its heights cannot be
    // judged, the zone masks nothing.
    let mut s = Scene::new(&band(0.0, 0.5));
    broadcast(&mut s, 0.0, 0.0);
    let input = s.scan("sonar", &[0.5]);
    assert!(input.points.is_ok_and(|p| p.len() == 1));
}

#[test]
fn zones_added_survive_deactivation_and_are_forgotten_by_a_new_configuration() {
    let mut s = no_zones();
    add(&mut s, description("kept", "circle", 1.0, true), Vec::new()).expect("added");
    s.rig.set_active(true);
    s.rig.set_active(false);
    s.rig.set_active(true);
    assert!(
        kept(&s.cloud(BASE, &[(0.0, 0.0, 0.0)])).is_empty(),
        "still masking"
    );
    // Cleanup then configure: a new core from the parameters.
    let config = s.rig.core.config().clone();
    let s = Scene::of(config);
    assert!(s.rig.core.exclusion_zones().states().is_empty());
}

#[test]
fn the_gate_passes_once_a_zone_hides_the_obstacle_and_stops_again_without_it() {
    let yaml = format!(
        "{NODE}:
  ros__parameters:
    base_frame_id: {BASE}
    robot_radius: 0.1
    publish_rate: 16.0
    base_shift_correction: false
    source_timeout: 5.0
    observation_sources: [cloud, scan]
    cloud: {{type: pointcloud, topic: cloud, min_height: -10.0, max_height: 10.0}}
    scan: {{type: scan, topic: scan}}
    polygons: [stop]
    stop: {{type: polygon, points: \"[[0.6, 0.3], [0.6, -0.3], [0.3, -0.3], [0.3, 0.3]]\",
            action_type: stop, min_points: 1, sources_names: [scan]}}
"
    );
    let mut s = Scene::of(config_of(&yaml));
    s.rig.set_active(true);
    // An obstacle 0.4 m ahead, in the stop zone.
    let obstacle = [0.4f32];
    s.cloud(BASE, &[(5.0, 5.0, 0.0)]);
    s.scan(BASE, &obstacle);
    assert_eq!(
        published(&s.rig.command(0.3, 0.0, 0.0)),
        Some(Command::ZERO)
    );
    let d = ExclusionDescription {
        frame_id: BASE,
        ..description("hide", "circle", 0.125, true)
    };
    let zone = ExclusionZoneConfig::from_description(&d, Vec::new().into_iter()).expect("valid");
    let zone = ExclusionZoneConfig {
        points: Vec::new(),
        ..zone
    };
    s.rig.core.add_exclusion_zone("scan", zone).expect("added");
    // A circle of 0.125 m about the base does not reach the obstacle:
    s.scan(BASE, &obstacle);
    assert!(!goes(&s.rig.command(0.3, 0.0, 0.0)));
    s.rig
        .core
        .remove_exclusion_zone("scan", "hide", false)
        .expect("removed");
    let around = unit_square();
    let d = description("around", "polygon", 0.0, true);
    let zone = ExclusionZoneConfig::from_description(&d, around.into_iter()).expect("valid");
    s.rig.core.add_exclusion_zone("scan", zone).expect("added");
    s.scan(BASE, &obstacle);
    assert!(
        goes(&s.rig.command(0.3, 0.0, 0.0)),
        "{:?}",
        s.rig.log.last()
    );
    s.rig
        .core
        .remove_exclusion_zone("scan", "around", false)
        .expect("removed");
    s.scan(BASE, &obstacle);
    assert_eq!(
        published(&s.rig.command(0.3, 0.0, 0.0)),
        Some(Command::ZERO)
    );
}

#[test]
fn a_visualized_zone_is_drawn_in_the_base_frame_while_enabled_and_placed() {
    let zone = format!("{}, visualize: true", square(true));
    let mut s = Scene::new(&zone);
    broadcast(&mut s, 10.0, 0.0);
    let drawn = |s: &Scene| {
        let mut out = Vec::new();
        let tf = std::sync::Arc::clone(s.rig.core.tf());
        let buffer = tf.lock().expect("the TF buffer");
        let zones = s.rig.core.exclusion_zones();
        zones.drawn(&buffer.tree, s.rig.t, 32, &mut out);
        out
    };
    let out = drawn(&s);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].0, "dock");
    let xs: Vec<f64> = out[0].1.iter().map(|p| p.x).collect();
    assert!(
        xs.iter()
            .all(|x| (*x - 9.0).abs() < 1e-9 || (*x - 11.0).abs() < 1e-9),
        "{xs:?}"
    );
    // Disabled: not drawn; its frame stale: not drawn either.
    s.set("dock.enabled", Value::Bool(false)).expect("enabled");
    assert!(drawn(&s).is_empty());
    s.set("dock.enabled", Value::Bool(true)).expect("enabled");
    s.rig.advance(2.0);
    assert!(
        drawn(&s).is_empty(),
        "a stale frame masks nothing and is not drawn"
    );
}
