//! The driver: the current state, a request resolved and begun, a
//! callback's result applied.

use super::graph::{self, State, Transition, ERROR, FAILURE, SUCCESS};
use std::fmt;

/// The callback a requested transition runs (rclcpp_lifecycle's
/// `on_configure`, `on_cleanup`, ...): one per transition state but
/// errorprocessing, whose `on_error` only ever follows a callback's
/// [`CallbackResult::Error`] ([`Finished::ErrorProcessing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Callback {
    /// `on_configure` (state configuring).
    Configure,
    /// `on_cleanup` (state cleaningup).
    Cleanup,
    /// `on_activate` (state activating).
    Activate,
    /// `on_deactivate` (state deactivating).
    Deactivate,
    /// `on_shutdown` (state shuttingdown).
    Shutdown,
}

impl Callback {
    /// The callback run in transition state `state` (`None` for a primary
    /// state and for errorprocessing).
    fn of(state: State) -> Option<Callback> {
        match state {
            State::Configuring => Some(Callback::Configure),
            State::CleaningUp => Some(Callback::Cleanup),
            State::Activating => Some(Callback::Activate),
            State::Deactivating => Some(Callback::Deactivate),
            State::ShuttingDown => Some(Callback::Shutdown),
            _ => None,
        }
    }
}

/// What a callback answered (rclcpp_lifecycle's `CallbackReturn`): it picks
/// the transition out of the transition state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallbackResult {
    /// `SUCCESS` (`TRANSITION_CALLBACK_SUCCESS`, 97): on to the goal.
    Success,
    /// `FAILURE` (98): back to the primary state the request left (from
    /// shuttingdown: finalized all the same).
    Failure,
    /// `ERROR` (99): to errorprocessing, where `on_error` runs.
    Error,
}

impl CallbackResult {
    /// The lifecycle_msgs id (`TRANSITION_CALLBACK_SUCCESS` 97, `_FAILURE`
    /// 98, `_ERROR` 99).
    pub fn id(self) -> u8 {
        match self {
            CallbackResult::Success => 97,
            CallbackResult::Failure => 98,
            CallbackResult::Error => 99,
        }
    }

    /// rcl_lifecycle's label of the transitions it triggers
    /// (`"transition_success"`, `"transition_failure"`, `"transition_error"`).
    pub fn label(self) -> &'static str {
        match self {
            CallbackResult::Success => SUCCESS,
            CallbackResult::Failure => FAILURE,
            CallbackResult::Error => ERROR,
        }
    }
}

/// One step of the machine, to publish on `~/transition_event`
/// (lifecycle_msgs/msg/TransitionEvent; the edge adds the timestamp).
///
/// `start` and `goal` are `transition`'s own. rcl_lifecycle publishes
/// the same start and goal states but leaves the event's `transition`
/// field at its zero value (id 0, label `""`); the edge may fill it from
/// `transition` (no known subscriber reads it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// The transition taken.
    pub transition: &'static Transition,
    /// The state it left.
    pub start: State,
    /// The state it entered.
    pub goal: State,
}

impl Event {
    fn of(transition: &'static Transition) -> Event {
        Event {
            transition,
            start: transition.start,
            goal: transition.goal,
        }
    }
}

/// A request accepted by [`Machine::begin`]: the machine is now in the
/// transition state; publish `event`, run `callback`, then call
/// [`Machine::finish`] with its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Begun {
    /// The callback to run.
    pub callback: Callback,
    /// The step into the transition state.
    pub event: Event,
}

/// The transition a refused request named, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Requested {
    /// By id (the label was empty).
    Transition(&'static Transition),
    /// By label (one of the graph's: it names several transitions).
    Label(&'static str),
}

impl fmt::Display for Requested {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Requested::Transition(t) => write!(f, "transition {t}"),
            Requested::Label(label) => write!(f, "transition \"{label}\""),
        }
    }
}

