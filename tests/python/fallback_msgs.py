"""What the tests of the fallback message packages share (msg/nav2_msgs, msg/bond: upstream's
interfaces built by the set-up only where the ROS install lacks the package): their files
against upstream's git blobs, the set-up's decision to build them, the type hashes their
generated C library announces, and two rclpy peers to exchange their messages."""

import ctypes
import hashlib
import os
import subprocess
import time

from satpkg_support import ROOT, RosPeer

TIMEOUT = 30.0  # s: discovery on a busy machine


def git_blob_id(data):
    """Git's id of a file's bytes (`git hash-object`)."""
    return hashlib.sha1(b'blob %d\0' % len(data) + data).hexdigest()


def assert_files_are_upstreams(package, blobs):
    """`package`'s interface files are exactly `blobs` ({relative path: upstream's blob id}),
    byte for byte."""
    for rel, blob in blobs.items():
        assert git_blob_id((package / rel).read_bytes()) == blob, rel
    on_disk = sorted(str(p.relative_to(package)) for p in package.rglob('*')
                     if p.is_file() and p.suffix in ('.msg', '.srv', '.action', '.idl'))
    assert on_disk == sorted(blobs)


def wait_until(predicate, what, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f'no {what} within {timeout} s')
        time.sleep(0.05)


def two_peers(prefix):
    """Two rclpy nodes, each with its own context and background executor (a generator for
    a pytest fixture)."""
    made = []
    try:
        for role in ('a', 'b'):
            made.append(RosPeer(f'{prefix}_{role}_{os.getpid()}'))
        yield made
    finally:
        for peer in made:
            peer.close()


# scripts/env_lib.sh's decision for an install at $2 (a regular one, `system`): whether the
# fallback is built (`_sat_needs_<package>`), and the msgs build's key.
_NEEDS = r'''
. "$1/scripts/env_lib.sh"
_sat_init "$1" >/dev/null || exit 3
_SAT_MODE=system _SAT_DISTRO=jazzy _SAT_PREFIX="$2"
"$3" && echo needs=yes || echo needs=no
echo "key=$(_sat_msgs_key)"
'''


def _needs(function, prefix):
    result = subprocess.run(['bash', '-c', _NEEDS, 'needs', str(ROOT), str(prefix), function],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return dict(line.split('=', 1) for line in result.stdout.split())


def assert_built_only_where_missing(function, package, prefix):
    """The set-up's `function` builds the fallback for an install at `prefix` without
    `package`, not once the install's ament index has it; only that changes the build's
    key."""
    without = _needs(function, prefix)
    index = prefix / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    (index / package).write_text('')
    with_it = _needs(function, prefix)
    assert without['needs'] == 'yes' and with_it['needs'] == 'no'
    # Same prefix, same msg/: only the fallback's presence changes the build's key.
    assert without['key'] != with_it['key']


class _TypeHash(ctypes.Structure):
    # rosidl_type_hash_t (rosidl_runtime_c/type_hash.h)
    _fields_ = [('version', ctypes.c_uint8), ('value', ctypes.c_uint8 * 32)]


def assert_type_support_hashes(library, hashes):
    """The hashes rmw announces come from these functions of the generated C library found
    on the library path (the fallback's, or the install's own): each of `hashes`
    ({'pkg/msg/Type': 'RIHS01_...'})."""
    lib = ctypes.CDLL(library)
    for type_name, want in hashes.items():
        symbol = type_name.replace('/', '__') + '__get_type_hash'
        function = getattr(lib, symbol)
        function.restype = ctypes.POINTER(_TypeHash)
        function.argtypes = [ctypes.c_void_p]
        h = function(None).contents
        assert f'RIHS{h.version:02}_{bytes(h.value).hex()}' == want, type_name
