//! The one trait every input kind is behind, and what it reads with.

use crate::ros::node::ros_time::RosTime;
use crate::ros::tf::TfBuffer;
use std::sync::Mutex;

/// What every kind reads with: the clock that stamps arrivals, the TF
/// buffer (a cloud's transform), and whether a message was large.
pub(crate) struct Intake<'a> {
    pub(crate) time: &'a RosTime,
    pub(crate) tf: &'a Mutex<TfBuffer>,
    /// Set when a message above [`LARGE_MESSAGE_BYTES`] was read: memory
    /// is trimmed once it is freed.
    pub(crate) large: bool,
}

/// Messages above this many bytes (native form: strings and points) are
/// large.
pub(crate) const LARGE_MESSAGE_BYTES: usize = 1 << 20;

/// One input kind on the I/O thread.
pub(crate) trait InputKind {
    /// Takes every message that is ready, stamps and reads it, and puts it
    /// in its slot. Called after every spin: r2r's channels (10 deep,
    /// dropping the newest when full) never fill.
    fn take(&mut self, intake: &mut Intake<'_>);
}