/// Why [`Machine::begin`] refused a request (the state is unchanged;
/// change_state answers `success: false`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The machine is in a transition state: a callback is running (or its
    /// result was not applied yet). No request is accepted there, not even
    /// one of the transitions leaving that state.
    #[error("busy: the node is {state}, a transition is in progress")]
    Busy {
        /// The transition state.
        state: State,
    },
    /// The label was empty and no transition of the graph has this id.
    #[error("no transition has id {id}")]
    UnknownId {
        /// The requested id.
        id: u8,
    },
    /// No transition of the graph has this label (the caller has the
    /// request's text, to log escaped).
    #[error("no transition has the requested label")]
    UnknownLabel,
    /// The transition exists but does not leave the current state.
    #[error("{requested} is not available from {state}")]
    NotAvailable {
        /// The current state.
        state: State,
        /// What was requested.
        requested: Requested,
    },
}

/// What [`Machine::finish`] (and [`Machine::finish_error`]) did with a
/// callback's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finished {
    /// The machine reached a primary state: publish `event`; change_state
    /// answers `success`.
    Done {
        /// The step out of the transition state.
        event: Event,
        /// The primary state reached.
        state: State,
        /// rclcpp's change_state answer: the requested transition's
        /// callback returned [`CallbackResult::Success`] (so its goal was
        /// reached). Always false after error processing.
        success: bool,
    },
    /// The callback returned [`CallbackResult::Error`]: the machine is in
    /// errorprocessing. Publish `event`, run `on_error` (release what the
    /// node holds), then call [`Machine::finish_error`] with its result.
    ErrorProcessing {
        /// The step into errorprocessing.
        event: Event,
    },
    /// No callback's result was expected (finish without a begun request,
    /// or finish_error outside errorprocessing): nothing changed, nothing
    /// to publish. The caller's mistake, never the request's.
    Unexpected {
        /// The current state, unchanged.
        state: State,
    },
}

/// rcl_lifecycle's default state machine, driven as rclcpp_lifecycle's
/// change_state drives it: its only data is the current state.
///
/// Invariant: the state moves only along [`super::graph()`]; a
/// transition state is entered only by [`begin`](Self::begin) and left
/// only by [`finish`](Self::finish) or [`finish_error`](Self::finish_error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    state: State,
}

impl Default for Machine {
    fn default() -> Self {
        Machine::new()
    }
}

impl Machine {
    /// A machine in its initial state, unconfigured.
    pub fn new() -> Machine {
        Machine {
            state: State::Unconfigured,
        }
    }

    /// A machine in any state (the tests' start; [`State::Unknown`] is
    /// otherwise unreachable).
    #[cfg(test)]
    pub(super) fn at(state: State) -> Machine {
        Machine { state }
    }

    /// The current state (`~/get_state`).
    pub fn state(&self) -> State {
        self.state
    }

