//! Simulated time (test_gate_judges.py's `test_sim_time_without_any_clock_
//! stops_the_gate` and `test_sim_clock_that_stops_stops_the_gate`, issue
//! 29): the clock read as the node reads it (`ClockWatch::observe` with
//! ROS time, a steady time and the core's `stall_limit`), the readings
//! given to the core. No clock ever: the gate stops (`no_clock`). A
//! simulator that dies (its clock and its scans stop together, so that by
//! ROS time nothing ever goes stale): zeros within the stall limit, the
//! flag true with `clock_stalled`; it runs again: commands pass.

use super::{goes, published, Rig, PERIOD};
use sat_collision::gate::{Action, Command, GateState, Reason};
use sat_collision::model::{Cause, Status};
use sat_collision::monitor::clock::ClockWatch;
use sat_collision::monitor::{SourceFault, DEFAULT_TRANSFORM_TOLERANCE};

const CMD: (f64, f64, f64) = (0.3, 0.0, 0.0);
/// The steady clock's step (s).
const STEP: f64 = 1.0 / 64.0;

/// The simulator and the node's watch of its clock.
struct Sim {
    watch: ClockWatch,
    /// Steady time (s).
    steady: f64,
    /// Simulated (ROS) time; 0: never ran.
    ros: f64,
    running: bool,
}

impl Sim {
    /// One step of steady time: the simulator's clock advances while it
    /// runs; the node reads it.
    fn step(&mut self, rig: &mut Rig) {
        self.steady += STEP;
        if self.running {
            self.ros += STEP;
        }
        let limit = rig.core.stall_limit();
        let reading = self.watch.observe(self.ros, self.steady, limit);
        rig.t = reading.ros;
        rig.generation = reading.generation;
        rig.clock_fault = reading.cause;
    }
}

fn stopped_by_the_clock(cause: Cause) -> GateState {
    GateState {
        action: Action::Stop,
        reason: Reason::InvalidSource(SourceFault {
            source: None,
            cause,
        }),
    }
}

#[test]
fn sim_time_without_any_clock_stops_the_gate() {
    let mut rig = Rig::new(super::config_of(&super::gate_yaml("")), 4);
    let mut sim = Sim {
        watch: ClockWatch::default(),
        steady: 100.0,
        ros: 0.0,
        running: false,
    };
    sim.step(&mut rig);
    assert_eq!(rig.clock_fault, Some(Cause::NoClock));
    // Scans stamped 0 (the simulator's time before it ever ran).
    rig.sense();
    let out = rig.set_active(true);
    let flag = out.flag.expect("the flag");
    assert!(flag.colliding && !flag.valid, "{flag:?}");
    assert_eq!(flag.status, Status::NoClock);
    assert_eq!(out.state, Some(stopped_by_the_clock(Cause::NoClock)));
    for _ in 0..16 {
        sim.step(&mut rig);
        rig.sense();
        let out = rig.command(CMD.0, CMD.1, CMD.2);
        assert_eq!(published(&out), Some(Command::ZERO));
    }
    // The simulator starts: its clock and its scans.
    sim.ros = 1000.0;
    sim.running = true;
    sim.step(&mut rig);
    assert_eq!(rig.clock_fault, None);
    rig.sense();
    let out = rig.command(CMD.0, CMD.1, CMD.2);
    assert!(goes(&out), "{out:?}");
    assert_eq!(out.state, Some(GateState::CLEAR));
}

#[test]
fn a_simulated_clock_that_stops_stops_the_gate_within_the_stall_limit() {
    let mut rig = Rig::gate("");
    let mut sim = Sim {
        watch: ClockWatch::default(),
        steady: 100.0,
        ros: rig.t,
        running: true,
    };
    // Running: scans every step, a command every period.
    for i in 0..64 {
        sim.step(&mut rig);
        rig.sense();
        if i % 4 == 0 {
            assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)), "running");
        }
    }
    // The simulator dies: its clock and its scans stop; the controller
    // goes on at 16 Hz, a re-check every period.
    sim.running = false;
    rig.sending.iter_mut().for_each(|s| *s = false);
    let died = sim.steady;
    let limit = rig.core.stall_limit();
    // The smallest timeout in force: transform_tolerance's default, below
    // the sources' and the footprint's.
    assert_eq!(limit, DEFAULT_TRANSFORM_TOLERANCE);
    let mut first_zero = None;
    let mut flags = Vec::new();
    for i in 0..192 {
        sim.step(&mut rig);
        if i % 4 != 0 {
            continue;
        }
        let out = rig.command(CMD.0, CMD.1, CMD.2);
        match (goes(&out), first_zero) {
            (true, Some(at)) => panic!("a command passed after the zeros began at {at}"),
            (true, None) => {}
            (false, None) => first_zero = Some(sim.steady - died),
            (false, Some(_)) => {}
        }
        let tick = rig.tick();
        assert!(first_zero.is_none() || !goes(&tick), "{tick:?}");
        flags.push(tick.flag.expect("the flag"));
    }
    let took = first_zero.expect("the gate stopped");
    assert!(took <= limit + PERIOD, "zeros {took} s after the stall");
    assert!(
        took > limit,
        "zeros {took} s after the stall: before the limit"
    );
    // By ROS time nothing went stale: the clock is the verdict.
    let last = flags.last().expect("flags");
    assert!(last.colliding && !last.valid, "{last:?}");
    assert_eq!(last.status, Status::ClockStalled);
    assert_eq!(
        rig.core.gate().expect("a gate").state(),
        stopped_by_the_clock(Cause::ClockStalled)
    );
    // Running again (its scans with it): commands pass.
    sim.running = true;
    rig.sending.iter_mut().for_each(|s| *s = true);
    sim.step(&mut rig);
    rig.sense();
    assert!(goes(&rig.command(CMD.0, CMD.1, CMD.2)));
}
