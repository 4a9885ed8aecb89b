//! The tree's frame names: each interned once with an id (the index of its
//! edge), evicted at the frame limit when no answer needs it, and
//! remembered (as a hash) once lost (rule 3 of the
//! [module documentation](super)).

use super::bounds::{MESSAGE_FRAMES, TF_HISTORY};
use super::edge::Edge;
use super::fault::InsertError;
use crate::limits::MAX_TF_FRAMES;
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

/// Where a frame came from and when it was last needed, for eviction
/// (rule 3).
#[derive(Clone, Debug)]
struct Use {
    /// Order of creation.
    born: u64,
    /// The message that created it
    /// ([`begin_message`](super::FrameTree::begin_message)).
    batch: u64,
    /// `now` of the last lookup whose path walked the frame (a cell: a
    /// lookup, `&self`, records what it walked).
    looked_up: Cell<f64>,
}

/// The frames known by name, with what eviction needs (rule 3). Ids index
/// `names` and `uses` here and the tree's edges, which
/// [`intern`](Names::intern) grows with `names`.
#[derive(Clone, Debug, Default)]
pub(super) struct Names {
    /// Frame name to id. Each name is allocated once, shared by both
    /// tables (`Arc`: the tree is `Send`).
    ids: HashMap<Arc<str>, u32>,
    names: Vec<Arc<str>>,
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
}

impl Names {
    /// The id of a known frame.
    pub(super) fn id(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    /// The name of frame `id`.
    pub(super) fn name(&self, id: u32) -> Option<&str> {
        self.names.get(id as usize).map(|n| &**n)
    }

    /// Whether `name` is unknown because it was evicted or refused at the
    /// limit (one of the last [`MAX_TF_FRAMES`]).
    pub(super) fn is_lost(&self, name: &str) -> bool {
        !self.ids.contains_key(name) && self.lost.contains(&name_hash(name))
    }

    /// Frames known.
    pub(super) fn frame_count(&self) -> usize {
        self.names.len() - self.free.len()
    }

    /// Starts a new message (a new batch).
    pub(super) fn begin_message(&mut self) {
        self.batch += 1;
        self.batch_new = 0;
        self.batch_evicted = 0;
    }

    /// Frames evicted since the tree was made.
    pub(super) fn evicted(&self) -> u64 {
        self.evicted
    }

    /// Records a lookup at `now` walking from `frame` to its root.
    pub(super) fn touch(&self, frame: u32, now: f64, edges: &[Option<Edge>]) {
        let mut at = Some(frame);
        for _ in 0..=edges.len() {
            let Some(id) = at else { break };
            if let Some(used) = self.uses.get(id as usize) {
                used.looked_up.set(now);
            }
            at = edges
                .get(id as usize)
                .and_then(Option::as_ref)
                .map(|e| e.parent);
        }
    }

    /// The ids of `parent` and `child`, interned, evicting frames at the
    /// limit (rule 3); nothing is interned when one would be a frame too
    /// many. `edges` are the tree's, by child frame id: an evicted frame's
    /// edge and its children's go with it.
    pub(super) fn intern_pair(
        &mut self,
        parent: &str,
        child: &str,
        arrival: f64,
        edges: &mut Vec<Option<Edge>>,
    ) -> Result<(u32, u32), InsertError> {
        let new = usize::from(!self.ids.contains_key(parent))
            + usize::from(!self.ids.contains_key(child));
        let over = (self.frame_count() + new).saturating_sub(MAX_TF_FRAMES);
        if over > 0 {
            let keep = [self.ids.get(parent), self.ids.get(child)].map(|id| id.copied());
            let budget = MESSAGE_FRAMES.saturating_sub(self.batch_evicted);
            let victims = if over <= budget {
                self.victims(over, arrival, keep, edges)
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
                self.evict(victim, edges);
                self.batch_evicted += 1;
            }
        }
        Ok((self.intern(parent, edges), self.intern(child, edges)))
    }

    /// The `count` (at most 2) frames no answer needs that go first (rule
    /// 3), or `None` when there are not that many.
    fn victims(
        &self,
        count: usize,
        arrival: f64,
        keep: [Option<u32>; 2],
        edges: &[Option<Edge>],
    ) -> Option<[Option<u32>; 2]> {
        let mut named_by_rival = vec![false; edges.len()];
        for rival in edges.iter().flatten().filter_map(|e| e.rival) {
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
    fn evict(&mut self, id: u32, edges: &mut [Option<Edge>]) {
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
        for slot in edges.iter_mut() {
            if slot.as_ref().is_some_and(|e| e.parent == id) {
                *slot = None;
            }
        }
        if let Some(slot) = edges.get_mut(id as usize) {
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

    /// The id of `name`, a new one (and an empty edge in `edges`) if it is
    /// unknown.
    fn intern(&mut self, name: &str, edges: &mut Vec<Option<Edge>>) -> u32 {
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
                edges.push(None);
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
}
