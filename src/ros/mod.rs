//! ROS 2 glue (r2r): message conversions, parameters, markers, spinning and
//! shutdown signals, and the node. Thin on purpose: every decision lives in
//! [`crate::monitor`].

pub mod convert;
pub mod fleet;
pub mod inputs;
pub mod markers;
pub(crate) mod native;
pub mod node;
pub mod params;
pub mod sources;
pub mod spin;
pub mod tf;
