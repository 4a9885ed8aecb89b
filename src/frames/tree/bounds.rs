//! The tree's bounds in time and in frames, behind the rules of the
//! [module documentation](super).

/// Seconds of samples a dynamic edge keeps behind its newest stamp, like
/// tf2's default cache time: enough for a lookup at a sensor message's
/// stamp, while the memory per edge stays bounded in time too.
pub const TF_HISTORY: f64 = 10.0;

/// Seconds during which a publisher counts as alive after its last sample:
/// a dynamic edge heard from within it is active (another parent is a
/// rival, not a re-parenting), and a rival seen within it makes lookups
/// through the edge [`LookupFault::Conflict`]. Long against TF rates
/// (10–100 Hz), short enough that a legitimate re-parenting is accepted
/// soon after the old parent stops.
///
/// [`LookupFault::Conflict`]: super::LookupFault::Conflict
pub const CONFLICT_WINDOW: f64 = 2.0;

/// Seconds a dynamic sample's stamp may be later than its arrival; a later
/// one is refused ([`InsertError::FutureStamp`]). Publishers future-date on
/// purpose: nav2's AMCL stamps `map -> odom` now plus its
/// `transform_tolerance` (1 s by default), and machines' clocks differ by a
/// little; five seconds leaves room for both, while a sample stamped
/// further ahead, which would be its edge's newest (and the latest common
/// time) until then, is bogus.
///
/// [`InsertError::FutureStamp`]: super::InsertError::FutureStamp
pub const FUTURE_TOLERANCE: f64 = 5.0;

/// New frames one TF message may create and still be a tree rather than a
/// flood of names (rule 3): a robot's whole static tree, sent in one
/// message, is tens of frames, a few hundred at most.
pub const MESSAGE_FRAMES: usize = 256;
