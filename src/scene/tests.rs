use super::*;
use std::path::PathBuf;

/// A NUL would truncate the id or the frame in a ROS string (and makes
/// r2r's string conversion panic): the file is refused, naming it.
#[test]
fn nul_in_an_id_or_the_frame_is_an_error() {
    let path = Path::new("zones.yaml");
    let bad_id =
        "frame_id: map\nobstacles:\n  - id: \"a\\0b\"\n    circle: {center: [0, 0], radius: 1}\n";
    let error = Scene::from_yaml(bad_id, path).err().map(|e| e.to_string());
    assert_eq!(
        error.as_deref(),
        Some("zones.yaml: obstacles[0]: id \"a\\0b\" contains a NUL character")
    );
    let bad_frame = "frame_id: \"map\\0\"\nobstacles: []\n";
    let error = Scene::from_yaml(bad_frame, path)
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        error.as_deref(),
        Some("zones.yaml: frame_id contains a NUL character")
    );
    let good = "frame_id: map\nobstacles:\n  - id: a\n    circle: {center: [0, 0], radius: 1}\n";
    assert!(Scene::from_yaml(good, path).is_ok());
}

fn error_of(text: &str) -> String {
    Scene::from_yaml(text, Path::new("z.yaml"))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

#[test]
fn anchors_and_aliases_are_refused_with_their_location() {
    let alias = "frame_id: map\nobstacles:\n  - id: a\n    circle: &c {center: [0, 0], radius: 1}\n  - id: b\n    circle: *c\n";
    assert_eq!(
        error_of(alias),
        "z.yaml:4:13: YAML anchors (`&name`) are not accepted: write the value out"
    );
    let laughs = "a: &a [x, x]\nb: &b [*a, *a]\n";
    assert!(error_of(laughs).starts_with("z.yaml:1:4: YAML anchors"));
    let scalar_anchor = "frame_id: &f map\n";
    assert!(error_of(scalar_anchor).starts_with("z.yaml:1:11: YAML anchors"));
    // `&` and `*` inside quoted strings and plain scalars are text.
    let text = "frame_id: \"&a *b\"\nobstacles:\n  - id: 'x*y&z'\n    circle: {center: [0, 0], radius: 1}\n  - id: p&q\n    circle: {center: [5, 0], radius: 1}\n";
    let scene = Scene::from_yaml(text, Path::new("z.yaml"));
    assert_eq!(
        scene.as_ref().map(|s| s.frame_id.as_str()).ok(),
        Some("&a *b")
    );
    assert_eq!(
        scene
            .map(|s| s.obstacles.iter().map(|o| o.id.clone()).collect::<Vec<_>>())
            .ok(),
        Some(vec!["x*y&z".to_owned(), "p&q".to_owned()])
    );
}

#[test]
fn nesting_beyond_the_limit_is_refused() {
    let deep = |n: usize| format!("frame_id: {}{}\n", "[".repeat(n), "]".repeat(n));
    // The top mapping is one level.
    let at_limit = error_of(&deep(MAX_YAML_DEPTH - 1));
    assert!(!at_limit.contains("nested"), "{at_limit}");
    assert_eq!(
        error_of(&deep(MAX_YAML_DEPTH)),
        format!(
            "z.yaml:1:{}: YAML nested deeper than the limit of 32 levels",
            11 + 31
        )
    );
    // Far deeper (2 MB of brackets): refused, without recursion.
    let err = error_of(&deep(1_000_000));
    assert!(err.contains("nested deeper"), "{err}");
    let err = error_of(&"[".repeat(1_000_000));
    assert!(err.contains("nested deeper"), "{err}");
    // A syntax error, then deep nesting: the error, found quickly.
    let text = format!("a: [b: : ]\nc: {}\n", "[".repeat(1_000_000));
    let err = error_of(&text);
    assert!(err.starts_with("z.yaml:1:"), "{err}");
}

#[test]
fn a_second_document_is_refused() {
    let two = "frame_id: map\n---\nframe_id: odom\n";
    assert_eq!(
        error_of(two),
        "z.yaml:2:1: more than 1 YAML document (`---`) in the file"
    );
    assert!(Scene::from_yaml("---\nframe_id: map\n...\n", Path::new("z.yaml")).is_ok());
}

#[test]
fn syntax_errors_keep_libyaml_messages() {
    let text = "frame_id: map\nobstacles:\n  - id: a\n    polygon: [[0, 0], [1, 0]\n";
    let err = error_of(text);
    assert!(err.starts_with("z.yaml:"), "{err}");
    assert!(err.contains("did not find expected ',' or ']'"), "{err}");
}

#[test]
fn obstacle_count_is_capped() {
    let mut text = String::from("obstacles:\n");
    for i in 0..=MAX_OBSTACLES {
        text.push_str(&format!(
            "- {{id: o{i}, circle: {{center: [0, 0], radius: 1}}}}\n"
        ));
    }
    assert_eq!(
        error_of(&text),
        "z.yaml: 100001 obstacles, more than the limit of 100000"
    );
}

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("sat_collision_scene_{name}_{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir
}

#[test]
fn only_regular_files_are_read() {
    let dir = temp_dir("regular");
    let file = dir.join("zones.yaml");
    let _ = std::fs::write(&file, "frame_id: map\n");
    assert_eq!(read_capped(&file).ok().as_deref(), Some("frame_id: map\n"));
    let link = dir.join("link.yaml");
    let _ = std::fs::remove_file(&link);
    let _ = std::os::unix::fs::symlink(&file, &link);
    assert_eq!(read_capped(&link).ok().as_deref(), Some("frame_id: map\n"));
    let kind = |path: &Path| match read_capped(path) {
        Err(SceneError::NotAFile { kind, .. }) => kind,
        other => panic!("{}: {other:?}", path.display()),
    };
    assert_eq!(kind(&dir), "a directory");
    assert_eq!(kind(Path::new("/dev/zero")), "a character device");
    assert_eq!(kind(Path::new("/dev/null")), "a character device");
    let fifo = dir.join("fifo.yaml");
    let _ = std::fs::remove_file(&fifo);
    let made = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes())
        .map(|c| unsafe { libc::mkfifo(c.as_ptr(), 0o600) });
    assert_eq!(made, Ok(0));
    assert_eq!(kind(&fifo), "a FIFO");
    assert_eq!(
        read_capped(&fifo).err().map(|e| e.to_string()),
        Some(format!(
            "{}: not a regular file (a FIFO); give a YAML file",
            fifo.display()
        ))
    );
    let socket = dir.join("socket");
    let _ = std::fs::remove_file(&socket);
    let _listener = std::os::unix::net::UnixListener::bind(&socket);
    assert_eq!(kind(&socket), "a socket");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn size_is_capped_even_when_the_file_reports_none() {
    let dir = temp_dir("cap");
    let file = dir.join("big.yaml");
    let _ = std::fs::write(&file, "0123456789");
    assert!(read_capped_to(&file, 10).is_ok());
    assert_eq!(
        read_capped_to(&file, 9).err().map(|e| e.to_string()),
        Some(format!(
            "{}: larger than the limit of 9 bytes (0 MiB)",
            file.display()
        ))
    );
    // /proc files are regular files of size 0 with content: only the
    // capped read can notice.
    let proc_file = Path::new("/proc/self/maps");
    assert!(matches!(
        read_capped_to(proc_file, 16),
        Err(SceneError::TooLarge { limit: 16, .. })
    ));
    let binary = dir.join("binary.yaml");
    let _ = std::fs::write(&binary, b"frame_id: \xff\n");
    assert_eq!(
        read_capped(&binary).err().map(|e| e.to_string()),
        Some(format!(
            "{}: not UTF-8 text (invalid byte at offset 10)",
            binary.display()
        ))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

const SQUARE: &str = "footprint: [[0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5], [0.5, -0.5]]\n";

fn scene(text: &str) -> Scene {
    match Scene::from_yaml(text, Path::new("m.yaml")) {
        Ok(scene) => scene,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn velocity_and_horizon_are_checked() {
    let error = |rest: &str| {
        Scene::from_yaml(&format!("{SQUARE}{rest}"), Path::new("m.yaml"))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    for bad in ["[1, .nan, 0]", "[.inf, 0, 0]", "[0, 0, -1001]"] {
        let e = error(&format!("velocity: {bad}\n"));
        assert!(
            e.starts_with("m.yaml: velocity must be [vx, vy, wz] (m/s, m/s, rad/s)"),
            "{bad}: {e}"
        );
    }
    assert_eq!(
        error("velocity: [1, 0, 0]\nhorizon: 0\n"),
        "m.yaml: horizon must be a number of seconds > 0 and <= 3600, got 0"
    );
    for bad in ["-1", ".inf", ".nan", "3600.5"] {
        let e = error(&format!("velocity: [1, 0, 0]\nhorizon: {bad}\n"));
        assert!(e.starts_with("m.yaml: horizon must be"), "{bad}: {e}");
    }
    assert_eq!(
        error("horizon: 2\n"),
        "m.yaml: horizon needs a velocity (`velocity: [vx, vy, wz]`)"
    );
    // Two components, or a string: serde's message, with the location.
    assert!(error("velocity: [1, 0]\n").starts_with("m.yaml:2:"));
    let ok = scene(&format!(
        "{SQUARE}velocity: [-1000, 1000, 0]\nhorizon: 3600\n"
    ));
    assert_eq!(ok.horizon(), MAX_HORIZON);
    assert_eq!(scene(SQUARE).horizon(), DEFAULT_HORIZON);
    assert!(scene(SQUARE).motion().is_none());
}

#[test]
fn prediction_per_obstacle_and_first_in_file_order() {
    // Two walls at the same distance ahead and behind (moving +x: only
    // the one ahead), a twin of the one ahead (the same time: the first in
    // the file wins), one reached too late, an invalid obstacle.
    let report = scene(&format!(
        "{SQUARE}velocity: [1, 0, 0]\nhorizon: 3\nobstacles:\n\
             - {{id: behind, polygon: [[-2.6, -1], [-2.5, -1], [-2.5, 1], [-2.6, 1]]}}\n\
             - {{id: ahead, polygon: [[2.5, -1], [2.6, -1], [2.6, 1], [2.5, 1]]}}\n\
             - {{id: twin, polygon: [[2.5, -1], [2.6, -1], [2.6, 1], [2.5, 1]]}}\n\
             - {{id: far, circle: {{center: [4, 0], radius: 0.4}}}}\n\
             - {{id: bad, circle: {{center: [1, 0], radius: -1}}}}\n"
    ))
    .evaluate();
    let Some(prediction) = &report.prediction else {
        panic!("a prediction")
    };
    let t = &prediction.times;
    assert_eq!(t.len(), 5);
    assert_eq!(t[0], None);
    assert!(t[1].is_some_and(|t| (t - 2.0).abs() < 1e-6), "{t:?}");
    assert_eq!(t[1], t[2]);
    assert_eq!(t[3], None, "reached after the horizon (3.1 s)");
    assert_eq!(t[4], None, "invalid: no time");
    let first = report.first_contact().cloned();
    assert_eq!(
        first.as_ref().map(|f| (f.index, f.id.as_str())),
        Some((1, "ahead"))
    );
    let pose = first.map(|f| pose_xyyaw(&f.pose)).unwrap_or_default();
    assert!((pose[0] - 2.0).abs() < 1e-6 && pose[1] == 0.0 && pose[2] == 0.0);
    assert!(!report.valid() && report.colliding(), "invalid: fail-safe");
    let lines = report.lines();
    assert_eq!(lines[1].time_to_collision, t[1]);
    assert_eq!(lines[4].time_to_collision, None);
}

#[test]
fn standing_still_predicts_only_a_contact_now() {
    let text = |x: f64| {
        format!(
            "{SQUARE}velocity: [0, 0, 0]\nobstacles:\n\
                 - {{id: post, circle: {{center: [{x}, 0], radius: 0.2}}}}\n"
        )
    };
    let now = scene(&text(0.6)).evaluate();
    assert_eq!(now.first_contact().map(|f| f.time), Some(0.0));
    assert_eq!(now.to_json().time_to_collision, Some(0.0));
    let apart = scene(&text(0.8)).evaluate();
    assert!(apart.prediction.is_some());
    assert_eq!(apart.first_contact(), None);
    let json = apart.to_json();
    assert_eq!(
        (json.time_to_collision, json.predicted_obstacle_id),
        (None, None)
    );
}

#[test]
fn no_velocity_or_no_valid_footprint_no_prediction() {
    let obstacle = "obstacles:\n- {id: post, circle: {center: [0.6, 0], radius: 0.2}}\n";
    let still = scene(&format!("{SQUARE}{obstacle}")).evaluate();
    assert!(still.prediction.is_none());
    assert_eq!(still.to_json().time_to_collision, None);
    let flat = scene(&format!(
        "footprint: [[0, 0], [1, 0], [2, 0]]\nvelocity: [1, 0, 0]\n{obstacle}"
    ))
    .evaluate();
    assert!(flat.prediction.is_none() && flat.colliding());
}

#[test]
fn obstacle_line_finds_block_and_flow_ids() {
    let text = "frame_id: map\nobstacles:\n  - id: a\n    polygon: [[0, 0], [1, 0], [0, 1]]\n  # id: c (a comment)\n  - {id: \"b\", circle: {center: [0, 0], radius: 1}}\n  - polygon: [[0, 0], [1, 0], [0, 1]]\n    id: 'c'\n";
    assert_eq!(obstacle_line(text, "a"), Some(3));
    assert_eq!(obstacle_line(text, "b"), Some(6));
    assert_eq!(obstacle_line(text, "c"), Some(8));
    assert_eq!(obstacle_line(text, "frame_id"), None);
    assert_eq!(obstacle_line(text, "zz"), None);
}

#[test]
fn point_sets_are_obstacles_of_zero_size() {
    let text = "footprint: [[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]\n\
                points:\n  - id: scan\n    points: [[1.5, 0.0], [0.5, 0.3], [0.4, 0.1], [2.0, -0.5]]\n\
                velocity: [1.0, 0.0, 0.0]\n";
    let scene = Scene::from_yaml(text, Path::new("points.yaml")).expect("scene");
    let report = scene.evaluate();
    let lines = report.point_lines();
    assert_eq!(lines.len(), 1);
    // (0.5, 0.3) touches a corner, (0.4, 0.1) is 0.1 inside: two inside.
    assert_eq!(lines[0].points_inside, 2);
    assert!(lines[0].colliding && report.colliding() && report.valid());
    assert!((lines[0].penetration_depth - 0.1).abs() < 1e-12);
    assert_eq!(lines[0].mtv, [-0.09999999999999998, 0.0]);
    assert_eq!(lines[0].distance, Some(0.0));
    assert_eq!(lines[0].time_to_collision, Some(0.0));
    // Without the two inside: 1.0 m clear, met after 1.0 s at 1 m/s.
    let text = text.replace("[0.5, 0.3], [0.4, 0.1], ", "");
    let scene = Scene::from_yaml(&text, Path::new("points.yaml")).expect("scene");
    let report = scene.evaluate();
    let line = &report.point_lines()[0];
    assert_eq!((line.points_inside, line.colliding), (0, false));
    assert!((line.distance.expect("a point") - 1.0).abs() < 1e-12);
    let ttc = line.time_to_collision.expect("a contact ahead");
    assert!((ttc - 1.0).abs() < 1e-9, "{ttc}");
    assert!(!report.colliding());
    let first = report.first_contact().expect("first contact");
    assert_eq!(first.id, "scan");
    let json = report.to_json();
    assert_eq!(json.points.len(), 1);
}

#[test]
fn min_points_and_bad_point_sets() {
    let base = "footprint: [[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]\n";
    let scene = |extra: &str| Scene::from_yaml(&format!("{base}{extra}"), Path::new("p.yaml"));
    let two = "points:\n  - {id: a, points: [[0, 0]]}\n  - {id: b, points: [[0.1, 0], [5, 5]]}\n";
    let report = scene(&format!("{two}min_points: 3\n"))
        .expect("scene")
        .evaluate();
    assert!(!report.colliding(), "two points inside, three needed");
    let report = scene(&format!("{two}min_points: 2\n"))
        .expect("scene")
        .evaluate();
    assert!(report.colliding());
    assert!(report.point_lines().iter().all(|l| l.colliding));
    for bad in [
        "points:\n  - {id: a, points: [[.nan, 0]]}\n",
        "points:\n  - {id: a, points: [[1e300, 0]]}\n",
        "points:\n  - {id: a, points: [[0, 0]]}\n  - {id: a, points: [[1, 0]]}\n",
        "obstacles:\n  - {id: a, circle: {center: [3, 0], radius: 1}}\npoints:\n  - {id: a, points: [[0, 0]]}\n",
        "points:\n  - {id: a, points: [[0, 0]]}\nmin_points: 0\n",
    ] {
        assert!(scene(bad).is_err(), "{bad}");
    }
}
