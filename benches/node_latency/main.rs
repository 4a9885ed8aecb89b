//! Node latency over ROS 2 (issue item 4): footprint message in → `collision`
//! out, next to the transport floor measured in the same run; plus a soak
//! (resident memory at 1 kHz) and an allocation count per message.
//!
//! ```bash
//! source scripts/env.sh
//! export ROS_DOMAIN_ID=142                       # default: 101 + PID % 100
//! cargo bench --bench node_latency               # latency table (~15 s)
//! cargo bench --bench node_latency -- --tf       # footprint from TF
//! cargo bench --bench node_latency -- --gate     # the velocity gate (Twist)
//! cargo bench --bench node_latency -- --fleet 100 # 100 peers at 10 Hz
//! cargo bench --bench node_latency -- --help     # every mode and option
//! scripts/bench_node.sh                          # latency, allocations, soak
//! ```
//!
//! One client process (this binary) with an r2r node of its own starts the
//! real `sat_collision_node` (built by the same `cargo bench`, bench profile
//! = release) and the echo processes as children, then drives them over ROS 2
//! topics on this machine (Fast DDS, default transports: shared memory and
//! UDP on loopback).
//!
//! * **Scene**: 1,000 obstacles (75 % convex polygons with 3–8 vertices,
//!   25 % circles) scattered at one per 4 m² over a 63 m square, all in
//!   `map`, published once (`obstacles_timeout:=0` and
//!   `footprint_timeout:=0`, so nothing goes stale between blocks); the node
//!   runs with its default parameters otherwise (`exact_range` 5 m,
//!   `publish_rate` 10 Hz) and `markers_rate:=0.0`.
//! * **Messages**: `PolygonStamped` footprints (a chamfered 1.0 × 0.6 m
//!   octagon) at 200 precomputed poses that alternate between colliding and
//!   clear; the expected answer of every pose is computed beforehand with
//!   the library (`Monitor::evaluate` on the same float32 inputs). The `Bool`
//!   carries no sequence number, but consecutive answers alternate, so the
//!   answer to message k is the first `Bool` that reads `expected(k)`: a
//!   timer re-publication (which repeats the previous answer) is skipped and
//!   counted, a wrong answer shows as a lost message. `--steady` sends clear
//!   footprints only (the flag never changes, so the node never logs a
//!   transition; a timer re-publication can then pass for an answer, about
//!   one sample in 500, always a short one).
//! * **Floor**: `--echo` is a mode of this binary with the node's
//!   architecture (r2r spinning on a blocking thread, a tokio task on the
//!   subscription stream) that answers each footprint with a `Bool` at once
//!   (the expected bit rides in `header.stamp.nanosec`). Measured next to
//!   it: `--echo-entities`, the same echo with the node's other
//!   subscriptions and services (r2r rebuilds its wait set with every entity
//!   on every wake-up), and `--echo-st`, which answers from the spinning
//!   thread itself (no hand-over to tokio). `--echo-burn-us US` adds an echo
//!   that computes for US µs right after each answer, as the node does when
//!   it builds its report after the flag.
//! * **Pacing**: one message in flight; the next is sent `--period-us` after
//!   the previous one (default 1000: 1 kHz) or at once when the answer came
//!   later (`--period-us 0`: back to back). Targets are driven in
//!   interleaved blocks (`--block`, rotating order), so all of them see the
//!   same machine load.
//! * `--report`: another phase with a node whose `collision_report` (one
//!   result per obstacle, built and published after each flag) is
//!   subscribed by another process (`--sink`, raw: no deserialisation),
//!   against the echo. With `--allocs`: that node's allocations too.
//! * `--markers`: another phase with a node at `markers_rate` 10 Hz whose
//!   `collision_markers` and `collision_report` are subscribed by the sink,
//!   against the echo.
//! * `--tf`: instead of the above, the footprint from TF: a node started
//!   with `base_frame:=base_link`, `global_frame:=map` and
//!   `robot_footprint` (the same octagon), a static `map → odom`
//!   (non-identity) on `/tf_static` (reliable, transient local), the same
//!   1,000 obstacles in `map`; each message is one `/tf` `odom → base_link`
//!   (the same 200 robot poses, alternating colliding / clear; checked
//!   beforehand with a `FrameTree`, `place` and `flag`), published as
//!   tf2's broadcaster does (reliable, depth 100), and the answer is the
//!   node's `collision`. The floor (`--echo-tf`) echoes the same
//!   `TFMessage` on its own topic with the node's `/tf` QoS (best effort,
//!   depth 100); the expected bit is the parity of the stamp's
//!   nanoseconds (stamps: the wall clock, increasing).
//! * `--soak SECONDS --rate HZ`: the node alone, driven at a fixed rate
//!   (one in flight when the node keeps up; an answer not in before the next
//!   send is counted late), resident memory (`VmRSS`) read from
//!   `/proc/PID/status` every `--rss-every` seconds.
//! * `--allocs`: builds a tiny `LD_PRELOAD` library (C, with `cc`) that
//!   counts every `malloc`/`calloc`/`realloc`/`memalign` of a process into
//!   a shared file, starts the node, the echo and the echo with the node's
//!   entities with it and reports the
//!   allocation calls per message (raw, and net of the idle rate measured
//!   just before). Nothing in the node is changed for it.
//! * `--fleet PEERS`: the node with a fleet source while PEERS robots
//!   publish at 10 Hz each from a peer process of this binary: CPU per peer
//!   update, and the flag latency from a fleet message that moves one more
//!   peer onto the robot (or off it), against an echo of that message on
//!   the same topic (see [`fleet`]).

