//! The state machine against lifecycle_msgs' constants and a reference
//! written here from the rules (rcl_lifecycle's `default_state_machine.c`,
//! rclcpp_lifecycle's change_state), not from the module's tables.

use super::*;
use sat_collision_testkit::SplitMix64;

// lifecycle_msgs/msg/State.msg
const PRIMARY_STATE_UNKNOWN: u8 = 0;
const PRIMARY_STATE_UNCONFIGURED: u8 = 1;
const PRIMARY_STATE_INACTIVE: u8 = 2;
const PRIMARY_STATE_ACTIVE: u8 = 3;
const PRIMARY_STATE_FINALIZED: u8 = 4;
const TRANSITION_STATE_CONFIGURING: u8 = 10;
const TRANSITION_STATE_CLEANINGUP: u8 = 11;
const TRANSITION_STATE_SHUTTINGDOWN: u8 = 12;
const TRANSITION_STATE_ACTIVATING: u8 = 13;
const TRANSITION_STATE_DEACTIVATING: u8 = 14;
const TRANSITION_STATE_ERRORPROCESSING: u8 = 15;

// lifecycle_msgs/msg/Transition.msg
const TRANSITION_CREATE: u8 = 0;
const TRANSITION_CONFIGURE: u8 = 1;
const TRANSITION_CLEANUP: u8 = 2;
const TRANSITION_ACTIVATE: u8 = 3;
const TRANSITION_DEACTIVATE: u8 = 4;
const TRANSITION_UNCONFIGURED_SHUTDOWN: u8 = 5;
const TRANSITION_INACTIVE_SHUTDOWN: u8 = 6;
const TRANSITION_ACTIVE_SHUTDOWN: u8 = 7;
const TRANSITION_DESTROY: u8 = 8;
const TRANSITION_ON_CONFIGURE_SUCCESS: u8 = 10;
const TRANSITION_ON_CONFIGURE_FAILURE: u8 = 11;
const TRANSITION_ON_CONFIGURE_ERROR: u8 = 12;
const TRANSITION_ON_CLEANUP_SUCCESS: u8 = 20;
const TRANSITION_ON_CLEANUP_FAILURE: u8 = 21;
const TRANSITION_ON_CLEANUP_ERROR: u8 = 22;
const TRANSITION_ON_ACTIVATE_SUCCESS: u8 = 30;
const TRANSITION_ON_ACTIVATE_FAILURE: u8 = 31;
const TRANSITION_ON_ACTIVATE_ERROR: u8 = 32;
const TRANSITION_ON_DEACTIVATE_SUCCESS: u8 = 40;
const TRANSITION_ON_DEACTIVATE_FAILURE: u8 = 41;
const TRANSITION_ON_DEACTIVATE_ERROR: u8 = 42;
const TRANSITION_ON_SHUTDOWN_SUCCESS: u8 = 50;
const TRANSITION_ON_SHUTDOWN_FAILURE: u8 = 51;
const TRANSITION_ON_SHUTDOWN_ERROR: u8 = 52;
const TRANSITION_ON_ERROR_SUCCESS: u8 = 60;
const TRANSITION_ON_ERROR_FAILURE: u8 = 61;
const TRANSITION_ON_ERROR_ERROR: u8 = 62;
const TRANSITION_CALLBACK_SUCCESS: u8 = 97;
const TRANSITION_CALLBACK_FAILURE: u8 = 98;
const TRANSITION_CALLBACK_ERROR: u8 = 99;

