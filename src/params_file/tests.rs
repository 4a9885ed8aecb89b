use super::*;

const FQN: &str = "/sat_collision_node";
const NAME: &str = "sat_collision_node";

fn check(text: &str) -> Result<(), String> {
    check_params_file_keys(text, FQN, NAME).map_err(|e| e.to_string())
}

fn check_in(text: &str, fqn: &str) -> Result<(), String> {
    check_params_file_keys(text, fqn, NAME).map_err(|e| e.to_string())
}

#[test]
fn each_applying_name_passes() {
    for key in ["sat_collision_node", "/sat_collision_node", "/**", "\"**\""] {
        let text = format!("{key}:\n  ros__parameters:\n    padding: 0.1\n");
        assert_eq!(check(&text), Ok(()), "{key}");
    }
    // One applying entry among others is enough.
    let text = "other_node:\n  ros__parameters: {a: 1}\nsat_collision_node:\n  ros__parameters: {padding: 0.1}\n";
    assert_eq!(check(text), Ok(()));
    // The shipped file.
    let shipped = include_str!("../../config/sat_collision.yaml");
    assert_eq!(check(shipped), Ok(()));
}

#[test]
fn a_misspelt_node_name_is_an_error_naming_the_keys() {
    let text = "sat_colision_node:\n  ros__parameters:\n    padding: 0.1\n";
    assert_eq!(
        check(text),
        Err(
            "params file names no entry for this node (/sat_collision_node): its key is \
                 sat_colision_node; use sat_collision_node or /**"
                .to_owned()
        )
    );
    let two = "a:\n  ros__parameters: {}\n/b:\n  ros__parameters: {}\n";
    let err = check(two).err().unwrap_or_default();
    assert!(err.contains("its keys are a, /b;"), "{err}");
}

#[test]
fn namespaces_nest_and_must_match_exactly() {
    let fqn = "/robot1/sat_collision_node";
    let nested = "robot1:\n  sat_collision_node:\n    ros__parameters: {padding: 0.1}\n";
    // rcl names this entry `robot1/sat_collision_node` (no leading
    // slash), which r2r does not apply.
    let err = check_in(nested, fqn).err().unwrap_or_default();
    assert!(
            err.contains("its key is robot1/sat_collision_node; use sat_collision_node, /robot1/sat_collision_node or /**"),
            "{err}"
        );
    let absolute = "/robot1:\n  sat_collision_node:\n    ros__parameters: {padding: 0.1}\n";
    assert_eq!(check_in(absolute, fqn), Ok(()));
    let flat = "/robot1/sat_collision_node:\n  ros__parameters: {padding: 0.1}\n";
    assert_eq!(check_in(flat, fqn), Ok(()));
    assert!(check_in(flat, FQN).is_err());
    let plain = "sat_collision_node:\n  ros__parameters: {padding: 0.1}\n";
    assert_eq!(check_in(plain, fqn), Ok(()));
}

#[test]
fn parameter_values_are_not_taken_for_names() {
    // Nested parameter groups below ros__parameters are not entries.
    let text = "/**:\n  ros__parameters:\n    group:\n      ros__parameters: 1\n      x: {y: 2}\n";
    assert_eq!(check(text), Ok(()));
    let text = "wrong:\n  ros__parameters:\n    sat_collision_node:\n      ros__parameters: {}\n";
    assert!(check(text).is_err());
}

#[test]
fn names_in_the_error_are_escaped() {
    let text = "\"bad\\nname\\e[31m\":\n  ros__parameters: {}\n";
    let err = check(text).err().unwrap_or_default();
    assert!(err.contains("bad\\nname\\u{1b}[31m"), "{err}");
    assert!(!err.chars().any(char::is_control), "{err}");
}

#[test]
fn files_without_entries_or_that_do_not_parse_are_left_to_rcl() {
    for text in [
        "",
        "# only a comment\n",
        "[1, 2]\n",
        "just a scalar\n",
        "sat_colision_node: {}\n",
        "padding: 0.1\n",
        "a: [unclosed\n",
        "{[1]: x}\n",
    ] {
        assert_eq!(check(text), Ok(()), "{text:?}");
    }
}

#[test]
fn many_names_are_listed_up_to_a_limit() {
    let text: String = (0..25)
        .map(|i| format!("n{i}:\n  ros__parameters: {{}}\n"))
        .collect();
    let err = check(&text).err().unwrap_or_default();
    assert!(err.contains("n9, ... (15 more);"), "{err}");
    assert!(!err.contains("n10"), "{err}");
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn params_files_are_found_only_inside_ros_args_sections() {
    let found = params_files_from_args(&args(&[
        "sat_collision_node",
        "--params-file",
        "not_ros.yaml",
        "--ros-args",
        "-p",
        "padding:=0.1",
        "--params-file",
        "a.yaml",
        "-r",
        "__ns:=/robot1",
        "--",
        "--params-file",
        "after_end.yaml",
        "--ros-args",
        "--params-file",
        "b.yaml",
        "--params-file",
    ]));
    assert_eq!(found, ["a.yaml", "b.yaml"]);
    // An option's value is not read as an option.
    let found = params_files_from_args(&args(&[
        "--ros-args",
        "-p",
        "--params-file",
        "--params-file",
        "--",
    ]));
    assert_eq!(found, ["--"]);
    assert!(params_files_from_args(&[]).is_empty());
}

#[test]
fn params_files_are_read_with_the_capped_reader() {
    let dir = std::env::temp_dir().join(format!("sat_collision_params_{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let good = dir.join("good.yaml");
    let bad = dir.join("bad.yaml");
    let _ = std::fs::write(
        &good,
        "sat_collision_node:\n  ros__parameters: {padding: 0.1}\n",
    );
    let _ = std::fs::write(
        &bad,
        "sat_colision_node:\n  ros__parameters: {padding: 0.1}\n",
    );
    let with = |path: &Path| args(&["--ros-args", "--params-file", &path.to_string_lossy()]);
    let check = |path: &Path| {
        read_params_files(&with(path))
            .and_then(|files| check_params_files(&files, FQN, NAME))
            .map_err(|e| e.to_string())
    };
    assert_eq!(check(&good), Ok(()));
    let err = check(&bad).err().unwrap_or_default();
    assert!(
        err.starts_with(&format!("{}: params file names", bad.display())),
        "{err}"
    );
    let err = check(&dir).err().unwrap_or_default();
    assert!(err.contains("not a regular file (a directory)"), "{err}");
    let err = check(Path::new("/dev/zero")).err().unwrap_or_default();
    assert!(
        err.contains("not a regular file (a character device)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
