"""The colcon install layout: scripts/colcon_build.sh builds msg/ (sat_collision_msgs) and
the Rust package (colcon-ros-cargo + cargo-ament-build) into a scratch workspace, and
the install tree must be what `ros2 launch sat_collision sat_collision.launch.py` needs.
The installed node is then started from the install tree with the installed params file.

Cost: the workspace lives at ${CARGO_TARGET_DIR:-target}/colcon_layout/<hash of msg/>/
(build/ is kept between runs, install/ and log/ are wiped before each run). Its path is
stable on purpose: r2r regenerates its bindings whenever AMENT_PREFIX_PATH changes, so a
new path per run would rebuild r2r every time. On the first run the cargo target dir of
the workspace is seeded with a copy of ${CARGO_TARGET_DIR:-target}/debug, which
`cargo test` (run before the Python tests by scripts/test.sh) has just filled, and the
package is built in cargo's test profile: most dependencies are then reused, and mainly
r2r and this crate are compiled again.
"""

import os
import shutil
import subprocess
import time

import pytest

from satpkg_support import ROOT, TARGET_DIR, Proc, namespace

WANTED = [
    'sat_collision/lib/sat_collision/sat_collision_node',
    'sat_collision/lib/sat_collision/sat_collision_demo',
    'sat_collision/share/sat_collision/package.xml',
    'sat_collision/share/sat_collision/launch/sat_collision.launch.py',
    'sat_collision/share/sat_collision/config/sat_collision.yaml',
    'sat_collision/share/sat_collision/config/sat_collision.rviz',
    'sat_collision/share/sat_collision/config/zones.example.yaml',
    'sat_collision/share/ament_index/resource_index/packages/sat_collision',
    'sat_collision_msgs/share/sat_collision_msgs/package.xml',
    'sat_collision_msgs/share/ament_index/resource_index/packages/sat_collision_msgs',
    'sat_collision_msgs/share/ament_index/resource_index/rosidl_interfaces/sat_collision_msgs',
    'sat_collision_msgs/share/sat_collision_msgs/msg/CollisionReport.msg',
    'sat_collision_msgs/share/sat_collision_msgs/srv/CheckFootprint.srv',
    'sat_collision_msgs/lib/libsat_collision_msgs__rosidl_typesupport_c.so',
    'setup.bash',
    'local_setup.bash',
]


def _msg_key():
    import hashlib

    h = hashlib.sha256()
    for path in sorted((ROOT / 'msg').rglob('*')):
        if path.is_file():
            h.update(str(path.relative_to(ROOT)).encode() + b'\0' + path.read_bytes())
    return h.hexdigest()[:16]


def _env_without_private_msgs():
    env = dict(os.environ)
    for var in ('AMENT_PREFIX_PATH', 'CMAKE_PREFIX_PATH', 'LD_LIBRARY_PATH', 'PYTHONPATH'):
        parts = [p for p in env.get(var, '').split(':')
                 if p and '/.ros2/msgs' not in p]
        if parts:
            env[var] = ':'.join(parts)
        else:
            env.pop(var, None)
    return env


@pytest.fixture(scope='module')
def workspace():
    base = TARGET_DIR / 'colcon_layout'
    key = _msg_key()
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
        cargo.mkdir(parents=True)
        subprocess.run(['cp', '-a', str(seed), str(cargo / 'debug')], check=True)
    env = dict(os.environ, SAT_COLCON_CARGO_TARGET_DIR=str(cargo), SAT_COLCON_QUIET='1')
    t0 = time.monotonic()
    # The test profile: what `cargo test` (run before this by scripts/test.sh) has built
    # into the seed, so that most dependencies are reused.
    result = subprocess.run([str(ROOT / 'scripts' / 'colcon_build.sh'), '--workspace', str(ws),
                             '--profile', 'test'],
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, timeout=1800)
    elapsed = time.monotonic() - t0
    print(f'colcon build: {elapsed:.0f} s')
    assert result.returncode == 0, result.stdout
    return ws, result.stdout


def test_install_layout(workspace):
    ws, log = workspace
    install = ws / 'install'
    missing = [p for p in WANTED if not (install / p).exists()]
    assert not missing, f'missing in {install}: {missing}\n{log}'
    for exe in ('sat_collision_node', 'sat_collision_demo'):
        assert os.access(install / 'sat_collision/lib/sat_collision' / exe, os.X_OK)
    for name in ('sat_collision.yaml', 'sat_collision.rviz', 'zones.example.yaml'):
        assert (install / 'sat_collision/share/sat_collision/config' / name).read_bytes() \
            == (ROOT / 'config' / name).read_bytes()
    assert (install / 'sat_collision/share/sat_collision/launch/sat_collision.launch.py') \
        .read_bytes() == (ROOT / 'launch' / 'sat_collision.launch.py').read_bytes()
    # colcon never descended into the repository's private folders.
    assert sorted(p.name for p in install.iterdir() if p.is_dir()) == \
        ['sat_collision', 'sat_collision_msgs']


def test_installed_node_runs_with_installed_params(workspace):
    ws, _ = workspace
    install = ws / 'install'
    share = install / 'sat_collision/share/sat_collision'
    ns = namespace('colcon')
    script = (f'source "{install}/setup.bash" && '
              f'exec "{install}/sat_collision/lib/sat_collision/sat_collision_node" '
              f'--ros-args -r __ns:={ns} --params-file "{share}/config/sat_collision.yaml" '
              f'-p zones_file:="{share}/config/zones.example.yaml"')
    with Proc(['bash', '-c', script], env=_env_without_private_msgs()) as node:
        node.wait_for(r'4 keep-out zones from ', timeout=30)
        node.wait_for(r'\bstarted: ', timeout=30)
        assert node.stop() == 0, node.output
