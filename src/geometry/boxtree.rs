//! A static bounding-box tree over the edges or vertices of one polygon:
//! the spatial index behind the self-intersection test of validation and
//! the ear test of the decomposition.
//!
//! Built once in `O(n log n)` by median splits along the longer side of the
//! items' centres; node `k` has children `2k + 1` and `2k + 2`, and covers a
//! contiguous range of the permuted items, split in the middle. Items can
//! be removed (a live count per node lets searches skip emptied subtrees);
//! their boxes never shrink, which only costs pruning power.
//!
//! A tree over segments can also bound each node by a slab: the range of
//! `normal · p` over its segments' ends, `normal` perpendicular to the
//! node's dominant segment direction. Long, nearly parallel segments (a
//! spiky star) have large, mutually overlapping boxes, but thin slabs.
//! Each node may also carry the largest key of its items (a sweep rank),
//! so that a search can skip subtrees of items it has already passed.
//!
//! Searches are depth first with a fixed-size stack: no allocation.

use super::{Aabb, Point, Vector};

/// Most items in a leaf.
const LEAF: usize = 4;
/// Depth bound of the search stack: a tree of `n` items is
/// `log2(n / LEAF) + 1` deep, and a depth-first search holds at most one
/// pending sibling per level.
/// (Trees hold at most a few `2^16` items: 40 is ample.)
const STACK: usize = 40;

/// The points `p` of a node's segments satisfy `lo <= normal · p <= hi`
/// (`normal` of unit length, up to rounding).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slab {
    pub(crate) normal: Vector,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct BoxTree {
    /// Bounding box of each node's items (unused slots are never visited).
    boxes: Vec<Aabb>,
    /// Live items under each node.
    live: Vec<u32>,
    /// Item ids, permuted so that every node covers a contiguous range.
    items: Vec<usize>,
    /// Position in `items` of each item id (`usize::MAX` for ids not in
    /// the tree).
    slot: Vec<usize>,
    /// `slot[id]` exists for every `id < ids`.
    ids: usize,
    /// Per node, for trees over segments: the node's slab (empty otherwise).
    slabs: Vec<Slab>,
    /// Per node: the largest key of its items (empty when no keys).
    max_key: Vec<u32>,
}

impl BoxTree {
    /// A tree over `items` (distinct ids below `ids`), `box_of(id)` the box
    /// of each.
    pub(crate) fn new(items: Vec<usize>, ids: usize, box_of: impl Fn(usize) -> Aabb) -> Self {
        let mut tree = BoxTree {
            boxes: Vec::new(),
            live: Vec::new(),
            items,
            slot: vec![usize::MAX; ids],
            ids,
            slabs: Vec::new(),
            max_key: Vec::new(),
        };
        let item_boxes: Vec<Aabb> = tree.items.iter().map(|&id| box_of(id)).collect();
        // Work on positions 0..m into `item_boxes`, then map back to ids.
        let mut order: Vec<usize> = (0..tree.items.len()).collect();
        if !order.is_empty() {
            tree.build(0, &mut order, &item_boxes);
        }
        let ids_in_order: Vec<usize> = order.iter().map(|&k| tree.items[k]).collect();
        tree.items = ids_in_order;
        for (position, &id) in tree.items.iter().enumerate() {
            tree.slot[id] = position;
        }
        tree
    }

    /// A tree over segments (`ends_of(id)`, whose box is `box_of(id)`),
    /// with the slab of every node and the largest `key_of(id)` under it.
    pub(crate) fn over_segments(
        items: Vec<usize>,
        ids: usize,
        box_of: impl Fn(usize) -> Aabb,
        ends_of: impl Fn(usize) -> (Point, Point),
        key_of: impl Fn(usize) -> u32,
    ) -> Self {
        let mut tree = Self::new(items, ids, box_of);
        let nodes = tree.boxes.len();
        tree.slabs = vec![
            Slab {
                normal: Vector::new(0.0, 1.0),
                lo: f64::NEG_INFINITY,
                hi: f64::INFINITY,
            };
            nodes
        ];
        tree.max_key = vec![0; nodes];
        // Ends, doubled-angle direction (a segment and its reverse count
        // alike, weighted by length) and key of each item, in tree order.
        let ends: Vec<(Point, Point)> = tree.items.iter().map(|&id| ends_of(id)).collect();
        let doubled: Vec<Vector> = ends
            .iter()
            .map(|&(a, b)| {
                let d = b - a;
                let length = d.norm();
                if length > 0.0 {
                    Vector::new(d.x * d.x - d.y * d.y, 2.0 * d.x * d.y) / length
                } else {
                    Vector::zeros()
                }
            })
            .collect();
        let keys: Vec<u32> = tree.items.iter().map(|&id| key_of(id)).collect();
        if !tree.items.is_empty() {
            tree.bound_segments(0, 0, ends.len(), &ends, &doubled, &keys);
        }
        tree
    }

