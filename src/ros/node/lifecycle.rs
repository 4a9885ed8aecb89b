//! The lifecycle protocol as `rcl_lifecycle` exposes it, on r2r's services
//! and topics (r2r has no lifecycle support): `~/get_state`,
//! `~/change_state`, `~/get_available_states`,
//! `~/get_available_transitions`, `~/get_transition_graph` and
//! `~/transition_event`. The state machine itself is
//! [`crate::lifecycle::Machine`] (pure); here its answers become
//! `lifecycle_msgs`, and a change_state request becomes a
//! [`Change`] the event loop carries out (the callbacks need the node's
//! parts, which live there).

use super::logging::Warnings;
use crate::lifecycle::{self, Begun, CallbackResult, Event, Finished, Machine, Refused};
use futures::stream::{BoxStream, SelectAll};
use futures::StreamExt;
use r2r::lifecycle_msgs::msg::{
    State as StateMsg, Transition as TransitionMsg, TransitionDescription, TransitionEvent,
};
use r2r::lifecycle_msgs::srv::{
    ChangeState, GetAvailableStates, GetAvailableTransitions, GetState,
};
use r2r::{Publisher, QosProfile, ServiceRequest};

/// A request to one of the lifecycle services.
pub(super) enum LifecycleRequest {
    GetState(ServiceRequest<GetState::Service>),
    ChangeState(ServiceRequest<ChangeState::Service>),
    States(ServiceRequest<GetAvailableStates::Service>),
    Transitions(ServiceRequest<GetAvailableTransitions::Service>),
    Graph(ServiceRequest<GetAvailableTransitions::Service>),
}

/// A change_state request accepted: the machine is in the transition
/// state; run [`Begun::callback`], then [`LifecycleServer::finish`].
pub(super) struct Change {
    pub(super) begun: Begun,
    request: Option<ServiceRequest<ChangeState::Service>>,
}

/// The lifecycle services, the transition events and the machine.
pub(super) struct LifecycleServer {
    machine: Machine,
    requests: SelectAll<BoxStream<'static, LifecycleRequest>>,
    events: Publisher<TransitionEvent>,
    logger: String,
    warnings: Warnings,
}

/// `~/transition_event`'s QoS: rcl_lifecycle's (the default: reliable,
/// volatile, depth 10).
const EVENT_QOS: QosProfile = QosProfile::default();

impl LifecycleServer {
    /// The services and the event topic on `node`; the machine
    /// unconfigured.
    pub(super) fn create(node: &mut r2r::Node, logger: &str) -> r2r::Result<Self> {
        let qos = QosProfile::default();
        let mut requests = SelectAll::new();
        requests.push(
            node.create_service::<GetState::Service>("~/get_state", qos.clone())?
                .map(LifecycleRequest::GetState)
                .boxed(),
        );
        requests.push(
            node.create_service::<ChangeState::Service>("~/change_state", qos.clone())?
                .map(LifecycleRequest::ChangeState)
                .boxed(),
        );
        requests.push(
            node.create_service::<GetAvailableStates::Service>(
                "~/get_available_states",
                qos.clone(),
            )?
            .map(LifecycleRequest::States)
            .boxed(),
        );
        requests.push(
            node.create_service::<GetAvailableTransitions::Service>(
                "~/get_available_transitions",
                qos.clone(),
            )?
            .map(LifecycleRequest::Transitions)
            .boxed(),
        );
        requests.push(
            node.create_service::<GetAvailableTransitions::Service>("~/get_transition_graph", qos)?
                .map(LifecycleRequest::Graph)
                .boxed(),
        );
        let events = node.create_publisher::<TransitionEvent>("~/transition_event", EVENT_QOS)?;
        Ok(LifecycleServer {
            machine: Machine::new(),
            requests,
            events,
            logger: logger.to_owned(),
            warnings: Warnings::new(logger),
        })
    }

    /// The current state.
    pub(super) fn state(&self) -> lifecycle::State {
        self.machine.state()
    }

    /// The next request (never ends while the node exists).
    pub(super) async fn next(&mut self) -> Option<LifecycleRequest> {
        self.requests.next().await
    }

