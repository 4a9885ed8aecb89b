//! The node's core: its decisions as a machine driven by events, without
//! ROS, threads or clocks (it builds without the `ros` feature).
//!
//! [`Core`] owns the monitor (the flag, the report's state, the
//! prediction), the velocity gate, the TF buffer, the inputs' statistics
//! for `/diagnostics` and the lifecycle's switch of the outputs. Each of
//! its methods is an event, handled at the time it is given ([`Now`]: the
//! clock's reading, injected), and answers with the [`Outputs`] to
//! publish. The same events in give the same outputs out, bit for bit:
//!
//! | event | method | outputs |
//! | --- | --- | --- |
//! | a footprint | [`Core::on_footprint`] | the flag, `collision_ahead` |
//! | the sensor sources' messages | [`Core::on_sources`] (read by a [`SourceReader`]) | the flag, `collision_ahead` |
//! | an obstacle set | [`Core::on_obstacle_set`] (or [`Core::on_obstacles`] with the stage inline) | the flag, `collision_ahead` |
//! | a velocity | [`Core::on_velocity`] | none (the next prediction's) |
//! | other robots' fleet messages | [`Core::on_fleet`] | the flag, `collision_ahead` |
//! | `/tf`, `/tf_static` | [`TfBuffer::take`] | none (a tick when the footprint comes from TF) |
//! | a command for the gate | [`Core::on_command`] | the gated command, the gate's state |
//! | a dynamic zone's shape | [`Core::on_zone_shapes`] | the zone's polygon |
//! | a period of `publish_rate` | [`Core::tick`] | the gate's re-check, the zones, the flag, this robot on the fleet topic (due at `fleet_rate`) |
//! | a parameter change | [`Core::on_parameter`], [`Core::follow`] | a tick |
//! | `~/toggle` | [`Core::toggle`] | the answer |
//! | `~/<source>/add_exclusion_zone`, `remove_exclusion_zone` | [`Core::add_exclusion_zone`], [`Core::remove_exclusion_zone`] | the answer (the source's reader masks with the zones from its next message) |
//! | activate, deactivate | [`Core::set_active`] | a tick, or silence |
//! | `/diagnostics` due | [`Core::statuses`] | the statuses |
//!
//! Two edges drive it. The node (`ros::node`) reads its subscriptions on
//! its I/O thread into keep-latest slots, takes them on its decision loop
//! and publishes what the core answers; its obstacle stage
//! ([`ObstacleStage`]) runs on a thread of its own so the flag never waits
//! for a decomposition. `sat_collision replay` (`replay`) feeds a recorded
//! bag's messages in their order at their log times, the stage inline.

mod decision;
mod exclusion;
mod fleet;
mod gate;
mod health;
mod inputs;
mod obstacles;
mod outputs;
mod sources;
mod stats;
pub mod tf;
mod zones;

pub use decision::{stall_limit, Core, Now, Stopwatch};
pub use exclusion::{Exclusion, ExclusionZone, ExclusionZones, Unplaced, ZoneState};
pub use fleet::FleetCore;
pub use health::{unconfigured_statuses, StatusContext};
pub use inputs::{
    shrink, ArrayInput, Arrival, CommandIn, FootprintInput, InstanceInput, ShapeInput, SourceInput,
    VelocityInput,
};
pub use obstacles::{instance_id, Applied, ObstacleBatch, ObstacleStage, LARGE_INPUT_VERTICES};
pub use outputs::{shown, GatedCommand, Level, Notice, Outputs, TriggeringPoints, ZonePolygons};
pub use sources::{SourceReader, MAX_CLOUD_FIELDS};
pub use stats::InputsHealth;
pub use tf::{TfBuffer, TfIntake, TfSample, MAX_TRANSFORMS_PER_MESSAGE};
pub use zones::load_zones;
