//! The states and transitions of rcl_lifecycle's default state machine, as
//! data: ids and labels as lifecycle_msgs and rcl_lifecycle spell them, in
//! the order rcl_lifecycle registers them.

use std::fmt;

/// A state of the default state machine (lifecycle_msgs/msg/State): the
/// five primary states and the six transition states, with their message
/// ids (`id()`) and rcl_lifecycle's labels (`label()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum State {
    /// `PRIMARY_STATE_UNKNOWN` (0), `"unknown"`: registered, never entered.
    Unknown = 0,
    /// `PRIMARY_STATE_UNCONFIGURED` (1), `"unconfigured"`: the initial state.
    Unconfigured = 1,
    /// `PRIMARY_STATE_INACTIVE` (2), `"inactive"`.
    Inactive = 2,
    /// `PRIMARY_STATE_ACTIVE` (3), `"active"`.
    Active = 3,
    /// `PRIMARY_STATE_FINALIZED` (4), `"finalized"`: no transition leaves it.
    Finalized = 4,
    /// `TRANSITION_STATE_CONFIGURING` (10), `"configuring"`: on_configure runs.
    Configuring = 10,
    /// `TRANSITION_STATE_CLEANINGUP` (11), `"cleaningup"`: on_cleanup runs.
    CleaningUp = 11,
    /// `TRANSITION_STATE_SHUTTINGDOWN` (12), `"shuttingdown"`: on_shutdown runs.
    ShuttingDown = 12,
    /// `TRANSITION_STATE_ACTIVATING` (13), `"activating"`: on_activate runs.
    Activating = 13,
    /// `TRANSITION_STATE_DEACTIVATING` (14), `"deactivating"`: on_deactivate runs.
    Deactivating = 14,
    /// `TRANSITION_STATE_ERRORPROCESSING` (15), `"errorprocessing"`: on_error runs.
    ErrorProcessing = 15,
}

/// Every state, in the order rcl_lifecycle registers them (the order
/// `get_available_states` answers): the primary states, then the
/// transition states.
static STATES: [State; 11] = [
    State::Unknown,
    State::Unconfigured,
    State::Inactive,
    State::Active,
    State::Finalized,
    State::Configuring,
    State::CleaningUp,
    State::ShuttingDown,
    State::Activating,
    State::Deactivating,
    State::ErrorProcessing,
];

impl State {
    /// The lifecycle_msgs id (`State.id`).
    pub fn id(self) -> u8 {
        self as u8
    }

    /// rcl_lifecycle's label (`State.label`).
    pub fn label(self) -> &'static str {
        match self {
            State::Unknown => "unknown",
            State::Unconfigured => "unconfigured",
            State::Inactive => "inactive",
            State::Active => "active",
            State::Finalized => "finalized",
            State::Configuring => "configuring",
            State::CleaningUp => "cleaningup",
            State::ShuttingDown => "shuttingdown",
            State::Activating => "activating",
            State::Deactivating => "deactivating",
            State::ErrorProcessing => "errorprocessing",
        }
    }

    /// A primary state (ids 0 to 4), where the node rests; the others are
    /// transition states, where a callback runs.
    pub fn is_primary(self) -> bool {
        self.id() < 10
    }

    /// Every state, in the order rcl_lifecycle registers them (the order
    /// of `get_available_states`).
    pub fn all() -> &'static [State] {
        &STATES
    }

    /// The state of lifecycle_msgs id `id`, if there is one.
    pub fn from_id(id: u8) -> Option<State> {
        STATES.iter().copied().find(|s| s.id() == id)
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// One transition of the default graph (lifecycle_msgs'
/// `TransitionDescription`): its lifecycle_msgs id, rcl_lifecycle's
/// label, the state it leaves and the state it enters.
///
/// Ids are unique in the graph; labels are not (`"shutdown"` is the
/// label of ids 5, 6 and 7, `"transition_success"` of every callback's
/// success), but they are unique among the transitions leaving one state,
/// which is how a label is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transition {
    /// The lifecycle_msgs id (`Transition.id`).
    pub id: u8,
    /// rcl_lifecycle's label (`Transition.label`).
    pub label: &'static str,
    /// The state it leaves.
    pub start: State,
    /// The state it enters.
    pub goal: State,
}

