"""Fixtures shared by several test files (pytest finds this file by its name)."""

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from satpkg_support import ROOT, TARGET_DIR, msg_key


def _seed_target(seed, dest):
    """Copy what cargo reuses (fingerprints, build-script outputs, compiled
    dependencies) from `seed` into `dest`; not the incremental caches. A failed copy (a
    full disk, most likely) is removed and reported, and the build then starts from
    nothing rather than from half a seed."""
    dest.mkdir(parents=True)
    parts = [str(seed / d) for d in ('.fingerprint', 'build', 'deps') if (seed / d).is_dir()]
    copy = subprocess.run(['cp', '-a', *parts, str(dest)], stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if copy.returncode != 0:
        shutil.rmtree(dest, ignore_errors=True)
        free = shutil.disk_usage(dest.parent).free / 2**30
        print(f'seeding the colcon target failed ({free:.1f} GiB free), building from '
              f'nothing: {copy.stdout.strip()[-2000:]}')


def build_colcon_workspace():
    """Builds msg/ and the Rust package with scripts/colcon_build.sh into the scratch
    workspace (see `colcon_workspace`): (workspace path, exit code, build output, seconds).
    scripts/test.sh runs it in the background (scripts/colcon_prebuild.py) while
    `cargo test` runs, and the fixture then takes its result."""
    base = TARGET_DIR / 'colcon_layout'
    key = msg_key()
    root = base / key
    if base.is_dir():
        for old in base.iterdir():
            if old.name != key:
                shutil.rmtree(old, ignore_errors=True)
    ws, cargo = root / 'ws', root / 'cargo'
    for d in ('install', 'log'):
        shutil.rmtree(ws / d, ignore_errors=True)
    seed = TARGET_DIR / 'debug'
    if not cargo.exists() and (seed / '.fingerprint').is_dir():
        _seed_target(seed, cargo / 'debug')
    env = dict(os.environ, SAT_COLCON_CARGO_TARGET_DIR=str(cargo),
               SAT_COLCON_QUIET='1')
    t0 = time.monotonic()
    # The test profile: what `cargo test` (run before this by scripts/test.sh) has built
    # into the seed, so that most dependencies are reused.
    result = subprocess.run([str(ROOT / 'scripts' / 'colcon_build.sh'), '--workspace', str(ws),
                             '--profile', 'test'],
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, timeout=1800)
    return ws, result.returncode, result.stdout, time.monotonic() - t0


@pytest.fixture(scope='session')
def colcon_workspace():
    """msg/ and the Rust package built once per run by scripts/colcon_build.sh into a
    scratch workspace: (workspace path, build output). Used by the install-layout tests
    and by the `ros2 launch` test.

    Cost: the workspace lives at ${CARGO_TARGET_DIR:-target}/colcon_layout/<hash of msg/>/
    (build/ is kept between runs, install/ and log/ are wiped before each run). Its path is
    stable on purpose: r2r regenerates its bindings whenever AMENT_PREFIX_PATH changes, so
    a new path per run would rebuild r2r every time. On the first run the cargo target dir
    of the workspace is seeded with a copy of ${CARGO_TARGET_DIR:-target}/debug, which
    `cargo test` (run before the Python tests by scripts/test.sh) has just filled, and the
    package is built in cargo's test profile: most dependencies are then reused, and
    mainly r2r and this crate are compiled again.

    With SAT_COLCON_PREBUILT naming the JSON a build of this msg/ wrote
    (scripts/colcon_prebuild.py, which scripts/test.sh starts beside `cargo test`), that
    build is the fixture's: the same workspace, built once.
    """
    prebuilt = os.environ.get('SAT_COLCON_PREBUILT')
    if prebuilt and os.path.isfile(prebuilt):
        with open(prebuilt, encoding='utf-8') as f:
            done = json.load(f)
        if done.get('key') == msg_key():
            print(f"colcon build (beside cargo test): {done['seconds']:.0f} s")
            assert done['returncode'] == 0, done['output']
            return Path(done['workspace']), done['output']
    ws, returncode, output, elapsed = build_colcon_workspace()
    print(f'colcon build: {elapsed:.0f} s')
    assert returncode == 0, output
    return ws, output
