//! The latency mode (default): the node against the echoes, in interleaved
//! blocks; then, each alone with the echo, a node whose report is subscribed
//! and one whose markers are.

use crate::cli::Options;
use crate::client::{make_client, Client, Target};
use crate::cloud::{self, check_clouds, room_cloud};
use crate::echo::BURN_VAR;
use crate::process::{echo_command, loadavg, node_command, ChildProcess};
use crate::report::{header_lines, print_table};
use crate::scenario::{check_tf_probes, monitor, tf_node_params, BASE, FRAME, ODOM};
use crate::stats::{stats, Stats};
use crate::Res;
use sat_collision::ros::convert;
use std::time::{Duration, Instant};

/// What the node computes before it publishes the flag, timed in this
/// process on the same scene and footprints: `convert::points_into` +
/// `Monitor::set_footprint` + `Monitor::flag`; and the report it builds
/// after the flag when somebody needs one, `Monitor::evaluate_into` (µs per
/// call, p50 and p99 of `rounds` calls).
fn in_process(client: &Client, rounds: usize) -> (Stats, Stats) {
    let mut monitor = monitor(&client.scene);
    let mut report = monitor.evaluate(0.0);
    let mut points = Vec::new();
    let (mut before_flag, mut evaluate) = (Vec::new(), Vec::new());
    for k in 0..rounds {
        let probe = &client.probes[k % client.probes.len()];
        let t0 = Instant::now();
        convert::points_into(&probe.polygon, &mut points);
        monitor.set_footprint(FRAME, &points, 0.0);
        let flag = monitor.flag(0.0);
        let t1 = Instant::now();
        monitor.evaluate_into(0.0, &mut report);
        let t2 = Instant::now();
        assert_eq!(flag.colliding, probe.colliding);
        assert_eq!(report.colliding, probe.colliding);
        before_flag.push((t1 - t0).as_secs_f64() * 1e6);
        evaluate.push((t2 - t1).as_secs_f64() * 1e6);
    }
    (stats(&before_flag), stats(&evaluate))
}

pub fn latency(o: &Options) -> Res<()> {
    header_lines(o);
    let mut client = make_client(o)?;
    let (before_flag, evaluate) = in_process(&client, 2000);
    println!(
        "in this process, per footprint: before the flag (points + set_footprint + flag) p50 {:.1} µs, p99 {:.1} µs; the report after it (evaluate_into) p50 {:.1} µs, p99 {:.1} µs",
        before_flag.p50, before_flag.p99, evaluate.p50, evaluate.p99
    );
    let pid = std::process::id();
    let dir = client.dir.clone();

    let ns = format!("/lat{pid}_node");
    let process = ChildProcess::spawn("node", node_command(o, &ns, 0.0), &dir)?;
    let mut node = client.target("node", ns, process)?;
    let ns = format!("/lat{pid}_echo");
    let process = ChildProcess::spawn("echo", echo_command("--echo", &ns)?, &dir)?;
    let mut echo = client.target("echo (floor)", ns, process)?;
    client.setup_node(&mut node)?;
    client.setup_echo(&mut echo)?;
    let ns = format!("/lat{pid}_echo_entities");
    let process =
        ChildProcess::spawn("echo_entities", echo_command("--echo-entities", &ns)?, &dir)?;
    let mut echo_entities = client.target("echo, node's entities", ns, process)?;
    client.setup_echo(&mut echo_entities)?;
    let mut targets = vec![echo, node, echo_entities];
    if let Some(us) = o.burn {
        let ns = format!("/lat{pid}_echo_burn");
        let mut cmd = echo_command("--echo", &ns)?;
        cmd.env(BURN_VAR, us.to_string());
        let process = ChildProcess::spawn("echo_burn", cmd, &dir)?;
        let mut t = client.target(&format!("echo + {us} µs after"), ns, process)?;
        client.setup_echo(&mut t)?;
        targets.push(t);
    }
    if o.echo_st {
        let ns = format!("/lat{pid}_echo_st");
        let process = ChildProcess::spawn("echo_st", echo_command("--echo-st", &ns)?, &dir)?;
        let mut t = client.target("echo, single thread", ns, process)?;
        client.setup_echo(&mut t)?;
        targets.push(t);
    }
    let title = format!(
        "footprint → collision, {} obstacles, markers_rate 0 (µs)",
        o.obstacles
    );
    first_phase(&mut client, &mut targets, o, &title)?;

    // Nodes with subscribed outputs, each alone with the echo: their work
    // must not load the first phase.
    let mut phases = Vec::new();
    if o.report {
        phases.push((
            "report",
            "node, report subscribed",
            0.0,
            "footprint → collision, collision_report subscribed by another process (µs)",
        ));
    }
    if o.markers {
        phases.push((
            "markers",
            "node, markers subscribed",
            10.0,
            "footprint → collision, markers_rate 10, markers and report subscribed by another process (µs)",
        ));
    }
    for (k, (name, label, markers_rate, title)) in phases.into_iter().enumerate() {
        targets.truncate(1);
        let ns = format!("/lat{pid}_{name}");
        let process = ChildProcess::spawn(
            &format!("node_{name}"),
            node_command(o, &ns, markers_rate),
            &dir,
        )?;
        let mut t = client.target(label, ns.clone(), process)?;
        client.setup_node(&mut t)?;
        let sink =
            ChildProcess::spawn(&format!("sink_{name}"), echo_command("--sink", &ns)?, &dir)?;
        // Discovery: reports and markers are built only once the node sees
        // the sink.
        client.idle(Duration::from_secs(2), &mut []);
        targets.push(t);
        for t in &mut targets {
            t.samples.clear();
            t.skipped = 0;
            t.lost = 0;
        }
        let load0 = loadavg();
        let t0 = Instant::now();
        client.compare(&mut targets, o);
        let sink_log = sink.log.clone();
        drop(sink);
        println!(
            "\nphase {}: {:.1} s, load average {} before, {} after; {}",
            k + 2,
            t0.elapsed().as_secs_f64(),
            load0,
            loadavg(),
            std::fs::read_to_string(sink_log)
                .unwrap_or_default()
                .lines()
                .find(|l| l.starts_with("sink:"))
                .unwrap_or("sink: no summary")
        );
        print_table(title, &targets, 0);
    }
    Ok(())
}