    /// Slab and largest key of node `node` (items `lo..hi`) and below;
    /// returns the node's summed doubled direction and largest key.
    fn bound_segments(
        &mut self,
        node: usize,
        lo: usize,
        hi: usize,
        ends: &[(Point, Point)],
        doubled: &[Vector],
        keys: &[u32],
    ) -> (Vector, u32) {
        let (sum, key) = if hi - lo <= LEAF {
            let sum = doubled[lo..hi].iter().fold(Vector::zeros(), |s, d| s + d);
            (sum, keys[lo..hi].iter().copied().max().unwrap_or(0))
        } else {
            let mid = lo + (hi - lo) / 2;
            let (s0, k0) = self.bound_segments(2 * node + 1, lo, mid, ends, doubled, keys);
            let (s1, k1) = self.bound_segments(2 * node + 2, mid, hi, ends, doubled, keys);
            (s0 + s1, k0.max(k1))
        };
        // Half the doubled angle: (|u| + u.x, u.y) points along it.
        let half = Vector::new(sum.norm() + sum.x, sum.y);
        let length = half.norm();
        let normal = if length > 0.0 {
            Vector::new(-half.y / length, half.x / length)
        } else {
            Vector::new(0.0, 1.0)
        };
        let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
        for &(a, b) in &ends[lo..hi] {
            let (va, vb) = (
                normal.x * a.x + normal.y * a.y,
                normal.x * b.x + normal.y * b.y,
            );
            low = low.min(va.min(vb));
            high = high.max(va.max(vb));
        }
        self.slabs[node] = Slab {
            normal,
            lo: low,
            hi: high,
        };
        self.max_key[node] = key;
        (sum, key)
    }

    /// Builds node `node` over `order` (positions into `item_boxes`),
    /// reordering it in place.
    fn build(&mut self, node: usize, order: &mut [usize], item_boxes: &[Aabb]) {
        let mut bounds = item_boxes[order[0]];
        let (mut lo, mut hi) = (centre(&bounds), centre(&bounds));
        for &k in &order[1..] {
            let b = &item_boxes[k];
            bounds = bounds.union(b);
            let c = centre(b);
            lo = Point::new(lo.x.min(c.x), lo.y.min(c.y));
            hi = Point::new(hi.x.max(c.x), hi.y.max(c.y));
        }
        if self.boxes.len() <= node {
            self.boxes.resize(node + 1, bounds);
            self.live.resize(node + 1, 0);
        }
        self.boxes[node] = bounds;
        self.live[node] = order.len() as u32;
        if order.len() <= LEAF {
            return;
        }
        let mid = order.len() / 2;
        if hi.x - lo.x >= hi.y - lo.y {
            order.select_nth_unstable_by(mid, |&i, &j| {
                centre(&item_boxes[i])
                    .x
                    .total_cmp(&centre(&item_boxes[j]).x)
                    .then(i.cmp(&j))
            });
        } else {
            order.select_nth_unstable_by(mid, |&i, &j| {
                centre(&item_boxes[i])
                    .y
                    .total_cmp(&centre(&item_boxes[j]).y)
                    .then(i.cmp(&j))
            });
        }
        let (left, right) = order.split_at_mut(mid);
        self.build(2 * node + 1, left, item_boxes);
        self.build(2 * node + 2, right, item_boxes);
    }

    /// Removes item `id` (ignored when not in the tree).
    pub(crate) fn remove(&mut self, id: usize) {
        if id >= self.ids || self.slot[id] == usize::MAX {
            return;
        }
        let position = self.slot[id];
        self.slot[id] = usize::MAX;
        let (mut node, mut lo, mut hi) = (0, 0, self.items.len());
        loop {
            self.live[node] -= 1;
            if hi - lo <= LEAF {
                return;
            }
            let mid = lo + (hi - lo) / 2;
            if position < mid {
                (node, hi) = (2 * node + 1, mid);
            } else {
                (node, lo) = (2 * node + 2, mid);
            }
        }
    }

