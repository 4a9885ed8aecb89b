//! Build script of sat_collision.
//!
//! Does nothing unless the `ros` feature is enabled AND `scripts/env.sh` has set
//! `SAT_COLLISION_LINK_PYTHON`, which it does only when ROS 2 comes from the PyPI wheels
//! (`.ros2/venv`) instead of a regular install.
//!
//! The wheels' `librcl.so` pulls in `*__rosidl_generator_py.so` libraries that need
//! CPython's symbols, so every executable that loads rcl must have libpython loaded too.
//! This links `lib$SAT_COLLISION_PYTHON_LIB.so` (default `python3.11`) from the folder
//! `$SAT_COLLISION_LINK_PYTHON` with `--no-as-needed`, plus an rpath to that folder, into
//! every binary, example and test executable of this package (`cargo:rustc-link-arg`),
//! without RUSTFLAGS (which would force full rebuilds whenever they differ).
//!
//! (The other link gap of the wheels, `-lrmw_implementation`, is closed by env.sh alone:
//! r2r's build scripts add `<entry>/lib` of every CMAKE_PREFIX_PATH entry to the link.)
//!
//! With the `ros` feature it also sets `cfg(nav2_exclusion_services)` when the
//! `nav2_msgs` r2r generates bindings for (the first on `AMENT_PREFIX_PATH`) has nav2
//! main's `AddExclusionZone` service: this repository's fallback (`msg/nav2_msgs`) has
//! it, a regular Jazzy install's `nav2_msgs` has not, and the node then offers no
//! exclusion zone services (the zones of the parameters still mask).

use std::env;

const VARS: &[&str] = &["SAT_COLLISION_LINK_PYTHON", "SAT_COLLISION_PYTHON_LIB"];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for var in VARS {
        println!("cargo:rerun-if-env-changed={var}");
    }

    println!("cargo:rustc-check-cfg=cfg(nav2_exclusion_services)");

    // Only builds with the `ros` feature link ROS at all.
    if env::var_os("CARGO_FEATURE_ROS").is_none() {
        return;
    }
    println!("cargo:rerun-if-env-changed=AMENT_PREFIX_PATH");
    if nav2_exclusion_services() {
        println!("cargo:rustc-cfg=nav2_exclusion_services");
    }
    // Linker flags below are for GNU ld / lld on ELF targets.
    if env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return;
    }

    if let Some(libdir) = env::var_os("SAT_COLLISION_LINK_PYTHON") {
        if !libdir.is_empty() {
            let libdir = std::path::PathBuf::from(libdir);
            let lib = env::var("SAT_COLLISION_PYTHON_LIB")
                .ok()
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "python3.11".to_owned());
            println!("cargo:rustc-link-search=native={}", libdir.display());
            // rustc passes `-Wl,--as-needed` first; the binary uses no Python symbol
            // itself, so without `--no-as-needed` the linker would drop libpython.
            println!("cargo:rustc-link-arg=-Wl,--no-as-needed");
            println!("cargo:rustc-link-arg=-l{lib}");
            println!("cargo:rustc-link-arg=-Wl,--as-needed");
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", libdir.display());
        }
    }
}

/// Whether the first `nav2_msgs` on `AMENT_PREFIX_PATH` has `AddExclusionZone.srv`.
fn nav2_exclusion_services() -> bool {
    let prefixes = env::var_os("AMENT_PREFIX_PATH").unwrap_or_default();
    env::split_paths(&prefixes)
        .map(|prefix| prefix.join("share").join("nav2_msgs"))
        .find(|package| package.join("package.xml").is_file())
        .is_some_and(|package| package.join("srv").join("AddExclusionZone.srv").is_file())
}
