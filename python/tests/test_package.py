"""The installed package: abi3 extension, type stubs, py.typed, docstrings, and
the examples of its documentation."""

from __future__ import annotations

import doctest
import importlib.resources
import inspect

import sat_collision
from sat_collision import Check, Impact, Obstacles, PathCheck, _core


def test_stubs_and_marker_are_installed():
    files = importlib.resources.files("sat_collision")
    for name in ("py.typed", "__init__.pyi", "_core.pyi"):
        assert files.joinpath(name).is_file(), name
    assert ".abi3." in _core.__file__


def test_public_api_is_documented():
    for item in (sat_collision, Obstacles, Check, PathCheck, Impact, _core.Index):
        assert inspect.getdoc(item), item
    for name in ("check", "collides", "check_path", "time_to_collision", "from_coordinates"):
        assert inspect.getdoc(getattr(Obstacles, name)), name
    for name in ("check", "collides", "check_path", "time_to_collision"):
        assert inspect.getdoc(getattr(_core.Index, name)), name


def test_module_examples_run():
    failures, tried = doctest.testmod(sat_collision)
    assert tried > 0 and failures == 0


def test_version():
    assert sat_collision.__version__ == _core.__version__
