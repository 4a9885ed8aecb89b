#!/usr/bin/env bash
# The Python package (python/): build and install it into the venv, then check and test it.
#
#   scripts/test_python_package.sh        # from any directory; scripts/test.sh runs it
#
# 1. Its test requirements (python/requirements-test.txt: maturin, shapely, psutil; numpy
#    and pytest pinned by scripts/constraints-ros.txt) into the venv of
#    $SAT_COLLISION_PYTHON, once: a stamp in the venv holds their hash, as scripts/setup.sh
#    does for the ROS wheels. When that Python is not a venv's (a regular ROS install's
#    python3), .ros2/python-venv is made from it (with its site packages) and used instead.
# 2. `pip install ./python`, as a user installs it (maturin from PyPI in pip's build
#    environment), built in its own target directory ($CARGO_TARGET_DIR/python, default
#    target/python): never the one of the ROS builds.
# 3. `cargo fmt --check` and `cargo clippy --release -D warnings` of python/ (its own crate,
#    outside the root workspace; the release profile shares the build scripts' output with
#    the build of step 2).
# 4. pytest python/tests, from the repository's root (so that the installed package, not
#    python/sat_collision, is imported).
#
# Without SAT_COLLISION_PYTHON set, it sources scripts/env.sh first (scripts/setup.sh must
# have run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
if [ -z "${SAT_COLLISION_PYTHON:-}" ]; then
    # shellcheck source=scripts/env.sh
    SAT_ENV_QUIET=1 source "$ROOT/scripts/env.sh"
fi
T0=$SECONDS
PY="$SAT_COLLISION_PYTHON"
if ! "$PY" -c 'import sys; sys.exit(sys.prefix == sys.base_prefix)'; then
    if [ ! -x "$ROOT/.ros2/python-venv/bin/python3" ]; then
        "$PY" -m venv --system-site-packages "$ROOT/.ros2/python-venv"
    fi
    PY="$ROOT/.ros2/python-venv/bin/python3"
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

stamp="$("$PY" -c 'import sys; print(sys.prefix)')/.sat_collision_python_test_stamp"
key="$(cat python/requirements-test.txt scripts/constraints-ros.txt | sha256sum | cut -c1-32)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$key" ]; then
    echo "+ pip install -r python/requirements-test.txt -c scripts/constraints-ros.txt"
    "$PY" -m pip install -q -r python/requirements-test.txt -c scripts/constraints-ros.txt
    echo "$key" >"$stamp"
else
    echo "test requirements: installed (python/requirements-test.txt)"
fi

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}/python"
echo "+ pip install ./python  (CARGO_TARGET_DIR=$CARGO_TARGET_DIR)"
t=$SECONDS
"$PY" -m pip install -q --no-deps ./python
echo "built and installed: $("$PY" -c 'import sat_collision; print(sat_collision._core.__file__)') ($((SECONDS - t)) s)"

echo "+ cargo fmt --check (python/)"
cargo fmt --manifest-path python/Cargo.toml --check
echo "+ cargo clippy --release --all-targets --locked (python/) -- -D warnings"
t=$SECONDS
PYO3_PYTHON="$PY" cargo clippy --manifest-path python/Cargo.toml --release --all-targets --locked -- -D warnings
echo "clippy: $((SECONDS - t)) s"

echo "+ pytest python/tests"
"$PY" -m pytest -p no:cacheprovider -ra python/tests
echo "python package: $((SECONDS - T0)) s"
