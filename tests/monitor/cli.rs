//! The offline checker as a user runs it: exit codes, JSON schema, table,
//! error messages with locations, and the SVG picture; its `--help` and
//! `--version`, and (with the `ros` feature) the demo's command line.

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
fn help_names_the_program_its_command_and_options() {
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
    let text = String::from_utf8_lossy(&out.stdout);
    for word in [
        "sat_collision check SCENE.yaml [--json] [--svg OUT.svg]",
        "--help",
        "--version",
        "exit codes: 0 clear, 1 collision, 2 invalid input, 64 usage error",
    ] {
        assert!(text.contains(word), "{word} in:\n{text}");
    }
    for args in [
        &["-h"][..],
        &["check", "--help"],
        &["check", "-h"],
        &["check", "a.yaml", "--help"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("sat_collision check"), "{args:?}:\n{text}");
        if args.len() > 1 {
            for word in ["SCENE.yaml", "--json", "--svg <OUT.svg>", "64 usage error"] {
                assert!(text.contains(word), "{word} in {args:?}:\n{text}");
            }
        }
    }
}

#[test]
fn version_is_the_package_version() {
    for flag in ["--version", "-V"] {
        let out = run(&[flag]);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("sat_collision {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

#[test]
fn a_bad_argument_exits_64_naming_it_on_stderr() {
    for (args, named) in [
        (&["bogus"][..], "bogus"),
        (&["help"], "help"),
        (&["check", "a.yaml", "--svg"], "--svg"),
        (&["check", "a.yaml", "b.yaml"], "b.yaml"),
        (&["check", "a.yaml", "--json=yes"], "--json"),
        (&["check", "a.yaml", "--jsn"], "--jsn"),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(64), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(named), "{named} in {args:?}: {err}");
    }
}

#[test]
fn svg_takes_the_next_argument_and_options_may_repeat() {
    let scene = repo_file("config/example_scene.yaml");
    let dir = std::env::temp_dir().join(format!("sat_collision_cli_{}_svg", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sat_collision"))
        .current_dir(&dir)
        .args(["check", scene.to_str().unwrap(), "--json", "--json"])
        .args(["--svg", "unused.svg", "--svg", "-dashed.svg"])
        .output()
        .expect("the sat_collision binary runs");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["colliding"], true);
    let text = std::fs::read_to_string(dir.join("-dashed.svg")).expect("-dashed.svg written");
    roxmltree::Document::parse(&text).expect("SVG is well-formed XML");
    assert!(!dir.join("unused.svg").exists(), "the last --svg wins");
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

/// A 1 x 1 m robot at the origin, heading +x.
const UNIT_SQUARE: &str = "footprint: [[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]]\n";

/// A wall across x = 2.5 (its face), a post beside the path.
const WALL_AHEAD: &str = "obstacles:\n\
    \x20 - id: wall\n    polygon: [[2.5, -2], [2.6, -2], [2.6, 2], [2.5, 2]]\n\
    \x20 - id: post\n    circle: {center: [0, 3], radius: 0.2}\n";

fn ttc(value: &serde_json::Value) -> Option<f64> {
    assert!(
        value.is_null() || value.is_f64(),
        "a number or null: {value}"
    );
    value.as_f64()
}

#[test]
fn driving_at_a_wall_predicts_the_time_to_collision() {
    let scene = temp_file(
        "wall_ahead.yaml",
        &format!("{UNIT_SQUARE}velocity: [1, 0, 0]\nhorizon: 3\n{WALL_AHEAD}"),
    );
    // The front (x = 0.5) meets the wall (x = 2.5) after 2 m at 1 m/s.
    let out = run(&["check", scene.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "clear now: exit code unchanged");
    let report = json(&out);
    assert_eq!(report["colliding"], false);
    let t = ttc(&report["time_to_collision"]).unwrap_or(f64::NAN);
    assert!((t - 2.0).abs() < 1e-6 && t <= 2.0, "never late: {t}");
    assert_eq!(report["predicted_obstacle_id"], "wall");
    let pose: Vec<f64> = report["predicted_pose"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(pose.len(), 3);
    assert!((pose[0] - 2.0).abs() < 1e-6 && pose[1] == 0.0 && pose[2] == 0.0);
    let obstacles = report["obstacles"].as_array().unwrap();
    assert_eq!(ttc(&obstacles[0]["time_to_collision"]), Some(t));
    assert_eq!(ttc(&obstacles[1]["time_to_collision"]), None);

    let out = run(&["check", scene.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().next().unwrap().ends_with("ttc(s)"), "{text}");
    assert!(
        text.contains(
            "time to collision: 2.000 s (obstacle \"wall\", pose x 2.000 m, y 0.000 m, yaw 0.000 rad)"
        ),
        "{text}"
    );
    let row = |id: &str| {
        text.lines()
            .find(|l| l.starts_with(id))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(row("wall").ends_with("2.000"), "{text}");
    assert!(row("post").ends_with(" -"), "{text}");
    assert!(text.contains("result: clear"), "{text}");
}

#[test]
fn no_contact_within_the_horizon_is_null() {
    // Too short a horizon, driving away, driving past: no contact.
    for (velocity, horizon) in [
        ("[1, 0, 0]", "1.5"),
        ("[-1, 0, 0]", "3"),
        ("[0, -1, 0]", "3"),
    ] {
        let scene = temp_file(
            "no_contact.yaml",
            &format!("{UNIT_SQUARE}velocity: {velocity}\nhorizon: {horizon}\n{WALL_AHEAD}"),
        );
        let out = run(&["check", scene.to_str().unwrap(), "--json"]);
        assert_eq!(out.status.code(), Some(0), "{velocity}");
        let report = json(&out);
        for key in [
            "time_to_collision",
            "predicted_obstacle_id",
            "predicted_pose",
        ] {
            assert!(report[key].is_null(), "{key} in {report}");
        }
        for o in report["obstacles"].as_array().unwrap() {
            assert!(o["time_to_collision"].is_null(), "{o}");
        }
        let out = run(&["check", scene.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(&format!("time to collision: none within {horizon} s")),
            "{text}"
        );
    }
    // The default horizon is 2 s: the wall (2 s away) is just reached.
    let scene = temp_file(
        "default_horizon.yaml",
        &format!("{UNIT_SQUARE}velocity: [1, 0, 0]\n{WALL_AHEAD}"),
    );
    let out = run(&["check", scene.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("time to collision: 2.000 s"), "{text}");
    let scene = temp_file(
        "default_horizon_slow.yaml",
        &format!("{UNIT_SQUARE}velocity: [0.9, 0, 0]\n{WALL_AHEAD}"),
    );
    let out = run(&["check", scene.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("time to collision: none within 2 s"),
        "{text}"
    );
}

#[test]
fn turning_in_place_into_a_post_predicts_the_time() {
    // A 2 m long footprint turning left at 1 rad/s about its origin; the
    // post (1.5 m up y, radius 0.1) meets its left edge (y = 0.1) when
    // 1.5 cos(yaw) - 0.1 = 0.1.
    let scene = temp_file(
        "turning.yaml",
        "footprint: [[-0.2, -0.1], [1.8, -0.1], [1.8, 0.1], [-0.2, 0.1]]\n\
         velocity: [0, 0, 1]\nhorizon: 3\n\
         obstacles:\n  - id: post\n    circle: {center: [0, 1.5], radius: 0.1}\n",
    );
    let out = run(&["check", scene.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let report = json(&out);
    let expected = (0.2f64 / 1.5).acos();
    let t = ttc(&report["time_to_collision"]).unwrap_or(f64::NAN);
    assert!(
        (t - expected).abs() < 1e-6 && t <= expected,
        "{t} vs {expected}"
    );
    assert_eq!(report["predicted_obstacle_id"], "post");
    let pose = &report["predicted_pose"];
    assert_eq!((pose[0].as_f64(), pose[1].as_f64()), (Some(0.0), Some(0.0)));
    assert!((pose[2].as_f64().unwrap_or(f64::NAN) - t).abs() < 1e-12);
    // Turning the other way, the post is out of reach within 3 s (the
    // stick needs 2 pi - 1.437 s).
    let scene = temp_file(
        "turning_right.yaml",
        "footprint: [[-0.2, -0.1], [1.8, -0.1], [1.8, 0.1], [-0.2, 0.1]]\n\
         velocity: [0, 0, -1]\nhorizon: 3\n\
         obstacles:\n  - id: post\n    circle: {center: [0, 1.5], radius: 0.1}\n",
    );
    let report = json(&run(&["check", scene.to_str().unwrap(), "--json"]));
    assert!(report["time_to_collision"].is_null(), "{report}");
}

#[test]
fn already_colliding_is_time_zero() {
    for velocity in ["[1, 0, 0]", "[0, 0, 0]", "[-1, 0, 2]"] {
        let scene = temp_file(
            "colliding_now.yaml",
            &format!(
                "{UNIT_SQUARE}velocity: {velocity}\nobstacles:\n\
                 \x20 - id: box\n    polygon: [[0.4, -0.2], [1, -0.2], [1, 0.2], [0.4, 0.2]]\n"
            ),
        );
        let out = run(&["check", scene.to_str().unwrap(), "--json"]);
        assert_eq!(out.status.code(), Some(1), "{velocity}");
        let report = json(&out);
        assert_eq!(report["time_to_collision"], 0.0, "{velocity}");
        assert_eq!(report["predicted_obstacle_id"], "box");
        assert_eq!(report["predicted_pose"], serde_json::json!([0.0, 0.0, 0.0]));
        assert_eq!(report["obstacles"][0]["time_to_collision"], 0.0);
    }
    // Standing still and clear: no contact.
    let scene = temp_file(
        "still.yaml",
        &format!("{UNIT_SQUARE}velocity: [0, 0, 0]\n{WALL_AHEAD}"),
    );
    let report = json(&run(&["check", scene.to_str().unwrap(), "--json"]));
    assert!(report["time_to_collision"].is_null(), "{report}");
}

#[test]
fn without_velocity_the_prediction_keys_are_null() {
    let scene = temp_file("static.yaml", &format!("{UNIT_SQUARE}{WALL_AHEAD}"));
    let out = run(&["check", scene.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let report = json(&out);
    for key in [
        "time_to_collision",
        "predicted_obstacle_id",
        "predicted_pose",
    ] {
        assert!(
            report.get(key).is_some_and(|v| v.is_null()),
            "{key}: {report}"
        );
    }
    for o in report["obstacles"].as_array().unwrap() {
        assert!(o.get("time_to_collision").is_some_and(|v| v.is_null()));
    }
    let out = run(&["check", scene.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("ttc") && !text.contains("time to collision"),
        "{text}"
    );
}

#[test]
fn invalid_velocity_or_horizon_is_a_clear_error() {
    for (rest, message) in [
        (
            "velocity: [1, .nan, 0]\n",
            "bad_motion.yaml: velocity must be [vx, vy, wz] (m/s, m/s, rad/s), finite numbers within ±1000, got [1, NaN, 0]",
        ),
        (
            "velocity: [1, 0, 2000]\n",
            "bad_motion.yaml: velocity must be [vx, vy, wz]",
        ),
        (
            "velocity: [1, 0, 0]\nhorizon: 0\n",
            "bad_motion.yaml: horizon must be a number of seconds > 0 and <= 3600, got 0",
        ),
        (
            "velocity: [1, 0, 0]\nhorizon: -2\n",
            "bad_motion.yaml: horizon must be a number of seconds > 0 and <= 3600, got -2",
        ),
        (
            "velocity: [1, 0, 0]\nhorizon: 86400\n",
            "bad_motion.yaml: horizon must be a number of seconds > 0 and <= 3600, got 86400",
        ),
        (
            "velocity: [1, 0, 0]\nhorizon: .inf\n",
            "bad_motion.yaml: horizon must be a number of seconds > 0 and <= 3600, got inf",
        ),
        (
            "horizon: 2\n",
            "bad_motion.yaml: horizon needs a velocity (`velocity: [vx, vy, wz]`)",
        ),
        ("velocity: [1, 0]\n", "bad_motion.yaml:2:"),
        ("velocity: fast\n", "bad_motion.yaml:2:"),
    ] {
        let scene = temp_file("bad_motion.yaml", &format!("{UNIT_SQUARE}{rest}{WALL_AHEAD}"));
        let out = run(&["check", scene.to_str().unwrap(), "--json"]);
        assert_eq!(out.status.code(), Some(2), "{rest}");
        assert!(out.stdout.is_empty(), "{rest}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{message} in {rest}: {err}");
    }
}

#[test]
fn svg_draws_the_swept_footprint_and_the_first_contact() {
    let scene = temp_file(
        "wall_svg.yaml",
        &format!("{UNIT_SQUARE}velocity: [1, 0, 0]\nhorizon: 3\n{WALL_AHEAD}"),
    );
    let svg_path = temp_file("wall.svg", "");
    let out = run(&[
        "check",
        scene.to_str().unwrap(),
        "--svg",
        svg_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&svg_path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("SVG is well-formed XML");
    let with_class = |class: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .collect::<Vec<_>>()
    };
    // Every 3 / 20 s before the contact at 2 s: 13 poses.
    assert_eq!(with_class("swept").len(), 13);
    assert_eq!(with_class("path").len(), 1);
    let contact = with_class("prediction");
    assert_eq!(contact.len(), 1);
    assert_eq!(contact[0].attribute("data-id"), Some("wall"));
    assert!(text.contains("first contact: wall in 2.000 s"));
    assert!(text.contains("prediction: swept footprint"), "legend");
    // The picture holds all of it: every point within the canvas.
    let root = doc.root_element();
    let size = |name: &str| root.attribute(name).and_then(|v| v.parse::<f64>().ok());
    let (width, height) = (size("width").unwrap(), size("height").unwrap());
    for node in doc.descendants().filter(|n| n.has_attribute("points")) {
        for pair in node.attribute("points").unwrap().split_whitespace() {
            let (x, y) = pair.split_once(',').unwrap();
            let (x, y) = (x.parse::<f64>().unwrap(), y.parse::<f64>().unwrap());
            assert!(
                (0.0..=width).contains(&x) && (0.0..=height).contains(&y),
                "{pair} outside {width} x {height}"
            );
        }
    }
    // Drawn to the horizon when nothing is met; nothing without velocity.
    let scene = temp_file(
        "away_svg.yaml",
        &format!("{UNIT_SQUARE}velocity: [-1, 0, 0.5]\nhorizon: 3\n{WALL_AHEAD}"),
    );
    run(&[
        "check",
        scene.to_str().unwrap(),
        "--svg",
        svg_path.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg_path).unwrap();
    assert_eq!(text.matches(r#"class="swept""#).count(), 20);
    assert_eq!(text.matches(r#"class="prediction""#).count(), 0);
    let example = repo_file("config/example_scene.yaml");
    run(&[
        "check",
        example.to_str().unwrap(),
        "--svg",
        svg_path.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg_path).unwrap();
    for class in ["swept", "path", "prediction"] {
        assert!(!text.contains(&format!(r#"class="{class}""#)), "{class}");
    }
    assert!(!text.contains("prediction: swept footprint"), "legend");
}

#[test]
fn moving_example_scene_meets_the_shelf() {
    let scene = repo_file("config/moving_scene.yaml");
    let out = run(&["check", scene.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "clear at the start");
    let report = json(&out);
    assert_eq!(report["predicted_obstacle_id"], "shelf_3");
    let t = ttc(&report["time_to_collision"]).unwrap_or(f64::NAN);
    assert!(t > 4.0 && t < 4.5, "{t}");
    for id in ["post_1", "pallet_7"] {
        let o = report["obstacles"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["id"] == id)
            .unwrap();
        assert!(o["time_to_collision"].is_null(), "{id} passed");
    }
}

/// Runs the checker as a child process with a time limit, so that a
/// regression that blocks (on a FIFO) or spins (on a YAML bomb) fails the
/// test instead of hanging it. Returns the exit code and standard error.
fn run_with_timeout(args: &[&str]) -> (Option<i32>, String) {
    use std::io::Read;
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sat_collision"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the sat_collision binary runs");
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the checker") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("sat_collision {args:?} still running after 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = pipe.read_to_string(&mut stderr);
    }
    (status.code(), stderr)
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let fifo = temp_file("fifo_dir_probe.yaml", "").with_file_name("scene.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // Nobody ever writes to it: opening it for reading would block.
    let (code, err) = run_with_timeout(&["check", fifo.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("scene.fifo: not a regular file (a FIFO)"),
        "{err}"
    );
    let _ = std::fs::remove_file(&fifo);
}

#[test]
fn devices_and_directories_are_refused() {
    let (code, err) = run_with_timeout(&["check", "/dev/zero"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("/dev/zero: not a regular file (a character device)"),
        "{err}"
    );
    let dir = std::env::temp_dir();
    let (code, err) = run_with_timeout(&["check", dir.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a regular file (a directory)"), "{err}");
}

#[test]
fn a_file_over_the_size_cap_is_refused() {
    let big = temp_file("big.yaml", "");
    let file = std::fs::OpenOptions::new().write(true).open(&big).unwrap();
    file.set_len(sat_collision::scene::MAX_SCENE_BYTES + 1)
        .unwrap();
    drop(file);
    let (code, err) = run_with_timeout(&["check", big.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("big.yaml: larger than the limit of 16777216 bytes (16 MiB)"),
        "{err}"
    );
    let _ = std::fs::remove_file(&big);
}

#[test]
fn a_billion_laughs_scene_is_refused() {
    // Each level repeats the previous one 9 times: 9^20 ids once expanded.
    let mut text = String::from("footprint: [[0, 0], [1, 0], [1, 1]]\nlaughs:\n  - &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..=20 {
        let previous = format!("*l{}", level - 1);
        let items = [previous.as_str(); 9].join(", ");
        text.push_str(&format!("  - &l{level} [{items}]\n"));
    }
    text.push_str("obstacles: *l20\n");
    let bomb = temp_file("laughs.yaml", &text);
    let (code, err) = run_with_timeout(&["check", bomb.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("laughs.yaml:3:5: YAML anchors (`&name`) are not accepted"),
        "{err}"
    );
}

#[test]
fn nesting_beyond_the_limit_is_refused() {
    let depth = 100_000;
    let text = format!(
        "footprint: [[0, 0], [1, 0], [1, 1]]\nobstacles: {}{}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let deep = temp_file("deep.yaml", &text);
    let (code, err) = run_with_timeout(&["check", deep.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("deep.yaml:2:"), "{err}");
    assert!(
        err.contains("YAML nested deeper than the limit of 32 levels"),
        "{err}"
    );
}

/// The demo's command line (the demo itself runs in tests/python/test_demo.py):
/// help, version and usage errors, all before it starts ROS.
#[cfg(feature = "ros")]
mod demo {
    use std::process::{Command, Output};

    fn run(args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_sat_collision_demo"))
            .args(args)
            .output()
            .expect("the sat_collision_demo binary runs")
    }

    #[test]
    fn help_names_the_program_and_every_option() {
        for flag in ["--help", "-h"] {
            let out = run(&[flag]);
            assert_eq!(out.status.code(), Some(0), "{flag}");
            let text = String::from_utf8_lossy(&out.stdout);
            for word in [
                "sat_collision_demo",
                "--scene <FILE>",
                "[default: config/demo_scene.yaml]",
                "--svg <FILE>",
                "--snapshot-period <SECONDS>",
                "[default: 2.0]",
                "--duration <SECONDS>",
                "--loop-period <SECONDS>",
                "[default: 20.0]",
                "--ros-args",
                "--version",
            ] {
                assert!(text.contains(word), "{word} in {flag}:\n{text}");
            }
        }
    }

    #[test]
    fn version_is_the_package_version() {
        let out = run(&["--version"]);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("sat_collision_demo {}\n", env!("CARGO_PKG_VERSION"))
        );
    }

    #[test]
    fn a_bad_argument_exits_64_naming_it_on_stderr() {
        for (args, named) in [
            (&["--bogus"][..], "--bogus"),
            (&["extra"], "extra"),
            (&["--svg"], "--svg"),
            (&["--duration", "0"], "positive"),
            (&["--loop-period", "-1"], "positive"),
            (&["--snapshot-period", "inf"], "positive"),
            (&["--duration", "soon"], "positive"),
        ] {
            let out = run(args);
            assert_eq!(out.status.code(), Some(64), "{args:?}");
            assert!(out.stdout.is_empty(), "{args:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(named), "{named} in {args:?}: {err}");
        }
    }
}
