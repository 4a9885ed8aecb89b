//! The inputs' subscriptions, kept from one configuration to the next.
//!
//! r2r cannot destroy a subscription: one whose stream is dropped is
//! destroyed when its next message arrives (`Node::spin_once`), so on a
//! quiet topic, or a latched one whose samples came once, it stays for the
//! process's life. Made anew at every configure and dropped at every
//! cleanup, the inputs' subscriptions would pile up, one more per cycle on
//! each such topic. So every subscription the I/O thread makes is kept in
//! its [`Pool`] under its key (topic, message type, QoS); a configuration
//! holds [`Lease`]s on them, and cleanup drops the leases:
//!
//! * At configure, a subscription of the same key that no lease holds is
//!   taken again instead of a new one, if nothing has arrived on it since its
//!   last lease ended ([`Pool::settle`] spins once first, so that what rcl had
//!   received by then is seen). Two leases of one key in one configuration
//!   are two subscriptions, as before.
//! * A subscription no lease holds is released at its first message
//!   ([`Pool::release_busy`], after every spin: its stream dropped, r2r
//!   destroys it at the next one): a topic with traffic costs nothing while
//!   the node is unconfigured, and a message that came between two
//!   configurations, or before the cleanup, never reaches the next one (that
//!   one gets a new subscription).
//! * A transient-local subscription keeps the last `depth` messages it took
//!   (its QoS depth, as the DDS reader's history): a new lease hands them out
//!   first, as a new subscription would receive the publishers' latched
//!   samples (one difference: a publisher that has gone since still has
//!   its samples handed out, as a tf2 buffer keeps static transforms).
//!   They are the messages themselves, read by reference ([`Lease::each`]);
//!   a lease read as a stream hands out copies ([`Replica`]).
//!
//! So N cycles leave one subscription per key of a quiet topic (as many as
//! one configuration uses), whatever N: the pool holds the subscriptions of
//! the configuration, and those of quiet topics a configuration used, each
//! taken again when a configuration asks for its key. One released with its
//! first message is gone with its topic's next one.

#![forbid(unsafe_code)]

use crate::ros::native;
use futures::{Stream, StreamExt};
use r2r::geometry_msgs::msg::{Point32, Polygon, PolygonStamped, Twist, TwistStamped};
use r2r::qos::DurabilityPolicy;
use r2r::std_msgs::msg::Float32;
use r2r::{NativeMsg, QosProfile, WrappedTypesupport};
use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;

/// The next item of `stream` if one is ready now.
pub(super) fn ready_now<S: Stream + Unpin>(stream: &mut S) -> Option<S::Item> {
    futures::FutureExt::now_or_never(stream.next()).flatten()
}

/// What a subscription is kept under: two configurations asking for the
/// same key get the same subscription.
#[derive(PartialEq)]
struct Key {
    topic: String,
    message: TypeId,
    qos: QosProfile,
}

/// One r2r subscription: its stream and, when transient local, the last
/// messages it took.
struct Subscription<T: WrappedTypesupport + 'static> {
    messages: Pin<Box<dyn Stream<Item = NativeMsg<T>>>>,
    latched: Option<Latched<T>>,
}

/// A transient-local subscription's last `depth` messages, oldest first.
struct Latched<T: WrappedTypesupport + 'static> {
    depth: usize,
    messages: VecDeque<NativeMsg<T>>,
}

impl<T: WrappedTypesupport + 'static> Latched<T> {
    /// Keeps `msg` as the newest (the oldest goes beyond `depth`).
    fn keep(&mut self, msg: NativeMsg<T>) -> &NativeMsg<T> {
        if self.messages.len() >= self.depth {
            self.messages.pop_front();
        }
        self.messages.push_back(msg);
        &self.messages[self.messages.len() - 1]
    }
}

/// A pooled subscription of any message type.
trait Pooled {
    /// Whether a lease holds it.
    fn leased(&self) -> bool;
    /// Whether a message has come (it is taken); only without a lease.
    fn has_message(&self) -> bool;
    fn as_any(&self) -> &dyn Any;
}

