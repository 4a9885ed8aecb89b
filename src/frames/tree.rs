//! The TF tree: planar transforms by frame and time, and lookups through it
//! with the fail-safe rules for missing, stale, invalid and conflicting
//! transforms.
//!
//! Pure: no ROS, no I/O, no clock. Every time is passed in, in seconds: a
//! sample's *stamp* (its message header time), its *arrival* (node time when
//! it was received) and a lookup's *now* (node time).
//!
//! # Semantics
//!
//! Each frame has at most one parent. The tree stores one *edge* per child
//! frame: its parent, whether it is static or dynamic, its samples (the
//! child's planar pose in the parent), the arrival time of its newest
//! sample, an optional fault and an optional rival.
//!
//! 1. A lookup from a frame to itself is the identity, always (even for an
//!    unknown frame), as in tf2.
//! 2. A transform whose parent is its child is refused
//!    ([`InsertError::SelfTransform`]) and nothing is stored.
//! 3. At most [`MAX_TF_FRAMES`] frame names are known at once. A transform
//!    naming a new frame at the limit *evicts* a frame no answer needs:
//!    not one on a path a lookup walked within [`TF_HISTORY`] of the new
//!    sample's arrival, not one named by a rival (rule 7), not one of the
//!    transform's, and not one created by the same message
//!    ([`begin_message`](FrameTree::begin_message)) while that message has
//!    created at most [`MESSAGE_FRAMES`]. Of those, frames created by a
//!    message that created more than [`MESSAGE_FRAMES`] still known (a
//!    flood of names) go first, the largest such message first, then the
//!    newest frame first: a flood evicts its own names, not a tree known
//!    before it; a tree sent after a flood evicts the flood's (whichever
//!    comes first when latched publishers are heard again); names flooded
//!    a few per message evict each other, and a frame sent amid them that
//!    no lookup has used yet. The evicted frame's edge and the
//!    edges of its children go with it. One message evicts at most
//!    [`MESSAGE_FRAMES`] frames (the cost of a flood stays bounded). When
//!    no frame can go, the transform is refused
//!    ([`InsertError::TooManyFrames`]) and nothing is stored. The names of
//!    the last [`MAX_TF_FRAMES`] frames evicted or refused are remembered
//!    (as hashes): a lookup naming one of them while it is unknown is
//!    [`LookupFault::TooManyFrames`], not [`LookupFault::Unavailable`].
//!    Names are stored once; a lookup by name does not allocate. Their
//!    length is the caller's to bound (the node checks frame ids against
//!    `text::MAX_FRAME_ID_BYTES` when a message arrives).
//! 4. A static edge holds one sample, valid at any time and never stale. A
//!    new static sample from the same parent replaces it (a republished
//!    static tree); one from another parent is a rival (rule 7).
//! 5. A dynamic edge keeps its samples sorted by stamp (one arriving out of
//!    order is put in place), drops those older than the newest stamp
//!    minus [`TF_HISTORY`], and keeps at most [`MAX_TF_SAMPLES`] (the
//!    oldest go first): the memory a sender can cost is bounded whatever it
//!    sends. A sample whose stamp is already held is not new data (tf2's
//!    `TF_REPEATED_DATA`): it replaces nothing, refreshes nothing and
//!    clears no fault. A sample stamped later than its arrival plus
//!    [`FUTURE_TOLERANCE`] is refused ([`InsertError::FutureStamp`]) and
//!    nothing is stored: it would be the edge's newest for as long.
//! 6. A refused sample (a [`TransformFault`] from
//!    [`planar_transform`](super::planar_transform), or a non-finite stamp
//!    or arrival, which counts as [`TransformFault::NonFinite`]) sets the
//!    edge's fault, creating the edge with that parent if the child has
//!    none; the next good sample from the same parent clears it. A lookup
//!    whose path crosses a faulty edge is
//!    [`LookupFault::Invalid`]: older samples are not used as if nothing
//!    had happened.
//! 7. A sample naming another parent than the edge's, or of the other kind
//!    (static against dynamic), while the edge is *active*, is refused
//!    ([`InsertError::SecondParent`]) and recorded as the edge's rival.
//!    Static edges are always active; a dynamic edge is active while its
//!    parent was last heard from (any sample, good or refused) within
//!    [`CONFLICT_WINDOW`] of the new sample's arrival. A lookup whose path
//!    crosses an edge whose rival was seen within [`CONFLICT_WINDOW`] of
//!    `now` (or later than `now`) is [`LookupFault::Conflict`]: two
//!    publishers disagree on where the frame is, and neither is trusted. A
//!    *static* rival is latched: static transforms are sent once, never
//!    "recent", so the conflict is kept whatever the time, through further
//!    samples of either publisher and through
//!    [`forget_dynamic`](FrameTree::forget_dynamic) (a dynamic edge with a
//!    static rival then becomes the rival's static edge, and the dynamic
//!    publisher its rival again). A dynamic rival never replaces a static
//!    one. Only a new tree (the node restarted: it hears the publishers
//!    that still exist) resolves it. A dynamic edge whose parent has been
//!    silent for longer than the window moves to the new parent, its
//!    samples dropped (a static rival stays): a legitimate re-parenting.
//! 8. A lookup walks parents at most as many steps as there are frames; a
//!    loop (A's parent B, B's parent A, or longer) is
//!    [`LookupFault::Conflict`]. Nothing recurses, nothing can hang.
//! 9. The path goes up from the source and from the target to their common
//!    ancestor. An unknown frame, or two frames without a common ancestor,
//!    is [`LookupFault::Unavailable`].
//! 10. Time, for each dynamic edge of the path (static edges are constant):
//!     * a lookup at time `0.0` means "latest": it is evaluated at the
//!       latest common time, the oldest of the path's newest stamps (as
//!       tf2), which must not be older than `now` by more than `tolerance`
//!       (a transform's age is its stamp's; a later one is a publisher's
//!       future-dating, bounded by rule 5); and each dynamic edge's newest
//!       sample must also have arrived within `tolerance` of `now`, before
//!       or after (a clock that jumped back); else [`LookupFault::Stale`];
//!     * at a time within an edge's samples, the two samples around it are
//!       interpolated ([`interpolate`](fn@super::interpolate)); after the
//!       newest, the newest is used within `tolerance`, else
//!       [`LookupFault::Stale`]; before the oldest, the oldest is used
//!       within `tolerance`, else [`LookupFault::Unavailable`] (the history
//!       does not reach back that far);
//!     * a lookup at another time is not judged by arrival;
//!     * a dynamic edge without any good sample is
//!       [`LookupFault::Unavailable`].
//! 11. When several faults apply along a path, the lookup reports the most
//!     serious one: [`LookupFault::Conflict`], then
//!     [`LookupFault::Invalid`], then [`LookupFault::TooManyFrames`], then
//!     [`LookupFault::Unavailable`], then [`LookupFault::Stale`]; between
//!     equals, the first edge met going up from the source, then up from
//!     the target.
//! 12. A non-finite lookup `time`, `now` or `tolerance` makes the time
//!     checks of a dynamic edge fail ([`LookupFault::Stale`] or
//!     [`LookupFault::Unavailable`]; only an infinite tolerance accepts an
//!     infinite distance in time). No input panics.
//!
//! Roll, pitch and z are not kept: each transform is projected to
//! (x, y, yaw) before it is composed (see [`super::planar`]).

