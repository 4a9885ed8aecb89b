//! `sat_collision`: Separating Axis Theorem collision monitoring between a
//! robot footprint and obstacles.
//!
//! # Start here
//!
//! Units are metres, seconds and radians; poses are
//! [`nalgebra::Isometry2`]; touching counts as colliding.
//!
//! | you have | call | you get |
//! | --- | --- | --- |
//! | one pair of shapes | [`geometry::intersects`], [`geometry::query()`] | yes/no; or depth, MTV, clearance ([`geometry::Contact`]) |
//! | one pair, one moving | [`geometry::time_of_impact`] with a [`geometry::Motion`] | the first contact ([`geometry::Impact`]) |
//! | one pair, both moving (robot against robot) | [`geometry::moving_time_of_impact`] with a [`geometry::Motion`] each | the first contact ([`geometry::Impact`]) |
//! | a footprint at many poses | [`planner::check_poses`] against a [`broadphase::ObstacleIndex`] | per pose: colliding, clearance; the first colliding pose |
//! | one footprint against many obstacles, any question | [`broadphase::ObstacleIndex`]: `all()` or `span(range)`, then `report`, `any_collision`, `near`, `first_impact`, `impacts`, `check_poses` | the engine under every row here ([`broadphase`]) |
//! | the same, with freshness and fail-safe | [`monitor::Monitor::check_trajectory`], [`monitor::Monitor::check_path`] (a path swept between its poses) | the above with `valid` and a [`model::Status`] |
//! | points (a scan, a cloud) against a footprint | [`sensors`] (`scan_points`, `cloud_points`, `range_points`) into a [`broadphase::PointSet`]: `count_inside`, `report`, `first_impact`, `near` | how many are inside, the deepest and the nearest ([`broadphase::PointsReport`]), the first contact along a motion |
//! | a stateful monitor of timed inputs | [`monitor::Monitor`]: `set_footprint`, `set_obstacles` (and `set_source_points` for sensor sources), then `flag` or `evaluate` | the node's decision ([`model::Flag`], [`model::Report`]) |
//! | causes an answer cannot be trusted | [`model::Verdict::of`] (the rule every answer above uses) | `valid`, the deciding [`model::Status`], and whether `fail_safe` makes it read colliding |
//! | a YAML scene (the offline checker) | [`scene::Scene`]: `from_yaml` or `load`, then `evaluate` | a [`scene::SceneReport`] |
//! | the whole node's decisions, fed by events (the gate included) | [`node::Core`]: `configure`, then `on_footprint`, `on_sources`, `on_command`, `tick`, ... with the time injected | the messages the node would publish ([`node::Outputs`]) |
//! | a recorded bag | [`replay::replay`] (the `sat_collision replay` command) | what the node would have published, and a [`replay::Summary`] |
//!
//! ## One pair of shapes
//!
//! ```
//! use sat_collision::geometry::{intersects, query, Point, Shape};
//!
//! // A 1 m square at the origin and a circle overlapping its right edge by 0.1 m.
//! let square = Shape::polygon(&[
//!     Point::new(-0.5, -0.5), Point::new(0.5, -0.5),
//!     Point::new(0.5, 0.5), Point::new(-0.5, 0.5),
//! ])?;
//! let post = Shape::circle(Point::new(0.9, 0.0), 0.5)?;
//! assert!(intersects(&square, &post, 0.0));
//! let contact = query(&square, &post, 0.0);
//! assert!(contact.colliding());
//! assert!((contact.depth() - 0.1).abs() < 1e-9);
//! // The MTV moves the square out of the post: 0.1 m toward -x.
//! assert!((contact.mtv().x + 0.1).abs() < 1e-9);
//!
//! // 0.2 m further, they are apart by 0.1 m.
//! let far = Shape::circle(Point::new(1.1, 0.0), 0.5)?;
//! assert!((query(&square, &far, 0.0).distance() - 0.1).abs() < 1e-9);
//! // Padding inflates the first shape: 0.1 m closes the gap.
//! assert!(intersects(&square, &far, 0.1));
//! # Ok::<(), sat_collision::geometry::ShapeError>(())
//! ```
//!
//! One shape moving, the other fixed: the first contact.
//!
//! ```
//! use nalgebra::Isometry2;
//! use sat_collision::geometry::{time_of_impact, Motion, Point, Shape, Vector};
//!
//! let square = Shape::polygon(&[
//!     Point::new(-0.5, -0.5), Point::new(0.5, -0.5),
//!     Point::new(0.5, 0.5), Point::new(-0.5, 0.5),
//! ])?;
//! let post = Shape::circle(Point::new(3.0, 0.0), 0.5)?;
//! // At 1 m/s along x the 2 m gap closes after 2 s (within the next 5 s).
//! let motion = Motion::twist(&Isometry2::identity(), Vector::new(1.0, 0.0), 0.0);
//! let impact = time_of_impact(&square, &motion, 5.0, &post, 0.0).expect("a contact");
//! assert!((impact.time - 2.0).abs() < 1e-9);
//! assert!(impact.exact); // a translation: exact
//! // Backwards, nothing is hit.
//! let away = Motion::twist(&Isometry2::identity(), Vector::new(-1.0, 0.0), 0.0);
//! assert!(time_of_impact(&square, &away, 5.0, &post, 0.0).is_none());
//! # Ok::<(), sat_collision::geometry::ShapeError>(())
//! ```
//!
//! ## Many poses
//!
//! ```
//! use nalgebra::{Isometry2, Vector2};
//! use sat_collision::broadphase::ObstacleIndex;
//! use sat_collision::geometry::{Point, Shape};
//! use sat_collision::model::{Obstacle, ObstacleGeometry};
//! use sat_collision::planner::check_poses;
//!
//! let robot = Shape::polygon(&[
//!     Point::new(0.5, 0.3), Point::new(-0.5, 0.3),
//!     Point::new(-0.5, -0.3), Point::new(0.5, -0.3),
//! ])?;
//! let wall = Obstacle::new("wall", &ObstacleGeometry::Polygon(vec![
//!     Point::new(2.0, -1.0), Point::new(2.2, -1.0), Point::new(2.2, 1.0), Point::new(2.0, 1.0),
//! ]));
//! // Poses 0.5 m apart along x: the front edge reaches the wall at x = 1.5.
//! let poses: Vec<Isometry2<f64>> = (0..6)
//!     .map(|k| Isometry2::new(Vector2::new(0.5 * k as f64, 0.0), 0.0))
//!     .collect();
//! // The obstacles are indexed once (their boxes), for every check.
//! let obstacles = ObstacleIndex::new(vec![wall]);
//! let check = check_poses(&robot, &poses, 0.0, &obstacles);
//! assert_eq!(check.first_collision, Some(3));
//! assert!((check.distance[0] - 1.5).abs() < 1e-9);
//!
//! // The same index answers the other questions: the report, exact for
//! // every obstacle with an infinite exact range, ...
//! let mut outcomes = Vec::new();
//! let summary = obstacles.all().report(&robot, 0.0, f64::INFINITY, None, &mut outcomes);
//! assert_eq!((summary.nearest, outcomes.len()), (Some(0), 1));
//! // ... and the clearance of each pose from the obstacles near them all.
//! let region = robot.aabb().union(&robot.transformed(&poses[2]).aabb());
//! let mut near = obstacles.all().near(&region);
//! assert!((near.nearest(&robot.transformed(&poses[2]), 0.0).distance - 0.5).abs() < 1e-9);
//! # Ok::<(), sat_collision::geometry::ShapeError>(())
//! ```
//!
//! ## A stateful monitor
//!
//! The inputs arrive with their time (`now`, seconds on the monitor's
//! clock); an answer from stale or missing inputs is not `valid` and, with
//! `fail_safe` (the default), reads colliding.
//!
//! ```
//! use nalgebra::{Isometry2, Vector2};
//! use sat_collision::geometry::{Point, Shape};
//! use sat_collision::model::{Obstacle, ObstacleGeometry, Status};
//! use sat_collision::monitor::{Monitor, MonitorConfig};
//!
//! let square = |cx: f64, cy: f64, half: f64| vec![
//!     Point::new(cx - half, cy - half), Point::new(cx + half, cy - half),
//!     Point::new(cx + half, cy + half), Point::new(cx - half, cy + half),
//! ];
//! let mut monitor = Monitor::new(MonitorConfig::default()); // 1 s timeouts, fail-safe
//! assert_eq!(monitor.flag(0.0).status, Status::NoFootprint);
//! assert!(monitor.flag(0.0).colliding); // nothing known: fail-safe
//!
//! monitor.set_footprint("map", &square(0.0, 0.0, 0.5), 0.0);
//! monitor.set_obstacles(
//!     "map",
//!     vec![Obstacle::new("box", &ObstacleGeometry::Polygon(square(3.0, 0.0, 0.5)))],
//!     0.0,
//! );
//! let report = monitor.evaluate(0.5);
//! assert!(report.valid && !report.colliding);
//! assert!((report.min_distance - 2.0).abs() < 1e-9);
//!
//! // The planner's questions, under the same rules.
//! let robot = Shape::polygon(&square(0.0, 0.0, 0.5))?;
//! let poses: Vec<Isometry2<f64>> =
//!     (0..4).map(|k| Isometry2::new(Vector2::new(k as f64, 0.0), 0.0)).collect();
//! let path = monitor.check_path(&robot, &poses, &[0.0, 1.0, 2.0, 3.0], 0.0, 0.5);
//! assert!(path.valid);
//! assert_eq!(path.first_collision, Some(1)); // contact between poses 1 and 2
//!
//! // Two seconds on, nothing new has arrived: stale, not valid, colliding.
//! let flag = monitor.flag(2.0);
//! assert_eq!(flag.status, Status::StaleFootprint);
//! assert!(!flag.valid && flag.colliding);
//! # Ok::<(), sat_collision::geometry::ShapeError>(())
//! ```
//!
//! ## An offline scene
//!
//! ```
//! use sat_collision::model::Status;
//! use sat_collision::scene::Scene;
//! use std::path::Path;
//!
//! let scene = Scene::from_yaml(
//!     "frame_id: map\n\
//!      footprint: [[0.5, 0.3], [-0.5, 0.3], [-0.5, -0.3], [0.5, -0.3]]\n\
//!      obstacles:\n  \
//!        - id: post\n    \
//!          circle: {center: [0.6, 0.0], radius: 0.2}\n\
//!      velocity: [0.5, 0.0, 0.0]\n",
//!     Path::new("inline.yaml"),
//! )?;
//! let report = scene.evaluate();
//! assert_eq!(report.status(), Status::Ok);
//! assert!(report.colliding());
//! assert!((report.outcomes[0].contact.unwrap().depth() - 0.1).abs() < 1e-9);
//! assert_eq!(report.first_contact().map(|c| c.time), Some(0.0));
//! # Ok::<(), sat_collision::scene::SceneError>(())
//! ```
//!
//! # Layers
//!
//! Dependencies point down this list only (checked by
//! `tests/module_layers.rs`; see ARCHITECTURE.md):
//! * [`geometry`]: pure 2-D math (validation, convexity, SAT, MTV,
//!   clearance, circles, convex decomposition);
//! * [`model`]: obstacles, per-obstacle outcomes, reports, typed statuses;
//!   [`frames`]: the TF tree (planar transforms by frame and time, lookups
//!   and their fail-safe rules); [`sensors`]: laser scans, point clouds and
//!   range readings as planar points (pure: the ROS edge lends the
//!   messages' numbers and slices);
//! * [`broadphase`] (the engine for one footprint against many obstacles:
//!   the report, the flag, poses, paths and contacts along a motion, fast
//!   for thousands), [`visual`];
//! * [`planner`] (poses along a trajectory: the requests, their cost, the
//!   check over an index);
//! * [`monitor`]: what the node knows, how fresh it is, and what it decides;
//!   [`scene`]: YAML scenes and zone files;
//! * [`config`]: the node's parameter table; [`diagnostics`]: the node's
//!   health for `/diagnostics` (input rates and ages, decision times, the
//!   statuses' levels), pure;
//! * [`lifecycle`] (rcl_lifecycle's default state machine and its
//!   change_state driver, pure);
//! * `ros` (feature `ros`): the r2r node glue.
//!
//! The rest is the crate's own and not API: `text` (id and frame checks,
//! log escaping) and `limits` (input size limits) at the bottom layer,
//! their constants re-exported where a public item depends on them
//! ([`frames::MAX_TF_FRAMES`], [`monitor::MAX_INSTANCES`], ...);
//! `params_file` (the node's `--params-file` checks) beside [`config`];
//! `svg` (the offline picture) and `cli` (the command-line rule), which
//! serve the binaries.

#![warn(missing_docs)]

pub mod bag;
pub mod broadphase;
// Serves the crate's binaries (their command-line rule); not API.
#[doc(hidden)]
pub mod cli;
pub mod config;
pub mod diagnostics;
pub mod fleet;
pub mod frames;
pub mod gate;
pub mod geometry;
pub mod lifecycle;
// Without the node (feature `ros`), some limits have no user.
#[cfg_attr(not(feature = "ros"), allow(dead_code))]
pub(crate) mod limits;
pub mod model;
pub mod monitor;
pub mod node;
// The node's (feature `ros`); its unit tests run in every build.
#[cfg(any(feature = "ros", test))]
pub(crate) mod params_file;
pub mod planner;
pub mod replay;
#[cfg(feature = "ros")]
pub mod ros;
pub mod scene;
pub mod sensors;
// Serves the crate's binaries (the offline checker's picture); not API.
#[doc(hidden)]
pub mod svg;
// Without the node (feature `ros`), only the frame-id check has a user.
#[cfg_attr(not(feature = "ros"), allow(dead_code))]
pub(crate) mod text;
pub mod visual;

/// The Rust snippets of `docs/library.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
pub struct LibraryPageDoctests;
