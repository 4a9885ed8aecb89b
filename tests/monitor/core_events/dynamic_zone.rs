//! A dynamic zone (its shape from `polygon_sub_topic`), as test_gate.py's
//! `test_dynamic_zone_from_polygon_sub_topic` and test_gate_judges.py's
//! `test_dynamic_zone_without_a_shape_stops_warns_and_is_not_ok` drive it
//! over ROS: without a shape it stops the gate ("invalid zone", the gate's
//! status ERROR, a throttled warning); its shape moved into the base frame
//! by TF (held until TF can), published while active; a bad shape refused,
//! the zone keeping its previous one.

use super::{config_of, goes, published, Rig, BASE, NODE, PERIOD, SOURCE_TIMEOUT};
use sat_collision::config::Value;
use sat_collision::diagnostics::Level;
use sat_collision::gate::{Action, Command, GateState, Reason};
use sat_collision::monitor::Transforms;
use sat_collision::node::{
    FootprintInput, Outputs, ShapeInput, StatusContext, TfSample, ZonePolygons,
};

const CMD: (f64, f64, f64) = (0.4, 0.0, 0.2);
const DYN_RATIO: f64 = 0.75;
/// The dynamic zone's index in `polygons`.
const DYN: usize = 1;

/// A scan `scan`, a stop zone in front of the robot and a slowdown zone
/// `dyn` whose shape comes on `dyn_shape`.
fn dynamic_yaml() -> String {
    format!(
        "{NODE}:
  ros__parameters:
    base_frame_id: {BASE}
    robot_footprint: \"[[0.2, 0.2], [0.2, -0.2], [-0.2, -0.2], [-0.2, 0.2]]\"
    base_shift_correction: false
    source_timeout: {SOURCE_TIMEOUT}
    observation_sources: [scan]
    scan: {{type: scan, topic: scan}}
    polygons: [stop, dyn]
    stop: {{type: polygon, points: \"[[0.6, 0.3], [0.6, -0.3], [0.3, -0.3], [0.3, 0.3]]\",
            action_type: stop, min_points: 1, sources_names: [scan]}}
    dyn: {{type: polygon, polygon_sub_topic: dyn_shape, action_type: slowdown,
           slowdown_ratio: {DYN_RATIO}, min_points: 1, sources_names: [scan], visualize: true}}
"
    )
}

/// A square of side 1 centred on `(x, y)`, in `frame`.
fn square(frame: &str, x: f64, y: f64) -> ShapeInput {
    let corners = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)];
    ShapeInput::Polygon(FootprintInput {
        frame_id: frame.to_owned(),
        stamp: 0.0,
        points: corners
            .iter()
            .map(|&(dx, dy)| sat_collision::geometry::Point::new(x + dx, y + dy))
            .collect(),
        rejected: None,
    })
}

fn segment() -> ShapeInput {
    ShapeInput::Polygon(FootprintInput {
        frame_id: BASE.to_owned(),
        stamp: 0.0,
        points: vec![
            sat_collision::geometry::Point::new(1.0, 0.0),
            sat_collision::geometry::Point::new(2.0, 0.0),
        ],
        rejected: None,
    })
}

fn shape(rig: &mut Rig, shape: ShapeInput) -> Outputs {
    let mut shapes: Vec<Option<ShapeInput>> = vec![None, Some(shape)];
    let mut out = Outputs::default();
    let now = rig.now();
    rig.core.on_zone_shapes(&mut shapes, now, &mut out);
    assert!(shapes.iter().all(Option::is_none), "the shapes are taken");
    rig.log.push(format!("{out:?}"));
    out
}

fn gate_level(rig: &mut Rig) -> (Level, String) {
    let context = StatusContext {
        node_name: NODE,
        hardware_id: "",
        lifecycle_state: "active",
        reports_skipped: 0,
    };
    let t = rig.t;
    let all = rig.core.statuses(&context, t);
    (all[1].level, all[1].message.clone())
}

fn active() -> Rig {
    let mut rig = Rig::new(config_of(&dynamic_yaml()), 1);
    // A point 1.5 m ahead: beyond the stop zone.
    rig.scene[0] = vec![(1.5, 0.0)];
    rig.sense();
    rig.set_active(true);
    rig
}

#[test]
fn a_dynamic_zone_without_a_shape_stops_the_gate_and_warns() {
    let mut rig = active();
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(published(&out), Some(Command::ZERO));
    assert_eq!(
        rig.core.gate().expect("a gate").state(),
        GateState {
            action: Action::Stop,
            reason: Reason::NoZoneShape(DYN)
        }
    );
    assert_eq!(
        gate_level(&mut rig),
        (
            Level::Error,
            "stop: invalid zone (dyn: no shape yet)".to_owned()
        )
    );
    // The warning at every re-check, under one key (the node throttles it).
    let out = rig.tick();
    let warned: Vec<_> = out
        .notices
        .iter()
        .filter(|n| n.key == Some("gate_zone_shape"))
        .collect();
    assert_eq!(warned.len(), 1, "{:?}", out.notices);
    assert!(warned[0].text.contains("dyn"), "{}", warned[0].text);
    // The shape arrives, away from the point: the command passes.
    let out = shape(&mut rig, square(BASE, 3.0, 3.0));
    assert_eq!(out.zone_polygons, ZonePolygons::Changed);
    assert_eq!(out.changed_zones, [DYN]);
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert!(goes(&out), "{out:?}");
    assert_eq!(out.state, Some(GateState::CLEAR));
    assert_eq!(gate_level(&mut rig), (Level::Ok, "clear".to_owned()));
}