/// rcl_lifecycle's states in registration order: (id, label, primary).
const STATES: [(u8, &str, bool); 11] = [
    (PRIMARY_STATE_UNKNOWN, "unknown", true),
    (PRIMARY_STATE_UNCONFIGURED, "unconfigured", true),
    (PRIMARY_STATE_INACTIVE, "inactive", true),
    (PRIMARY_STATE_ACTIVE, "active", true),
    (PRIMARY_STATE_FINALIZED, "finalized", true),
    (TRANSITION_STATE_CONFIGURING, "configuring", false),
    (TRANSITION_STATE_CLEANINGUP, "cleaningup", false),
    (TRANSITION_STATE_SHUTTINGDOWN, "shuttingdown", false),
    (TRANSITION_STATE_ACTIVATING, "activating", false),
    (TRANSITION_STATE_DEACTIVATING, "deactivating", false),
    (TRANSITION_STATE_ERRORPROCESSING, "errorprocessing", false),
];

/// rcl_lifecycle's transitions in registration order (`_register_transitions`):
/// (id, label, start id, goal id).
#[rustfmt::skip]
const GRAPH: [(u8, &str, u8, u8); 25] = [
    (TRANSITION_CONFIGURE, "configure", PRIMARY_STATE_UNCONFIGURED, TRANSITION_STATE_CONFIGURING),
    (TRANSITION_ON_CONFIGURE_SUCCESS, "transition_success", TRANSITION_STATE_CONFIGURING, PRIMARY_STATE_INACTIVE),
    (TRANSITION_ON_CONFIGURE_FAILURE, "transition_failure", TRANSITION_STATE_CONFIGURING, PRIMARY_STATE_UNCONFIGURED),
    (TRANSITION_ON_CONFIGURE_ERROR, "transition_error", TRANSITION_STATE_CONFIGURING, TRANSITION_STATE_ERRORPROCESSING),
    (TRANSITION_CLEANUP, "cleanup", PRIMARY_STATE_INACTIVE, TRANSITION_STATE_CLEANINGUP),
    (TRANSITION_ON_CLEANUP_SUCCESS, "transition_success", TRANSITION_STATE_CLEANINGUP, PRIMARY_STATE_UNCONFIGURED),
    (TRANSITION_ON_CLEANUP_FAILURE, "transition_failure", TRANSITION_STATE_CLEANINGUP, PRIMARY_STATE_INACTIVE),
    (TRANSITION_ON_CLEANUP_ERROR, "transition_error", TRANSITION_STATE_CLEANINGUP, TRANSITION_STATE_ERRORPROCESSING),
    (TRANSITION_ACTIVATE, "activate", PRIMARY_STATE_INACTIVE, TRANSITION_STATE_ACTIVATING),
    (TRANSITION_ON_ACTIVATE_SUCCESS, "transition_success", TRANSITION_STATE_ACTIVATING, PRIMARY_STATE_ACTIVE),
    (TRANSITION_ON_ACTIVATE_FAILURE, "transition_failure", TRANSITION_STATE_ACTIVATING, PRIMARY_STATE_INACTIVE),
    (TRANSITION_ON_ACTIVATE_ERROR, "transition_error", TRANSITION_STATE_ACTIVATING, TRANSITION_STATE_ERRORPROCESSING),
    (TRANSITION_DEACTIVATE, "deactivate", PRIMARY_STATE_ACTIVE, TRANSITION_STATE_DEACTIVATING),
    (TRANSITION_ON_DEACTIVATE_SUCCESS, "transition_success", TRANSITION_STATE_DEACTIVATING, PRIMARY_STATE_INACTIVE),
    (TRANSITION_ON_DEACTIVATE_FAILURE, "transition_failure", TRANSITION_STATE_DEACTIVATING, PRIMARY_STATE_ACTIVE),
    (TRANSITION_ON_DEACTIVATE_ERROR, "transition_error", TRANSITION_STATE_DEACTIVATING, TRANSITION_STATE_ERRORPROCESSING),
    (TRANSITION_UNCONFIGURED_SHUTDOWN, "shutdown", PRIMARY_STATE_UNCONFIGURED, TRANSITION_STATE_SHUTTINGDOWN),
    (TRANSITION_INACTIVE_SHUTDOWN, "shutdown", PRIMARY_STATE_INACTIVE, TRANSITION_STATE_SHUTTINGDOWN),
    (TRANSITION_ACTIVE_SHUTDOWN, "shutdown", PRIMARY_STATE_ACTIVE, TRANSITION_STATE_SHUTTINGDOWN),
    (TRANSITION_ON_SHUTDOWN_SUCCESS, "transition_success", TRANSITION_STATE_SHUTTINGDOWN, PRIMARY_STATE_FINALIZED),
    (TRANSITION_ON_SHUTDOWN_FAILURE, "transition_failure", TRANSITION_STATE_SHUTTINGDOWN, PRIMARY_STATE_FINALIZED),
    (TRANSITION_ON_SHUTDOWN_ERROR, "transition_error", TRANSITION_STATE_SHUTTINGDOWN, TRANSITION_STATE_ERRORPROCESSING),
    (TRANSITION_ON_ERROR_SUCCESS, "transition_success", TRANSITION_STATE_ERRORPROCESSING, PRIMARY_STATE_UNCONFIGURED),
    (TRANSITION_ON_ERROR_FAILURE, "transition_failure", TRANSITION_STATE_ERRORPROCESSING, PRIMARY_STATE_FINALIZED),
    (TRANSITION_ON_ERROR_ERROR, "transition_error", TRANSITION_STATE_ERRORPROCESSING, PRIMARY_STATE_FINALIZED),
];

