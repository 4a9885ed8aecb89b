//! The sources' exclusion zones' parameters (nav2 main's
//! `exclusion_zone.cpp`): `<source>.exclusion_zones`, each zone's
//! `<zone>.<suffix>` at start-up and at run time, with the checks a
//! service's description gets too.

use super::{list, started, text};
use crate::config::*;
use crate::geometry::Point;
use crate::limits::{MAX_EXCLUSION_ZONES, MAX_EXCLUSION_ZONE_VERTICES};

/// One scan source naming `zones`, and `extra` parameters.
fn scan_with(
    zones: &[&str],
    extra: &[(&str, Value)],
) -> Result<(NodeConfig, Vec<String>), ConfigError> {
    let mut pairs = vec![
        ("base_frame_id", text("base_link")),
        ("observation_sources", list(&["scan"])),
        ("scan.type", text("scan")),
        ("scan.exclusion_zones", list(zones)),
    ];
    pairs.extend(extra.iter().cloned());
    started(&pairs)
}

const SQUARE: &str = "[[0.5, 0.5], [0.5, -0.5], [-0.5, -0.5], [-0.5, 0.5]]";

#[test]
fn nav2s_example_zones_are_read() {
    // nav2 main's collision_monitor_params.yaml, its commented example.
    let (c, notes) = scan_with(
        &["dock", "robot_body"],
        &[
            ("dock.enabled", Value::Bool(true)),
            ("dock.type", text("polygon")),
            ("dock.frame_id", text("dock_link")),
            ("dock.points", text(SQUARE)),
            ("dock.min_height", Value::Double(-1.0)),
            ("dock.max_height", Value::Double(1.0)),
            ("dock.visualize", Value::Bool(true)),
            ("robot_body.enabled", Value::Bool(true)),
            ("robot_body.type", text("polygon")),
            ("robot_body.frame_id", text("base_link")),
            (
                "robot_body.points",
                text("[[0.12, 0.15], [0.12, -0.15], [-0.12, -0.15], [-0.12, 0.15]]"),
            ),
            ("robot_body.min_height", Value::Double(0.0)),
            ("robot_body.max_height", Value::Double(1.5)),
            ("robot_body.visualize", Value::Bool(true)),
        ],
    )
    .unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(c.sources[0].exclusion_zones, ["dock", "robot_body"]);
    let dock = c.exclusion_zone("dock").unwrap();
    assert_eq!(
        dock,
        &ExclusionZoneConfig {
            name: "dock".into(),
            circle: false,
            points: [(0.5, 0.5), (0.5, -0.5), (-0.5, -0.5), (-0.5, 0.5)]
                .iter()
                .map(|&(x, y)| Point::new(x, y))
                .collect(),
            radius: 0.0,
            frame_id: "dock_link".into(),
            frame_hold_timeout: 0.0,
            min_height: -1.0,
            max_height: 1.0,
            enabled: true,
            visualize: true,
        }
    );
    assert_eq!(c.exclusion_zones.len(), 2);
    // Read back as given.
    assert_eq!(c.get("dock.points"), Some(text(SQUARE)));
    assert_eq!(c.get("dock.type"), Some(text("polygon")));
}

#[test]
fn a_zones_defaults_are_nav2s() {
    let (c, _) = scan_with(&["z"], &[("z.points", text(SQUARE))]).unwrap();
    let z = c.exclusion_zone("z").unwrap();
    assert!(!z.circle && !z.enabled && !z.visualize);
    assert_eq!(z.frame_id, "");
    assert_eq!(z.frame_hold_timeout, 0.0);
    assert_eq!((z.min_height, z.max_height), (-f64::MAX, f64::MAX));
    // nav2's message's spelling of DBL_MAX reads as the same double.
    assert_eq!("1.7976931348623158e+308".parse::<f64>(), Ok(f64::MAX));
}

