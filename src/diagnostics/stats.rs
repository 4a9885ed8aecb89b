//! Statistics in fixed memory: an input's age and rate, the decisions'
//! durations.

/// The width of one bucket of [`InputStats`]' rate (s).
pub const RATE_BUCKET: f64 = 0.1;

/// How many buckets [`InputStats`] keeps: its window is
/// [`RATE_WINDOW`] = `RATE_BUCKETS` × [`RATE_BUCKET`].
pub const RATE_BUCKETS: usize = 50;

/// The window of [`InputStats::rate`] (s): 5 s.
pub const RATE_WINDOW: f64 = RATE_BUCKETS as f64 * RATE_BUCKET;

/// The durations [`DecisionTimes`] keeps at most (the newest ones).
pub const DECISION_SAMPLES: usize = 2048;

/// The window of [`DecisionTimes::percentiles`] (s): the last second.
pub const DECISION_WINDOW: f64 = 1.0;

/// The bucket index of time `t` (s); `None` when `t` is not finite. Times
/// beyond `i64`'s range saturate (`as`), which only merges buckets
/// billions of years away.
fn bucket(t: f64) -> Option<i64> {
    t.is_finite().then(|| (t / RATE_BUCKET).floor() as i64)
}

/// One input's arrivals: how old the latest is and how often they came.
///
/// # The rate: per-100 ms buckets, not a ring of arrival times
/// Arrivals are counted in buckets of [`RATE_BUCKET`] (bucket `k` holds
/// the arrivals in `[k·0.1, (k+1)·0.1)` s), [`RATE_BUCKETS`] of them in a
/// fixed array. [`rate`](Self::rate) is the arrivals in the buckets from
/// the one `RATE_BUCKETS − 1` before now's to now's, divided by the time
/// those cover up to now: `now − start`, between 4.9 and 5 s. Buckets keep
/// the memory and the cost of [`record`](Self::record) fixed whatever the
/// input's rate (a ring of arrival times would need 5,000 entries for a
/// 1 kHz input, or cover less than the window when full), at the price of
/// a window edge known to 100 ms (at most 2 % of the window). An input that
/// stops reads 0 Hz [`RATE_WINDOW`] later; in the first 5 s after the node
/// starts the window is not full yet and the rate reads low.
///
/// Arrivals are recorded in the order they happen. When ROS time jumps
/// back, a bucket from before the jump is replaced when a new arrival
/// falls in its slot, and buckets after `now` are never counted.
#[derive(Clone, Debug)]
pub struct InputStats {
    /// The latest arrival recorded.
    last: Option<f64>,
    /// Slot `k mod RATE_BUCKETS` holds bucket `k`: its index and count.
    buckets: [(i64, u32); RATE_BUCKETS],
}

impl Default for InputStats {
    fn default() -> Self {
        InputStats::new()
    }
}

impl InputStats {
    /// No arrival yet.
    pub fn new() -> Self {
        InputStats {
            last: None,
            buckets: [(i64::MIN, 0); RATE_BUCKETS],
        }
    }

    /// A message arrived at `arrival` (s). A time that is not finite is
    /// ignored.
    pub fn record(&mut self, arrival: f64) {
        let Some(k) = bucket(arrival) else {
            return;
        };
        self.last = Some(arrival);
        let slot = &mut self.buckets[k.rem_euclid(RATE_BUCKETS as i64) as usize];
        if slot.0 == k {
            slot.1 = slot.1.saturating_add(1);
        } else {
            *slot = (k, 1);
        }
    }

    /// The latest arrival recorded, if any.
    pub fn last(&self) -> Option<f64> {
        self.last
    }

    /// How long ago the latest message arrived (s); `None`: never. Never
    /// negative (an arrival after `now`, from before ROS time jumped back,
    /// reads 0).
    pub fn age(&self, now: f64) -> Option<f64> {
        self.last.map(|t| (now - t).max(0.0))
    }

    /// The arrivals per second over the last [`RATE_WINDOW`] (Hz; the
    /// bucket rule in the type's documentation); 0 when `now` is not
    /// finite.
    pub fn rate(&self, now: f64) -> f64 {
        let Some(current) = bucket(now) else {
            return 0.0;
        };
        let first = current.saturating_sub(RATE_BUCKETS as i64 - 1);
        let count: u64 = self
            .buckets
            .iter()
            .filter(|(k, _)| (first..=current).contains(k))
            .map(|&(_, n)| u64::from(n))
            .sum();
        let span = now - first as f64 * RATE_BUCKET;
        if span > 0.0 {
            count as f64 / span
        } else {
            0.0
        }
    }
}

/// The decisions' durations, for their p50 and p99 over the last second.
///
/// A ring of the newest [`DECISION_SAMPLES`] `(time, duration)` pairs and
/// a scratch buffer of the same size, both allocated by
/// [`new`](Self::new): [`record`](Self::record) and
/// [`percentiles`](Self::percentiles) allocate nothing. When more than
/// `DECISION_SAMPLES` decisions are recorded within one second, the
/// oldest are overwritten: the percentiles are then those of the newest
/// `DECISION_SAMPLES` decisions (the end of that second), exact over them.
/// Not `Clone`: a clone's vectors would lose their reserved capacity.
#[derive(Debug)]
pub struct DecisionTimes {
    /// `(time, duration)`, at most `DECISION_SAMPLES`, a ring once full.
    samples: Vec<(f64, f64)>,
    /// The slot the next sample overwrites once the ring is full.
    next: usize,
    /// Sorting room for `percentiles`, capacity `DECISION_SAMPLES`.
    scratch: Vec<f64>,
}

impl Default for DecisionTimes {
    fn default() -> Self {
        DecisionTimes::new()
    }
}

impl DecisionTimes {
    /// No decision yet; the memory for [`DECISION_SAMPLES`] allocated.
    pub fn new() -> Self {
        DecisionTimes {
            samples: Vec::with_capacity(DECISION_SAMPLES),
            next: 0,
            scratch: Vec::with_capacity(DECISION_SAMPLES),
        }
    }

    /// A decision made at `now` (s) took `seconds`. A time or a duration
    /// that is not finite, or a negative duration, is ignored.
    pub fn record(&mut self, now: f64, seconds: f64) {
        if !now.is_finite() || !seconds.is_finite() || seconds < 0.0 {
            return;
        }
        if self.samples.len() < DECISION_SAMPLES {
            // Within the capacity reserved by `new`: no allocation.
            self.samples.push((now, seconds));
        } else {
            self.samples[self.next] = (now, seconds);
            self.next = (self.next + 1) % DECISION_SAMPLES;
        }
    }

    /// The nearest-rank p50 and p99 (s) of the durations recorded at times
    /// in `(now − 1 s, now]`; `None` when there is none. Nearest rank: the
    /// `⌈p·n/100⌉`-th smallest of the `n` durations.
    pub fn percentiles(&mut self, now: f64) -> Option<(f64, f64)> {
        self.scratch.clear();
        // At most `DECISION_SAMPLES` values: within the scratch's capacity.
        self.scratch.extend(
            self.samples
                .iter()
                .filter(|&&(t, _)| t <= now && now - t < DECISION_WINDOW)
                .map(|&(_, d)| d),
        );
        let n = self.scratch.len();
        if n == 0 {
            return None;
        }
        self.scratch.sort_unstable_by(f64::total_cmp);
        // Rank ⌈p·n/100⌉ is in 1..=n for p in 1..=100 and n ≥ 1.
        let at = |p: usize| self.scratch[(p * n).div_ceil(100) - 1];
        Some((at(50), at(99)))
    }
}