fn label_of(id: u8) -> &'static str {
    STATES
        .iter()
        .find(|s| s.0 == id)
        .map(|s| s.1)
        .unwrap_or_else(|| panic!("no state {id}"))
}

// ---------------------------------------------------------------------------
// The reference: rclcpp's change_state on rcl's default machine, from the
// rules rather than a table. A requestable transition is one of seven
// (from, id, label, transition state); a callback's result in a transition
// state is transition `10 * kind + result` (kind 1 configure, 2 cleanup,
// 3 activate, 4 deactivate, 5 shutdown, 6 on_error; result 0 success,
// 1 failure, 2 error): success to the request's goal, failure back to
// where the request started (shutdown: finalized), error to
// errorprocessing; on_error: success to unconfigured, else finalized.

/// (from, id, label, transition state, the goal on success).
const REQUESTABLE: [(u8, u8, &str, u8, u8); 7] = [
    (1, 1, "configure", 10, 2),
    (2, 2, "cleanup", 11, 1),
    (2, 3, "activate", 13, 3),
    (3, 4, "deactivate", 14, 2),
    (1, 5, "shutdown", 12, 4),
    (2, 6, "shutdown", 12, 4),
    (3, 7, "shutdown", 12, 4),
];

#[derive(Clone, Copy, Debug, PartialEq)]
enum RefAnswer {
    /// Accepted: (transition id, transition state).
    Accept(u8, u8),
    Busy,
    UnknownId,
    UnknownLabel,
    NotAvailable,
}

/// Every id and label of the default graph, from lifecycle_msgs.
fn graph_id(id: u8) -> bool {
    (1..=7).contains(&id) || ((10..=62).contains(&id) && id % 10 <= 2)
}

fn graph_label(label: &str) -> bool {
    matches!(
        label,
        "configure"
            | "cleanup"
            | "activate"
            | "deactivate"
            | "shutdown"
            | "transition_success"
            | "transition_failure"
            | "transition_error"
    )
}

#[derive(Clone, Copy, Debug)]
struct Reference {
    state: u8,
    /// In a transition state: the request's (from, kind, goal on success).
    pending: Option<(u8, u8, u8)>,
}

impl Reference {
    fn request(&self, id: u8, label: &str) -> RefAnswer {
        if self.state >= 10 {
            return RefAnswer::Busy;
        }
        let found = REQUESTABLE.iter().find(|r| {
            r.0 == self.state
                && if label.is_empty() {
                    r.1 == id
                } else {
                    r.2 == label
                }
        });
        match found {
            Some(r) => RefAnswer::Accept(r.1, r.3),
            None if !label.is_empty() && !graph_label(label) => RefAnswer::UnknownLabel,
            None if label.is_empty() && !graph_id(id) => RefAnswer::UnknownId,
            None => RefAnswer::NotAvailable,
        }
    }