impl<T: WrappedTypesupport + 'static> Pooled for Rc<RefCell<Subscription<T>>> {
    fn leased(&self) -> bool {
        Rc::strong_count(self) > 1
    }

    fn has_message(&self) -> bool {
        ready_now(&mut self.borrow_mut().messages).is_some()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

struct Entry {
    key: Key,
    subscription: Box<dyn Pooled>,
}

/// Every subscription the I/O thread has made and not released; on that
/// thread (r2r's native messages are not `Send`).
#[derive(Default)]
pub(super) struct Pool {
    entries: Vec<Entry>,
}

impl Pool {
    /// After every spin: a subscription without a lease that has taken a
    /// message is released (r2r destroys it at its next one).
    pub(super) fn release_busy(&mut self) {
        self.entries
            .retain(|e| e.subscription.leased() || !e.subscription.has_message());
    }

    /// Before a configuration takes its subscriptions: one spin without
    /// waiting (r2r takes a message from each subscription that has one),
    /// then [`release_busy`](Self::release_busy). A subscription then taken
    /// again had received nothing since its last lease ended.
    pub(super) fn settle(&mut self, node: &mut r2r::Node) {
        node.spin_once(Duration::ZERO);
        self.release_busy();
    }

    /// How many subscriptions it holds (leased or not).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }
}

/// Makes the inputs' subscriptions on the node, through its pool.
pub(crate) struct Subscriber<'a> {
    node: &'a mut r2r::Node,
    pool: &'a mut Pool,
}

impl<'a> Subscriber<'a> {
    pub(super) fn new(node: &'a mut r2r::Node, pool: &'a mut Pool) -> Self {
        Subscriber { node, pool }
    }

    /// A lease on a subscription to `topic` with `qos`: one of the pool's
    /// that no lease holds, else a new one. Read it with [`Lease::each`], or
    /// as a stream.
    pub(crate) fn subscribe<T: WrappedTypesupport + 'static>(
        &mut self,
        topic: &str,
        qos: QosProfile,
    ) -> r2r::Result<Lease<T>> {
        let key = Key {
            topic: topic.to_owned(),
            message: TypeId::of::<T>(),
            qos,
        };
        let pooled = self
            .pool
            .entries
            .iter()
            .filter(|e| e.key == key && !e.subscription.leased())
            .find_map(|e| {
                e.subscription
                    .as_any()
                    .downcast_ref::<Rc<RefCell<Subscription<T>>>>()
            })
            .map(Rc::clone);
        let subscription = match pooled {
            Some(subscription) => subscription,
            None => {
                let messages = Box::pin(self.node.subscribe_native::<T>(topic, key.qos.clone())?);
                let latched =
                    (key.qos.durability == DurabilityPolicy::TransientLocal).then(|| Latched {
                        depth: key.qos.depth.max(1),
                        messages: VecDeque::new(),
                    });
                let subscription = Rc::new(RefCell::new(Subscription { messages, latched }));
                self.pool.entries.push(Entry {
                    key,
                    subscription: Box::new(Rc::clone(&subscription)),
                });
                subscription
            }
        };
        let replay = subscription
            .borrow()
            .latched
            .as_ref()
            .map_or(0, |l| l.messages.len());
        Ok(Lease {
            subscription,
            replay,
        })
    }
}

/// A configuration's hold on a pooled subscription; dropped at cleanup,
/// which hands the subscription back to the pool.
pub(crate) struct Lease<T: WrappedTypesupport + 'static> {
    subscription: Rc<RefCell<Subscription<T>>>,
    /// Kept latched messages not yet handed to this lease (the newest ones).
    replay: usize,
}

impl<T: WrappedTypesupport + 'static> Lease<T> {
    /// Calls `read` with every message ready now, in order: first, once,
    /// the latched messages the subscription kept before this lease (when
    /// transient local), then those that have arrived.
    pub(crate) fn each(&mut self, mut read: impl FnMut(&NativeMsg<T>)) {
        let mut subscription = self.subscription.borrow_mut();
        let Subscription { messages, latched } = &mut *subscription;
        if let Some(latched) = latched.as_ref() {
            let first = latched.messages.len().saturating_sub(self.replay);
            latched.messages.range(first..).for_each(&mut read);
        }
        self.replay = 0;
        while let Some(msg) = ready_now(messages) {
            match latched {
                Some(latched) => read(latched.keep(msg)),
                None => read(&msg),
            }
        }
    }
}