use super::interpolate::interpolate;
use super::planar::TransformFault;
use crate::limits::{MAX_TF_FRAMES, MAX_TF_SAMPLES};
use nalgebra::Isometry2;
use std::cell::Cell;
use std::collections::{HashMap, VecDeque};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

/// A frame name's hash, to remember names without keeping them (rule 3).
fn name_hash(name: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    name.hash(&mut hasher);
    hasher.finish()
}

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
pub const CONFLICT_WINDOW: f64 = 2.0;

/// Seconds a dynamic sample's stamp may be later than its arrival; a later
/// one is refused ([`InsertError::FutureStamp`]). Publishers future-date on
/// purpose: nav2's AMCL stamps `map -> odom` now plus its
/// `transform_tolerance` (1 s by default), and machines' clocks differ by a
/// little; five seconds leaves room for both, while a sample stamped
/// further ahead, which would be its edge's newest (and the latest common
/// time) until then, is bogus.
pub const FUTURE_TOLERANCE: f64 = 5.0;

/// New frames one TF message may create and still be a tree rather than a
/// flood of names (rule 3): a robot's whole static tree, sent in one
/// message, is tens of frames, a few hundred at most.
pub const MESSAGE_FRAMES: usize = 256;

/// Why a lookup has no transform to give. The node turns each into a
/// status and, with `fail_safe`, a collision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LookupFault {
    /// No path between the frames (unknown frame, separate trees), a
    /// dynamic edge without samples, or a time before its history.
    #[error("no transform between the frames at that time")]
    Unavailable,
    /// A frame of the lookup is unknown because it was evicted or refused
    /// at the frame limit ([`MAX_TF_FRAMES`]).
    #[error("a frame was dropped at the limit of {MAX_TF_FRAMES} frames")]
    TooManyFrames,
    /// A dynamic edge's newest sample is too old for the requested time,
    /// or (for a latest lookup) for now, by its stamp or by its arrival.
    #[error("the transform is older than the tolerance")]
    Stale,
    /// An edge of the path last received a refused transform.
    #[error("a transform on the path was refused: {0}")]
    Invalid(TransformFault),
    /// Two publishers disagree on an edge of the path (a frame with two
    /// parents, or static and dynamic publishers), or the parents form a
    /// loop.
    #[error("two publishers disagree on a frame's parent, or the frames form a loop")]
    Conflict,
}

