//! SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators", 2014; the constants of Vigna's reference implementation):
//! deterministic, so a failing case is named by its seed and can be run
//! again, and the benchmarks build the same scenes in every run.
//!
//! Every random case of the tests and benchmarks comes from this one
//! generator; the helpers on top of [`SplitMix64::next_u64`] are the ones the
//! tests were written with, so their sequences, and therefore their cases,
//! are the ones they always had.

/// The golden-ratio increment of SplitMix64.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64; the field is the generator's state (`SplitMix64(seed)`
/// starts from `seed`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// Starts from state `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// Starts from state `seed ^ GAMMA`: the seeding of
    /// `tests/geometry/decomposition_properties.rs`, whose seeds name the cases of
    /// this start (the same generator, another starting state for the same
    /// seed number).
    pub fn from_seed_xor_gamma(seed: u64) -> Self {
        SplitMix64(seed ^ GAMMA)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` (the top 53 bits of [`next_u64`](Self::next_u64)).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform integer in `[0, n)`, `n > 0` (modulo bias: negligible for
    /// the small `n` of the tests).
    pub fn below(&mut self, n: i64) -> i64 {
        (self.next_u64() % n as u64) as i64
    }

    /// [`below`](Self::below) for `usize` counts: the same draw.
    pub fn below_usize(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform integer in `[lo, hi]`, `lo <= hi`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % ((hi - lo + 1) as u64)) as i64
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_outputs_of_seed_zero_are_the_reference_ones() {
        // splitmix64.c (Vigna) with x = 0.
        let mut rng = SplitMix64(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn new_is_the_state_and_xor_gamma_another_start() {
        assert_eq!(SplitMix64::new(42), SplitMix64(42));
        assert_eq!(
            SplitMix64::from_seed_xor_gamma(42),
            SplitMix64(42 ^ 0x9E37_79B9_7F4A_7C15)
        );
        // Seed 0 with the xor starts where SplitMix64(0) is after one draw.
        let mut a = SplitMix64::from_seed_xor_gamma(0);
        let mut b = SplitMix64(0);
        b.next_u64();
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn derived_draws_use_one_output_each() {
        let mut raw = SplitMix64(7);
        let outputs: Vec<u64> = (0..6).map(|_| raw.next_u64()).collect();
        let mut rng = SplitMix64(7);
        assert_eq!(
            rng.unit(),
            (outputs[0] >> 11) as f64 / 9_007_199_254_740_992.0
        );
        let r = rng.range(-2.0, 3.0);
        assert_eq!(
            r,
            -2.0 + 5.0 * ((outputs[1] >> 11) as f64 / 9_007_199_254_740_992.0)
        );
        assert_eq!(rng.below(10), (outputs[2] % 10) as i64);
        assert_eq!(rng.below_usize(10), (outputs[3] % 10) as usize);
        assert_eq!(rng.int(-3, 3), -3 + (outputs[4] % 7) as i64);
        assert_eq!(
            rng.chance(0.5),
            ((outputs[5] >> 11) as f64 / 9_007_199_254_740_992.0) < 0.5
        );
    }

    #[test]
    fn draws_stay_in_their_ranges() {
        let mut rng = SplitMix64(3);
        for _ in 0..10_000 {
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
            let r = rng.range(-1.5, 2.5);
            assert!((-1.5..2.5).contains(&r));
            assert!((0..5).contains(&rng.below(5)));
            assert!(rng.below_usize(3) < 3);
            assert!((-4..=4).contains(&rng.int(-4, 4)));
        }
        assert!(!rng.chance(0.0));
        assert!(rng.chance(1.0));
    }
}