impl Transition {
    /// `TRANSITION_CONFIGURE`: unconfigured to configuring.
    pub const CONFIGURE: u8 = 1;
    /// `TRANSITION_CLEANUP`: inactive to cleaningup.
    pub const CLEANUP: u8 = 2;
    /// `TRANSITION_ACTIVATE`: inactive to activating.
    pub const ACTIVATE: u8 = 3;
    /// `TRANSITION_DEACTIVATE`: active to deactivating.
    pub const DEACTIVATE: u8 = 4;
    /// `TRANSITION_UNCONFIGURED_SHUTDOWN`: unconfigured to shuttingdown.
    pub const UNCONFIGURED_SHUTDOWN: u8 = 5;
    /// `TRANSITION_INACTIVE_SHUTDOWN`: inactive to shuttingdown.
    pub const INACTIVE_SHUTDOWN: u8 = 6;
    /// `TRANSITION_ACTIVE_SHUTDOWN`: active to shuttingdown.
    pub const ACTIVE_SHUTDOWN: u8 = 7;

    /// The transition of the default graph with lifecycle_msgs id `id`.
    pub fn by_id(id: u8) -> Option<&'static Transition> {
        GRAPH.iter().find(|t| t.id == id)
    }
}

impl fmt::Display for Transition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}: {} -> {})",
            self.label, self.id, self.start, self.goal
        )
    }
}

// rcl_lifecycle's labels of the requested transitions.
const CONFIGURE: &str = "configure";
const CLEANUP: &str = "cleanup";
const ACTIVATE: &str = "activate";
const DEACTIVATE: &str = "deactivate";
const SHUTDOWN: &str = "shutdown";
// rcl_lifecycle's labels of a callback's results (`rcl_lifecycle_transition_*_label`).
pub(super) const SUCCESS: &str = "transition_success";
pub(super) const FAILURE: &str = "transition_failure";
pub(super) const ERROR: &str = "transition_error";

const fn t(id: u8, label: &'static str, start: State, goal: State) -> Transition {
    Transition {
        id,
        label,
        start,
        goal,
    }
}

use State::{
    Activating, Active, CleaningUp, Configuring, Deactivating, ErrorProcessing, Finalized,
    Inactive, ShuttingDown, Unconfigured,
};

/// The default graph, in rcl_lifecycle's registration order (the order of
/// `get_transition_graph`). Each requested transition is followed by its
/// callback's three results (`_register_transitions` in
/// `default_state_machine.c`); the shutdowns from each primary state share
/// one transition state and its results.
static GRAPH: [Transition; 25] = [
    t(1, CONFIGURE, Unconfigured, Configuring),
    t(10, SUCCESS, Configuring, Inactive),
    t(11, FAILURE, Configuring, Unconfigured),
    t(12, ERROR, Configuring, ErrorProcessing),
    t(2, CLEANUP, Inactive, CleaningUp),
    t(20, SUCCESS, CleaningUp, Unconfigured),
    t(21, FAILURE, CleaningUp, Inactive),
    t(22, ERROR, CleaningUp, ErrorProcessing),
    t(3, ACTIVATE, Inactive, Activating),
    t(30, SUCCESS, Activating, Active),
    t(31, FAILURE, Activating, Inactive),
    t(32, ERROR, Activating, ErrorProcessing),
    t(4, DEACTIVATE, Active, Deactivating),
    t(40, SUCCESS, Deactivating, Inactive),
    t(41, FAILURE, Deactivating, Active),
    t(42, ERROR, Deactivating, ErrorProcessing),
    t(5, SHUTDOWN, Unconfigured, ShuttingDown),
    t(6, SHUTDOWN, Inactive, ShuttingDown),
    t(7, SHUTDOWN, Active, ShuttingDown),
    t(50, SUCCESS, ShuttingDown, Finalized),
    t(51, FAILURE, ShuttingDown, Finalized),
    t(52, ERROR, ShuttingDown, ErrorProcessing),
    t(60, SUCCESS, ErrorProcessing, Unconfigured),
    t(61, FAILURE, ErrorProcessing, Finalized),
    t(62, ERROR, ErrorProcessing, Finalized),
];

/// The default graph: every transition, in the order rcl_lifecycle
/// registers them (the order `get_transition_graph` answers).
pub fn graph() -> &'static [Transition] {
    &GRAPH
}

/// The transitions leaving `state`, in graph order (rcl_lifecycle's
/// `valid_transitions` of the state: registration order too).
pub(super) fn from(state: State) -> impl Iterator<Item = &'static Transition> {
    GRAPH.iter().filter(move |t| t.start == state)
}
