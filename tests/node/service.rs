//! The `check_footprint` and `check_path` services
//! (sat_collision_msgs/srv/CheckFootprint, CheckPath) called over ROS 2
//! against the running node: answers, requests the node must refuse as
//! read (frame ids that are not text, sent as raw bytes), the work bound,
//! and a shutdown while a long request runs.
#![cfg(feature = "ros")]

use crate::node_common::*;
use r2r::geometry_msgs::msg::{Polygon, PoseStamped, TransformStamped};
use r2r::nav_msgs::msg::Path;
use r2r::rcl_interfaces::msg::ParameterValue;
use r2r::sat_collision_msgs::srv::{CheckFootprint, CheckPath};
use r2r::tf2_msgs::msg::TFMessage;
use r2r::{QosProfile, WrappedServiceTypeSupport, WrappedTypesupport};
use r2r_rcl::{rosidl_message_type_support_t, rosidl_service_type_support_t};
use std::f64::consts::FRAC_PI_2;
use std::time::{Duration, Instant};

/// A wall across the x axis, 3 m ahead: x in [3, 3.25], y in [-1, 1].
fn wall() -> Vec<(f64, f64)> {
    rect(3.0, -1.0, 3.25, 1.0)
}

/// Robot-frame footprint: 1 m long, 0.5 m wide.
fn robot() -> Polygon {
    polygon(&rect(-0.5, -0.25, 0.5, 0.25))
}

fn request(footprint: Polygon, poses: &[(f64, f64, f64)], padding: f64) -> CheckFootprint::Request {
    CheckFootprint::Request {
        footprint,
        poses: poses.iter().map(|&(x, y, yaw)| pose(x, y, yaw)).collect(),
        padding,
    }
}

