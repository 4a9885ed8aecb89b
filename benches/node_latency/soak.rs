//! The soak mode: the node alone at a fixed rate, its resident memory
//! sampled from `/proc`.

use crate::cli::Options;
use crate::client::make_client;
use crate::process::{cpu_time, loadavg, node_command, ChildProcess};
use crate::stats::stats;
use crate::Res;
use futures::{FutureExt, StreamExt};
use sat_collision_testkit::process::proc_status_kb;
use std::time::{Duration, Instant};

pub fn soak(o: &Options, seconds: f64) -> Res<()> {
    let mut client = make_client(o)?;
    let dir = client.dir.clone();
    let ns = format!("/lat{}_soak", std::process::id());
    let process = ChildProcess::spawn("node", node_command(o, &ns, 0.0), &dir)?;
    let mut t = client.target("node", ns, process)?;
    client.setup_node(&mut t)?;
    let pid = t.process.pid();
    println!(
        "soak: {} obstacles, {seconds} s at {} Hz, steady footprints, node pid {pid} ({} {}), ROS_DOMAIN_ID={}, load average {}",
        o.obstacles,
        o.rate,
        o.node_bin.display(),
        o.node_params.join(" "),
        std::env::var("ROS_DOMAIN_ID").unwrap_or_default(),
        loadavg()
    );
    // A few seconds of the target rate first: r2r, DDS and the report
    // buffers reach their working size.
    let period = Duration::from_secs_f64(1.0 / o.rate);
    let mut samples: Vec<f32> = Vec::new();
    let mut rss: Vec<(f64, u64)> = Vec::new();
    let (mut sent, mut answered, mut late) = (0usize, 0usize, 0usize);
    let cpu0 = cpu_time(pid);
    let start = Instant::now();
    let mut next_send = start;
    let mut next_rss = start;
    let mut waiting: Option<(Instant, bool)> = None;
    let end = start + Duration::from_secs_f64(seconds);
    println!("|   t (s) | VmRSS (kB) | RssAnon (kB) | answered | late |");
    loop {
        let now = Instant::now();
        if now >= next_rss {
            t.process.check_running()?;
            let kb = proc_status_kb(pid, "VmRSS:").unwrap_or(0);
            let t_s = now.duration_since(start).as_secs_f64();
            println!(
                "| {t_s:7.1} | {kb:10} | {:12} | {answered:8} | {late:4} |",
                proc_status_kb(pid, "RssAnon:").unwrap_or(0)
            );
            rss.push((t_s, kb));
            next_rss += Duration::from_secs_f64(o.rss_every);
            if now >= end {
                break;
            }
        }
        if now >= next_send {
            if waiting.is_some() {
                late += 1;
            }
            let (msg, expected) = client.message(&t, client.sent);
            client.sent += 1;
            let t0 = Instant::now();
            t.publish(&msg)?;
            waiting = Some((t0, expected));
            sent += 1;
            next_send += period;
            if next_send < now {
                // Fell behind (a stall of this process): do not burst.
                next_send = now + period;
            }
        }
        let wake = next_send.min(next_rss);
        if let Some(left) = wake.checked_duration_since(Instant::now()) {
            client.node.spin_once(left.min(Duration::from_millis(5)));
        }
        while let Some(Some(b)) = t.flags.next().now_or_never() {
            if let Some((t0, expected)) = waiting {
                if b.data == expected {
                    samples.push((t0.elapsed().as_secs_f64() * 1e6) as f32);
                    answered += 1;
                    waiting = None;
                }
            }
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    let cpu = cpu_time(pid).saturating_sub(cpu0).as_secs_f64();
    let first = rss.first().map_or(0, |r| r.1);
    let last = rss.last().map_or(0, |r| r.1);
    let max = rss.iter().map(|r| r.1).max().unwrap_or(0);
    let min = rss.iter().map(|r| r.1).min().unwrap_or(0);
    // Least-squares slope of RSS over time, second half (after start-up).
    let half: Vec<(f64, u64)> = rss[rss.len() / 2..].to_vec();
    let slope = {
        let n = half.len() as f64;
        let mx = half.iter().map(|r| r.0).sum::<f64>() / n;
        let my = half.iter().map(|r| r.1 as f64).sum::<f64>() / n;
        let sxy: f64 = half.iter().map(|r| (r.0 - mx) * (r.1 as f64 - my)).sum();
        let sxx: f64 = half.iter().map(|r| (r.0 - mx).powi(2)).sum();
        if sxx > 0.0 {
            sxy / sxx * 60.0
        } else {
            0.0
        }
    };
    let samples: Vec<f64> = samples.iter().map(|&s| f64::from(s)).collect();
    let s = stats(&samples);
    println!(
        "\nsoak {elapsed:.0} s at {} Hz: sent {sent} ({:.0}/s), answered in time {answered}, late {late}; node CPU {:.0} % of one core ({:.0} µs per message)",
        o.rate,
        sent as f64 / elapsed,
        100.0 * cpu / elapsed,
        cpu * 1e6 / sent.max(1) as f64
    );
    println!(
        "RSS: first sample {first} kB, last {last} kB, min {min} kB, max {max} kB (last − first {:+} kB); slope over the second half {slope:+.1} kB/min; VmHWM {} kB",
        last as i64 - first as i64,
        proc_status_kb(pid, "VmHWM:").unwrap_or(0)
    );
    println!(
        "latency of in-time answers: p50 {:.0} µs, p90 {:.0} µs, p99 {:.0} µs, max {:.0} µs; load average {}",
        s.p50,
        s.p90,
        s.p99,
        s.max,
        loadavg()
    );
    Ok(())
}