    /// Applies an accepted request.
    fn begin(&mut self, id: u8) {
        let r = REQUESTABLE
            .iter()
            .find(|r| r.0 == self.state && r.1 == id)
            .expect("an accepted request");
        let kind = if r.3 == 12 { 5 } else { id };
        self.pending = Some((self.state, kind, r.4));
        self.state = r.3;
    }

    /// A result (0 success, 1 failure, 2 error): (transition id, start, goal).
    fn finish(&mut self, result: u8) -> (u8, u8, u8) {
        let start = self.state;
        let (from, kind, goal) = self.pending.expect("a transition state");
        let (kind, next) = if start == 15 {
            (6, if result == 0 { 1 } else { 4 })
        } else {
            let next = match result {
                0 => goal,
                1 if kind == 5 => 4,
                1 => from,
                _ => 15,
            };
            (kind, next)
        };
        self.state = next;
        if next >= 10 {
            self.pending = Some((from, kind, goal));
        } else {
            self.pending = None;
        }
        (10 * kind + result, start, next)
    }
}

/// A callback's result for the walks: mostly success, so that walks last.
fn draw_result(rng: &mut SplitMix64) -> u8 {
    match rng.below(10) {
        0 | 1 => 1,
        2 | 3 => 2,
        _ => 0,
    }
}

fn result_of(r: u8) -> CallbackResult {
    match r {
        0 => CallbackResult::Success,
        1 => CallbackResult::Failure,
        _ => CallbackResult::Error,
    }
}

fn answer_of(r: &Result<Begun, Refused>) -> RefAnswer {
    match r {
        Ok(b) => RefAnswer::Accept(b.event.transition.id, b.event.goal.id()),
        Err(Refused::Busy { .. }) => RefAnswer::Busy,
        Err(Refused::UnknownId { .. }) => RefAnswer::UnknownId,
        Err(Refused::UnknownLabel) => RefAnswer::UnknownLabel,
        Err(Refused::NotAvailable { .. }) => RefAnswer::NotAvailable,
    }
}

fn check_event(event: &Event, want: (u8, u8, u8), context: &str) {
    assert_eq!(
        (event.transition.id, event.start.id(), event.goal.id()),
        want,
        "{context}"
    );
    assert_eq!(event.start, event.transition.start, "{context}");
    assert_eq!(event.goal, event.transition.goal, "{context}");
}

/// Labels a request may carry: the graph's, case and space variants, junk.
const LABELS: [&str; 14] = [
    "",
    "configure",
    "cleanup",
    "activate",
    "deactivate",
    "shutdown",
    "transition_success",
    "transition_failure",
    "transition_error",
    "Configure",
    "shutdown ",
    "unconfigured_shutdown",
    "create",
    "é\u{0}",
];

// ---------------------------------------------------------------------------

#[test]
fn states_are_lifecycle_msgs_in_registration_order() {
    let all = State::all();
    assert_eq!(all.len(), STATES.len());
    for (state, &(id, label, primary)) in all.iter().zip(STATES.iter()) {
        assert_eq!(state.id(), id);
        assert_eq!(state.label(), label);
        assert_eq!(state.to_string(), label);
        assert_eq!(state.is_primary(), primary, "{label}");
    }
    for id in 0..=255u8 {
        let want = STATES.iter().find(|s| s.0 == id);
        assert_eq!(State::from_id(id).map(State::id), want.map(|s| s.0), "{id}");
    }
    assert_eq!(Machine::new().state().id(), PRIMARY_STATE_UNCONFIGURED);
    assert_eq!(Machine::default(), Machine::new());
}

