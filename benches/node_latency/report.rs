//! What the benchmark prints: the run's header lines and the latency tables
//! (BENCHMARKS.md quotes this output: keep its format).

use crate::cli::Options;
use crate::client::Target;
use crate::stats::{stats, Stats};
use std::fmt::Write as _;

pub fn header_lines(o: &Options) {
    if o.predict {
        println!("predictive monitor on: -p velocity_topic:=cmd_vel -p velocity_type:=twist -p velocity_timeout:=0.0 -p time_horizon:=2.0 (one Twist 0.5 m/s, 0.3 rad/s at set-up)");
    }
    println!(
        "ROS_DOMAIN_ID={} RMW_IMPLEMENTATION={} node={} {}",
        std::env::var("ROS_DOMAIN_ID").unwrap_or_else(|_| "(unset: 0)".into()),
        std::env::var("RMW_IMPLEMENTATION").unwrap_or_else(|_| "(default)".into()),
        o.node_bin.display(),
        o.node_params
            .iter()
            .map(|p| format!("-p {p}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "{}; {} samples per target after {} warm-up, blocks of {}, period {} µs ({}); nproc {}",
        match o.cloud {
            Some(points) => format!("point clouds of {points} points, no obstacles"),
            None => format!("{} obstacles", o.obstacles),
        },
        o.samples,
        o.warmup,
        o.block,
        o.period.as_micros(),
        if o.period.is_zero() {
            "back to back"
        } else {
            "one in flight"
        },
        std::thread::available_parallelism().map_or(0, |n| n.get()),
    );
    if o.cloud.is_some() {
        return;
    }
    println!(
        "footprints: {}",
        if o.steady || o.allocs {
            "steady (all clear, the flag never changes)"
        } else {
            "alternating colliding / clear (the flag changes with every message)"
        }
    );
}

pub fn print_table(title: &str, targets: &[Target], floor: usize) {
    let mut out = String::new();
    let _ = writeln!(out, "\n{title}");
    let _ = writeln!(
        out,
        "| target | n | min | p50 | p90 | p99 | max | mean | lost | timer Bools skipped | CPU per message |"
    );
    let _ = writeln!(
        out,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    let all: Vec<Stats> = targets.iter().map(|t| stats(&t.samples)).collect();
    for (t, s) in targets.iter().zip(&all) {
        let cpu = t.cpu.as_secs_f64() * 1e6 / s.n.max(1) as f64;
        let _ = writeln!(
            out,
            "| {} | {} | {:.0} µs | {:.0} µs | {:.0} µs | {:.0} µs | {:.0} µs | {:.0} µs | {} | {} | {:.0} µs |",
            t.label, s.n, s.min, s.p50, s.p90, s.p99, s.max, s.mean, t.lost, t.skipped, cpu
        );
    }
    let slowest: Vec<String> = targets
        .iter()
        .filter_map(|t| {
            let (k, max) = t
                .samples
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))?;
            Some(format!("{} #{} ({:.0} µs)", t.label, k + 1, max))
        })
        .collect();
    let _ = writeln!(out, "slowest sample: {}", slowest.join(", "));
    let f = &all[floor];
    for (i, (t, s)) in targets.iter().zip(&all).enumerate() {
        if i == floor {
            continue;
        }
        let _ = writeln!(
            out,
            "ratio {} / {}: p50 {:.2}×, p90 {:.2}×, p99 {:.2}×, mean {:.2}× (p50 {:+.0} µs)",
            t.label,
            targets[floor].label,
            s.p50 / f.p50,
            s.p90 / f.p90,
            s.p99 / f.p99,
            s.mean / f.mean,
            s.p50 - f.p50
        );
    }
    print!("{out}");
}
