#!/usr/bin/env python3
"""Tables and scaling plot from criterion's results (no dependency).

Reads the `estimates.json` criterion writes for `benches/narrow_phase.rs`
and `benches/scale.rs`, prints Markdown tables (what BENCHMARKS.md shows)
and writes an SVG with the scaling curves.

    cargo bench --no-default-features
    python3 scripts/plot_benchmarks.py                       # target/criterion
    python3 scripts/plot_benchmarks.py --criterion DIR --svg docs/benchmarks.svg \
        --tables docs/benchmark_tables.md

Times are criterion's mean per iteration; the narrow-phase benchmarks time
a batch of pairs (their `throughput`), so they are divided by it to give
nanoseconds per pair. Ratios are between results of the same run.
"""

import argparse
import json
import math
import os
import sys
from pathlib import Path

SIZES = [3, 4, 8, 16, 64, 256, 1024]
CONFIGS = ["far", "gap_1e-3", "touching", "shallow", "deep", "containment"]
KINDS = ["regular", "jittered"]
COUNTS = [10, 100, 1000, 10000]


def default_criterion_dir():
    target = os.environ.get("CARGO_TARGET_DIR", "target")
    return Path(target) / "criterion"


def best_samples(root):
    """{(group, function, parameter): fastest sample, ns per iteration}:
    on a shared machine the mean carries other processes' load, the fastest
    sample much less."""
    best = {}
    for sample in Path(root).glob("*/*/*/new/sample.json"):
        data = json.loads(sample.read_text())
        parameter_dir = sample.parent.parent
        key = (parameter_dir.parent.parent.name, parameter_dir.parent.name, parameter_dir.name)
        best[key] = min(t / i for t, i in zip(data["times"], data["iters"]))
    return best


def load(root):
    """{(group, function, parameter): nanoseconds per element}"""
    results = {}
    for estimates in Path(root).glob("*/*/*/new/estimates.json"):
        parameter_dir = estimates.parent.parent
        function_dir = parameter_dir.parent
        group_dir = function_dir.parent
        mean = json.loads(estimates.read_text())["mean"]["point_estimate"]
        elements = 1
        bench = estimates.parent / "benchmark.json"
        if bench.exists():
            throughput = json.loads(bench.read_text()).get("throughput") or {}
            elements = throughput.get("Elements", 1) or 1
        results[(group_dir.name, function_dir.name, parameter_dir.name)] = mean / elements
    return results


def fmt_time(ns):
    if ns is None:
        return "–"
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns / 1e6:.2f} ms"


def fmt_ratio(slow, fast):
    if slow is None or fast is None or fast == 0:
        return "–"
    r = slow / fast
    return f"{r:.0f}×" if r >= 10 else f"{r:.1f}×"


def narrow_tables(results):
    out = []
    for kind in KINDS:
        for config in CONFIGS:
            group = f"narrow_{kind}_{config}"
            if not any(k[0] == group for k in results):
                continue
            out.append(f"\n#### {kind} n-gons, {config} (ns per pair)\n")
            out.append(
                "| n | ours bool | parry `intersection_test` | ratio "
                "| ours MTV (`penetration`) | parry `contact` | ratio "
                "| ours `query` | parry contact+closest_points | ratio "
                "| textbook MTV | textbook / ours MTV |"
            )
            out.append("|---:" * 11 + "|")
            for n in SIZES:
                g = lambda f: results.get((group, f, str(n)))
                ob, pb = g("ours_bool"), g("parry_bool")
                om, pc = g("ours_mtv"), g("parry_contact")
                oq, pq = g("ours_query"), g("parry_query")
                tm = g("textbook_mtv")
                out.append(
                    f"| {n} | {fmt_time(ob)} | {fmt_time(pb)} | {fmt_ratio(pb, ob)} "
                    f"| {fmt_time(om)} | {fmt_time(pc)} | {fmt_ratio(pc, om)} "
                    f"| {fmt_time(oq)} | {fmt_time(pq)} | {fmt_ratio(pq, oq)} "
                    f"| {fmt_time(tm)} | {fmt_ratio(tm, om)} |"
                )
    return "\n".join(out)