#[test]
fn a_dynamic_zone_acts_where_its_shape_is_and_keeps_it_when_a_bad_one_comes() {
    let mut rig = active();
    shape(&mut rig, square(BASE, 3.0, 3.0));
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)));
    // Over the point: slowed.
    shape(&mut rig, square(BASE, 1.5, 0.0));
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(
        published(&out),
        Some(Command::new(CMD.0, CMD.1, CMD.2).scaled(DYN_RATIO))
    );
    assert_eq!(
        out.state,
        Some(GateState {
            action: Action::Slowdown,
            reason: Reason::Zone(DYN)
        })
    );
    // Two points: refused with a warning, the zone keeps its shape.
    let out = shape(&mut rig, segment());
    assert_eq!(out.zone_polygons, ZonePolygons::None);
    assert!(
        out.notices.iter().any(|n| n.key == Some("gate_zone")),
        "{:?}",
        out.notices
    );
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(
        published(&out),
        Some(Command::new(CMD.0, CMD.1, CMD.2).scaled(DYN_RATIO))
    );
    // Moved away: passes.
    shape(&mut rig, square(BASE, 3.0, 3.0));
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)));
}

#[test]
fn a_shape_tf_cannot_place_yet_waits_and_is_placed_at_a_tick() {
    let mut rig = active();
    // In `odom`, unknown to TF: held, retried at publish_rate.
    let out = shape(&mut rig, square("odom", 0.5, 0.0));
    assert_eq!(out.zone_polygons, ZonePolygons::None);
    assert!(
        out.notices.iter().any(|n| n.key == Some("gate_zone_tf")),
        "{:?}",
        out.notices
    );
    assert_eq!(
        published(&rig.command(CMD.0, CMD.1, CMD.2)),
        Some(Command::ZERO)
    );
    // odom is the base moved 1 m forward: the square over (1.5, 0).
    rig.static_tf(BASE, "odom", 1.0, 0.0, 0.0);
    rig.advance(PERIOD);
    rig.sense();
    let out = rig.tick();
    assert_eq!(out.changed_zones, [DYN], "placed at the tick");
    assert_eq!(out.zone_polygons, ZonePolygons::All);
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(
        published(&out),
        Some(Command::new(CMD.0, CMD.1, CMD.2).scaled(DYN_RATIO)),
        "the zone where TF puts it"
    );
}

/// Found by this module: a shape held for TF is placed by a tick while
/// the node is inactive, and that tick's outputs then ask for the zone's
/// polygon to be published (`zone_polygons: Changed`), although nothing
/// is to be published while inactive (`Core::on_zone_shapes` clears them
/// while inactive; `GateCore::on_timer` sets them in `apply_pending`
/// before its `if !active { return }`).
#[test]
fn an_inactive_tick_placing_a_held_shape_publishes_nothing() {
    let mut rig = Rig::new(config_of(&dynamic_yaml()), 1);
    rig.sense();
    let out = shape(&mut rig, square("odom", 0.5, 0.0));
    assert!(out.is_empty(), "{out:?}");
    rig.static_tf(BASE, "odom", 1.0, 0.0, 0.0);
    rig.advance(PERIOD);
    let out = rig.tick();
    assert!(out.is_empty(), "inactive: {out:?}");
    assert!(out.changed_zones.is_empty(), "inactive: {out:?}");
}

/// Found by this module: `transform_tolerance` is a run-time parameter,
/// followed by the monitor (`Core::follow`), but the gate's dynamic zones
/// keep the value of configure (`GateCore::transform_tolerance`, set in
/// `GateCore::new`, not in `Core::follow`): a shape whose transform is
/// fresh by the new tolerance stays held as stale.
#[test]
fn a_shape_is_placed_with_the_transform_tolerance_in_force() {
    let mut rig = active();
    // The base in odom, a dynamic sample 1 s old when the shape arrives.
    let sample = TfSample {
        parent: Some(BASE),
        child: Some("odom"),
        stamp: rig.t,
        translation: [1.0, 0.0, 0.0],
        rotation: [0.0, 0.0, 0.0, 1.0],
    };
    let arrival = rig.arrival();
    rig.core
        .tf()
        .lock()
        .expect("the TF buffer")
        .take([sample], false, arrival);
    rig.advance(1.0);
    rig.sense();
    let out = shape(&mut rig, square("odom", 0.5, 0.0));
    assert!(
        out.notices.iter().any(|n| n.key == Some("gate_zone_tf")),
        "stale by the default tolerance: {:?}",
        out.notices
    );
    let mut config = rig.core.config().clone();
    config
        .set("transform_tolerance", &Value::Double(5.0))
        .expect("a run-time parameter");
    assert!(rig.core.follow(1, || config));
    {
        let tf = rig.core.tf().lock().expect("the TF buffer");
        let pose = Transforms::lookup(&tf.tree, BASE, "odom", 0.0, rig.t, 5.0);
        assert!(pose.is_ok(), "fresh by 5 s: {pose:?}");
    }
    let out = rig.tick();
    assert_eq!(
        out.changed_zones,
        [DYN],
        "placed by the tolerance in force: {out:?}"
    );
}
