//! The offline checker as a user runs it: exit codes, JSON schema, table,
//! error messages with locations, and the SVG picture.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo_file(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sat_collision"))
        .args(args)
        .output()
        .expect("the sat_collision binary runs")
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sat_collision_cli_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).expect("stdout is JSON")
}

#[test]
fn example_scene_reports_each_obstacle() {
    let scene = repo_file("config/example_scene.yaml");
    let out = run(&["check", scene.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1), "collision exit code");
    let report = json(&out);
    assert_eq!(report["colliding"], true);
    let obstacles = report["obstacles"].as_array().unwrap();
    let by_id = |id: &str| {
        obstacles
            .iter()
            .find(|o| o["id"] == id)
            .unwrap_or_else(|| panic!("{id} in report"))
    };
    for o in obstacles {
        for key in [
            "id",
            "status",
            "colliding",
            "penetration_depth",
            "mtv",
            "distance",
        ] {
            assert!(o.get(key).is_some(), "key {key} in {o}");
        }
        assert_eq!(o["status"], "ok");
    }
    let shelf = by_id("shelf_3");
    assert_eq!(shelf["colliding"], true);
    let depth = shelf["penetration_depth"].as_f64().unwrap();
    assert!(depth > 0.05, "padding included in depth: {depth}");
    let mtv = shelf["mtv"].as_array().unwrap();
    let (mx, my) = (mtv[0].as_f64().unwrap(), mtv[1].as_f64().unwrap());
    assert!((mx.hypot(my) - depth).abs() < 1e-9);
    assert_eq!(shelf["distance"], 0.0);
    for clear in ["post_1", "loading_bay", "pallet_7"] {
        let o = by_id(clear);
        assert_eq!(o["colliding"], false, "{clear}");
        assert!(o["distance"].as_f64().unwrap() > 0.0, "{clear}");
        assert_eq!(o["mtv"], serde_json::json!([0.0, 0.0]));
    }
}

#[test]
fn clear_scene_exits_zero_with_exact_clearance() {
    let scene = temp_file(
        "clear.yaml",
        "footprint: {circle: {center: [0, 0], radius: 0.5}}\n\
         obstacles:\n  - id: box\n    polygon: [[1, 1], [2, 1], [2, 2], [1, 2]]\n",
    );
    let out = run(&["check", scene.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let report = json(&out);
    assert_eq!(report["colliding"], false);
    let d = report["obstacles"][0]["distance"].as_f64().unwrap();
    assert!(
        (d - (2f64.sqrt() - 0.5)).abs() < 1e-9,
        "vertex clearance {d}"
    );
}

#[test]
fn invalid_obstacles_are_named_and_fail_safe() {
    let scene = repo_file("config/invalid_scene.yaml");
    let out = run(&["check", scene.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let report = json(&out);
    assert_eq!(report["colliding"], true, "invalid input is never clear");
    assert_eq!(report["valid"], false);
    let status: Vec<(&str, &str)> = report["obstacles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["id"].as_str().unwrap(), o["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        status,
        [
            ("fine", "ok"),
            ("bow_tie", "self_intersecting"),
            ("not_a_number", "non_finite"),
            ("two_points", "too_few_points"),
            ("flat", "zero_area"),
            ("negative_circle", "invalid_radius"),
        ]
    );
}

#[test]
fn malformed_file_names_its_location() {
    let scene = temp_file(
        "broken.yaml",
        "footprint: [[0, 0], [1, 0], [1, 1]]\nobstacles:\n  - id: a\n    polygon: [[0, 0], [1, oops]]\n",
    );
    let out = run(&["check", scene.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("broken.yaml:4:"), "location in: {err}");
}

#[test]
fn unknown_keys_and_missing_file_are_errors() {
    let scene = temp_file(
        "typo.yaml",
        "footprint: [[0, 0], [1, 0], [1, 1]]\nobstacle: []\n",
    );
    let out = run(&["check", scene.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("obstacle"));
    let out = run(&["check", "/nonexistent/scene.yaml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/scene.yaml"));
}

#[test]
fn usage_errors_exit_64() {
    assert_eq!(run(&[]).status.code(), Some(64));
    assert_eq!(run(&["check"]).status.code(), Some(64));
    assert_eq!(run(&["check", "a.yaml", "--bogus"]).status.code(), Some(64));
    assert_eq!(run(&["--help"]).status.code(), Some(0));
}

#[test]
fn table_output_lists_obstacles_and_verdict() {
    let scene = repo_file("config/example_scene.yaml");
    let out = run(&["check", scene.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    for id in ["shelf_3", "post_1", "loading_bay", "pallet_7"] {
        assert!(text.contains(id), "{id} in table:\n{text}");
    }
    assert!(text.contains("result: COLLISION"), "{text}");
}

#[test]
fn svg_has_one_shape_per_obstacle_plus_axes_and_arrows() {
    let scene = repo_file("config/example_scene.yaml");
    let svg_path = temp_file("scene.svg", "");
    let out = run(&[
        "check",
        scene.to_str().unwrap(),
        "--svg",
        svg_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(&svg_path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("SVG is well-formed XML");
    let class_count = |class: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .count()
    };
    assert_eq!(class_count("obstacle"), 4);
    assert_eq!(class_count("footprint"), 1);
    assert_eq!(class_count("axis"), 4);
    assert_eq!(class_count("projection"), 8);
    assert_eq!(class_count("mtv"), 1, "one colliding obstacle, one arrow");
    assert_eq!(class_count("clearance"), 3);
    let ids: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("obstacle"))
        .filter_map(|n| n.attribute("data-id"))
        .collect();
    assert_eq!(ids, ["shelf_3", "post_1", "loading_bay", "pallet_7"]);
}
