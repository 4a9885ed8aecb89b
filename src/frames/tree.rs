//! The TF tree: planar transforms by frame and time, their 3-D poses beside
//! them, and lookups through it with the fail-safe rules for missing,
//! stale, invalid and conflicting transforms.
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
//! 13. Every good sample keeps its full 3-D pose beside its planar one
//!     ([`Transform`]; [`insert`](FrameTree::insert)'s planar samples are
//!     lifted to z = 0). [`lookup_3d`](FrameTree::lookup_3d) follows the
//!     rules above as [`lookup`](FrameTree::lookup) does, by the same walk:
//!     the same path, time and faults, composing 3-D poses, interpolated
//!     linearly in translation and by slerp in rotation
//!     ([`interpolate_3d`](fn@super::interpolate_3d)).
//!
//! [`lookup`](FrameTree::lookup) composes planar poses: each transform is
//! projected to (x, y, yaw) before it is composed (see [`super::planar`]),
//! roll, pitch and z dropped. A sample costs 80 bytes with its 3-D pose (40
//! for the planar pose alone); [`MAX_TF_SAMPLES`] and [`MAX_TF_FRAMES`]
//! bound their number as before, and an edge's buffer never grows past
//! [`MAX_TF_SAMPLES`] samples (80 KiB).

use super::planar::TransformFault;
use super::transform::Transform;
use edge::{Edge, PoseKind, Poses, Rival};
use fault::Worst;
use nalgebra::{Isometry2, Isometry3};
use names::Names;

mod bounds;
mod edge;
mod fault;
mod names;

pub use crate::limits::{MAX_TF_FRAMES, MAX_TF_SAMPLES};
pub use bounds::{CONFLICT_WINDOW, FUTURE_TOLERANCE, MESSAGE_FRAMES, TF_HISTORY};
pub use fault::{InsertError, LookupFault};

/// The TF tree: every frame's parent and its pose in it (planar and 3-D)
/// over time. See the module documentation for the rules.
#[derive(Clone, Debug, Default)]
pub struct FrameTree {
    /// The frames known by name, their ids (index into `edges`) and what
    /// eviction needs.
    names: Names,
    /// By child frame id.
    edges: Vec<Option<Edge>>,
    /// Whether `insert` was ever called.
    seen: bool,
}

impl FrameTree {
    /// An empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// One planar transform: `child`'s pose in `parent` at `stamp` (message
    /// header time, s), received at `arrival` (node time, s). `transform` is
    /// the result of [`planar_transform`](super::planar_transform): an `Err`
    /// is a refused sample, recorded as the edge's fault (rule 6). A
    /// non-finite `stamp` or `arrival` makes the sample a
    /// [`TransformFault::NonFinite`] one. Its 3-D pose is the planar one
    /// lifted ([`Transform::from_planar`]: z = 0, a rotation about z);
    /// [`insert_transform`](Self::insert_transform) keeps a full 3-D pose.
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
        let transform = transform.map(Transform::from_planar);
        self.insert_transform(parent, child, stamp, transform, is_static, arrival)
    }

    /// As [`insert`](Self::insert), with the transform's 3-D pose and its
    /// planar projection: `transform` is the result of
    /// [`Transform::new`], which refuses what
    /// [`planar_transform`](super::planar_transform) refuses (a refused
    /// transform is the edge's fault for both lookups). The node feeds
    /// `/tf` and `/tf_static` through it.
    pub fn insert_transform(
        &mut self,
        parent: &str,
        child: &str,
        stamp: f64,
        transform: Result<Transform, TransformFault>,
        is_static: bool,
        arrival: f64,
    ) -> Result<(), InsertError> {
        self.seen = true;
        if parent == child || matches!(transform, Err(TransformFault::SelfTransform)) {
            return Err(InsertError::SelfTransform);
        }
        let finite = stamp.is_finite() && arrival.is_finite();
        if finite && !is_static && stamp - arrival > FUTURE_TOLERANCE {
            return Err(InsertError::FutureStamp);
        }
        let (parent, child) = self
            .names
            .intern_pair(parent, child, arrival, &mut self.edges)?;
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
        self.walk(target, source, time, now, tolerance)
    }

    /// As [`lookup`](Self::lookup), composing the 3-D poses (rule 13): the
    /// same path, the same time, the same faults in the same precedence;
    /// between two dynamic samples the translation is linear and the
    /// rotation a slerp ([`interpolate_3d`](super::interpolate_3d)). For a
    /// point cloud's heights in the robot's base frame.
    pub fn lookup_3d(
        &self,
        target: &str,
        source: &str,
        time: f64,
        now: f64,
        tolerance: f64,
    ) -> Result<Isometry3<f64>, LookupFault> {
        self.walk(target, source, time, now, tolerance)
    }

    /// The one walk of both lookups (rules 1, 3, 8 to 12): what is composed
    /// is `P`, everything else is independent of it.
    fn walk<P: PoseKind>(
        &self,
        target: &str,
        source: &str,
        time: f64,
        now: f64,
        tolerance: f64,
    ) -> Result<P, LookupFault> {
        if target == source {
            return Ok(P::identity());
        }
        let (Some(target), Some(source)) = (self.names.id(target), self.names.id(source)) else {
            let lost = [target, source]
                .into_iter()
                .any(|name| self.names.is_lost(name));
            return Err(if lost {
                LookupFault::TooManyFrames
            } else {
                LookupFault::Unavailable
            });
        };
        self.names.touch(source, now, &self.edges);
        self.names.touch(target, now, &self.edges);
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
        let source_in_ancestor: P = self.compose(source, ancestor, at, tolerance, &mut worst);
        let target_in_ancestor: P = self.compose(target, ancestor, at, tolerance, &mut worst);
        match worst.0 {
            Some(fault) => Err(fault),
            None => Ok(target_in_ancestor.inverse() * source_in_ancestor),
        }
    }

    /// `from`'s pose in its ancestor `to` at `at`, the faults of the edges
    /// on the way noted in `worst`.
    #[inline]
    fn compose<P: PoseKind>(
        &self,
        from: u32,
        to: u32,
        at: f64,
        tolerance: f64,
        worst: &mut Worst,
    ) -> P {
        let mut pose = P::identity();
        for edge in self.path(from, to) {
            match edge.pose_at::<P>(at, tolerance) {
                Ok(step) => pose = step * pose,
                Err(fault) => worst.note(Some(fault)),
            }
        }
        pose
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
        self.names.frame_count()
    }

    /// Starts a new message: the frames created until the next call are one
    /// batch (rule 3). The node calls it for each TF message.
    pub fn begin_message(&mut self) {
        self.names.begin_message();
    }

    /// Frames evicted at the frame limit since the tree was made (rule 3).
    pub fn evicted_frames(&self) -> u64 {
        self.names.evicted()
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
        self.names.name(edge.parent)
    }

    /// The parent named by the last publisher refused for `child`
    /// ([`InsertError::SecondParent`]), if any: for diagnostics (who
    /// disagrees with [`parent`](Self::parent)). A dynamic one is kept
    /// until the edge is replaced or
    /// [`forget_dynamic`](Self::forget_dynamic), a static one for good
    /// (rule 7).
    pub fn rival(&self, child: &str) -> Option<&str> {
        let rival = self.edge_of(child)?.rival?;
        self.names.name(rival.parent)
    }

    fn edge_of(&self, frame: &str) -> Option<&Edge> {
        let id = self.names.id(frame)?;
        self.edge(id)
    }

    fn edge(&self, frame: u32) -> Option<&Edge> {
        self.edges.get(frame as usize)?.as_ref()
    }
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
