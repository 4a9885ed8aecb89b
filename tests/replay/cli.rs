//! `sat_collision replay` on the command line: the summary, the exit
//! codes.

use super::common::*;
use std::process::Command;

fn sat_collision(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sat_collision"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().expect("exit code"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_command_prints_the_summary_and_exits_1_for_a_stop() {
    let dir = scratch("cli");
    let bag = write(&dir.join("in.mcap"), &example_bag());
    let (bag, params) = (bag.to_str().expect("utf-8"), params());
    let jsonl = dir.join("out.jsonl");
    let (code, stdout, stderr) = sat_collision(&[
        "replay",
        bag,
        "--params",
        params.to_str().expect("utf-8"),
        "--jsonl",
        jsonl.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("messages: 201 read, 201 used, 0 skipped"),
        "{stdout}"
    );
    assert!(stdout.contains("stop for PolygonStop"), "{stdout}");
    assert!(std::fs::read_to_string(&jsonl).is_ok_and(|t| t.lines().count() > 100));

    // nav2's own file, its entry named with --node-name.
    let nav2 =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("config/collision_monitor.yaml");
    let nav2 = nav2.to_str().expect("utf-8");
    let (code, stdout, stderr) = sat_collision(&["replay", bag, "--params", nav2]);
    assert_eq!(code, 2, "{stdout}");
    assert!(
        stderr.contains("no parameters for node `sat_collision_node`"),
        "{stderr}"
    );
    let (code, stdout, _) = sat_collision(&[
        "replay",
        bag,
        "--params",
        nav2,
        "--node-name",
        "collision_monitor",
    ]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("node collision_monitor"), "{stdout}");
    // Its base frame (base_footprint) is not in the bag's TF: the scan
    // cannot be placed, the gate stops throughout for an invalid source
    // (listed, not a stop for a zone's contents), and the footprint zone
    // never gets a shape.
    assert!(
        stdout.contains("  stop invalid source: 3.950 s"),
        "{stdout}"
    );
    assert!(stdout.contains("log: 40 gate_zone_shape"), "{stdout}");
}

#[test]
fn usage_errors_exit_64_and_help_names_the_exit_codes() {
    let (code, _, stderr) = sat_collision(&["replay", "bag.mcap"]);
    assert_eq!(code, 64, "{stderr}");
    assert!(stderr.contains("--params"), "{stderr}");
    let (code, stdout, _) = sat_collision(&["replay", "--help"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("exit codes: 0 no stop and no collision, 1 the gate stopped the robot for"),
        "{stdout}"
    );
    let (code, _, stderr) = sat_collision(&[
        "replay",
        "/nonexistent.mcap",
        "--params",
        "/nonexistent.yaml",
    ]);
    assert_eq!(code, 2, "{stderr}");
}