impl LookupFault {
    /// Order of seriousness (rule 11 of the module documentation).
    fn rank(self) -> u8 {
        match self {
            LookupFault::Stale => 0,
            LookupFault::Unavailable => 1,
            LookupFault::TooManyFrames => 2,
            LookupFault::Invalid(_) => 3,
            LookupFault::Conflict => 4,
        }
    }
}

/// Why [`FrameTree::insert`] did not store a sample as the edge's pose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InsertError {
    /// The parent is the child (tf2's `TF_SELF_TRANSFORM`); nothing stored.
    #[error("the parent and child frames are the same")]
    SelfTransform,
    /// The transform names a new frame at [`MAX_TF_FRAMES`] and no frame
    /// can be evicted; nothing stored.
    #[error("more than {MAX_TF_FRAMES} frames")]
    TooManyFrames,
    /// A dynamic sample stamped later than its arrival plus
    /// [`FUTURE_TOLERANCE`]; nothing stored.
    #[error("stamped more than {FUTURE_TOLERANCE} s after its arrival")]
    FutureStamp,
    /// The child already has an active parent (another one, or of the other
    /// kind); the sample is recorded as the edge's rival only.
    #[error("the child frame already has an active parent")]
    SecondParent,
}

/// One dynamic sample: the child's pose in the parent at `stamp`.
#[derive(Clone, Copy, Debug)]
struct Sample {
    stamp: f64,
    pose: Isometry2<f64>,
}

/// An edge's poses, by kind.
#[derive(Clone, Debug)]
enum Poses {
    /// `None` until the first good sample (an edge created by a fault).
    Static(Option<Isometry2<f64>>),
    /// Sorted by stamp, strictly increasing.
    Dynamic(VecDeque<Sample>),
}

/// A publisher refused because the edge had an active one.
#[derive(Clone, Copy, Debug)]
struct Rival {
    parent: u32,
    arrival: f64,
    /// A static rival is latched (rule 7), with its pose if it was good.
    is_static: bool,
    pose: Option<Isometry2<f64>>,
}

impl Rival {
    /// Whether it makes lookups through its edge a conflict at `now`.
    fn live_at(&self, now: f64) -> bool {
        let gone = now - self.arrival > CONFLICT_WINDOW;
        self.is_static || !gone
    }
}

/// A child frame's link to its parent.
#[derive(Clone, Debug)]
struct Edge {
    parent: u32,
    poses: Poses,
    /// Arrival of the newest (by stamp) good sample.
    arrival: f64,
    /// Last finite arrival of any sample from this parent, good or refused:
    /// the edge is active while it is recent.
    heard: f64,
    fault: Option<TransformFault>,
    rival: Option<Rival>,
}

impl Edge {
    fn new(parent: u32, is_static: bool) -> Edge {
        Edge {
            parent,
            poses: if is_static {
                Poses::Static(None)
            } else {
                Poses::Dynamic(VecDeque::new())
            },
            arrival: f64::NEG_INFINITY,
            heard: f64::NEG_INFINITY,
            fault: None,
            rival: None,
        }
    }