    /// Answers a query at once; a change_state request that is accepted
    /// becomes a [`Change`] (its event published), one that is refused is
    /// answered `success: false` and logged.
    pub(super) fn handle(&mut self, request: LifecycleRequest, now: f64) -> Option<Change> {
        let state = self.machine.state();
        let answered = match request {
            LifecycleRequest::GetState(req) => req.respond(GetState::Response {
                current_state: state_msg(state),
            }),
            LifecycleRequest::States(req) => req.respond(GetAvailableStates::Response {
                available_states: lifecycle::State::all()
                    .iter()
                    .map(|s| state_msg(*s))
                    .collect(),
            }),
            LifecycleRequest::Transitions(req) => req.respond(GetAvailableTransitions::Response {
                available_transitions: self.machine.available().map(description).collect(),
            }),
            LifecycleRequest::Graph(req) => req.respond(GetAvailableTransitions::Response {
                available_transitions: lifecycle::graph().iter().map(description).collect(),
            }),
            LifecycleRequest::ChangeState(req) => {
                let transition = &req.message.transition;
                return match self.machine.begin(transition.id, &transition.label) {
                    Ok(begun) => {
                        self.publish(begun.event, now);
                        Some(Change {
                            begun,
                            request: Some(req),
                        })
                    }
                    Err(refused) => {
                        self.log_refused(&refused, &transition.label);
                        if let Err(e) = req.respond(ChangeState::Response { success: false }) {
                            self.warnings.warn("lifecycle", || {
                                format!("could not answer change_state: {e}")
                            });
                        }
                        None
                    }
                };
            }
        };
        if let Err(e) = answered {
            self.warnings.warn("lifecycle", || {
                format!("could not answer a lifecycle request: {e}")
            });
        }
        None
    }

    /// A transition the node starts itself (`autostart`: configure, then
    /// activate), as if it had been requested.
    pub(super) fn begin(&mut self, id: u8, now: f64) -> Result<Change, Refused> {
        let begun = self.machine.begin(id, "")?;
        self.publish(begun.event, now);
        Ok(Change {
            begun,
            request: None,
        })
    }

    /// Applies the callback's `result`: the event out of the transition
    /// state published; `true` when error processing must now run
    /// (`on_error`, then [`finish_error`](Self::finish_error)); otherwise
    /// the request is answered. The answer's `success`, when done.
    pub(super) fn finish(&mut self, change: &mut Change, result: CallbackResult, now: f64) -> Step {
        let finished = self.machine.finish(result);
        self.done(change, finished, now)
    }

    /// Applies `on_error`'s result.
    pub(super) fn finish_error(
        &mut self,
        change: &mut Change,
        result: CallbackResult,
        now: f64,
    ) -> Step {
        let finished = self.machine.finish_error(result);
        self.done(change, finished, now)
    }

    fn done(&mut self, change: &mut Change, finished: Finished, now: f64) -> Step {
        let success = match finished {
            Finished::ErrorProcessing { event } => {
                self.publish(event, now);
                return Step::ErrorProcessing;
            }
            Finished::Done { event, success, .. } => {
                self.publish(event, now);
                success
            }
            Finished::Unexpected { .. } => false,
        };
        let state = self.machine.state();
        r2r::log_info!(
            &self.logger,
            "lifecycle: {} {}, now {}",
            change.begun.event.transition.label,
            if success { "succeeded" } else { "failed" },
            state.label()
        );
        if let Some(req) = change.request.take() {
            if let Err(e) = req.respond(ChangeState::Response { success }) {
                self.warnings.warn("lifecycle", || {
                    format!("could not answer change_state: {e}")
                });
            }
        }
        Step::Done { success }
    }

    fn publish(&mut self, event: Event, now: f64) {
        let msg = TransitionEvent {
            timestamp: nanoseconds(now),
            transition: TransitionMsg {
                id: event.transition.id,
                label: event.transition.label.to_owned(),
            },
            start_state: state_msg(event.start),
            goal_state: state_msg(event.goal),
        };
        if let Err(e) = self.events.publish(&msg) {
            self.warnings.warn("lifecycle", || {
                format!("could not publish transition_event: {e}")
            });
        }
    }

    fn log_refused(&self, refused: &Refused, label: &str) {
        let label = crate::text::escape_for_log(label, 80);
        match refused {
            Refused::UnknownLabel => r2r::log_warn!(
                &self.logger,
                "lifecycle: change_state refused: no transition is labelled \"{label}\""
            ),
            other => r2r::log_warn!(&self.logger, "lifecycle: change_state refused: {other}"),
        }
    }
}

/// Where a change stands after [`LifecycleServer::finish`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// In errorprocessing: run `on_error`, then `finish_error`.
    ErrorProcessing,
    /// In a primary state; the request was answered.
    Done { success: bool },
}

fn state_msg(state: lifecycle::State) -> StateMsg {
    StateMsg {
        id: state.id(),
        label: state.label().to_owned(),
    }
}

fn description(t: &lifecycle::Transition) -> TransitionDescription {
    TransitionDescription {
        transition: TransitionMsg {
            id: t.id,
            label: t.label.to_owned(),
        },
        start_state: state_msg(t.start),
        goal_state: state_msg(t.goal),
    }
}

/// ROS time in seconds as nanoseconds (0 before the epoch or when not
/// finite).
fn nanoseconds(seconds: f64) -> u64 {
    if seconds.is_finite() && seconds > 0.0 {
        (seconds * 1e9) as u64
    } else {
        0
    }
}