/// Read as a stream, a lease yields messages of its own: for a
/// transient-local subscription, copies ([`Replica`]) of the latched
/// messages it kept and of each new one (which it keeps).
impl<T: Replica> Stream for Lease<T> {
    type Item = NativeMsg<T>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<NativeMsg<T>>> {
        let this = self.get_mut();
        let mut subscription = this.subscription.borrow_mut();
        let Subscription { messages, latched } = &mut *subscription;
        let Some(latched) = latched else {
            return messages.as_mut().poll_next(cx);
        };
        while this.replay > 0 {
            let index = latched.messages.len().saturating_sub(this.replay);
            this.replay -= 1;
            if let Some(copy) = latched.messages.get(index).and_then(T::replica) {
                return Poll::Ready(Some(copy));
            }
        }
        match messages.as_mut().poll_next(cx) {
            Poll::Ready(Some(msg)) => Poll::Ready(Some(match T::replica(&msg) {
                Some(copy) => {
                    latched.keep(msg);
                    copy
                }
                // Not kept: it cannot be handed out again.
                None => msg,
            })),
            other => other,
        }
    }
}

/// A native message type that can be copied exactly (every byte of its
/// strings, every element of its sequences): what a transient-local
/// subscription read as a stream hands out.
pub(crate) trait Replica: WrappedTypesupport + 'static {
    /// A message of its own with `msg`'s content; `None` when a string could
    /// not be allocated.
    fn replica(msg: &NativeMsg<Self>) -> Option<NativeMsg<Self>>;
}

type NativeTwist = <Twist as WrappedTypesupport>::CStruct;
type NativeHeader = <r2r::std_msgs::msg::Header as WrappedTypesupport>::CStruct;

fn copy_twist(to: &mut NativeTwist, from: &NativeTwist) {
    (to.linear.x, to.linear.y, to.linear.z) = (from.linear.x, from.linear.y, from.linear.z);
    (to.angular.x, to.angular.y, to.angular.z) = (from.angular.x, from.angular.y, from.angular.z);
}

fn copy_header(to: &mut NativeHeader, from: &NativeHeader) -> Option<()> {
    to.stamp.sec = from.stamp.sec;
    to.stamp.nanosec = from.stamp.nanosec;
    native::set_bytes(&mut to.frame_id, native::bytes(&from.frame_id)).ok()
}

impl Replica for Float32 {
    fn replica(msg: &NativeMsg<Self>) -> Option<NativeMsg<Self>> {
        let mut copy = NativeMsg::<Float32>::new();
        copy.data = msg.data;
        Some(copy)
    }
}

impl Replica for Twist {
    fn replica(msg: &NativeMsg<Self>) -> Option<NativeMsg<Self>> {
        let mut copy = NativeMsg::<Twist>::new();
        copy_twist(&mut copy, msg);
        Some(copy)
    }
}

impl Replica for TwistStamped {
    fn replica(msg: &NativeMsg<Self>) -> Option<NativeMsg<Self>> {
        let mut copy = NativeMsg::<TwistStamped>::new();
        copy_header(&mut copy.header, &msg.header)?;
        copy_twist(&mut copy.twist, &msg.twist);
        Some(copy)
    }
}

impl Replica for PolygonStamped {
    fn replica(msg: &NativeMsg<Self>) -> Option<NativeMsg<Self>> {
        let mut copy = NativeMsg::<PolygonStamped>::new();
        copy_header(&mut copy.header, &msg.header)?;
        let points = native::items(&msg.polygon.points)
            .iter()
            .map(|p| Point32 {
                x: p.x,
                y: p.y,
                z: p.z,
            })
            .collect();
        Polygon { points }.copy_to_native(&mut copy.polygon);
        Some(copy)
    }
}

#[cfg(test)]
mod tests;