    fn is_static(&self) -> bool {
        matches!(self.poses, Poses::Static(_))
    }

    /// Whether a sample arriving at `arrival` from another publisher is a
    /// rival (true) or may take the edge over. Unknown (NaN) is active.
    fn active_at(&self, arrival: f64) -> bool {
        let silent = arrival - self.heard > CONFLICT_WINDOW;
        self.is_static() || !silent
    }

    /// Stores a sample from the edge's own publisher (rules 4 to 6).
    fn accept(&mut self, stamp: f64, sample: Result<Isometry2<f64>, TransformFault>, arrival: f64) {
        if arrival.is_finite() {
            self.heard = arrival;
        }
        let pose = match sample {
            Ok(pose) => pose,
            Err(fault) => {
                self.fault = Some(fault);
                return;
            }
        };
        match &mut self.poses {
            Poses::Static(kept) => {
                *kept = Some(pose);
                self.arrival = arrival;
            }
            Poses::Dynamic(samples) => {
                let at = samples.partition_point(|s| s.stamp < stamp);
                if samples.get(at).is_some_and(|s| s.stamp == stamp) {
                    // Repeated data: not new (rule 5).
                    return;
                }
                samples.insert(at, Sample { stamp, pose });
                if at + 1 == samples.len() {
                    self.arrival = arrival;
                }
                let oldest_kept = samples.back().map_or(stamp, |s| s.stamp) - TF_HISTORY;
                while samples.len() > MAX_TF_SAMPLES
                    || samples.front().is_some_and(|s| s.stamp < oldest_kept)
                {
                    samples.pop_front();
                }
            }
        }
        self.fault = None;
    }

    /// The fault of the edge that does not depend on the lookup's time:
    /// a recent rival, a refused sample, no sample at all.
    fn standing_fault(&self, now: f64) -> Option<LookupFault> {
        if self.rival.is_some_and(|r| r.live_at(now)) {
            return Some(LookupFault::Conflict);
        }
        if let Some(fault) = self.fault {
            return Some(LookupFault::Invalid(fault));
        }
        match &self.poses {
            Poses::Static(None) => Some(LookupFault::Unavailable),
            Poses::Dynamic(samples) if samples.is_empty() => Some(LookupFault::Unavailable),
            _ => None,
        }
    }

    /// The child's pose in the parent at `time` (rule 10).
    fn pose_at(&self, time: f64, tolerance: f64) -> Result<Isometry2<f64>, LookupFault> {
        let samples = match &self.poses {
            Poses::Static(pose) => return pose.ok_or(LookupFault::Unavailable),
            Poses::Dynamic(samples) => samples,
        };
        let (Some(oldest), Some(newest)) = (samples.front(), samples.back()) else {
            return Err(LookupFault::Unavailable);
        };
        if time.is_nan() {
            return Err(LookupFault::Unavailable);
        }
        if time > newest.stamp {
            return if time - newest.stamp <= tolerance {
                Ok(newest.pose)
            } else {
                Err(LookupFault::Stale)
            };
        }
        if time < oldest.stamp {
            return if oldest.stamp - time <= tolerance {
                Ok(oldest.pose)
            } else {
                Err(LookupFault::Unavailable)
            };
        }
        let at = samples.partition_point(|s| s.stamp < time);
        let after = samples.get(at).ok_or(LookupFault::Unavailable)?;
        match at.checked_sub(1).and_then(|i| samples.get(i)) {
            Some(before) if after.stamp != time => Ok(interpolate(
                before.stamp,
                &before.pose,
                after.stamp,
                &after.pose,
                time,
            )),
            _ => Ok(after.pose),
        }
    }
}

/// The most serious fault seen so far; the first one among equals.
#[derive(Default)]
struct Worst(Option<LookupFault>);

impl Worst {
    fn note(&mut self, fault: Option<LookupFault>) {
        if let Some(f) = fault {
            if self.0.is_none_or(|w| f.rank() > w.rank()) {
                self.0 = Some(f);
            }
        }
    }
}

/// Where a frame came from and when it was last needed, for eviction
/// (rule 3).
#[derive(Clone, Debug)]
struct Use {
    /// Order of creation.
    born: u64,
    /// The message that created it ([`FrameTree::begin_message`]).
    batch: u64,
    /// `now` of the last lookup whose path walked the frame (a cell: a
    /// lookup, `&self`, records what it walked).
    looked_up: Cell<f64>,
}

