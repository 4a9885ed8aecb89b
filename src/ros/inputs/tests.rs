use super::*;

fn at(time: f64) -> Arrival {
    Arrival {
        time,
        generation: 0,
    }
}

#[test]
fn pending_since_covers_queued_and_working_inputs() {
    let p = PendingObstacles::default();
    assert_eq!(p.pending_since(), None);
    p.put_array(ArrayInput::Rejected(Rejection::InvalidId), at(1.0));
    p.put_array(ArrayInput::Rejected(Rejection::InvalidId), at(2.0));
    assert_eq!(p.pending_since(), Some(1.0), "the oldest arrival counts");
    let taken = p.take(Duration::ZERO);
    assert!(
        matches!(taken.array, Some((_, a)) if a.time == 2.0),
        "newest kept"
    );
    assert_eq!(p.pending_since(), Some(1.0), "still being taken in");
    p.put_instance(InstanceInput::Rejected(Rejection::InvalidFrameId), at(3.0));
    p.done();
    assert_eq!(p.pending_since(), Some(3.0));
    let taken = p.take(Duration::ZERO);
    assert_eq!(taken.instances.len(), 1);
    p.done();
    assert_eq!(p.pending_since(), None);
}

/// A native `check_path` request with the frame ids set as bytes.
fn native_path(
    path_frame: &[u8],
    pose_frames: &[&[u8]],
    footprint: usize,
) -> r2r::NativeMsg<CheckPath::Request> {
    let owned = CheckPath::Request {
        path: r2r::nav_msgs::msg::Path {
            poses: vec![Default::default(); pose_frames.len()],
            ..Default::default()
        },
        footprint: r2r::geometry_msgs::msg::Polygon {
            points: vec![Default::default(); footprint],
        },
        padding: 0.0,
    };
    let mut native = r2r::NativeMsg::<CheckPath::Request>::from(&owned);
    native::set_bytes(&mut native.path.header.frame_id, path_frame).expect("assign");
    for (pose, frame) in native::items_mut(&mut native.path.poses)
        .iter_mut()
        .zip(pose_frames)
    {
        native::set_bytes(&mut pose.header.frame_id, frame).expect("assign");
    }
    native
}

#[test]
fn path_requests_are_refused_for_frame_ids_that_are_not_text() {
    let read = |path: &[u8], poses: &[&[u8]], footprint: usize| {
        let request =
            CheckedRequest::<CheckPath::Request>::from_native(&native_path(path, poses, footprint));
        (
            request.refused,
            request.poses,
            request.message.path.poses.len(),
        )
    };
    assert_eq!(read(b"odom", &[b"", b"map"], 4), (None, 2, 2));
    let refused = Some(Status::InvalidFrameId);
    // r2r's conversion reads each of these as "" or "map": never used.
    for bad in [&b"map\xff"[..], b"map\0odom", b"\xc3", &[b'f'; 257]] {
        assert_eq!(read(b"odom", &[b"", bad], 4), (refused, 2, 0), "{bad:?}");
        assert_eq!(read(bad, &[b"map"], 4), (refused, 1, 0), "{bad:?}");
    }
    // A footprint too large is refused before it is copied.
    assert_eq!(
        read(b"map", &[b""], MAX_VERTICES + 1),
        (Some(Status::InvalidFootprint), 1, 0)
    );
}

#[test]
fn queued_instances_are_bounded_and_what_is_beyond_is_a_refusal() {
    let p = PendingObstacles::default();
    let instance = |id, n: usize| InstanceInput::Instance {
        source: None,
        frame_id: "map".into(),
        stamp: 0.0,
        id,
        points: vec![Point::new(0.0, 0.0); n],
    };
    let refusals = |batch: &Batch| -> Vec<Rejection> {
        batch
            .instances
            .iter()
            .filter_map(|(i, _)| match i {
                InstanceInput::Rejected(r) => Some(*r),
                InstanceInput::Instance { .. } => None,
            })
            .collect()
    };
    // Vertices: four quarters fit, a fifth is refused, a replacement
    // counts what it replaces as gone.
    let quarter = MAX_INSTANCE_VERTICES / 4;
    for id in 0..5 {
        p.put_instance(instance(id, quarter), at(1.0));
    }
    p.put_instance(instance(0, 10), at(1.1));
    p.put_instance(instance(5, quarter - 10), at(1.2));
    let taken = p.take(Duration::ZERO);
    assert_eq!(taken.instances.len(), 6, "five ids and one refusal");
    assert_eq!(refusals(&taken), [Rejection::TooManyVertices]);
    let queued: usize = taken.instances.iter().map(|(i, _)| points_in(i)).sum();
    assert_eq!(queued, MAX_INSTANCE_VERTICES);
    // Ids: the bound, then refusals; only the newest refusal is kept.
    for id in 0..MAX_INSTANCES as i64 + 50 {
        p.put_instance(instance(id, 3), at(2.0));
    }
    p.put_instance(instance(3, 4), at(2.1));
    let taken = p.take(Duration::ZERO);
    assert_eq!(taken.instances.len(), MAX_INSTANCES + 1);
    assert_eq!(refusals(&taken), [Rejection::TooManyObstacles]);
    assert!(matches!(
        taken.instances.last(),
        Some((InstanceInput::Rejected(_), _))
    ));
    // Taken: the bounds start afresh.
    p.put_instance(instance(9999, quarter), at(3.0));
    assert_eq!(refusals(&p.take(Duration::ZERO)), []);
}

#[test]
fn instances_keep_the_newest_message_per_id() {
    let p = PendingObstacles::default();
    let instance = |id, x: f64| InstanceInput::Instance {
        source: None,
        frame_id: "map".into(),
        stamp: 0.0,
        id,
        points: vec![Point::new(x, 0.0)],
    };
    p.put_instance(instance(1, 0.0), at(1.0));
    p.put_instance(instance(2, 0.0), at(1.1));
    p.put_instance(instance(1, 5.0), at(1.2));
    let taken = p.take(Duration::ZERO);
    assert_eq!(taken.instances.len(), 2);
    assert!(matches!(
        &taken.instances[0].0,
        InstanceInput::Instance { id: 1, points, .. } if points[0].x == 5.0
    ));
}