    /// Visits, depth first, the live items under every node whose box
    /// `enter` accepts, until `visit` returns `true`; returns whether it
    /// did. Removed items are skipped.
    pub(crate) fn search(
        &self,
        mut enter: impl FnMut(&Aabb) -> bool,
        visit: impl FnMut(usize) -> bool,
    ) -> bool {
        self.search_nodes(|node| enter(&self.boxes[node]), visit)
    }

    /// [`search`](Self::search) with `enter` given the node number (see
    /// [`node_box`](Self::node_box), [`node_slab`](Self::node_slab),
    /// [`node_max_key`](Self::node_max_key)).
    pub(crate) fn search_nodes(
        &self,
        mut enter: impl FnMut(usize) -> bool,
        mut visit: impl FnMut(usize) -> bool,
    ) -> bool {
        if self.items.is_empty() {
            return false;
        }
        let mut stack = [(0u32, 0u32, 0u32); STACK];
        stack[0] = (0, 0, self.items.len() as u32);
        let mut depth = 1;
        while depth > 0 {
            depth -= 1;
            let (node, lo, hi) = stack[depth];
            let (node, lo, hi) = (node as usize, lo as usize, hi as usize);
            if self.live[node] == 0 || !enter(node) {
                continue;
            }
            if hi - lo <= LEAF {
                for &id in &self.items[lo..hi] {
                    if self.slot[id] != usize::MAX && visit(id) {
                        return true;
                    }
                }
                continue;
            }
            let mid = lo + (hi - lo) / 2;
            // Right pushed first: the left subtree is searched first.
            stack[depth] = ((2 * node + 2) as u32, mid as u32, hi as u32);
            stack[depth + 1] = ((2 * node + 1) as u32, lo as u32, mid as u32);
            depth += 2;
        }
        false
    }

    /// Bounding box of node `node`'s items.
    #[inline]
    pub(crate) fn node_box(&self, node: usize) -> &Aabb {
        &self.boxes[node]
    }

    /// Slab of node `node` (trees built by [`over_segments`](Self::over_segments)).
    #[inline]
    pub(crate) fn node_slab(&self, node: usize) -> &Slab {
        &self.slabs[node]
    }

    /// Largest key under node `node` (trees built by
    /// [`over_segments`](Self::over_segments)).
    #[inline]
    pub(crate) fn node_max_key(&self, node: usize) -> u32 {
        self.max_key[node]
    }
}

#[inline]
fn centre(b: &Aabb) -> Point {
    Point::new(0.5 * (b.min.x + b.max.x), 0.5 * (b.min.y + b.max.y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sat_collision_testkit::SplitMix64 as Rng;

    fn point_box(p: Point) -> Aabb {
        Aabb { min: p, max: p }
    }

    /// Searches find exactly the live items whose boxes meet the query box.
    #[test]
    fn search_matches_brute_force() {
        let mut rng = Rng(5);
        for n in [0usize, 1, 3, 4, 5, 17, 100, 1000] {
            let points: Vec<Point> = (0..n)
                .map(|_| Point::new(rng.range(0.0, 10.0), rng.range(0.0, 10.0)))
                .collect();
            // Every third point is not in the tree.
            let items: Vec<usize> = (0..n).filter(|i| i % 3 != 0).collect();
            let mut tree = BoxTree::new(items.clone(), n, |i| point_box(points[i]));
            let mut removed = vec![false; n];
            for round in 0..50 {
                if n > 0 && round % 5 == 4 {
                    let i = rng.below(n as i64) as usize;
                    tree.remove(i);
                    removed[i] = true;
                }
                let a = Point::new(rng.range(-1.0, 11.0), rng.range(-1.0, 11.0));
                let b = Point::new(rng.range(-1.0, 11.0), rng.range(-1.0, 11.0));
                let query = point_box(a).union(&point_box(b));
                let mut found = Vec::new();
                tree.search(
                    |b| b.intersects(&query),
                    |i| {
                        if point_box(points[i]).intersects(&query) {
                            found.push(i);
                        }
                        false
                    },
                );
                found.sort_unstable();
                let expected: Vec<usize> = items
                    .iter()
                    .copied()
                    .filter(|&i| !removed[i] && point_box(points[i]).intersects(&query))
                    .collect();
                assert_eq!(found, expected);
            }
        }
    }
}