/// The TF tree: every frame's parent and its planar pose in it over time.
/// See the module documentation for the rules.
#[derive(Clone, Debug, Default)]
pub struct FrameTree {
    /// Frame name to id (index into `names`, `edges` and `uses`). Each
    /// name is allocated once, shared by both tables (`Arc`: the tree is
    /// `Send`).
    ids: HashMap<Arc<str>, u32>,
    names: Vec<Arc<str>>,
    /// By child frame id.
    edges: Vec<Option<Edge>>,
    uses: Vec<Use>,
    /// Ids of evicted frames, for reuse (their `names` entry is stale).
    free: Vec<u32>,
    /// Hashes of the names last evicted or refused at the limit, at most
    /// [`MAX_TF_FRAMES`] (rule 3).
    lost: VecDeque<u64>,
    /// Frames evicted since the tree was made.
    evicted: u64,
    /// Frames created since the tree was made.
    born: u64,
    /// The current message, how many frames it created, and how many live
    /// frames each message created.
    batch: u64,
    batch_new: usize,
    /// Frames the current message evicted.
    batch_evicted: usize,
    batches: HashMap<u64, usize>,
    /// Whether `insert` was ever called.
    seen: bool,
}

impl FrameTree {
    /// An empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// One transform: `child`'s pose in `parent` at `stamp` (message header
    /// time, s), received at `arrival` (node time, s). `transform` is the
    /// result of [`planar_transform`](super::planar_transform): an `Err` is
    /// a refused sample, recorded as the edge's fault (rule 6). A non-finite
    /// `stamp` or `arrival` makes the sample a
    /// [`TransformFault::NonFinite`] one.
    ///
    /// `Err` says the sample was not stored as the edge's pose: a self
    /// transform, one frame too many or a sample stamped too far ahead
    /// (nothing stored), or a second parent (recorded as the edge's rival,
    /// rule 7).
    pub fn insert(
        &mut self,
        parent: &str,
        child: &str,
        stamp: f64,
        transform: Result<Isometry2<f64>, TransformFault>,
        is_static: bool,
        arrival: f64,
    ) -> Result<(), InsertError> {
        self.seen = true;
        if parent == child || transform == Err(TransformFault::SelfTransform) {
            return Err(InsertError::SelfTransform);
        }
        let finite = stamp.is_finite() && arrival.is_finite();
        if finite && !is_static && stamp - arrival > FUTURE_TOLERANCE {
            return Err(InsertError::FutureStamp);
        }
        let (parent, child) = self.intern_pair(parent, child, arrival)?;
        let sample = if finite {
            transform
        } else {
            Err(TransformFault::NonFinite)
        };
        let Some(slot) = self.edges.get_mut(child as usize) else {
            return Err(InsertError::TooManyFrames);
        };
        let mut kept = None;
        match slot {
            None => {}
            Some(edge) if edge.parent == parent && edge.is_static() == is_static => {}
            Some(edge) if edge.active_at(arrival) => {
                // A dynamic rival never replaces a latched one (rule 7).
                if is_static || edge.rival.is_none_or(|r| !r.is_static) {
                    let pose = if is_static { sample.ok() } else { None };
                    edge.rival = Some(Rival {
                        parent,
                        arrival,
                        is_static,
                        pose,
                    });
                }
                return Err(InsertError::SecondParent);
            }
            // The old parent fell silent: a re-parenting; a static rival
            // stays.
            Some(edge) => kept = edge.rival.filter(|r| r.is_static),
        }
        if slot
            .as_ref()
            .is_none_or(|e| e.parent != parent || e.is_static() != is_static)
        {
            let mut edge = Edge::new(parent, is_static);
            edge.rival = kept;
            *slot = Some(edge);
        }
        if let Some(edge) = slot {
            edge.accept(stamp, sample, arrival);
        }
        Ok(())
    }

