//! Is the ROS clock one that freshness can be measured with?
//!
//! Freshness is measured in ROS time, so that it follows simulated time.
//! That makes it only as good as the clock: with `use_sim_time` and no
//! `/clock` publisher ROS time reads 0; a `/clock` that stops leaves every
//! input looking as fresh as when it stopped; one that jumps back (a
//! simulation or a bag restarted) makes inputs from before the jump look
//! young again. [`ClockWatch`] tells these apart from a clock that works,
//! comparing ROS time with a steady clock the caller also passes in (pure:
//! both times are injected).

use crate::model::Cause;

/// ROS time may step back by this much (s) without counting as a jump:
/// rounding between readings taken on different threads.
pub const JUMP_TOLERANCE: f64 = 1e-6;

/// How long (s) ROS time may stand still before it counts as stalled when
/// no timeout is in force ([`MonitorConfig::stall_limit`](super::MonitorConfig::stall_limit)).
pub const DEFAULT_STALL_LIMIT: f64 = 1.0;

/// Watches successive readings of the ROS clock against a steady clock.
#[derive(Clone, Debug, Default)]
pub struct ClockWatch {
    /// The latest ROS time seen (s), once it was non-zero.
    last_ros: Option<f64>,
    /// Steady time (s) at which ROS time last advanced.
    last_advance: f64,
    /// How many times ROS time went back; inputs are tagged with it.
    jumps: u32,
}

/// One reading of the clock, judged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockReading {
    /// ROS time (s).
    pub ros: f64,
    /// How many backward jumps happened so far: an input received under an
    /// older generation comes from before a jump.
    pub generation: u32,
    /// `NoClock` or `ClockStalled` when ROS time cannot be used to judge
    /// freshness now.
    pub cause: Option<Cause>,
}

impl ClockWatch {
    /// Judges a reading: `ros` and `steady` are read together, `steady`
    /// from a monotonic clock (s, any epoch). The clock has stalled when ROS
    /// time has not advanced for more than `stall_limit` seconds of steady
    /// time (0 or less: never judged stalled).
    pub fn observe(&mut self, ros: f64, steady: f64, stall_limit: f64) -> ClockReading {
        let reading = |cause, generation| ClockReading {
            ros,
            generation,
            cause,
        };
        if !(ros.is_finite() && ros > 0.0) {
            return reading(Some(Cause::NoClock), self.jumps);
        }
        match self.last_ros {
            Some(last) if ros < last - JUMP_TOLERANCE => {
                self.jumps = self.jumps.wrapping_add(1);
                self.last_ros = Some(ros);
                self.last_advance = steady;
            }
            Some(last) if ros <= last => {}
            _ => {
                self.last_ros = Some(ros);
                self.last_advance = steady;
            }
        }
        let stalled = stall_limit > 0.0 && steady - self.last_advance > stall_limit;
        reading(stalled.then_some(Cause::ClockStalled), self.jumps)
    }

    /// Backward jumps seen so far.
    pub fn generation(&self) -> u32 {
        self.jumps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_clock_until_ros_time_is_set() {
        let mut w = ClockWatch::default();
        assert_eq!(w.observe(0.0, 0.0, 1.0).cause, Some(Cause::NoClock));
        assert_eq!(w.observe(f64::NAN, 0.5, 1.0).cause, Some(Cause::NoClock));
        assert_eq!(w.observe(10.0, 0.6, 1.0).cause, None);
    }

    #[test]
    fn a_clock_that_stops_is_stalled_after_the_limit_and_recovers() {
        let mut w = ClockWatch::default();
        assert_eq!(w.observe(5.0, 0.0, 1.0).cause, None);
        assert_eq!(w.observe(5.0, 0.9, 1.0).cause, None);
        assert_eq!(w.observe(5.0, 1.1, 1.0).cause, Some(Cause::ClockStalled));
        assert_eq!(w.observe(5.0, 30.0, 0.0).cause, None, "limit 0: never");
        assert_eq!(w.observe(5.1, 30.1, 1.0).cause, None, "advances again");
    }

    #[test]
    fn a_backward_jump_starts_a_new_generation() {
        let mut w = ClockWatch::default();
        assert_eq!(w.observe(100.0, 0.0, 1.0).generation, 0);
        assert_eq!(w.observe(100.0 - 1e-9, 0.1, 1.0).generation, 0, "rounding");
        let r = w.observe(3.0, 0.2, 1.0);
        assert_eq!((r.generation, r.cause), (1, None));
        assert_eq!(w.observe(3.5, 0.7, 1.0).generation, 1);
        assert_eq!(w.observe(1.0, 0.8, 1.0).generation, 2);
        assert_eq!(w.generation(), 2);
    }
}