#[test]
fn the_graph_is_rcl_lifecycles() {
    let graph = graph();
    assert_eq!(graph.len(), GRAPH.len());
    for (t, &(id, label, start, goal)) in graph.iter().zip(GRAPH.iter()) {
        let got = (t.id, t.label, t.start.id(), t.goal.id());
        assert_eq!(got, (id, label, start, goal));
        assert_eq!(t.start.label(), label_of(start));
        assert_eq!(t.goal.label(), label_of(goal));
        assert_eq!(Transition::by_id(id), Some(t));
    }
    for id in 0..=255u8 {
        assert_eq!(
            Transition::by_id(id).is_some(),
            GRAPH.iter().any(|g| g.0 == id),
            "{id}"
        );
    }
    assert_eq!(
        [
            Transition::CONFIGURE,
            Transition::CLEANUP,
            Transition::ACTIVATE,
            Transition::DEACTIVATE,
            Transition::UNCONFIGURED_SHUTDOWN,
            Transition::INACTIVE_SHUTDOWN,
            Transition::ACTIVE_SHUTDOWN,
        ],
        [
            TRANSITION_CONFIGURE,
            TRANSITION_CLEANUP,
            TRANSITION_ACTIVATE,
            TRANSITION_DEACTIVATE,
            TRANSITION_UNCONFIGURED_SHUTDOWN,
            TRANSITION_INACTIVE_SHUTDOWN,
            TRANSITION_ACTIVE_SHUTDOWN,
        ]
    );
    let results = [
        CallbackResult::Success,
        CallbackResult::Failure,
        CallbackResult::Error,
    ];
    let ids: Vec<u8> = results.iter().map(|r| r.id()).collect();
    assert_eq!(
        ids,
        [
            TRANSITION_CALLBACK_SUCCESS,
            TRANSITION_CALLBACK_FAILURE,
            TRANSITION_CALLBACK_ERROR
        ]
    );
    let labels: Vec<&str> = results.iter().map(|r| r.label()).collect();
    assert_eq!(
        labels,
        [
            "transition_success",
            "transition_failure",
            "transition_error"
        ]
    );
}

#[test]
fn available_is_what_leaves_the_state_in_graph_order() {
    for &state in State::all() {
        let got: Vec<u8> = Machine::at(state).available().map(|t| t.id).collect();
        let want: Vec<u8> = GRAPH
            .iter()
            .filter(|g| g.2 == state.id())
            .map(|g| g.0)
            .collect();
        assert_eq!(got, want, "{state}");
    }
    // The requestable ones, by name.
    let ids = |s: State| -> Vec<u8> { Machine::at(s).available().map(|t| t.id).collect() };
    assert_eq!(ids(State::Unconfigured), [1, 5]);
    assert_eq!(ids(State::Inactive), [2, 3, 6]);
    assert_eq!(ids(State::Active), [4, 7]);
    assert!(ids(State::Finalized).is_empty());
    assert!(ids(State::Unknown).is_empty());
    assert_eq!(ids(State::ErrorProcessing), [60, 61, 62]);
}

