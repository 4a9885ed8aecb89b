#!/usr/bin/env python3
"""The Python tests' colcon workspace (tests/python/conftest.py, `colcon_workspace`),
built ahead: scripts/test.sh starts this in the background, niced, once `cargo test` has
compiled (the build is seeded from what it compiled) and while its tests run, which
mostly wait on ROS 2 messages. The result goes to the JSON file named by the argument
(workspace, exit code, output, seconds, the msg/ key it was built for); the fixture takes
it through SAT_COLCON_PREBUILT, and builds itself when the file
is missing or is for another msg/.

    scripts/colcon_prebuild.py RESULT.json
"""

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tests' / 'python'))

from conftest import build_colcon_workspace  # noqa: E402
from satpkg_support import msg_key  # noqa: E402


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 64
    out = Path(sys.argv[1])
    key = msg_key()
    ws, returncode, output, seconds = build_colcon_workspace()
    tmp = out.with_suffix('.tmp')
    tmp.write_text(json.dumps({'key': key, 'workspace': str(ws), 'returncode': returncode,
                               'output': output, 'seconds': seconds}), encoding='utf-8')
    os.replace(tmp, out)
    print(f'colcon build: {seconds:.0f} s, exit code {returncode}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
