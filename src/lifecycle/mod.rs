//! The node's lifecycle: rcl_lifecycle's default state machine as data
//! ([`State`], [`Transition`], [`graph()`]) and a small driver
//! ([`Machine`]) that resolves a change_state request, says which callback
//! to run and applies its result, as rclcpp_lifecycle does. No ROS: the
//! edge maps the lifecycle_msgs services and the transition event onto it.
//!
//! # The default state machine
//!
//! ```text
//!                  configure             activate
//!  [unconfigured] ----------> [inactive] ---------> [active]
//!                 <----------            <---------
//!        |          cleanup       |      deactivate    |
//!        |                        |                    |
//!        +------- shutdown -------+----- shutdown -----+----> [finalized]
//!
//!  request (id)     from            transition state  success         failure         error
//!  configure (1)    [unconfigured]  configuring       [inactive]      [unconfigured]  errorprocessing
//!  cleanup (2)      [inactive]      cleaningup        [unconfigured]  [inactive]      errorprocessing
//!  activate (3)     [inactive]      activating        [active]        [inactive]      errorprocessing
//!  deactivate (4)   [active]        deactivating      [inactive]      [active]        errorprocessing
//!  shutdown (5)     [unconfigured]  shuttingdown      [finalized]     [finalized]     errorprocessing
//!  shutdown (6)     [inactive]      shuttingdown      (the same)
//!  shutdown (7)     [active]        shuttingdown      (the same)
//!  (an error)       -               errorprocessing   [unconfigured]  [finalized]     [finalized]
//! ```
//!
//! Nothing leaves `[finalized]` (nor `unknown`, registered but never entered).
//!
//! States in brackets are primary: the node rests there and only there
//! accepts a request. The others are transition states: one callback runs
//! there and its [`CallbackResult`] picks the way out (labels
//! `transition_success`, `transition_failure`, `transition_error`; ids
//! 10 to 62 in [`graph()`]). Ids and labels are lifecycle_msgs' and
//! rcl_lifecycle's exactly, and [`State::all`] and [`graph()`] list them in
//! rcl_lifecycle's registration order (the services' answers).
//!
//! # What the edge does
//!
//! A change_state request `(id, label)`: [`Machine::begin`] resolves it as
//! rclcpp_lifecycle does (a non-empty label wins, looked up among the
//! transitions leaving the current state; else the id). Refused
//! ([`Refused`]): answer `success: false`, log why; nothing changed.
//! Accepted ([`Begun`]): publish its event, run its [`Callback`]:
//! * [`Callback::Configure`]: read and check the parameters, open the
//!   subscriptions, load zones and files. Failure: the reason logged, back
//!   to unconfigured.
//! * [`Callback::Activate`]: start publishing (and the bond).
//! * [`Callback::Deactivate`]: stop every output; the services answer
//!   `valid=false` status `inactive`.
//! * [`Callback::Cleanup`]: release what configure made.
//! * [`Callback::Shutdown`]: release everything; once change_state has
//!   answered, the process ends cleanly.
//!
//! then [`Machine::finish`] with its result and publish the event of
//! [`Finished::Done`] (the answer is its `success`: the callback
//! succeeded). On [`Finished::ErrorProcessing`]: publish its event, run
//! `on_error` (release what the node holds; success returns the node to
//! unconfigured), then [`Machine::finish_error`] and publish again; the
//! answer is `success: false`. [`Machine::change_state`] is this sequence
//! with closures.
//!
//! ```
//! use sat_collision::lifecycle::{CallbackResult, Finished, Machine, State, Transition};
//!
//! let mut machine = Machine::new();
//! // change_state {id: 1}: configure, which succeeds.
//! let begun = machine.begin(Transition::CONFIGURE, "")?;
//! assert_eq!(machine.state(), State::Configuring);
//! let Finished::Done { event, success, .. } = machine.finish(CallbackResult::Success) else {
//!     unreachable!()
//! };
//! assert!(success);
//! assert_eq!((begun.event.start, event.goal), (State::Unconfigured, State::Inactive));
//!
//! // change_state {label: "activate"}, whose callback errs; on_error succeeds.
//! let mut events = Vec::new();
//! let success = machine.change_state(
//!     0,
//!     "activate",
//!     |_| CallbackResult::Error,
//!     || CallbackResult::Success,
//!     |e| events.push(e.goal),
//! )?;
//! assert!(!success);
//! assert_eq!(events, [State::Activating, State::ErrorProcessing, State::Unconfigured]);
//! // "shutdown" names the shutdown from the current state.
//! assert_eq!(machine.resolve(0, "shutdown")?.id, Transition::UNCONFIGURED_SHUTDOWN);
//! # Ok::<(), sat_collision::lifecycle::Refused>(())
//! ```
//!
//! # Guarantees
//!
//! * No transition from a transition state is accepted: while a callback
//!   runs (until its result is applied) every request is
//!   [`Refused::Busy`], even one naming a transition that leaves that
//!   state (rcl_lifecycle alone would take `transition_success` there).
//! * A refused request leaves the state unchanged; an accepted one always
//!   ends in a primary state after at most two results (the callback's,
//!   then `on_error`'s), three events in all.
//! * Bad input is a typed refusal: any id (0 to 255), any label.

mod graph;
mod machine;

pub use graph::{graph, State, Transition};
pub use machine::{Begun, Callback, CallbackResult, Event, Finished, Machine, Refused, Requested};

#[cfg(test)]
mod tests;