#[test]
fn every_state_and_request_is_accepted_or_refused_as_rclcpp() {
    let mut rng = SplitMix64::new(23);
    for &(state_id, _, _) in &STATES {
        let state = State::from_id(state_id).expect("a state");
        let mut requests: Vec<(u8, &str)> = (0..=255u8).map(|id| (id, "")).collect();
        for label in LABELS {
            // The id is ignored when a label is given: any id will do.
            requests.push((rng.next_u64() as u8, label));
            requests.push((TRANSITION_CONFIGURE, label));
        }
        for (id, label) in requests {
            let reference = Reference {
                state: state_id,
                pending: None,
            };
            let want = reference.request(id, label);
            let mut machine = Machine::at(state);
            assert_eq!(
                machine.resolve(id, label).map(|t| t.id).ok(),
                match want {
                    RefAnswer::Accept(t, _) => Some(t),
                    _ => None,
                }
            );
            assert_eq!(machine.state(), state, "resolve changes nothing");
            let got = machine.begin(id, label);
            assert_eq!(answer_of(&got), want, "{state} id {id} label {label:?}");
            match want {
                RefAnswer::Accept(t, goal) => {
                    assert_eq!(machine.state().id(), goal);
                    let begun = got.expect("accepted");
                    check_event(&begun.event, (t, state_id, goal), label);
                    let callback = match goal {
                        TRANSITION_STATE_CONFIGURING => Callback::Configure,
                        TRANSITION_STATE_CLEANINGUP => Callback::Cleanup,
                        TRANSITION_STATE_ACTIVATING => Callback::Activate,
                        TRANSITION_STATE_DEACTIVATING => Callback::Deactivate,
                        _ => Callback::Shutdown,
                    };
                    assert_eq!(begun.callback, callback);
                }
                _ => assert_eq!(machine.state(), state, "a refusal changes nothing"),
            }
        }
    }
    // The ids lifecycle_msgs defines outside the graph.
    for id in [TRANSITION_CREATE, TRANSITION_DESTROY, 9, 13, 63, 97, 255] {
        assert_eq!(Machine::new().begin(id, ""), Err(Refused::UnknownId { id }));
    }
}

#[test]
fn a_label_resolves_among_the_transitions_from_the_current_state() {
    for (state, want) in [
        (State::Unconfigured, TRANSITION_UNCONFIGURED_SHUTDOWN),
        (State::Inactive, TRANSITION_INACTIVE_SHUTDOWN),
        (State::Active, TRANSITION_ACTIVE_SHUTDOWN),
    ] {
        // `ros2 service call ... {transition: {label: shutdown}}`: id 0.
        for id in [0, TRANSITION_CONFIGURE, want, 200] {
            let mut machine = Machine::at(state);
            let begun = machine.begin(id, "shutdown").expect("shutdown");
            assert_eq!(begun.event.transition.id, want);
            assert_eq!(begun.callback, Callback::Shutdown);
            assert_eq!(machine.state(), State::ShuttingDown);
        }
        assert_eq!(Machine::at(state).shutdown(), Some(want));
        assert_eq!(Machine::at(state).resolve(want, "").map(|t| t.id), Ok(want));
    }
    for state in State::all()
        .iter()
        .filter(|s| !matches!(s, State::Unconfigured | State::Inactive | State::Active))
    {
        assert_eq!(Machine::at(*state).shutdown(), None, "{state}");
    }
    // The label wins: no fallback to the id when it does not resolve.
    let mut machine = Machine::at(State::Inactive);
    assert_eq!(
        machine.begin(TRANSITION_ACTIVATE, "configure"),
        Err(Refused::NotAvailable {
            state: State::Inactive,
            requested: Requested::Label("configure"),
        })
    );
    assert_eq!(
        machine.begin(TRANSITION_ACTIVATE, "Activate"),
        Err(Refused::UnknownLabel)
    );
    // Another primary state's shutdown id is not this state's shutdown.
    assert_eq!(
        machine.begin(TRANSITION_UNCONFIGURED_SHUTDOWN, ""),
        Err(Refused::NotAvailable {
            state: State::Inactive,
            requested: Requested::Transition(
                Transition::by_id(TRANSITION_UNCONFIGURED_SHUTDOWN).expect("in the graph")
            ),
        })
    );
    assert_eq!(machine.state(), State::Inactive);
    // The refusals read well in a log.
    let why = machine
        .begin(TRANSITION_UNCONFIGURED_SHUTDOWN, "")
        .unwrap_err();
    assert_eq!(
        why.to_string(),
        "transition shutdown (5: unconfigured -> shuttingdown) is not available from inactive"
    );
}