    /// The transform `T` with `p_target = T * p_source` at `time` (s; `0.0`
    /// is the latest common time), judged at node time `now` with
    /// `tolerance` (s), or why there is none (rules 8 to 12). Records, for
    /// eviction, that the frames from either end up to its root were
    /// needed at `now` (rule 3).
    pub fn lookup(
        &self,
        target: &str,
        source: &str,
        time: f64,
        now: f64,
        tolerance: f64,
    ) -> Result<Isometry2<f64>, LookupFault> {
        if target == source {
            return Ok(Isometry2::identity());
        }
        let (Some(&target), Some(&source)) = (self.ids.get(target), self.ids.get(source)) else {
            let lost = [target, source]
                .into_iter()
                .any(|name| !self.ids.contains_key(name) && self.lost.contains(&name_hash(name)));
            return Err(if lost {
                LookupFault::TooManyFrames
            } else {
                LookupFault::Unavailable
            });
        };
        self.touch(source, now);
        self.touch(target, now);
        let source_depth = self.depth(source)?;
        let target_depth = self.depth(target)?;
        let ancestor = self
            .common_ancestor(source, source_depth, target, target_depth)
            .ok_or(LookupFault::Unavailable)?;
        let latest = time == 0.0;
        let mut worst = Worst::default();
        let mut common = f64::INFINITY;
        for edge in self
            .path(source, ancestor)
            .chain(self.path(target, ancestor))
        {
            worst.note(edge.standing_fault(now));
            if let Poses::Dynamic(samples) = &edge.poses {
                if let Some(newest) = samples.back() {
                    common = common.min(newest.stamp);
                    let fresh =
                        (now - edge.arrival).abs() <= tolerance && now - newest.stamp <= tolerance;
                    if latest && !fresh {
                        worst.note(Some(LookupFault::Stale));
                    }
                }
            }
        }
        // Nothing found later outranks these; a Stale may still be.
        if let Some(fault) = worst.0.filter(|f| f.rank() > LookupFault::Stale.rank()) {
            return Err(fault);
        }
        let at = if latest { common } else { time };
        let mut up = |from: u32| {
            let mut pose = Isometry2::identity();
            for edge in self.path(from, ancestor) {
                match edge.pose_at(at, tolerance) {
                    Ok(step) => pose = step * pose,
                    Err(fault) => worst.note(Some(fault)),
                }
            }
            pose
        };
        let source_in_ancestor = up(source);
        let target_in_ancestor = up(target);
        match worst.0 {
            Some(fault) => Err(fault),
            None => Ok(target_in_ancestor.inverse() * source_in_ancestor),
        }
    }

    /// Whether no transform was ever given to [`insert`](Self::insert),
    /// accepted or refused. The node reports the plain `frame_mismatch`
    /// status when its inputs disagree on frames and there is no TF at all;
    /// stays false after [`forget_dynamic`](Self::forget_dynamic) (TF is in
    /// use, it is only waiting for new samples).
    pub fn is_empty(&self) -> bool {
        !self.seen
    }

    /// Drops every dynamic edge (samples, fault and rival) and the faults
    /// and dynamic rivals of static edges; static poses and static rivals
    /// stay (rule 7: a dynamic edge with a static rival becomes the
    /// rival's static edge). The node calls it when ROS time jumps back, as
    /// tf2 clears its buffer: samples stamped in the abandoned future would
    /// otherwise be "newest" for a long time.
    pub fn forget_dynamic(&mut self) {
        for slot in &mut self.edges {
            let keep = match slot {
                Some(edge) if edge.is_static() => {
                    edge.fault = None;
                    edge.rival = edge.rival.filter(|r| r.is_static);
                    matches!(edge.poses, Poses::Static(Some(_))) || edge.rival.is_some()
                }
                Some(edge) => match edge.rival.filter(|r| r.is_static) {
                    Some(rival) => {
                        let mut claimed = Edge::new(rival.parent, true);
                        claimed.poses = Poses::Static(rival.pose);
                        claimed.rival = Some(Rival {
                            parent: edge.parent,
                            arrival: f64::NEG_INFINITY,
                            is_static: false,
                            pose: None,
                        });
                        *edge = claimed;
                        true
                    }
                    None => false,
                },
                None => false,
            };
            if !keep {
                *slot = None;
            }
        }
    }

    /// Frames known (named by any transform given to
    /// [`insert`](Self::insert), not refused as too many and not evicted):
    /// at most [`MAX_TF_FRAMES`].
    pub fn frame_count(&self) -> usize {
        self.names.len() - self.free.len()
    }

