//! The allocation mode: allocation calls per message in the node and the
//! echoes, counted by a tiny `LD_PRELOAD` library (nothing in the node is
//! changed for it).

use crate::cli::Options;
use crate::client::make_client;
use crate::process::{echo_command, loadavg, node_command, ChildProcess};
use crate::report::header_lines;
use crate::Res;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Makes `cmd` count its allocations into `counter`.
fn with_alloc_counter(cmd: &mut Command, lib: &Path, counter: &Path) -> Res<()> {
    std::fs::write(counter, [0u8; 4096])?;
    cmd.env("LD_PRELOAD", lib).env("MALLOC_COUNT_FILE", counter);
    Ok(())
}

/// LD_PRELOAD library: counts allocation calls and bytes into the first 24
/// bytes of the file named by `MALLOC_COUNT_FILE` (shared mapping), and
/// forwards to glibc.
const MALLOC_COUNT_C: &str = r#"
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
struct counters { uint64_t allocs, frees, bytes; };
static struct counters before_init;
static struct counters *c = &before_init;
__attribute__((constructor)) static void init(void) {
    const char *path = getenv("MALLOC_COUNT_FILE");
    if (!path) return;
    int fd = open(path, O_RDWR);
    if (fd < 0) return;
    void *p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p != MAP_FAILED) c = p;
}
static inline void count(size_t n) {
    __atomic_fetch_add(&c->allocs, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&c->bytes, n, __ATOMIC_RELAXED);
}
void *malloc(size_t n) { count(n); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { count(a * b); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { count(n); return __libc_realloc(p, n); }
void *memalign(size_t a, size_t n) { count(n); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { count(n); return __libc_memalign(a, n); }
void *valloc(size_t n) { count(n); return __libc_memalign(sysconf(_SC_PAGESIZE), n); }
int posix_memalign(void **out, size_t a, size_t n) {
    if (a < sizeof(void *) || (a & (a - 1))) return EINVAL;
    count(n);
    void *p = __libc_memalign(a, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
void free(void *p) {
    if (p) __atomic_fetch_add(&c->frees, 1, __ATOMIC_RELAXED);
    __libc_free(p);
}
"#;

fn build_alloc_counter(dir: &Path) -> Res<PathBuf> {
    let src = dir.join("malloc_count.c");
    let lib = dir.join("malloc_count.so");
    std::fs::write(&src, MALLOC_COUNT_C)?;
    let status = Command::new("cc")
        .args(["-O2", "-shared", "-fPIC", "-o"])
        .arg(&lib)
        .arg(&src)
        .status()?;
    if !status.success() {
        return Err("cc could not build the allocation counter".into());
    }
    Ok(lib)
}

/// (allocation calls, frees, bytes) so far.
fn read_counter(path: &Path) -> Res<[u64; 3]> {
    let bytes = std::fs::read(path)?;
    let word = |i: usize| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap_or([0; 8]));
    Ok([word(0), word(1), word(2)])
}

pub fn allocs(o: &Options) -> Res<()> {
    header_lines(o);
    let mut client = make_client(o)?;
    let dir = client.dir.clone();
    let lib = build_alloc_counter(&dir)?;
    let pid = std::process::id();
    let mut targets = Vec::new();
    // The echo with the node's entities shows what r2r's per-spin wait set
    // costs for them: the node's own share is what exceeds that.
    /// What one counted process is.
    enum Counted {
        Echo(&'static str),
        Node { report_sink: bool },
    }
    let mut processes = vec![
        ("echo", "echo (floor)", Counted::Echo("--echo")),
        (
            "echo_entities",
            "echo, node's entities",
            Counted::Echo("--echo-entities"),
        ),
        ("node", "node", Counted::Node { report_sink: false }),
    ];
    if o.report {
        processes.push((
            "node_report",
            "node, report subscribed",
            Counted::Node { report_sink: true },
        ));
    }
    // Sinks (not counted) for the nodes whose report is subscribed.
    let mut sinks = Vec::new();
    for (name, label, kind) in processes {
        let ns = format!("/lat{pid}_alloc_{name}");
        let counter = dir.join(format!("{name}.count"));
        let mut cmd = match kind {
            Counted::Node { .. } => node_command(o, &ns, 0.0),
            Counted::Echo(mode) => echo_command(mode, &ns)?,
        };
        with_alloc_counter(&mut cmd, &lib, &counter)?;
        let process = ChildProcess::spawn(name, cmd, &dir)?;
        let mut t = client.target(label, ns, process)?;
        t.counter = Some(counter);
        match kind {
            Counted::Node { report_sink } => {
                client.setup_node(&mut t)?;
                if report_sink {
                    let sink = echo_command("--sink", &t.ns)?;
                    sinks.push(ChildProcess::spawn("sink_report", sink, &dir)?);
                }
            }
            Counted::Echo(_) => client.setup_echo(&mut t)?,
        }
        targets.push(t);
    }
    if !sinks.is_empty() {
        // Discovery: the report is built only once the node sees the sink.
        client.idle(Duration::from_secs(2), &mut []);
    }
    // Warm up both (buffers reach their working size), then per target: an
    // idle window, then `samples` messages at the chosen pacing.
    client.compare(
        &mut targets,
        &Options {
            samples: 0,
            ..o.clone()
        },
    );
    println!("\nallocation calls (malloc/calloc/realloc/memalign) in each process:");
    println!(
        "| process | idle calls/s | messages | calls per message, raw | net of idle | bytes per message, raw | frees per message |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for t in &mut targets {
        let counter = t.counter.clone().unwrap_or_default();
        let idle = Duration::from_secs(3);
        let a = read_counter(&counter)?;
        client.idle(idle, std::slice::from_mut(t));
        let b = read_counter(&counter)?;
        let t0 = Instant::now();
        client.drive(t, o.samples, o.period, true);
        let busy = t0.elapsed().as_secs_f64();
        let c = read_counter(&counter)?;
        let n = o.samples as f64;
        let idle_rate = (b[0] - a[0]) as f64 / idle.as_secs_f64();
        let raw = (c[0] - b[0]) as f64 / n;
        println!(
            "| {} | {:.0} | {} | {:.1} | {:.1} | {:.0} | {:.1} |",
            t.label,
            idle_rate,
            o.samples,
            raw,
            raw - idle_rate * busy / n,
            (c[2] - b[2]) as f64 / n,
            (c[1] - b[1]) as f64 / n
        );
        t.process.check_running()?;
    }
    println!("load average {}", loadavg());
    Ok(())
}