def scale_table(results, best):
    functions = [
        ("exact_no_broadphase", "exact, no broad phase"),
        ("broadphase_all_exact", "broad phase, range ∞ (all exact)"),
        ("broadphase_range_1m", "broad phase, range 1 m"),
        ("broadphase_range_0", "broad phase, range 0"),
        ("monitor_evaluate_into_1m", "`Monitor::evaluate_into`, range 1 m"),
        ("monitor_flag_clear", "`Monitor::flag` (clear)"),
        ("index_rebuild", "index rebuild (per obstacle message)"),
    ]
    out = ["\nMean per report (fastest sample in parentheses).\n"]
    out.append("| obstacles | " + " | ".join(label for _, label in functions) + " | speed-up (range 1 m) |")
    out.append("|---:" * (len(functions) + 2) + "|")
    for count in COUNTS:
        g = lambda f: results.get(("scale", f, str(count)))
        b = lambda f: best.get(("scale", f, str(count)))
        cells = [f"{fmt_time(g(f))} ({fmt_time(b(f))})" for f, _ in functions]
        speedup = fmt_ratio(g("exact_no_broadphase"), g("broadphase_range_1m"))
        out.append(f"| {count:,} | " + " | ".join(cells) + f" | {speedup} |")
    return "\n".join(out)


# ----------------------------------------------------------------- SVG plot

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"]


def panel(x0, y0, w, h, title, xlabel, ylabel, series, xs, hline=None):
    """A log-log panel; `series` is [(label, [(x, y_ns)], dashed)]."""
    pts = [p for _, s, _ in series for p in s if p[1]]
    if hline:
        pts.append((xs[0], hline[0]))
    if not pts:
        return []
    ymin = 10 ** math.floor(math.log10(min(p[1] for p in pts)))
    ymax = 10 ** math.ceil(math.log10(max(p[1] for p in pts)))
    xmin, xmax = min(xs), max(xs)
    left, right, top, bottom = 70, 20, 30, 45
    pw, ph = w - left - right, h - top - bottom

    def X(x):
        return x0 + left + pw * (math.log10(x) - math.log10(xmin)) / (math.log10(xmax) - math.log10(xmin))

    def Y(y):
        return y0 + top + ph * (1 - (math.log10(y) - math.log10(ymin)) / (math.log10(ymax) - math.log10(ymin)))

    svg = [
        f'<text x="{x0 + w / 2}" y="{y0 + 18}" text-anchor="middle" font-weight="bold">{title}</text>',
        f'<rect x="{x0 + left}" y="{y0 + top}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>',
    ]
    decade = ymin
    while decade <= ymax * 1.0001:
        y = Y(decade)
        svg.append(f'<line x1="{x0 + left}" y1="{y:.1f}" x2="{x0 + left + pw}" y2="{y:.1f}" stroke="#ddd"/>')
        svg.append(f'<text x="{x0 + left - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{fmt_time(decade)}</text>')
        decade *= 10
    for x in xs:
        svg.append(f'<line x1="{X(x):.1f}" y1="{y0 + top}" x2="{X(x):.1f}" y2="{y0 + top + ph}" stroke="#eee"/>')
        svg.append(f'<text x="{X(x):.1f}" y="{y0 + top + ph + 16}" text-anchor="middle" font-size="11">{x:,}</text>')
    svg.append(f'<text x="{x0 + left + pw / 2}" y="{y0 + h - 6}" text-anchor="middle" font-size="12">{xlabel}</text>')
    svg.append(
        f'<text transform="translate({x0 + 14},{y0 + top + ph / 2}) rotate(-90)" text-anchor="middle" font-size="12">{ylabel}</text>'
    )
    if hline:
        y = Y(hline[0])
        svg.append(f'<line x1="{x0 + left}" y1="{y:.1f}" x2="{x0 + left + pw}" y2="{y:.1f}" stroke="#000" stroke-dasharray="2,3"/>')
        svg.append(f'<text x="{x0 + left + 4}" y="{y - 4:.1f}" font-size="11">{hline[1]}</text>')
    for k, (label, s, dashed) in enumerate(series):
        color = PALETTE[k % len(PALETTE)]
        s = [(x, y) for x, y in s if y]
        if not s:
            continue
        path = " ".join(f"{'M' if i == 0 else 'L'}{X(x):.1f},{Y(y):.1f}" for i, (x, y) in enumerate(s))
        dash = ' stroke-dasharray="6,4"' if dashed else ""
        svg.append(f'<path d="{path}" fill="none" stroke="{color}" stroke-width="2"{dash}/>')
        for x, y in s:
            svg.append(f'<circle cx="{X(x):.1f}" cy="{Y(y):.1f}" r="2.5" fill="{color}"/>')
        ly = y0 + top + 14 + 15 * k
        svg.append(f'<line x1="{x0 + left + 8}" y1="{ly - 4}" x2="{x0 + left + 30}" y2="{ly - 4}" stroke="{color}" stroke-width="2"{dash}/>')
        svg.append(f'<text x="{x0 + left + 35}" y="{ly}" font-size="11">{label}</text>')
    return svg