    /// Starts a new message: the frames created until the next call are one
    /// batch (rule 3). The node calls it for each TF message.
    pub fn begin_message(&mut self) {
        self.batch += 1;
        self.batch_new = 0;
        self.batch_evicted = 0;
    }

    /// Frames evicted at the frame limit since the tree was made (rule 3).
    pub fn evicted_frames(&self) -> u64 {
        self.evicted
    }

    /// Samples kept for `child`'s edge: 1 for a static edge with a pose, 0
    /// for an unknown frame or a frame without a parent. For diagnostics,
    /// and to check the memory bound.
    pub fn sample_count(&self, child: &str) -> usize {
        match self.edge_of(child).map(|e| &e.poses) {
            Some(Poses::Static(pose)) => usize::from(pose.is_some()),
            Some(Poses::Dynamic(samples)) => samples.len(),
            None => 0,
        }
    }

    /// `child`'s parent frame, if it has one: for diagnostics (which tree a
    /// frame hangs from).
    pub fn parent(&self, child: &str) -> Option<&str> {
        let edge = self.edge_of(child)?;
        self.names.get(edge.parent as usize).map(|n| &**n)
    }

    /// The parent named by the last publisher refused for `child`
    /// ([`InsertError::SecondParent`]), if any: for diagnostics (who
    /// disagrees with [`parent`](Self::parent)). A dynamic one is kept
    /// until the edge is replaced or
    /// [`forget_dynamic`](Self::forget_dynamic), a static one for good
    /// (rule 7).
    pub fn rival(&self, child: &str) -> Option<&str> {
        let rival = self.edge_of(child)?.rival?;
        self.names.get(rival.parent as usize).map(|n| &**n)
    }

    fn edge_of(&self, frame: &str) -> Option<&Edge> {
        let &id = self.ids.get(frame)?;
        self.edge(id)
    }

    fn edge(&self, frame: u32) -> Option<&Edge> {
        self.edges.get(frame as usize)?.as_ref()
    }

    /// Records a lookup at `now` walking from `frame` to its root.
    fn touch(&self, frame: u32, now: f64) {
        let mut at = Some(frame);
        for _ in 0..=self.edges.len() {
            let Some(id) = at else { break };
            if let Some(used) = self.uses.get(id as usize) {
                used.looked_up.set(now);
            }
            at = self.edge(id).map(|e| e.parent);
        }
    }

    /// The ids of `parent` and `child`, interned, evicting frames at the
    /// limit (rule 3); nothing is interned when one would be a frame too
    /// many.
    fn intern_pair(
        &mut self,
        parent: &str,
        child: &str,
        arrival: f64,
    ) -> Result<(u32, u32), InsertError> {
        let new = usize::from(!self.ids.contains_key(parent))
            + usize::from(!self.ids.contains_key(child));
        let over = (self.frame_count() + new).saturating_sub(MAX_TF_FRAMES);
        if over > 0 {
            let keep = [self.ids.get(parent), self.ids.get(child)].map(|id| id.copied());
            let budget = MESSAGE_FRAMES.saturating_sub(self.batch_evicted);
            let victims = if over <= budget {
                self.victims(over, arrival, keep)
            } else {
                None
            };
            let Some(victims) = victims else {
                for name in [parent, child] {
                    if !self.ids.contains_key(name) {
                        self.remember_lost(name);
                    }
                }
                return Err(InsertError::TooManyFrames);
            };
            for victim in victims.into_iter().flatten() {
                self.evict(victim);
                self.batch_evicted += 1;
            }
        }
        Ok((self.intern(parent), self.intern(child)))
    }

