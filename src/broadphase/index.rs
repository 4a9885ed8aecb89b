//! The index: the obstacles, held once, with their boxes; and the span of
//! it that a query runs over.

use super::boxes::Boxes;
use crate::model::Obstacle;
use std::ops::Range;

/// A set of obstacles and their boxes, kept in step: the index owns the
/// obstacles, so no query can be asked about other ones than it indexed.
/// Queries run over the whole index ([`all`](Self::all)) or a contiguous
/// run of it ([`span`](Self::span)) and name obstacles by their position
/// in [`obstacles`](Self::obstacles).
#[derive(Clone, Debug, Default)]
pub struct ObstacleIndex {
    pub(super) obstacles: Vec<Obstacle>,
    pub(super) boxes: Boxes,
}

impl ObstacleIndex {
    /// Indexes `obstacles` (kept in this order).
    pub fn new(obstacles: Vec<Obstacle>) -> Self {
        let mut boxes = Boxes::default();
        boxes.rebuild(&obstacles);
        ObstacleIndex { obstacles, boxes }
    }

    /// The obstacles, in index order.
    pub fn obstacles(&self) -> &[Obstacle] {
        &self.obstacles
    }

    /// The obstacles back, in index order (the boxes are dropped).
    pub fn into_obstacles(self) -> Vec<Obstacle> {
        self.obstacles
    }

    /// Number of obstacles indexed.
    pub fn len(&self) -> usize {
        self.obstacles.len()
    }

    /// True when no obstacle is indexed.
    pub fn is_empty(&self) -> bool {
        self.obstacles.is_empty()
    }

    /// Whether any indexed obstacle is invalid.
    pub fn any_invalid(&self) -> bool {
        !self.boxes.invalid(0..self.len()).is_empty()
    }

    /// Changes the obstacles through `edit` (insert, replace, sort, drop:
    /// anything a `Vec` allows), then indexes them again, reusing the
    /// buffers: no allocation for the boxes once they have held as many
    /// obstacles. A [`split`](Self::split) is undone: the index is one run
    /// again. Returns what `edit` returns.
    pub fn update<R>(&mut self, edit: impl FnOnce(&mut Vec<Obstacle>) -> R) -> R {
        let result = edit(&mut self.obstacles);
        self.boxes.rebuild(&self.obstacles);
        result
    }

    /// Cuts the index into consecutive runs of `lengths` obstacles (a
    /// length past the end is cut short; what the lengths leave over is one
    /// more run): a span of exactly one run ([`span`](Self::span)) takes its
    /// tolerance scale from that run alone, as if the run were indexed on
    /// its own (the monitor's runs are frames, whose coordinates may be of
    /// any size), and is made without a pass over the run.
    pub fn split(&mut self, lengths: impl IntoIterator<Item = usize>) {
        self.boxes.split(lengths);
    }

    /// Gives memory back after a much larger set: the obstacles' and the
    /// boxes' buffers, each when more than four times (and 4,096 entries)
    /// larger than what it holds.
    pub fn shrink(&mut self) {
        if self.obstacles.capacity() > 4 * self.obstacles.len().max(1024) {
            self.obstacles.shrink_to_fit();
        }
        self.boxes.shrink();
    }

    /// Every obstacle, as one span.
    pub fn all(&self) -> Span<'_> {
        self.span(0..self.len())
    }

    /// The obstacles in `range` (positions in
    /// [`obstacles`](Self::obstacles)): the queries over them name
    /// obstacles by their position in the whole index. The tolerance scale
    /// is the span's own: the run's when `range` is one of a
    /// [`split`](Self::split) (or the whole index), else found by a pass
    /// over `range`.
    ///
    /// # Panics
    /// When `range` is not within the index, as slicing would.
    pub fn span(&self, range: Range<usize>) -> Span<'_> {
        assert!(
            range.start <= range.end && range.end <= self.len(),
            "ObstacleIndex::span: {range:?} is not within 0..{}",
            self.len()
        );
        Span {
            index: self,
            start: range.start,
            end: range.end,
            magnitude: self.boxes.magnitude(range),
        }
    }
}

/// A contiguous run of an [`ObstacleIndex`]: what every query runs over
/// (the monitor's obstacles of one frame and stamp; or all of them).
/// Obstacles are named by their position in the whole index.
#[derive(Clone, Copy, Debug)]
pub struct Span<'a> {
    pub(super) index: &'a ObstacleIndex,
    pub(super) start: usize,
    pub(super) end: usize,
    /// Largest absolute coordinate of the span's valid obstacles: the
    /// tolerance scale of its queries.
    pub(super) magnitude: f64,
}

impl<'a> Span<'a> {
    /// Positions of the span's obstacles in the index.
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }

    /// The span's obstacles.
    pub fn obstacles(&self) -> &'a [Obstacle] {
        &self.index.obstacles[self.start..self.end]
    }

    /// Number of obstacles in the span.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// True when the span holds no obstacle.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// How many of the span's obstacles are invalid.
    pub fn invalid_count(&self) -> usize {
        self.invalid().len()
    }

    /// Whether any of the span's obstacles is invalid.
    pub fn any_invalid(&self) -> bool {
        !self.invalid().is_empty()
    }

    /// Positions of the span's invalid obstacles, ascending.
    pub(super) fn invalid(&self) -> &'a [usize] {
        self.index.boxes.invalid(self.range())
    }
}
