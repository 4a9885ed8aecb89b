//! A source in the base frame needs no transform (issue 34, item 6): with
//! nav2's `base_shift_correction: true` and no `odom` transform at all (a
//! robot's TF missing at start-up, a bag recorded without it), a scan in
//! `base_frame_id` is read as it is, as nav2 reads such a source
//! (`costmap.cpp` asks TF for nothing when the source's frame is the base
//! frame); the flag places the robot's footprint there without TF too.
//! Every other source keeps its lookups and stops the gate while one
//! fails: a scan in a sensor frame, and a point cloud moved into the base
//! frame from its sensor's frame (`SourceInput::moved`), which the
//! correction still applies to.

use super::{config_of, goes, published, Rig, BASE, NODE, PERIOD, SOURCE_TIMEOUT};
use sat_collision::broadphase::PointSet;
use sat_collision::config::{NodeConfig, SourceConfig};
use sat_collision::frames::FrameTree;
use sat_collision::gate::{Action, Command, GateState, Reason};
use sat_collision::geometry::Point;
use sat_collision::model::{Cause, Status};
use sat_collision::monitor::SourceKind;
use sat_collision::node::{Outputs, SourceInput, SourceReader};
use sat_collision::sensors::{PointCloud, PointField, DATATYPE_FLOAT32};

const CMD: (f64, f64, f64) = (0.3, 0.0, 0.0);

/// nav2's configuration as a new user writes it: one scan, a circle stop
/// zone of 1 m, `base_shift_correction` and `odom_frame_id` left at
/// nav2's defaults (true, `odom`). `extra`: more lines of
/// `ros__parameters`.
pub(crate) fn nav2_yaml(extra: &str) -> String {
    format!(
        "{NODE}:
  ros__parameters:
    base_frame_id: {BASE}
    publish_rate: 16.0
    source_timeout: {SOURCE_TIMEOUT}
    observation_sources: [scan]
    scan: {{type: scan, topic: scan}}
    polygons: [stop]
    stop: {{type: circle, radius: 1.0, action_type: stop, min_points: 1}}
{extra}"
    )
}

/// The nav2 scene, nothing within 5 m of the robot, activated.
pub(crate) fn rig(extra: &str) -> Rig {
    let mut rig = Rig::new(config_of(&nav2_yaml(extra)), 1);
    rig.scene[0] = vec![(6.0, 0.0)];
    rig.sense();
    rig.set_active(true);
    rig
}

fn stopped_for_a_source(out: &Outputs) -> bool {
    published(out) == Some(Command::ZERO)
        && matches!(
            out.state.map(|s| s.reason),
            Some(Reason::InvalidSource(_)) | None
        )
}

/// 30 commands over 30 periods, a fresh scan before each: how many went
/// out moving.
fn moving_of_30(rig: &mut Rig) -> usize {
    let mut moving = 0;
    for _ in 0..30 {
        rig.advance(PERIOD);
        rig.sense();
        rig.tick();
        moving += usize::from(goes(&rig.command(CMD.0, CMD.1, CMD.2)));
    }
    moving
}

#[test]
fn a_scan_in_the_base_frame_needs_no_odom_transform() {
    let mut rig = rig("");
    assert_eq!(moving_of_30(&mut rig), 30, "{:?}", rig.log.last());
    assert_eq!(rig.core.gate().expect("a gate").state(), GateState::CLEAR);
    // The zone still judges the scan's points, where the scan puts them.
    rig.scene[0] = vec![(0.5, 0.0)];
    rig.sense();
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(published(&out), Some(Command::ZERO));
    let by_zone = GateState {
        action: Action::Stop,
        reason: Reason::Zone(0),
    };
    assert_eq!(out.state, Some(by_zone));
    // And its staleness still stops the gate (the fail-safe rule of the
    // data, not of TF).
    rig.scene[0] = vec![(6.0, 0.0)];
    rig.sense();
    rig.advance(SOURCE_TIMEOUT + PERIOD);
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert!(stopped_for_a_source(&out), "{out:?}");
}

#[test]
fn without_the_correction_it_needs_none_either() {
    let mut rig = rig("    base_shift_correction: false\n");
    assert_eq!(moving_of_30(&mut rig), 30, "{:?}", rig.log.last());
}

