//! `sat_collision replay`: a recorded bag's messages through the node's
//! core ([`crate::node::Core`]), without ROS, in their order at their log
//! times, and what the node would have published.
//!
//! | you have | call | you get |
//! | --- | --- | --- |
//! | a bag and the node's parameters file | [`replay`] with [`Options`] | a [`Summary`] (printable), and the outputs as JSON lines, an MCAP, a timeline SVG when asked |
//! | a parameters file's text | [`node_config`] | the node's [`NodeConfig`](crate::config::NodeConfig) and `use_sim_time` |
//! | a topic name as the node spells it | [`resolve`] | the name it subscribes or publishes |
//!
//! # What is fed, and when
//!
//! The core is configured from the parameters file's entry for the node
//! (`/**` first, then the node's own entry, as rcl merges them), its
//! obstacle stage inline, and activated at the first message (autostart).
//! Each message of a topic the node subscribes is read as the node reads
//! it (frame ids and sizes checked, [`crate::node`]'s inputs) and handed to
//! the core's event for it at its time; a message of a topic the node
//! does not subscribe, of a type the node does not take on that topic, of
//! a type the bag reader does not know, or that does not decode, is
//! counted as skipped, by reason and topic.
//!
//! * **Time.** ROS time is the last `/clock` under `use_sim_time`, else
//!   the record's log time. A [`ClockWatch`](crate::monitor::clock::ClockWatch)
//!   judges it with the log time as the steady clock. A record whose log
//!   time is before the previous record's is skipped (counted): the
//!   replay's clock never runs backwards by a bag's disorder.
//! * **Ticks.** A tick ([`Core::tick`](crate::node::Core::tick)) at every
//!   multiple of `1 / publish_rate` of ROS time, in order, before the
//!   record whose ROS time reaches it (every record, used or skipped:
//!   the node's timer runs whatever arrives), so up to the last record's
//!   time; the first record activates the core (autostart), at its time.
//!   Output log times never go back. `/diagnostics` checked at every tick and published as the node
//!   does ([`Publication`](crate::diagnostics::Publication)): every second
//!   of ROS time, and at once when a status's level changes.
//! * **`use_sim_time` without `/clock`.** ROS time reads 0 as for the
//!   node: the clock is `no_clock`, nothing is ticked and every decision is
//!   invalid. The replay runs to the end and then reports the error
//!   ([`Summary::no_clock`]; exit status 2 in the CLI). Records before
//!   the first `/clock` are fed at ROS time 0, as the node would take
//!   them.
//!
//! # What it finds
//!
//! The [`Summary`] (its `Display` is the CLI's report): the ROS time
//! replayed; records read, used and skipped by reason and topic (at most
//! 256 keys, the first decode error of each topic apart); ticks; flags
//! decided and colliding; commands in and out (zeros); the least
//! clearance of a valid report at a tick (the report the node's report
//! worker computes at every decision, here once per tick); the time the
//! gate spent in each action per zone (or reason: `invalid source`,
//! `invalid zone`, ...); for each stop for a zone, when something of its
//! sources (a point, or a polygon source's polygon:
//! [`Core::zone_occupied`](crate::node::Core::zone_occupied)) first lay in
//! it and when the gate stopped; the intervals where the flag was not valid, with its
//! status; the log's lines by key; the messages published per topic.
//! Lists keep [`MAX_LISTED`] entries, then count. The obstacle array and
//! instances count for the flag, not for the gate (nav2's zones act on
//! `observation_sources` only), so a stop's latency is measured from
//! source points.
//!
//! # Exit status (the CLI)
//!
//! [`Summary::exit_code`]: 0 replayed to the end with no stop for a zone
//! and no collision flagged; 1 the gate stopped the robot for a zone, or
//! the flag read a valid collision; 2 invalid input (the parameters, a bag
//! that cannot be opened or ends on an error, `use_sim_time` without
//! `/clock`); 64 a usage error.
//!
//! # The worked example
//!
//! `tests/data/replay/` holds a bag written by the `replay` test binary
//! (`stop_zone.mcap`: 4 s of a laser scan at 10 Hz, commands at 20 Hz and
//! `/tf`; an obstacle 0.3 m ahead from 2 s, 0.15 m from 3 s) and its
//! parameters (`params.yaml`: a stop zone ahead of a round robot):
//!
//! ```text
//! sat_collision replay tests/data/replay/stop_zone.mcap \
//!     --params tests/data/replay/params.yaml --jsonl out.jsonl --svg timeline.svg
//! ```
//!
//! prints, among the rest, `stop PolygonStop: 1.950 s`, `stop for
//! PolygonStop: points in it at 102.000 s, stopped at 102.000 s` and
//! `least clearance: 0.000 m at 103.100 s (scan)`, and exits 1.
//!
//! # Outputs
//!
//! Each event's [`Outputs`](crate::node::Outputs) become messages in the
//! order of its fields: the gated command (`cmd_vel_out_topic`), the
//! gate's state (`state_topic`), the `visualize` zones' polygons, the flag
//! (`/collision`), `/collision_ahead`, this robot on `fleet_topic` (with a
//! `robot_id`); then `/diagnostics`. Not produced:
//! `~/collision_points_marker`, `~/triggering_points`, `collision_report`,
//! `collision_markers` (reports and markers are the node's workers' and
//! cost a report each; the two gate markers are published only while
//! somebody subscribes, so a recording holds them or not by chance),
//! the lifecycle's events and the bond. Every output is stamped with the
//! log time of the event that made it (a tick's: its ROS time, or under
//! `use_sim_time` the log time of the message before which it ran).
//!
//! `--out` copies the records of the topics the node subscribes, as
//! recorded (skipped ones too, when [`crate::bag`] knows their type), each
//! before the outputs it gave; records of other topics (a recording of
//! the node's own outputs among them) are left out, so the replay's
//! outputs never mix with recorded ones.
//!
//! The same bag and parameters give the same bytes: no wall clock is read
//! and the core runs without a stopwatch. Memory stays flat: the bag is
//! streamed; the summary keeps counts and capped lists, the timeline a
//! bounded number of samples (an output MCAP's index grows with its
//! messages, as MCAP's summary does).

mod config;
mod driver;
mod inputs;
mod outputs;
mod summary;
mod timeline;

pub use config::{node_config, resolve, ReplayConfig, DEFAULT_NODE_NAME};
pub use driver::{replay, Options, ReplayError};
pub use summary::{Clearance, Interval, StopLatency, Summary, ZoneTime, MAX_LISTED};
pub use timeline::MAX_SAMPLES;
