#!/usr/bin/env bash
# Fuzz the library with cargo fuzz (libFuzzer). Not part of scripts/test.sh:
# the committed corpora are replayed by `cargo test` (tests/geometry/fuzz_corpus.rs;
# the bag reader's, tests/bag/fuzz_corpus.rs).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
#   SECONDS_PER_TARGET  default 600
#   TARGET              scene_yaml, polygon, pair_query, bag (default: all four)
#
# Environment knobs:
#   FUZZ_JOBS       targets run at the same time (default 1)
#   FUZZ_TIMEOUT    libFuzzer -timeout, seconds per input (default 10)
#   FUZZ_RSS_MB     libFuzzer -rss_limit_mb (default 2048)
#   FUZZ_ARGS       more libFuzzer arguments (e.g. "-max_len=8192")
#   FUZZ_SANITIZER  cargo fuzz -s for every target (default: address for
#                   scene_yaml, none for the geometry targets and bag)
#
# Needs a nightly toolchain (rustup toolchain install nightly); installs
# cargo-fuzz when missing. New inputs go into fuzz/corpus/<target>/; before
# committing, minimise to the inputs that keep every covered edge (a few
# hundred files at most; tests/geometry/fuzz_corpus.rs and tests/bag/fuzz_corpus.rs
# replay them all):
#   cargo +nightly fuzz cmin -O -a -s none --target-dir fuzz/target/none polygon \
#       -- -use_counters=0          (scene_yaml: -s address, fuzz/target/address)
#   python3 fuzz/make_seeds.py      (the hand-made seeds back; bag's:
#   cargo test --no-default-features --test bag -- --ignored write_seeds)
# Crashes go into
# fuzz/artifacts/<target>/, the libFuzzer output into
# fuzz/artifacts/logs/<target>.log. Prints one summary line per target and
# exits 1 when any crash, timeout or out-of-memory artifact was written.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

SECONDS_PER_TARGET="${1:-600}"
shift || true
if [ "$#" -gt 0 ]; then
    TARGETS=("$@")
else
    TARGETS=(scene_yaml polygon pair_query bag)
fi
JOBS="${FUZZ_JOBS:-1}"
TIMEOUT="${FUZZ_TIMEOUT:-10}"
RSS_MB="${FUZZ_RSS_MB:-2048}"
read -r -a EXTRA <<<"${FUZZ_ARGS:-}"

case "$SECONDS_PER_TARGET" in
'' | *[!0-9]*)
    echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2
    exit 64
    ;;
esac

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "a nightly toolchain is needed: rustup toolchain install nightly" >&2
    exit 1
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "+ cargo install cargo-fuzz --locked"
    cargo install cargo-fuzz --locked
fi

LOGS="$ROOT/fuzz/artifacts/logs"
mkdir -p "$LOGS"

# AddressSanitizer only where unsafe code runs: serde_yaml's YAML parser
# (unsafe-libyaml, translated from C). The geometry is safe Rust, where ASan
# finds nothing and halves the speed; so is the bag reader (its zstd and lz4
# decompressors are C built by cc, which -s address does not instrument). One target directory per sanitizer, so
# that switching does not rebuild everything.
sanitizer() {
    case "$1" in
    scene_yaml) echo "${FUZZ_SANITIZER:-address}" ;;
    *) echo "${FUZZ_SANITIZER:-none}" ;;
    esac
}
# -O: optimised; -a: with debug assertions (integer overflow).
fuzz_flags() {
    local s
    s="$(sanitizer "$1")"
    echo "-O -a -s $s --target-dir $ROOT/fuzz/target/$s"
}

# Build once, up front, so that the time budget is spent fuzzing.
for target in "${TARGETS[@]}"; do
    # shellcheck disable=SC2046
    echo "+ cargo +nightly fuzz build $(fuzz_flags "$target") $target"
    # shellcheck disable=SC2046
    cargo +nightly fuzz build $(fuzz_flags "$target") "$target"
done

# Crash-like artifacts of a target, one per line.
artifacts() {
    find "$ROOT/fuzz/artifacts/$1" -maxdepth 1 -type f \
        \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) \
        2>/dev/null | sort
}

run_target() {
    local target="$1" log="$LOGS/$1.log"
    mkdir -p "$ROOT/fuzz/corpus/$target" "$ROOT/fuzz/artifacts/$target"
    artifacts "$target" >"$LOGS/$target.before"
    local start=$SECONDS rc=0
    # shellcheck disable=SC2046
    cargo +nightly fuzz run $(fuzz_flags "$target") "$target" -- \
        -max_total_time="$SECONDS_PER_TARGET" \
        -timeout="$TIMEOUT" \
        -rss_limit_mb="$RSS_MB" \
        -print_final_stats=1 \
        "${EXTRA[@]}" >"$log" 2>&1 || rc=$?
    echo "$((SECONDS - start))" >"$LOGS/$target.wall"
    echo "$rc" >"$LOGS/$target.rc"
}

summary() {
    local target="$1" log="$LOGS/$1.log"
    local wall rc runs last new
    wall="$(cat "$LOGS/$target.wall")"
    rc="$(cat "$LOGS/$target.rc")"
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
    [ -n "$runs" ] || runs="$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)"
    last="$(grep -E '^#[0-9]+' "$log" | tail -1 | sed -E 's/^#[0-9]+[[:space:]]+[A-Z]+[[:space:]]+//')"
    new="$(comm -13 "$LOGS/$target.before" <(artifacts "$target") | wc -l)"
    printf '%-11s wall %5ss  runs %-10s exec/s %-7s crashes %s  (exit %s)\n' \
        "$target" "$wall" "${runs:-?}" "$(( ${runs:-0} / (wall > 0 ? wall : 1) ))" "$new" "$rc"
    printf '            last status: %s\n' "${last:-?}"
    comm -13 "$LOGS/$target.before" <(artifacts "$target") | sed 's/^/            artifact: /'
    [ "$new" -eq 0 ]
}

running=0
for target in "${TARGETS[@]}"; do
    echo "+ fuzzing $target for ${SECONDS_PER_TARGET}s (log: $LOGS/$target.log)"
    run_target "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait || true

echo
echo "==== fuzz summary (${SECONDS_PER_TARGET}s per target) ===="
status=0
for target in "${TARGETS[@]}"; do
    summary "$target" || status=1
done
if [ "$status" -ne 0 ]; then
    echo "crash artifacts written: reproduce with cargo +nightly fuzz run <target> <artifact>" >&2
fi
exit "$status"