fn close_all(actual: &[f64], expected: &[f64], what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: {actual:?}");
    for (a, e) in actual.iter().zip(expected) {
        assert!((a - e).abs() <= EPS, "{what}: {actual:?} != {expected:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clear_trajectory() {
    let mut h = Harness::start("s_clear", &[]).await;
    h.set_obstacles(Some(obstacles("map", vec![obstacle("wall", &wall())])));
    h.set_footprint(Some(footprint("map", &square(-5.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;

    let poses = [
        (0.0, 0.0, 0.0),
        (0.5, 0.0, 0.0),
        (1.0, 0.5, 0.0),
        (2.0, 0.0, FRAC_PI_2),
    ];
    let r = h.check_footprint(request(robot(), &poses, 0.0)).await;
    assert!(r.valid, "{r:?}");
    assert_eq!(r.status, "ok");
    assert_eq!(r.colliding, [false; 4]);
    assert_eq!(r.first_collision, -1);
    // Front at x + 0.5, or x + 0.25 when turned 90 degrees.
    close_all(&r.distance, &[2.5, 2.0, 1.5, 0.75], "distances");

    // An empty footprint and no robot_footprint/robot_radius parameter:
    // not checkable, fail-safe.
    let r = h
        .check_footprint(request(Polygon::default(), &poses, 0.0))
        .await;
    assert!(!r.valid);
    assert_eq!(r.status, "no_robot_footprint");
    assert_eq!(r.colliding, [true; 4]);
    assert_eq!(r.first_collision, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_collision_is_the_index_of_the_first_colliding_pose() {
    let mut h = Harness::start("s_hit", &[]).await;
    h.set_obstacles(Some(obstacles("map", vec![obstacle("wall", &wall())])));
    h.set_footprint(Some(footprint("map", &square(-5.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;

    // 0.5 m steps: at x = 2.5 the front touches the wall (touching counts).
    let poses: Vec<(f64, f64, f64)> = (0..8).map(|k| (0.5 * f64::from(k), 0.0, 0.0)).collect();
    let r = h.check_footprint(request(robot(), &poses, 0.0)).await;
    assert!(r.valid, "{r:?}");
    assert_eq!(
        r.colliding,
        [false, false, false, false, false, true, true, true]
    );
    assert_eq!(r.first_collision, 5);
    close_all(
        &r.distance,
        &[2.5, 2.0, 1.5, 1.0, 0.5, 0.0, 0.0, 0.0],
        "distances",
    );

    // The request's padding adds to the node's: 0.6 m reaches the wall from
    // x = 2.0 (gap 0.5).
    let r = h.check_footprint(request(robot(), &poses, 0.6)).await;
    assert_eq!(r.first_collision, 4, "{r:?}");

    // Yaw is honoured: turned 90 degrees, the robot is 0.25 m shorter ahead.
    let r = h
        .check_footprint(request(
            robot(),
            &[(2.6, 0.0, 0.0), (2.6, 0.0, FRAC_PI_2)],
            0.0,
        ))
        .await;
    assert_eq!(r.colliding, [true, false], "{r:?}");
    assert_eq!(r.first_collision, 0);
    assert!((r.distance[1] - 0.15).abs() <= EPS, "{r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_obstacles_answer_invalid_and_all_colliding() {
    let mut h = Harness::start("s_stale", &[("obstacles_timeout", "0.8")]).await;
    h.set_obstacles(Some(obstacles("map", vec![obstacle("wall", &wall())])));
    h.set_footprint(Some(footprint("map", &square(-5.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;
    let poses = [(0.0, 0.0, 0.0), (0.5, 0.0, 0.0), (1.0, 0.0, 0.0)];
    let r = h.check_footprint(request(robot(), &poses, 0.0)).await;
    assert!(r.valid, "fresh: {r:?}");
    assert_eq!(r.first_collision, -1);

    // The obstacle source goes silent.
    h.set_obstacles(None);
    h.report_with_status("stale_obstacles").await;
    let r = h.check_footprint(request(robot(), &poses, 0.0)).await;
    assert!(!r.valid, "{r:?}");
    assert_eq!(r.status, "stale_obstacles");
    assert_eq!(r.colliding, [true; 3], "fail_safe: every pose colliding");
    assert_eq!(r.first_collision, 0);

    // Without fail_safe the answer is still invalid, but follows geometry.
    let set = h
        .set_parameter(
            "fail_safe",
            ParameterValue {
                type_: 1,
                bool_value: false,
                ..Default::default()
            },
        )
        .await;
    assert!(set.successful, "{set:?}");
    h.report_where("not colliding without fail_safe", SETTLE, |r| {
        r.status == "stale_obstacles" && !r.colliding
    })
    .await;
    let r = h.check_footprint(request(robot(), &poses, 0.0)).await;
    assert!(!r.valid);
    assert_eq!(r.status, "stale_obstacles");
    assert_eq!(r.colliding, [false; 3], "{r:?}");
    assert_eq!(r.first_collision, -1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn empty_footprint_uses_robot_radius() {
    let mut h = Harness::start("s_radius", &[("robot_radius", "0.3")]).await;
    // A wall 1 m ahead.
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("wall", &rect(1.0, -1.0, 1.25, 1.0))],
    )));
    h.set_footprint(Some(footprint("map", &square(-5.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;
    let r = h
        .check_footprint(request(
            Polygon::default(),
            &[(0.0, 0.0, 0.0), (0.0, 0.0, 1.0), (0.75, 0.0, 0.0)],
            0.0,
        ))
        .await;
    assert!(r.valid, "{r:?}");
    assert_eq!(r.status, "ok");
    // A circle of 0.3 m: 0.7 m clear whatever the yaw, colliding at 0.75.
    assert_eq!(r.colliding, [false, false, true]);
    close_all(&r.distance, &[0.7, 0.7, 0.0], "distances");
    assert_eq!(r.first_collision, 2);
}

// ---------------------------------------------------------------------------
// Requests with frame ids that are not text

/// A `check_path` request whose frame ids are set as raw bytes (an owned
/// r2r `String` cannot hold bytes that are not UTF-8): the same type
/// support as `CheckPath`, so the node cannot tell it from any client.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct RawPathRequest {
    request: CheckPath::Request,
    /// Replaces the path's `header.frame_id`.
    path_frame: Option<Vec<u8>>,
    /// Replace the poses' `header.frame_id`, in order.
    pose_frames: Vec<Vec<u8>>,
}

type NativePathRequest = <CheckPath::Request as WrappedTypesupport>::CStruct;

/// Sets a native string to `bytes`, whatever they are.
fn assign_bytes(s: &mut r2r_rcl::rosidl_runtime_c__String, bytes: &[u8]) {
    // SAFETY: `s` is an initialised rosidl string of a live message;
    // assignn copies `bytes.len()` bytes (NULs included) and terminates.
    let ok = unsafe {
        r2r_rcl::rosidl_runtime_c__String__assignn(s, bytes.as_ptr().cast(), bytes.len())
    };
    assert!(ok, "rosidl string assigned");
}

impl WrappedTypesupport for RawPathRequest {
    type CStruct = NativePathRequest;

    fn get_ts() -> &'static rosidl_message_type_support_t {
        <CheckPath::Request as WrappedTypesupport>::get_ts()
    }
    fn create_msg() -> *mut NativePathRequest {
        CheckPath::Request::create_msg()
    }
    fn destroy_msg(msg: *mut NativePathRequest) {
        CheckPath::Request::destroy_msg(msg)
    }
    fn from_native(msg: &NativePathRequest) -> Self {
        RawPathRequest {
            request: CheckPath::Request::from_native(msg),
            ..Default::default()
        }
    }
    fn copy_to_native(&self, msg: &mut NativePathRequest) {
        self.request.copy_to_native(msg);
        if let Some(frame) = &self.path_frame {
            assign_bytes(&mut msg.path.header.frame_id, frame);
        }
        let poses = &mut msg.path.poses;
        assert!(self.pose_frames.len() <= poses.size);
        for (k, frame) in self.pose_frames.iter().enumerate() {
            // SAFETY: k < size: an element of the sequence just copied.
            let pose = unsafe { &mut *poses.data.add(k) };
            assign_bytes(&mut pose.header.frame_id, frame);
        }
    }
}

#[derive(Clone, Debug)]
struct RawCheckPath;

impl WrappedServiceTypeSupport for RawCheckPath {
    type Request = RawPathRequest;
    type Response = CheckPath::Response;

    fn get_ts() -> &'static rosidl_service_type_support_t {
        CheckPath::Service::get_ts()
    }
}

/// A path in `frame` through `(x, y)` points heading +x, the poses with
/// no frame of their own (the path's), stamps 0 (1 s apart).
fn path(frame: &str, points: &[(f64, f64)]) -> Path {
    Path {
        header: header(frame),
        poses: points
            .iter()
            .map(|&(x, y)| PoseStamped {
                header: header(""),
                pose: pose(x, y, 0.0),
            })
            .collect(),
    }
}

/// Calls `check_path` with `request` (retried as `check_footprint` is:
/// a call right after discovery can be lost).
async fn check_path(h: &Harness, request: RawPathRequest) -> CheckPath::Response {
    let client = h.client::<RawCheckPath>("check_path").await;
    for _ in 0..3 {
        let answer = client.request(&request).expect("send request");
        if let Ok(response) = tokio::time::timeout(Duration::from_secs(5), answer).await {
            return response.expect("check_path response");
        }
    }
    panic!("check_path did not answer 3 requests; {}", h.context_text());
}

/// A pose frame that is not UTF-8 must be refused, never read as another
/// frame: r2r's own conversion turns `map\xff` into "", the path's frame
/// (`odom`, 10 m beside `map`) was used instead, and poses through the
/// wall in `map` were answered valid and clear.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_path_refuses_frame_ids_that_are_not_text() {
    // TF in the namespace (`/tf` is shared by every test on the domain).
    let mut h = Harness::start_with_args(
        "s_path_bytes",
        &[],
        &["-r", "/tf:=tf", "-r", "/tf_static:=tf_static"],
    )
    .await;
    h.set_obstacles(Some(obstacles("map", vec![obstacle("wall", &wall())])));
    h.set_footprint(Some(footprint("map", &square(-5.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;
    // map -> odom: odom's origin 10 m to the left of map's.
    let tf_static = h
        .peer_node()
        .lock()
        .unwrap()
        .create_publisher::<TFMessage>("tf_static", QosProfile::default().transient_local())
        .expect("tf_static publisher");
    let mut odom = TransformStamped {
        child_frame_id: "odom".into(),
        ..Default::default()
    };
    odom.header.frame_id = "map".into();
    odom.transform.translation.y = 10.0;
    odom.transform.rotation.w = 1.0;
    tf_static
        .publish(&TFMessage {
            transforms: vec![odom],
        })
        .expect("publish tf_static");

    // Along x through the wall (x in [3, 3.25]), in map; in odom 10 m clear.
    let through = [(0.0, 0.0), (2.0, 0.0), (4.0, 0.0)];
    let raw = |frame: &str, path_frame: Option<&[u8]>, pose_frames: &[&[u8]]| RawPathRequest {
        request: CheckPath::Request {
            path: path(frame, &through),
            footprint: robot(),
            padding: 0.0,
        },
        path_frame: path_frame.map(<[u8]>::to_vec),
        pose_frames: pose_frames.iter().map(|f| f.to_vec()).collect(),
    };
    // The references: in odom clear (once the node has the transform),
    // in map through the wall.
    let start = Instant::now();
    let clear = loop {
        let r = check_path(&h, raw("odom", None, &[])).await;
        if r.valid || start.elapsed() > SETTLE {
            break r;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(clear.valid, "in odom: {clear:?}");
    assert_eq!(clear.first_collision, -1, "in odom: {clear:?}");
    let hit = check_path(&h, raw("map", None, &[])).await;
    assert!(hit.valid, "in map: {hit:?}");
    assert_eq!(hit.first_collision, 1, "in map: {hit:?}");
    assert_eq!(hit.obstacle_id, "wall");

    let refused = |r: &CheckPath::Response, what: &str| {
        assert!(!r.valid, "{what}: {r:?}");
        assert_eq!(r.status, "invalid_frame_id", "{what}: {r:?}");
        // fail_safe: contact at the first pose, no clearance anywhere.
        assert_eq!(r.first_collision, 0, "{what}: {r:?}");
        assert_eq!(r.time_to_collision, 0.0, "{what}: {r:?}");
        assert_eq!(r.clearance, [0.0; 3], "{what}: {r:?}");
    };
    // Every pose `map\xff` in the odom path (the sweep's case).
    let bad: &[u8] = b"map\xff";
    let r = check_path(&h, raw("odom", None, &[bad, bad, bad])).await;
    refused(&r, "pose frames map\\xff in an odom path");
    // One pose is enough (a lone UTF-8 lead byte here). (A NUL cannot be
    // sent: the transport ends a string at its first NUL.)
    let r = check_path(&h, raw("map", None, &[b"", b"odom\xc3", b""])).await;
    refused(&r, "one pose frame odom\\xc3 in a map path");
    // The path's own frame.
    let r = check_path(&h, raw("", Some(b"odom\xfe"), &[])).await;
    refused(&r, "path frame odom\\xfe");
    // A frame id too long (as on the topics: 256 bytes at most).
    let long = vec![b'f'; 257];
    let r = check_path(&h, raw("map", Some(&long), &[])).await;
    refused(&r, "path frame of 257 bytes");
    assert!(h.node.is_running(), "{}", h.context_text());
}

// ---------------------------------------------------------------------------
// Work bound and shutdown

/// A convex footprint of `n` vertices (a circle of radius `r`, robot
/// frame).
fn ring(n: usize, r: f64) -> Polygon {
    let points: Vec<(f64, f64)> = (0..n)
        .map(|k| {
            let a = k as f64 * std::f64::consts::TAU / n as f64;
            (r * a.cos(), r * a.sin())
        })
        .collect();
    polygon(&points)
}

/// The work bound counts vertices, not pose x obstacle pairs: 10,000
/// poses of a 16,384-vertex footprint against one wall are 10,000 pairs
/// (0.1 % of the old 1e7 bound) but 3.3e8 vertex steps (over 1e8).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_of_huge_vertex_cost_is_refused_up_front() {
    let mut h = Harness::start("s_vertex_cost", &[]).await;
    h.set_obstacles(Some(obstacles("map", vec![obstacle("wall", &wall())])));
    h.set_footprint(Some(footprint("map", &square(-5.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;
    let poses: Vec<(f64, f64, f64)> = (0..10_000)
        .map(|k| (-20.0 + 0.001 * f64::from(k), 0.0, 0.0))
        .collect();
    let (r, _) = h
        .check_footprint_once(
            request(ring(16_384, 0.3), &poses, 0.0),
            Duration::from_secs(120),
        )
        .await;
    assert!(!r.valid, "{} poses: {}", r.colliding.len(), r.status);
    assert_eq!(r.status, "request_too_large");
    assert_eq!(r.colliding.len(), 10_000);
    assert!(r.colliding.iter().all(|&c| c), "fail_safe: every pose");
    assert_eq!(r.first_collision, 0);
    // A small request still gets its answer.
    let r = h
        .check_footprint(request(robot(), &[(0.0, 0.0, 0.0), (2.6, 0.0, 0.0)], 0.0))
        .await;
    assert!(r.valid, "{r:?}");
    assert_eq!(r.colliding, [false, true]);
}

/// CPU time (user + system) the process `pid` has used.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc/<pid>/stat");
    // Fields after the command (which may hold spaces) in parentheses.
    let (_, rest) = stat.rsplit_once(')').expect("a stat line");
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime, stime: fields 14 and 15, 12 and 13 after ')'.
    let ticks: u64 =
        fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_millis(ticks * 1000 / hz)
}

/// SIGTERM while a long `check_footprint` runs: the node exits at once
/// (it used to log "shutting down", stop the flag and live on for the
/// ~30 s the request took).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_ends_the_node_during_a_long_request() {
    let mut h = Harness::start("s_sigterm", &[("max_service_checks", "1e12")]).await;
    h.set_obstacles(Some(obstacles("map", vec![obstacle("wall", &wall())])));
    h.set_footprint(Some(footprint("map", &square(-5.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;
    // 300,000 poses of a 16,384-vertex footprint: tens of seconds of work.
    let poses: Vec<(f64, f64, f64)> = (0..300_000)
        .map(|k| (-20.0 + 1e-5 * f64::from(k), 0.0, 0.0))
        .collect();
    let client = h.client::<CheckFootprint::Service>("check_footprint").await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let pid = h.node.pid();
    let idle = cpu_time(pid);
    let _answer = client
        .request(&request(ring(16_384, 0.3), &poses, 0.0))
        .expect("send request");
    // Busy: two seconds of CPU past what the node had used (reading the
    // request takes a fraction of that).
    let start = Instant::now();
    while cpu_time(pid) < idle + Duration::from_secs(2) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the node never got busy with the request; {}",
            h.context_text()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (status, took) = h
        .node
        .terminate_within(Duration::from_secs(20))
        .unwrap_or_else(|| panic!("still running 20 s after SIGTERM; {}", h.context_text()));
    eprintln!("exited {took:?} after SIGTERM ({status:?})");
    assert!(
        took < Duration::from_secs(3),
        "exited {took:?} after SIGTERM (at most 1 s, plus margin); {}",
        h.context_text()
    );
    assert!(status.success(), "{status:?}; {}", h.context_text());
    assert!(h.node.log_text().contains("shutting down"));
}

/// A lifecycle cleanup while a long `check_footprint` runs: the job is
/// cancelled and the request answered `inactive` (not valid, fail-safe),
/// not left waiting; the node is unconfigured and lives on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cleanup_during_a_long_request_answers_it_inactive() {
    use r2r::lifecycle_msgs::srv::{ChangeState, GetState};
    let mut h = Harness::start("s_cleanup", &[("max_service_checks", "1e12")]).await;
    h.set_obstacles(Some(obstacles("map", vec![obstacle("wall", &wall())])));
    h.set_footprint(Some(footprint("map", &square(-5.0, 0.0, 0.5))));
    h.report_where("valid", SETTLE, |r| r.valid).await;
    // 100,000 poses of a 16,384-vertex footprint: seconds of work, and an
    // answer small enough (1 MB) for DDS's defaults.
    let poses: Vec<(f64, f64, f64)> = (0..100_000)
        .map(|k| (-20.0 + 3e-5 * f64::from(k), 0.0, 0.0))
        .collect();
    let client = h.client::<CheckFootprint::Service>("check_footprint").await;
    let change = h
        .client::<ChangeState::Service>("sat_collision_node/change_state")
        .await;
    let get = h
        .client::<GetState::Service>("sat_collision_node/get_state")
        .await;
    let pid = h.node.pid();
    let idle = cpu_time(pid);
    let answer = client
        .request(&request(ring(16_384, 0.3), &poses, 0.0))
        .expect("send request");
    let start = Instant::now();
    while cpu_time(pid) < idle + Duration::from_secs(1) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the node never got busy with the request; {}",
            h.context_text()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for label in ["deactivate", "cleanup"] {
        let mut req = ChangeState::Request::default();
        req.transition.label = label.to_owned();
        let done =
            tokio::time::timeout(Duration::from_secs(20), change.request(&req).expect("send"))
                .await
                .unwrap_or_else(|_| panic!("{label} not answered; {}", h.context_text()))
                .expect("change_state answer");
        assert!(done.success, "{label}; {}", h.context_text());
    }
    let answer = tokio::time::timeout(Duration::from_secs(10), answer)
        .await
        .unwrap_or_else(|_| {
            panic!(
                "the running request was never answered; {}",
                h.context_text()
            )
        })
        .expect("check_footprint answer");
    assert!(!answer.valid);
    assert_eq!(answer.status, "inactive");
    assert_eq!(answer.colliding.len(), poses.len());
    assert!(
        answer.colliding.iter().all(|&c| c),
        "fail-safe: every pose colliding"
    );
    let state = get
        .request(&GetState::Request::default())
        .expect("send")
        .await
        .expect("get_state answer");
    assert_eq!(state.current_state.label, "unconfigured");
}