#[test]
fn no_request_is_accepted_in_a_transition_state() {
    for &state in State::all().iter().filter(|s| !s.is_primary()) {
        for id in 0..=255u8 {
            for label in LABELS {
                let mut machine = Machine::at(state);
                assert_eq!(machine.begin(id, label), Err(Refused::Busy { state }));
                assert_eq!(machine.state(), state);
            }
        }
    }
    // Between begin and finish.
    let mut machine = Machine::new();
    machine.begin(0, "configure").expect("configure");
    let answer = machine.change_state(
        0,
        "transition_success",
        |_| CallbackResult::Success,
        || CallbackResult::Success,
        |_| panic!("nothing to publish"),
    );
    assert_eq!(
        answer,
        Err(Refused::Busy {
            state: State::Configuring
        })
    );
}

#[test]
fn a_result_without_a_running_callback_changes_nothing() {
    for &state in State::all() {
        for r in 0..3 {
            let mut machine = Machine::at(state);
            let finished = machine.finish(result_of(r));
            if state.is_primary() {
                assert_eq!(finished, Finished::Unexpected { state });
                assert_eq!(machine.state(), state);
            } else {
                assert!(!matches!(finished, Finished::Unexpected { .. }), "{state}");
            }
            let mut machine = Machine::at(state);
            let finished = machine.finish_error(result_of(r));
            if state == State::ErrorProcessing {
                assert!(matches!(finished, Finished::Done { success: false, .. }));
            } else {
                assert_eq!(finished, Finished::Unexpected { state });
                assert_eq!(machine.state(), state);
            }
        }
    }
}

/// A request drawn for the walks: half of them requestable from `state`
/// (by id or by label), the others anything.
fn draw_request(rng: &mut SplitMix64, state: u8) -> (u8, &'static str) {
    match rng.below(6) {
        0 => (rng.below(9) as u8, ""),
        1 => (rng.next_u64() as u8, ""),
        2 => (rng.next_u64() as u8, LABELS[rng.below_usize(LABELS.len())]),
        _ => {
            let from: Vec<_> = REQUESTABLE.iter().filter(|r| r.0 == state).collect();
            if from.is_empty() {
                return (rng.next_u64() as u8, "");
            }
            let r = from[rng.below_usize(from.len())];
            if rng.below(2) == 0 {
                (r.1, "")
            } else {
                (rng.next_u64() as u8, r.2)
            }
        }
    }
}