/// `--tf`: the node with the footprint from TF, each message one `/tf`
/// `odom → base_link`, against the echo of the same messages.
pub fn latency_tf(o: &Options) -> Res<()> {
    header_lines(o);
    let mut client = make_client(o)?;
    let params = tf_node_params();
    println!(
        "TF: /tf {ODOM} → {BASE} (the robot's pose), static {FRAME} → {ODOM} on /tf_static; node -p {}",
        params.join(" -p ")
    );
    let before_flag = stats(&check_tf_probes(&client.probes, &client.scene, 2000));
    println!(
        "in this process, per /tf message: before the flag (transform read + FrameTree::insert + set_footprint_shape + place + flag) p50 {:.1} µs, p99 {:.1} µs",
        before_flag.p50, before_flag.p99
    );
    let pid = std::process::id();
    let dir = client.dir.clone();

    let ns = format!("/lat{pid}_node_tf");
    let mut cmd = node_command(o, &ns, 0.0);
    for p in &params {
        cmd.arg("-p").arg(p);
    }
    let process = ChildProcess::spawn("node_tf", cmd, &dir)?;
    let mut node = client.target_tf("node, footprint from TF", ns, "/tf", process)?;
    let ns = format!("/lat{pid}_echo_tf");
    let process = ChildProcess::spawn("echo_tf", echo_command("--echo-tf", &ns)?, &dir)?;
    let topic = format!("{ns}/tf");
    let mut echo = client.target_tf("echo of /tf (floor)", ns, &topic, process)?;
    client.setup_node(&mut node)?;
    client.setup_echo(&mut echo)?;
    let mut targets = vec![echo, node];
    let title = format!(
        "/tf {ODOM} → {BASE} → collision, footprint from TF, {} obstacles in {FRAME}, markers_rate 0 (µs)",
        o.obstacles
    );
    first_phase(&mut client, &mut targets, o, &title)
}

