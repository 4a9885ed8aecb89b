//! The pool over a real r2r node (a ROS environment, as `tests/node`):
//! leases of one key share one subscription, a transient-local one hands its
//! latched messages to each new lease, and one without a lease is released
//! at its first message.

use super::*;
use r2r::std_msgs::msg::Float32;
use std::time::Instant;

/// Long enough for discovery and delivery on a loaded machine.
const DEADLINE: Duration = Duration::from_secs(10);

fn topic(name: &str) -> String {
    format!("/sat_collision_pool_test_{}_{name}", std::process::id())
}

/// Spins (and releases what the pool should) until `done`, within DEADLINE.
fn spin_until(node: &mut r2r::Node, pool: &mut Pool, mut done: impl FnMut(&Pool) -> bool) {
    let start = Instant::now();
    while !done(pool) {
        assert!(start.elapsed() < DEADLINE, "not within {DEADLINE:?}");
        node.spin_once(Duration::from_millis(10));
        pool.release_busy();
    }
}

fn values(lease: &mut Lease<Float32>) -> Vec<f32> {
    let mut out = Vec::new();
    lease.each(|msg| out.push(msg.data));
    out
}

fn float(data: f32) -> Float32 {
    Float32 { data }
}

#[test]
fn leases_share_subscriptions_replay_latched_messages_and_release_busy_ones() {
    let ctx = r2r::Context::create().expect("ROS context (source scripts/env.sh first)");
    let name = format!("sat_collision_pool_test_{}", std::process::id());
    let mut node = r2r::Node::create(ctx, &name, "").expect("node");
    let mut pool = Pool::default();

    // Transient local: the latched messages reach every lease, once each.
    let latched_qos = QosProfile::default().transient_local().keep_last(5);
    let latched = topic("latched");
    let publisher = node
        .create_publisher::<Float32>(&latched, latched_qos.clone())
        .expect("publisher");
    publisher.publish(&float(1.0)).expect("publish");
    publisher.publish(&float(2.0)).expect("publish");
    let mut lease = Subscriber::new(&mut node, &mut pool)
        .subscribe::<Float32>(&latched, latched_qos.clone())
        .expect("subscribe");
    let mut got = Vec::new();
    spin_until(&mut node, &mut pool, |_| {
        got.extend(values(&mut lease));
        got.len() >= 2
    });
    assert_eq!(got, [1.0, 2.0]);
    drop(lease);
    for _ in 0..20 {
        node.spin_once(Duration::from_millis(5));
        pool.release_busy();
    }
    assert_eq!(pool.len(), 1, "kept: nothing came without a lease");
    for _ in 0..100 {
        pool.settle(&mut node);
        let mut lease = Subscriber::new(&mut node, &mut pool)
            .subscribe::<Float32>(&latched, latched_qos.clone())
            .expect("subscribe");
        assert_eq!(values(&mut lease), [1.0, 2.0], "replayed at once");
        assert_eq!(values(&mut lease), [] as [f32; 0], "and only once");
    }
    assert_eq!(pool.len(), 1, "one subscription for 100 leases");

    // Read as a stream: copies, then a new message, kept for the next lease.
    let mut stream = Subscriber::new(&mut node, &mut pool)
        .subscribe::<Float32>(&latched, latched_qos.clone())
        .expect("subscribe");
    let copies: Vec<f32> = std::iter::from_fn(|| ready_now(&mut stream))
        .map(|m| m.data)
        .collect();
    assert_eq!(copies, [1.0, 2.0]);
    publisher.publish(&float(3.0)).expect("publish");
    let mut third = None;
    spin_until(&mut node, &mut pool, |_| {
        third = third.or_else(|| ready_now(&mut stream).map(|m| m.data));
        third.is_some()
    });
    assert_eq!(third, Some(3.0));
    // Two leases of one key at once: two subscriptions.
    let second = Subscriber::new(&mut node, &mut pool)
        .subscribe::<Float32>(&latched, latched_qos.clone())
        .expect("subscribe");
    assert_eq!(pool.len(), 2);
    drop(stream);
    let mut lease = Subscriber::new(&mut node, &mut pool)
        .subscribe::<Float32>(&latched, latched_qos)
        .expect("subscribe");
    assert_eq!(pool.len(), 2, "the first one, taken again");
    assert_eq!(values(&mut lease), [1.0, 2.0, 3.0]);
    drop((lease, second));

    // Volatile, without a lease: released at its first message (r2r
    // destroys it at the next); the next lease is a new subscription.
    let mut pool = Pool::default();
    let volatile = topic("volatile");
    let qos = QosProfile::default();
    let publisher = node
        .create_publisher::<Float32>(&volatile, qos.clone())
        .expect("publisher");
    let mut lease = Subscriber::new(&mut node, &mut pool)
        .subscribe::<Float32>(&volatile, qos.clone())
        .expect("subscribe");
    spin_until(&mut node, &mut pool, |_| {
        publisher.publish(&float(4.0)).expect("publish");
        !values(&mut lease).is_empty()
    });
    drop(lease);
    spin_until(&mut node, &mut pool, |pool| {
        publisher.publish(&float(5.0)).expect("publish");
        pool.len() == 0
    });
    // Quiet without a lease: kept, and taken again.
    let quiet = topic("quiet");
    for _ in 0..100 {
        pool.settle(&mut node);
        let mut lease = Subscriber::new(&mut node, &mut pool)
            .subscribe::<Float32>(&quiet, qos.clone())
            .expect("subscribe");
        assert!(values(&mut lease).is_empty());
    }
    assert_eq!(pool.len(), 1, "one subscription for 100 leases");
}