#[test]
fn a_circle_needs_a_radius_above_0_and_a_polygon_its_points() {
    let circle = |radius: Option<f64>| {
        let mut extra = vec![("z.type", text("circle"))];
        if let Some(r) = radius {
            extra.push(("z.radius", Value::Double(r)));
        }
        scan_with(&["z"], &extra)
    };
    assert_eq!(circle(Some(0.5)).unwrap().0.exclusion_zones[0].radius, 0.5);
    for refused in [None, Some(0.0), Some(-1.0)] {
        let e = circle(refused).unwrap_err();
        assert!(e.parameter == "z.radius", "{e}");
    }
    let e = scan_with(&["z"], &[]).unwrap_err();
    assert_eq!(e.parameter, "z.points");
    assert!(e.message.contains("needs points"), "{e}");
    let e = scan_with(&["z"], &[("z.type", text("triangle"))]).unwrap_err();
    assert!(e.message.contains("polygon or circle"), "{e}");
}

#[test]
fn unusable_polygons_are_refused() {
    let bad = [
        "[[0.0, 0.0], [1.0, 1.0]]",
        "[[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]]",
        "[[0.0, 0.0], [1.0, .nan], [1.0, 0.0]]",
        "[[0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 0.0]]",
        "[[1.0, 2.0], ",
    ];
    for points in bad {
        let e = scan_with(&["z"], &[("z.points", text(points))]).unwrap_err();
        assert_eq!(e.parameter, "z.points", "{points}: {e}");
    }
    // The vertex limit, refused before the text is parsed.
    let ring = |n: usize| {
        let pairs: Vec<String> = (0..n)
            .map(|k| {
                let a = k as f64 * std::f64::consts::TAU / n as f64;
                format!("[{}, {}]", a.cos(), a.sin())
            })
            .collect();
        format!("[{}]", pairs.join(", "))
    };
    let at_limit = ring(MAX_EXCLUSION_ZONE_VERTICES);
    assert!(scan_with(&["z"], &[("z.points", text(&at_limit))]).is_ok());
    let over = ring(MAX_EXCLUSION_ZONE_VERTICES + 1);
    let e = scan_with(&["z"], &[("z.points", text(&over))]).unwrap_err();
    assert!(e.message.contains("at most 256"), "{e}");
}