/// `--cloud`: the node with a `pointcloud` source, each message one cloud
/// of `points` points, against the echo of the same clouds; every process
/// with the Fast DDS profile.
pub fn latency_cloud(o: &Options, points: usize) -> Res<()> {
    if points < cloud::MIN_POINTS {
        return Err(format!("--cloud needs at least {} points", cloud::MIN_POINTS).into());
    }
    // Before this process's participant exists; the children inherit it.
    match &o.dds_profile {
        Some(path) => {
            if !path.is_file() {
                return Err(format!("--dds-profile {}: no such file", path.display()).into());
            }
            std::env::set_var("FASTRTPS_DEFAULT_PROFILES_FILE", path);
            std::env::set_var("FASTDDS_DEFAULT_PROFILES_FILE", path);
        }
        None => {
            std::env::remove_var("FASTRTPS_DEFAULT_PROFILES_FILE");
            std::env::remove_var("FASTDDS_DEFAULT_PROFILES_FILE");
        }
    }
    header_lines(o);
    let mut client = make_client(o)?;
    client.clouds = vec![
        (room_cloud(points, true), true),
        (room_cloud(points, false), false),
    ];
    let bytes = client.clouds[0].0.data.len();
    let pid = std::process::id();
    let node_ns = format!("/lat{pid}_node_cloud");
    let node_topic = format!("{node_ns}/cloud");
    let values = cloud::node_values(&node_topic);
    let params = cloud::node_params(&values);
    println!(
        "clouds: {points} points (x y z intensity float32, {bytes} bytes), frame {}, sensor-data QoS, {}; FASTRTPS_DEFAULT_PROFILES_FILE={}; node -p {}",
        cloud::BASE,
        if o.steady {
            "steady: the clear cloud only (the flag never changes)"
        } else {
            "alternating a cloud with 8 points inside the robot and one without"
        },
        o.dds_profile
            .as_ref()
            .map_or("(unset: Fast DDS's defaults)".into(), |p| p.display().to_string()),
        params.join(" -p ")
    );
    let checked = check_clouds(&client.clouds, 400)?;
    println!("in this process, per cloud, p50 / p99 (µs): cloud_points (I/O thread) | into a PointSet + set_source_points | place + flag (before collision) | evaluate_into (report worker, after it)");
    for (kind, label) in ["colliding", "clear"].iter().enumerate() {
        let show = |v: &[f64]| {
            let s = stats(v);
            format!("{:.1} / {:.1}", s.p50, s.p99)
        };
        println!(
            "  {label} cloud ({} points kept): {} | {} | {} | {}",
            checked.kept[kind],
            show(&checked.decode[kind]),
            show(&checked.copy[kind]),
            show(&checked.flag[kind]),
            show(&checked.report[kind]),
        );
    }

    let dir = client.dir.clone();
    let mut cmd = node_command(o, &node_ns, 0.0);
    for p in &params {
        cmd.arg("-p").arg(p);
    }
    let process = ChildProcess::spawn("node_cloud", cmd, &dir)?;
    let mut node = client.target_cloud("node, pointcloud source", node_ns, &node_topic, process)?;
    let ns = format!("/lat{pid}_echo_cloud");
    let process = ChildProcess::spawn("echo_cloud", echo_command("--echo-cloud", &ns)?, &dir)?;
    let topic = format!("{ns}/cloud");
    let mut echo = client.target_cloud("echo of the cloud (floor)", ns, &topic, process)?;
    client.setup_node(&mut node)?;
    client.setup_echo(&mut echo)?;
    let mut targets = vec![echo, node];
    let title =
        format!("PointCloud2 ({points} points, {bytes} bytes) → collision, markers_rate 0 (µs)");
    first_phase(&mut client, &mut targets, o, &title)?;
    let sent = o.samples;
    println!(
        "delivered and answered (of {sent} measured): {}",
        targets
            .iter()
            .map(|t| format!("{} {}", t.label, t.samples.len()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for t in &targets {
        let f = &t.flow;
        let secs = f.time.as_secs_f64().max(1e-9);
        println!(
            "{}: collision while its clouds arrived: {} messages in {:.1} s, {:.1}/s ({:.1}/s answers, {:.1}/s others: the timer); longest time without one {:.0} ms",
            t.label,
            f.bools,
            secs,
            f.bools as f64 / secs,
            f.answers as f64 / secs,
            f.bools.saturating_sub(f.answers) as f64 / secs,
            f.longest_gap.as_secs_f64() * 1e3
        );
    }
    Ok(())
}

/// Phase 1 of both modes: every target in interleaved blocks, the phase's
/// time and load, the table against the first target (the floor), and
/// every process still running.
fn first_phase(client: &mut Client, targets: &mut [Target], o: &Options, title: &str) -> Res<()> {
    let load0 = loadavg();
    let t0 = Instant::now();
    client.compare(targets, o);
    println!(
        "\nphase 1: {:.1} s, load average {} before, {} after",
        t0.elapsed().as_secs_f64(),
        load0,
        loadavg()
    );
    print_table(title, targets, 0);
    for t in targets.iter_mut() {
        t.process.check_running()?;
    }
    Ok(())
}