//!
//! Modules: [`cli`] (options), [`scenario`] (scene, footprints and their
//! expected answers), [`process`] (child processes, `/proc`, the allocation
//! counter), [`client`] (targets and paced round trips), [`stats`],
//! [`report`] (header lines and tables), one per mode ([`latency`],
//! [`soak`], [`allocs`], [`gate`]: the velocity gate and its echo,
//! [`fleet`]: the fleet, its peers and its echo) and
//! [`echo`] (the echo and sink processes).

mod allocs;
mod cli;
mod client;
mod cloud;
mod echo;
mod fleet;
mod gate;
mod latency;
mod process;
mod report;
mod scenario;
mod soak;
mod stats;

use cli::Mode;
use std::error::Error;

pub type Res<T> = Result<T, Box<dyn Error>>;

fn main() {
    let result = cli::parse_args().and_then(|mode| match mode {
        Mode::Echo(ns, entities) => echo::echo(&ns, entities),
        Mode::EchoSingleThread(ns) => echo::echo_single_thread(&ns),
        Mode::EchoTf(ns) => echo::echo_tf(&ns),
        Mode::EchoCloud(ns) => echo::echo_cloud(&ns),
        Mode::EchoTwist(ns) => gate::echo_twist(&ns),
        Mode::EchoFleet(ns) => fleet::echo_fleet(&ns),
        Mode::FleetPeers => fleet::fleet_peers(),
        Mode::Sink(ns) => echo::sink(&ns),
        Mode::Client(o) => {
            // A domain of our own unless one was chosen (the children
            // inherit it): never the default 0 that other work may use.
            if std::env::var("ROS_DOMAIN_ID").map_or(true, |v| v.trim().is_empty()) {
                std::env::set_var(
                    "ROS_DOMAIN_ID",
                    (101 + std::process::id() % 100).to_string(),
                );
            }
            let result = if let Some(seconds) = o.soak {
                soak::soak(&o, seconds)
            } else if o.allocs {
                allocs::allocs(&o)
            } else if o.tf {
                latency::latency_tf(&o)
            } else if let Some(points) = o.gate {
                gate::latency_gate(&o, points)
            } else if let Some(peers) = o.fleet {
                fleet::latency_fleet(&o, peers)
            } else if let Some(points) = o.cloud {
                latency::latency_cloud(&o, points)
            } else {
                latency::latency(&o)
            };
            // The children's logs are kept only when something failed.
            if result.is_ok() {
                let _ = std::fs::remove_dir_all(process::work_dir_path());
            } else {
                eprintln!("logs: {}", process::work_dir_path().display());
            }
            result
        }
    });
    if let Err(e) = result {
        eprintln!("node_latency: {e}");
        std::process::exit(1);
    }
}