#[test]
fn zone_names_are_checked_and_limited() {
    let long = "z".repeat(10_000);
    assert!(scan_with(&[&long], &[])
        .unwrap_err()
        .message
        .contains("longer than 64"));
    assert!(scan_with(&["a", "a"], &[])
        .unwrap_err()
        .message
        .contains("twice"));
    assert!(scan_with(&["a.b"], &[]).is_err());
    let many: Vec<String> = (0..=MAX_EXCLUSION_ZONES).map(|k| format!("z{k}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let e = scan_with(&many, &[]).unwrap_err();
    assert!(e.message.contains("at most 16"), "{e}");
    // A zone with a source's name, or a gate zone's: refused.
    let e = scan_with(&["scan"], &[]).unwrap_err();
    assert_eq!(e.parameter, "scan.exclusion_zones");
    assert!(e.message.contains("name of a source"), "{e}");
}

#[test]
fn zone_parameter_names_are_checked() {
    let e = scan_with(
        &["z"],
        &[("z.points", text(SQUARE)), ("z.frame_idd", text("x"))],
    )
    .unwrap_err();
    assert!(e.message.contains("did you mean `z.frame_id`"), "{e}");
    let (_, notes) = scan_with(
        &["z"],
        &[("z.points", text(SQUARE)), ("z.radius", Value::Double(1.0))],
    )
    .unwrap();
    assert_eq!(
        notes,
        ["z.radius ignored: radius applies to circle exclusion zones; z is a polygon exclusion zone"]
    );
    // A zone no source names: its parameters ignored with one note.
    let (_, notes) = scan_with(
        &[],
        &[
            ("dock.frame_id", text("dock")),
            ("dock.frame_hold_timeout", Value::Double(1.0)),
        ],
    )
    .unwrap();
    assert_eq!(
        notes,
        ["dock.* ignored: dock is in no source's exclusion_zones"]
    );
    // One that looks like a gate zone (points), with a height band: ignored
    // too, not refused.
    let (_, notes) = scan_with(
        &[],
        &[
            ("dock.type", text("polygon")),
            ("dock.points", text(SQUARE)),
            ("dock.min_height", Value::Double(0.0)),
            ("dock.enabled", Value::Bool(true)),
        ],
    )
    .unwrap();
    assert_eq!(notes, ["dock.* ignored: dock is not in polygons"]);
    // A polygon source has no exclusion zones (its polygons are no points).
    let (c, notes) = started(&[
        ("observation_sources", list(&["p"])),
        ("p.type", text("polygon")),
        ("p.exclusion_zones", list(&["z"])),
    ])
    .unwrap();
    assert!(c.exclusion_zones.is_empty());
    assert_eq!(notes.len(), 1, "{notes:?}");
}

#[test]
fn run_time_changes_are_nav2s_and_checked_as_at_start_up() {
    let (mut c, _) = scan_with(&["z"], &[("z.points", text(SQUARE))]).unwrap();
    let runtime: Vec<&str> = EXCLUSION_ZONE_PARAMS
        .iter()
        .filter(|p| c.runtime(&format!("z.{}", p.spec.name)) == Some(true))
        .map(|p| p.spec.name)
        .collect();
    assert_eq!(
        runtime,
        [
            "points",
            "frame_hold_timeout",
            "min_height",
            "max_height",
            "enabled"
        ]
    );
    // `radius` applies to circle zones only.
    assert_eq!(c.runtime("z.radius"), None);
    let before = c.clone();
    for (name, value) in [
        ("z.points", text("[[0.0, 0.0], [1.0, 1.0]]")),
        ("z.frame_hold_timeout", Value::Double(-1.0)),
        ("z.min_height", Value::Double(f64::NAN)),
        ("z.enabled", text("yes")),
    ] {
        assert!(c.set(name, &value).is_err(), "{name}");
    }
    assert_eq!(c, before, "a refused value changes nothing");
    c.set("z.enabled", &Value::Bool(true)).unwrap();
    assert!(c.exclusion_zone("z").unwrap().enabled);
    // A circle's radius: more than 0 at run time too.
    let (mut c, _) = scan_with(
        &["z"],
        &[("z.type", text("circle")), ("z.radius", Value::Double(1.0))],
    )
    .unwrap();
    assert!(c.set("z.radius", &Value::Double(0.0)).is_err());
    c.set("z.radius", &Value::Double(2.0)).unwrap();
    assert_eq!(c.exclusion_zone("z").unwrap().radius, 2.0);
}

#[test]
fn exclusion_table_is_consistent() {
    for (i, param) in EXCLUSION_ZONE_PARAMS.iter().enumerate() {
        let spec = &param.spec;
        assert!(EXCLUSION_ZONE_PARAMS[..i]
            .iter()
            .all(|p| p.spec.name != spec.name));
        assert!(
            spec.description.contains("start-up only") != spec.runtime,
            "{}",
            spec.name
        );
        if let Some((lo, hi)) = spec.range() {
            let shown = spec
                .description
                .rsplit_once('[')
                .and_then(|(_, r)| r.strip_suffix(']'))
                .and_then(|r| r.split_once(", "))
                .map(|(a, b)| (a.parse::<f64>(), b.parse::<f64>()));
            assert_eq!(shown, Some((Ok(lo), Ok(hi))), "{}", spec.description);
        }
        let zone = ExclusionZoneConfig::new("z");
        assert_eq!(spec.get(&zone), spec.default_value(), "{}", spec.name);
    }
}

#[test]
fn zones_need_the_robots_frame() {
    let zones = [
        ("observation_sources", list(&["scan"])),
        ("scan.type", text("scan")),
        ("scan.exclusion_zones", list(&["z"])),
        ("z.points", text(SQUARE)),
    ];
    let e = started(&zones).unwrap_err();
    assert_eq!(e.parameter, "base_frame");
    // nav2's base_frame_id is the robot's frame where zones are used.
    let mut with_base = zones.to_vec();
    with_base.push(("base_frame_id", text("base_link")));
    let (c, _) = started(&with_base).unwrap();
    assert_eq!(c.monitor.base_frame, "base_link");
}