#[test]
fn replicas_copy_every_byte_and_point() {
    let mut polygon = NativeMsg::<PolygonStamped>::new();
    polygon.header.stamp.sec = 7;
    polygon.header.stamp.nanosec = 9;
    // What a publisher may send: not UTF-8, a NUL inside.
    let frame = b"ba\xffd\0frame";
    native::set_bytes(&mut polygon.header.frame_id, frame).expect("frame id");
    let points: Vec<Point32> = (0..1000)
        .map(|i| Point32 {
            x: i as f32,
            y: -(i as f32) * 0.5,
            z: 0.25,
        })
        .collect();
    Polygon {
        points: points.clone(),
    }
    .copy_to_native(&mut polygon.polygon);
    let copy = PolygonStamped::replica(&polygon).expect("replica");
    assert_eq!((copy.header.stamp.sec, copy.header.stamp.nanosec), (7, 9));
    assert_eq!(native::bytes(&copy.header.frame_id), frame);
    let copied: Vec<(f32, f32, f32)> = native::items(&copy.polygon.points)
        .iter()
        .map(|p| (p.x, p.y, p.z))
        .collect();
    let expected: Vec<(f32, f32, f32)> = points.iter().map(|p| (p.x, p.y, p.z)).collect();
    assert_eq!(copied, expected);

    let mut twist = NativeMsg::<TwistStamped>::new();
    twist.header.stamp.sec = 3;
    native::set_bytes(&mut twist.header.frame_id, b"base_link").expect("frame id");
    (
        twist.twist.linear.x,
        twist.twist.linear.y,
        twist.twist.angular.z,
    ) = (0.5, -0.25, 1.5);
    let copy = TwistStamped::replica(&twist).expect("replica");
    assert_eq!(copy.header.stamp.sec, 3);
    assert_eq!(native::bytes(&copy.header.frame_id), b"base_link");
    assert_eq!(
        (
            copy.twist.linear.x,
            copy.twist.linear.y,
            copy.twist.angular.z
        ),
        (0.5, -0.25, 1.5)
    );
    let mut radius = NativeMsg::<Float32>::new();
    radius.data = 0.75;
    assert_eq!(Float32::replica(&radius).expect("replica").data, 0.75);
}
