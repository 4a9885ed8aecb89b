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
//! Searches are depth first with a fixed-size stack: no allocation.

use super::{Aabb, Point};

/// Most items in a leaf.
const LEAF: usize = 4;
/// Depth bound of the search stack: a tree of `n` items is
/// `log2(n / LEAF) + 1` deep, and a depth-first search holds at most one
/// pending sibling per level.
const STACK: usize = 64;

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
        mut visit: impl FnMut(usize) -> bool,
    ) -> bool {
        if self.items.is_empty() {
            return false;
        }
        let mut stack = [(0usize, 0usize, 0usize); STACK];
        stack[0] = (0, 0, self.items.len());
        let mut depth = 1;
        while depth > 0 {
            depth -= 1;
            let (node, lo, hi) = stack[depth];
            if self.live[node] == 0 || !enter(&self.boxes[node]) {
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
            stack[depth] = (2 * node + 2, mid, hi);
            stack[depth + 1] = (2 * node + 1, lo, mid);
            depth += 2;
        }
        false
    }
}

#[inline]
fn centre(b: &Aabb) -> Point {
    Point::new(0.5 * (b.min.x + b.max.x), 0.5 * (b.min.y + b.max.y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

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