def plot(results, path, config="shallow", kind="regular"):
    group = f"narrow_{kind}_{config}"
    g = lambda f, n: results.get((group, f, str(n)))
    narrow = [
        ("textbook MTV, O((n+m)²)", [(n, g("textbook_mtv", n)) for n in SIZES], True),
        ("parry2d contact", [(n, g("parry_contact", n)) for n in SIZES], False),
        ("parry2d intersection_test", [(n, g("parry_bool", n)) for n in SIZES], True),
        ("ours penetration (MTV)", [(n, g("ours_mtv", n)) for n in SIZES], False),
        ("ours intersects (bool)", [(n, g("ours_bool", n)) for n in SIZES], True),
    ]
    s = lambda f, c: results.get(("scale", f, str(c)))
    scale = [
        ("exact, no broad phase", [(c, s("exact_no_broadphase", c)) for c in COUNTS], False),
        ("broad phase, range 1 m", [(c, s("broadphase_range_1m", c)) for c in COUNTS], False),
        ("broad phase, range 0", [(c, s("broadphase_range_0", c)) for c in COUNTS], True),
        ("index rebuild", [(c, s("index_rebuild", c)) for c in COUNTS], True),
        ("flag alone (Monitor::flag, clear)", [(c, s("monitor_flag_clear", c)) for c in COUNTS], True),
    ]
    w, h = 520, 380
    body = panel(0, 0, w, h, f"Narrow phase: {kind} n-gon pairs, {config}", "vertices per polygon (n)",
                 "time per pair", narrow, SIZES)
    body += panel(w, 0, w, h, "One footprint vs N obstacles, full report", "obstacles (N)", "time per report",
                  scale, COUNTS, hline=(100e3, "target: 100 µs"))
    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * w}" height="{h}" viewBox="0 0 {2 * w} {h}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{2 * w}" height="{h}" fill="white"/>',
        *body,
        "</svg>",
    ]
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(svg) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--criterion", type=Path, default=default_criterion_dir(),
                        help="criterion output directory (default: $CARGO_TARGET_DIR/criterion or target/criterion)")
    parser.add_argument("--svg", type=Path, default=Path("docs/benchmarks.svg"))
    parser.add_argument("--tables", type=Path, help="also write the tables to this Markdown file")
    args = parser.parse_args()
    results = load(args.criterion)
    if not results:
        sys.exit(f"no criterion results under {args.criterion}: run `cargo bench --no-default-features` first")
    tables = "### Narrow phase\n" + narrow_tables(results) + "\n\n### Scale\n" + scale_table(results, best_samples(args.criterion)) + "\n"
    print(tables)
    if args.tables:
        args.tables.write_text(tables)
    plot(results, args.svg)
    print(f"wrote {args.svg}", file=sys.stderr)


if __name__ == "__main__":
    main()