#[test]
fn a_scan_in_a_sensor_frame_still_needs_its_transforms() {
    let mut rig = rig("");
    rig.frames[0] = "laser".to_owned();
    rig.static_tf(BASE, "laser", 0.1, 0.0, 0.0);
    // base → laser is known, odom → base is not: the correction cannot be
    // made, the gate stops.
    assert_eq!(moving_of_30(&mut rig), 0);
    let state = rig.core.gate().expect("a gate").state();
    assert!(
        matches!(state.reason, Reason::InvalidSource(f) if f.cause == Cause::TransformUnavailable),
        "{state:?}"
    );
    rig.static_tf("odom", BASE, 1.0, 2.0, 0.0);
    assert_eq!(moving_of_30(&mut rig), 30, "{:?}", rig.log.last());
}

/// A point cloud's message, its points already moved into the base frame
/// from its sensor's frame, stamped now.
fn moved_cloud(rig: &mut Rig, at: (f64, f64)) -> Outputs {
    let mut points = PointSet::new();
    assert!(points.push(Point::new(at.0, at.1)));
    let input = SourceInput {
        index: 0,
        frame_id: BASE.to_owned(),
        moved: true,
        stamp: rig.t,
        points: Ok(points),
        cells: None,
        reason: "",
        exclusion: Default::default(),
    };
    let arrival = rig.arrival();
    rig.sources(vec![(input, arrival)])
}

#[test]
fn a_cloud_moved_into_the_base_frame_is_still_corrected_through_odom() {
    let mut rig = rig("");
    let mut moving = 0;
    for _ in 0..30 {
        rig.advance(PERIOD);
        moved_cloud(&mut rig, (6.0, 0.0));
        moving += usize::from(goes(&rig.command(CMD.0, CMD.1, CMD.2)));
    }
    assert_eq!(moving, 0, "no odom: the correction cannot be made");
    rig.static_tf("odom", BASE, 1.0, 2.0, 0.0);
    rig.advance(PERIOD);
    moved_cloud(&mut rig, (6.0, 0.0));
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)), "{:?}", rig.log);
}

#[test]
fn the_flag_places_the_robots_footprint_in_the_base_frame_without_tf() {
    // robot_radius with base_frame (base_frame_id): the footprint is placed
    // from TF at every cycle, in the base frame, as the scan.
    let mut rig = rig("    robot_radius: 0.3\n");
    assert!(rig.core.footprint_from_tf());
    rig.advance(PERIOD);
    let flag = rig.sense().flag.expect("the flag");
    assert!(flag.valid && !flag.colliding, "{flag:?}");
    assert_eq!(flag.status, Status::Ok);
    rig.scene[0] = vec![(0.2, 0.0)];
    let flag = rig.sense().flag.expect("the flag");
    assert!(flag.valid && flag.colliding, "{flag:?}");
    // A scan in a sensor frame TF does not know is still a fault.
    rig.frames[0] = "laser".to_owned();
    let flag = rig.sense().flag.expect("the flag");
    assert!(!flag.valid && flag.colliding, "{flag:?}");
}

#[test]
fn the_reader_marks_a_cloud_moved_only_from_another_frame() {
    // One point (1, 0, 0.2) as float32 x, y, z.
    let data: Vec<u8> = [1.0f32, 0.0, 0.2]
        .iter()
        .flat_map(|v| v.to_le_bytes())
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
        width: 1,
        fields: &fields,
        is_bigendian: false,
        point_step: 12,
        row_step: 12,
        data: &data,
    };
    let config = SourceConfig::new("cloud", SourceKind::PointCloud, &NodeConfig::default());
    let mut reader = SourceReader::new(0, config, BASE, 0.3);
    let mut tree = FrameTree::new();
    let mount = nalgebra::Isometry2::new(nalgebra::Vector2::new(0.1, 0.0), 0.0);
    tree.insert(BASE, "camera", 1.0, Ok(mount), true, 1.0)
        .expect("the mount");
    // In the base frame: read as it is, not moved.
    let input = reader.cloud(BASE, 1.0, &cloud, || &tree, 1.0, PointSet::new());
    assert_eq!((input.frame_id.as_str(), input.moved), (BASE, false));
    assert!(input.points.is_ok_and(|p| p.len() == 1));
    // From the camera's frame: moved into the base frame by its mount.
    let input = reader.cloud("camera", 1.0, &cloud, || &tree, 1.0, PointSet::new());
    assert_eq!((input.frame_id.as_str(), input.moved), (BASE, true));
    let points = input.points.expect("the points");
    assert_eq!(points.len(), 1);
    // A frame TF does not know: refused, nothing moved.
    let input = reader.cloud("lidar", 1.0, &cloud, || &tree, 1.0, PointSet::new());
    assert!(input.points.is_err() && !input.moved);
}