    /// The transitions leaving the current state, in graph order
    /// (`~/get_available_transitions`, as rcl_lifecycle answers it): from a
    /// primary state the requestable ones, from a transition state its
    /// callback's three results (which [`begin`](Self::begin) refuses).
    pub fn available(&self) -> impl Iterator<Item = &'static Transition> {
        graph::from(self.state)
    }

    /// The transition a request names, as rclcpp_lifecycle resolves it: a
    /// non-empty `label` is looked up among the transitions leaving the
    /// current state and wins over `id` (which is then ignored: `ros2
    /// service call` leaves it 0); an empty label means `id`, which must
    /// leave the current state. Refused from a transition state.
    pub fn resolve(&self, id: u8, label: &str) -> Result<&'static Transition, Refused> {
        let state = self.state;
        if !state.is_primary() {
            return Err(Refused::Busy { state });
        }
        if !label.is_empty() {
            if let Some(t) = graph::from(state).find(|t| t.label == label) {
                return Ok(t);
            }
            return match graph::graph().iter().find(|t| t.label == label) {
                Some(t) => Err(Refused::NotAvailable {
                    state,
                    requested: Requested::Label(t.label),
                }),
                None => Err(Refused::UnknownLabel),
            };
        }
        match Transition::by_id(id) {
            None => Err(Refused::UnknownId { id }),
            Some(t) if t.start == state => Ok(t),
            Some(t) => Err(Refused::NotAvailable {
                state,
                requested: Requested::Transition(t),
            }),
        }
    }

    /// Starts the transition a request names ([`resolve`](Self::resolve)):
    /// the machine enters its transition state and [`Begun`] says which
    /// callback to run and the event to publish. A refusal changes
    /// nothing.
    pub fn begin(&mut self, id: u8, label: &str) -> Result<Begun, Refused> {
        let t = self.resolve(id, label)?;
        // Every transition leaving a primary state enters a transition
        // state other than errorprocessing (the graph: ids 1 to 7), so
        // `Callback::of` answers; the `else` keeps a broken graph from
        // panicking.
        let Some(callback) = Callback::of(t.goal) else {
            return Err(Refused::NotAvailable {
                state: self.state,
                requested: Requested::Transition(t),
            });
        };
        self.state = t.goal;
        Ok(Begun {
            callback,
            event: Event::of(t),
        })
    }

    /// Applies the running callback's result: the transition labelled by
    /// `result` out of the current transition state (success to the goal,
    /// failure back to the start, error to errorprocessing; see
    /// [`Finished`]). From errorprocessing it applies `on_error`'s result,
    /// as [`finish_error`](Self::finish_error) does.
    pub fn finish(&mut self, result: CallbackResult) -> Finished {
        let start = self.state;
        // Every transition state has the three results leaving it (the
        // graph), so `find` answers in one; a primary state has none.
        let Some(t) = graph::from(start).find(|t| t.label == result.label()) else {
            return Finished::Unexpected { state: start };
        };
        self.state = t.goal;
        let event = Event::of(t);
        // No result of errorprocessing enters errorprocessing again
        // (ids 60 to 62 go to unconfigured or finalized): error processing
        // runs at most once per request.
        if t.goal == State::ErrorProcessing {
            Finished::ErrorProcessing { event }
        } else {
            Finished::Done {
                event,
                state: t.goal,
                // Errorprocessing is entered only by a callback's Error:
                // the request did not succeed, whatever on_error answers.
                success: result == CallbackResult::Success && start != State::ErrorProcessing,
            }
        }
    }

    /// Applies `on_error`'s result in errorprocessing: success to
    /// unconfigured, failure or error to finalized ([`Finished::Done`] with
    /// `success: false`). Outside errorprocessing: [`Finished::Unexpected`].
    pub fn finish_error(&mut self, result: CallbackResult) -> Finished {
        if self.state != State::ErrorProcessing {
            return Finished::Unexpected { state: self.state };
        }
        self.finish(result)
    }

    /// The id of the shutdown transition from the current primary state
    /// (`unconfigured_shutdown` 5, `inactive_shutdown` 6, `active_shutdown`
    /// 7); `None` from finalized and from a transition state.
    pub fn shutdown(&self) -> Option<u8> {
        match self.state {
            State::Unconfigured => Some(Transition::UNCONFIGURED_SHUTDOWN),
            State::Inactive => Some(Transition::INACTIVE_SHUTDOWN),
            State::Active => Some(Transition::ACTIVE_SHUTDOWN),
            _ => None,
        }
    }

    /// One change_state request carried through, as rclcpp_lifecycle's
    /// change_state does: [`begin`](Self::begin), `publish` its event, run
    /// `callback`, [`finish`](Self::finish) and publish; on an error run
    /// `on_error`, [`finish_error`](Self::finish_error) and publish. Answers
    /// change_state's `success` (the callback returned success), or why the
    /// request was refused (nothing ran, nothing was published).
    pub fn change_state(
        &mut self,
        id: u8,
        label: &str,
        mut callback: impl FnMut(Callback) -> CallbackResult,
        mut on_error: impl FnMut() -> CallbackResult,
        mut publish: impl FnMut(Event),
    ) -> Result<bool, Refused> {
        let begun = self.begin(id, label)?;
        publish(begun.event);
        let mut finished = self.finish(callback(begun.callback));
        if let Finished::ErrorProcessing { event } = finished {
            publish(event);
            finished = self.finish_error(on_error());
        }
        match finished {
            Finished::Done { event, success, .. } => {
                publish(event);
                Ok(success)
            }
            // After begin the machine is in a transition state other than
            // errorprocessing, and after an error in errorprocessing, whose
            // results all lead to a primary state: neither arm is reached.
            Finished::ErrorProcessing { .. } | Finished::Unexpected { .. } => Ok(false),
        }
    }
}