#[test]
fn random_walks_follow_the_reference() {
    let mut accepted = 0;
    let mut errors = 0;
    let mut finalized = 0;
    let mut taken = std::collections::BTreeSet::new();
    for seed in 0..300u64 {
        let mut rng = SplitMix64::new(seed);
        let mut machine = Machine::new();
        let mut reference = Reference {
            state: PRIMARY_STATE_UNCONFIGURED,
            pending: None,
        };
        for step in 0..40 {
            let context = format!("seed {seed} step {step}");
            let (id, label) = draw_request(&mut rng, reference.state);
            let want = reference.request(id, label);
            let got = machine.begin(id, label);
            assert_eq!(answer_of(&got), want, "{context}: {id} {label:?}");
            let Ok(begun) = got else {
                assert_eq!(machine.state().id(), reference.state, "{context}");
                continue;
            };
            accepted += 1;
            reference.begin(begun.event.transition.id);
            taken.insert(begun.event.transition.id);
            assert_eq!(machine.state().id(), reference.state, "{context}");
            // A second request while the callback runs.
            let (id, label) = draw_request(&mut rng, reference.state);
            assert!(machine.begin(id, label).is_err(), "{context}");
            let first = draw_result(&mut rng);
            let want = reference.finish(first);
            let finished = machine.finish(result_of(first));
            let success = match finished {
                Finished::Done {
                    event,
                    state,
                    success,
                } => {
                    check_event(&event, want, &context);
                    taken.insert(event.transition.id);
                    assert_eq!(state.id(), want.2, "{context}");
                    success
                }
                Finished::ErrorProcessing { event } => {
                    errors += 1;
                    check_event(&event, want, &context);
                    taken.insert(event.transition.id);
                    assert_eq!(want.2, TRANSITION_STATE_ERRORPROCESSING, "{context}");
                    let r = draw_result(&mut rng);
                    let want = reference.finish(r);
                    let Finished::Done {
                        event,
                        state,
                        success,
                    } = machine.finish_error(result_of(r))
                    else {
                        panic!("{context}: error processing did not end");
                    };
                    check_event(&event, want, &context);
                    taken.insert(event.transition.id);
                    assert_eq!(state.id(), want.2, "{context}");
                    success
                }
                Finished::Unexpected { .. } => panic!("{context}: unexpected"),
            };
            // rclcpp: success iff the callback returned SUCCESS.
            assert_eq!(success, first == 0, "{context}");
            assert_eq!(machine.state().id(), reference.state, "{context}");
            assert!(machine.state().is_primary(), "{context}");
            if machine.state() == State::Finalized {
                // Nothing leaves finalized: every request is refused.
                for id in 0..=255u8 {
                    assert!(machine.begin(id, "").is_err(), "{context}");
                }
                assert_eq!(machine.available().count(), 0, "{context}");
                finalized += 1;
                // A new node.
                machine = Machine::new();
                reference = Reference {
                    state: PRIMARY_STATE_UNCONFIGURED,
                    pending: None,
                };
            }
        }
    }
    // The walks saw every way through.
    println!("{accepted} accepted, {errors} error processings, {finalized} finalized");
    assert!(accepted > 5000, "{accepted} accepted");
    assert!(errors > 1000, "{errors} error processings");
    assert!(finalized > 2000, "{finalized} finalized");
    let every: std::collections::BTreeSet<u8> = GRAPH.iter().map(|g| g.0).collect();
    assert_eq!(taken, every, "every transition taken");
}

#[test]
fn change_state_runs_rclcpps_sequence() {
    for seed in 0..300u64 {
        let mut rng = SplitMix64::new(1000 + seed);
        let mut machine = Machine::new();
        let mut reference = Reference {
            state: PRIMARY_STATE_UNCONFIGURED,
            pending: None,
        };
        for step in 0..40 {
            let context = format!("seed {seed} step {step}");
            let (id, label) = draw_request(&mut rng, reference.state);
            let result = draw_result(&mut rng);
            let error_result = draw_result(&mut rng);
            let mut want_events = Vec::new();
            let mut want_callback = None;
            let want = match reference.request(id, label) {
                RefAnswer::Accept(t, goal) => {
                    want_events.push((t, reference.state, goal));
                    want_callback = Some(goal);
                    reference.begin(t);
                    let e = reference.finish(result);
                    want_events.push(e);
                    if e.2 == TRANSITION_STATE_ERRORPROCESSING {
                        want_events.push(reference.finish(error_result));
                    }
                    Some(result == 0)
                }
                _ => None,
            };
            let mut events = Vec::new();
            let mut called = None;
            let mut on_error_runs = 0;
            let answer = machine.change_state(
                id,
                label,
                |c| {
                    called = Some(c);
                    result_of(result)
                },
                || {
                    on_error_runs += 1;
                    result_of(error_result)
                },
                |e| events.push((e.transition.id, e.start.id(), e.goal.id())),
            );
            assert_eq!(answer.ok(), want, "{context}");
            assert_eq!(events, want_events, "{context}");
            assert_eq!(called.is_some(), want_callback.is_some(), "{context}");
            assert_eq!(
                on_error_runs,
                usize::from(want_events.len() == 3),
                "{context}"
            );
            assert_eq!(machine.state().id(), reference.state, "{context}");
            if machine.state() == State::Finalized {
                machine = Machine::new();
                reference = Reference {
                    state: PRIMARY_STATE_UNCONFIGURED,
                    pending: None,
                };
            }
        }
    }
}