    /// The `count` (at most 2) frames no answer needs that go first (rule
    /// 3), or `None` when there are not that many.
    fn victims(
        &self,
        count: usize,
        arrival: f64,
        keep: [Option<u32>; 2],
    ) -> Option<[Option<u32>; 2]> {
        let mut named_by_rival = vec![false; self.edges.len()];
        for rival in self.edges.iter().flatten().filter_map(|e| e.rival) {
            if let Some(named) = named_by_rival.get_mut(rival.parent as usize) {
                *named = true;
            }
        }
        let mut victims = [None, None];
        for i in 0..count.min(victims.len()) {
            let mut best: Option<((usize, u64), u32)> = None;
            for (id, used) in self.uses.iter().enumerate() {
                let id = id as u32;
                // Unknown (NaN) is needed.
                let unused = arrival - used.looked_up.get() > TF_HISTORY;
                if !unused
                    || keep.contains(&Some(id))
                    || victims.contains(&Some(id))
                    || named_by_rival.get(id as usize) != Some(&false)
                    || self.free.contains(&id)
                {
                    continue;
                }
                let own = used.batch == self.batch;
                if own && self.batch_new <= MESSAGE_FRAMES {
                    continue;
                }
                let size = self.batches.get(&used.batch).copied().unwrap_or(0);
                let bulk = if size > MESSAGE_FRAMES { size } else { 0 };
                let rank = (bulk, used.born);
                if best.is_none_or(|(best, _)| rank > best) {
                    best = Some((rank, id));
                }
            }
            victims[i] = Some(best?.1);
        }
        Some(victims)
    }

    /// Forgets frame `id`: its name, its edge, its children's edges.
    fn evict(&mut self, id: u32) {
        let Some(name) = self.names.get(id as usize).cloned() else {
            return;
        };
        self.ids.remove(&name);
        self.remember_lost(&name);
        if let Some(used) = self.uses.get(id as usize) {
            if let Some(count) = self.batches.get_mut(&used.batch) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    self.batches.remove(&used.batch);
                }
            }
        }
        for slot in &mut self.edges {
            if slot.as_ref().is_some_and(|e| e.parent == id) {
                *slot = None;
            }
        }
        if let Some(slot) = self.edges.get_mut(id as usize) {
            *slot = None;
        }
        self.free.push(id);
        self.evicted += 1;
    }

    fn remember_lost(&mut self, name: &str) {
        if self.lost.len() >= MAX_TF_FRAMES {
            self.lost.pop_front();
        }
        self.lost.push_back(name_hash(name));
    }

    fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let name: Arc<str> = Arc::from(name);
        let id = match self.free.pop() {
            Some(id) => {
                if let Some(slot) = self.names.get_mut(id as usize) {
                    *slot = Arc::clone(&name);
                }
                id
            }
            None => {
                // At most MAX_TF_FRAMES (checked by `intern_pair`): fits in u32.
                let id = self.names.len() as u32;
                self.names.push(Arc::clone(&name));
                self.edges.push(None);
                id
            }
        };
        self.born += 1;
        let used = Use {
            born: self.born,
            batch: self.batch,
            looked_up: Cell::new(f64::NEG_INFINITY),
        };
        match self.uses.get_mut(id as usize) {
            Some(slot) => *slot = used,
            None => self.uses.push(used),
        }
        *self.batches.entry(self.batch).or_insert(0) += 1;
        self.batch_new += 1;
        self.ids.insert(name, id);
        id
    }

    /// Edges from `frame` to its root, or `Conflict` for a loop (rule 8).
    fn depth(&self, frame: u32) -> Result<usize, LookupFault> {
        let mut at = frame;
        for depth in 0..=self.edges.len() {
            match self.edge(at) {
                None => return Ok(depth),
                Some(edge) => at = edge.parent,
            }
        }
        Err(LookupFault::Conflict)
    }

    /// The lowest frame that is `a` or an ancestor of `a` and also of `b`.
    fn common_ancestor(&self, mut a: u32, mut da: usize, mut b: u32, mut db: usize) -> Option<u32> {
        while da > db {
            a = self.edge(a)?.parent;
            da -= 1;
        }
        while db > da {
            b = self.edge(b)?.parent;
            db -= 1;
        }
        loop {
            if a == b {
                return Some(a);
            }
            if da == 0 {
                return None;
            }
            a = self.edge(a)?.parent;
            b = self.edge(b)?.parent;
            da -= 1;
        }
    }

    /// The edges from `from` up to its ancestor `to` (excluded), in order;
    /// bounded by the number of frames whatever the tree holds.
    fn path(&self, from: u32, to: u32) -> impl Iterator<Item = &Edge> + '_ {
        let mut at = from;
        let mut steps = 0;
        std::iter::from_fn(move || {
            if at == to || steps >= self.edges.len() {
                return None;
            }
            let edge = self.edge(at)?;
            at = edge.parent;
            steps += 1;
            Some(edge)
        })
    }
}

#[cfg(test)]
mod tests;
