//! nav2 main's example file with its commented blocks uncommented
//! (`collision_monitor_params_uncommented.yaml`, from navigation2 main,
//! commit `a3a97043ee93d92fe8d70ec56d183933169beb1c`): a point cloud's
//! exclusion zones and a `costmap` source start the node's configuration
//! unchanged.

use super::{list, start, values_of, with};
use sat_collision::config::Value;

/// The uncommented copy as it is: the costmap source and the exclusion
/// zones are defined but not used (the costmap is not in
/// `observation_sources`, the point cloud that names the zones is not
/// either): a note for each, as for the zones nav2's file does not list.
#[test]
fn nav2_main_uncommented_params_start_up_unchanged() {
    let values = values_of(
        "collision_monitor_params_uncommented.yaml",
        "collision_monitor",
    );
    let (c, notes) = start(&values).unwrap();
    let mut expected: Vec<String> = [
        "PolygonSlow",
        "PolygonLimit",
        "FootprintApproach",
        "VelocityPolygonStop",
    ]
    .iter()
    .map(|zone| format!("{zone}.* ignored: {zone} is not in polygons"))
    .collect();
    for key in [
        "type",
        "topic",
        "transport_type",
        "min_height",
        "max_height",
        "use_global_height",
        "enabled",
        "exclusion_zones",
    ] {
        expected.push(format!(
            "pointcloud.{key} ignored: pointcloud is not in observation_sources"
        ));
    }
    for zone in ["dock", "robot_body"] {
        expected.push(format!(
            "{zone}.* ignored: {zone} is in no source's exclusion_zones"
        ));
    }
    for key in [
        "type",
        "topic",
        "cost_threshold",
        "enabled",
        "treat_unknown_as_obstacle",
    ] {
        expected.push(format!(
            "costmap.{key} ignored: costmap is not in observation_sources"
        ));
    }
    assert_eq!(notes, expected);
    assert_eq!(c.observation_sources, ["scan"]);
    assert!(c.exclusion_zones.is_empty());
}

/// The uncommented copy with every zone and all three sources listed:
/// the point cloud masked by `dock` (a polygon in `dock_link`, its height
/// band -1–1 m) and `robot_body` (in `base_link`, 0–1.5 m), the costmap
/// source at `cost_threshold` 254; only `simulation_time_step` is ignored.
#[test]
fn nav2_main_uncommented_params_with_everything_listed() {
    let values = values_of(
        "collision_monitor_params_uncommented.yaml",
        "collision_monitor",
    );
    let values = with(
        values,
        "polygons",
        list(&[
            "PolygonStop",
            "PolygonSlow",
            "PolygonLimit",
            "FootprintApproach",
            "VelocityPolygonStop",
        ]),
    );
    let values = with(
        values,
        "observation_sources",
        list(&["scan", "pointcloud", "costmap"]),
    );
    let (c, notes) = start(&values).unwrap();
    assert_eq!(
        notes,
        [
            "FootprintApproach.simulation_time_step ignored: nav2 steps its approach simulation \
          by it; the approach here is exact"
        ]
    );
    assert_eq!(c.gate.zones.len(), 5);
    assert_eq!(c.sources.len(), 3);
    assert_eq!(c.sources[1].exclusion_zones, ["dock", "robot_body"]);
    let zones: Vec<(&str, &str, f64, f64, bool, bool)> = c
        .exclusion_zones
        .iter()
        .map(|z| {
            (
                z.name.as_str(),
                z.frame_id.as_str(),
                z.min_height,
                z.max_height,
                z.enabled,
                z.visualize,
            )
        })
        .collect();
    assert_eq!(
        zones,
        [
            ("dock", "dock_link", -1.0, 1.0, true, true),
            ("robot_body", "base_link", 0.0, 1.5, true, true),
        ]
    );
    assert!(c.exclusion_zones.iter().all(|z| !z.circle));
    assert_eq!(c.exclusion_zones[0].points.len(), 4);
    assert_eq!(
        c.get("costmap.topic"),
        Some(Value::String("local_costmap/costmap".into()))
    );
    assert_eq!(c.get("costmap.cost_threshold"), Some(Value::Integer(254)));
}
