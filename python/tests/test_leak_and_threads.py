"""No leak over 10^6 calls (RSS flat), and the GIL released while a call works."""

from __future__ import annotations

import gc
import threading
import time

import numpy as np
import psutil
import pytest

from conftest import ROBOT
from sat_collision import Obstacles

CALLS = 1_000_000
"""Python-level calls of a one-pose check: about 3 µs each here (3 s)."""


def rss() -> int:
    gc.collect()
    return psutil.Process().memory_info().rss


def test_no_leak_over_a_million_calls():
    obstacles = Obstacles([[(2, -1), (3, -1), (3, 1), (2, 1)]], circles=[(0, 3, 0.5)])
    pose = np.array([[1.6, 0.0, 0.1]])
    check = obstacles.check
    for _ in range(100_000):  # warm-up: allocator pools, caches
        check(ROBOT, pose)
    before = rss()
    t0 = time.perf_counter()
    for _ in range(CALLS):
        check(ROBOT, pose)
    elapsed = time.perf_counter() - t0
    grown = rss() - before
    print(f"{CALLS} calls of check in {elapsed:.2f} s ({elapsed / CALLS * 1e6:.2f} µs each); RSS {grown / 1e6:+.2f} MB")
    # A leak of one small allocation per call would be 16 MB or more.
    assert grown < 2_000_000, grown


def test_no_leak_in_the_other_calls_and_refusals():
    obstacles = Obstacles([[(2, -1), (3, -1), (3, 1), (2, 1)]], circles=[(0, 3, 0.5)])
    path = np.array([[0.0, 0.0, 0.0], [3.0, 0.0, 0.5]])
    bad = np.array([[0.0, 0.0, np.nan]])
    calls = [
        lambda: obstacles.collides(ROBOT, path),
        lambda: obstacles.check_path(ROBOT, path),
        lambda: obstacles.time_to_collision(ROBOT, path[0], [1.0, 0.0, 0.2], 5.0),
        lambda: Obstacles([[(0, 0), (1, 0), (1, 1)]]),
    ]

    def refused():
        try:
            obstacles.check(ROBOT, bad)
        except ValueError:
            pass

    calls.append(refused)
    for call in calls:
        for _ in range(20_000):
            call()
    before = rss()
    for call in calls:
        for _ in range(100_000):
            call()
    grown = rss() - before
    assert grown < 2_000_000, grown


def test_calls_release_the_gil():
    """While one thread checks 400,000 poses, another keeps running Python."""
    rng = np.random.default_rng(3)
    obstacles = Obstacles(
        [np.column_stack([x + np.cos(a), y + np.sin(a)]) for x, y, a in zip(
            rng.uniform(0, 100, 500), rng.uniform(0, 100, 500), [np.linspace(0, 6, 6, endpoint=False)] * 500)]
    )
    poses = np.column_stack([rng.uniform(0, 100, 400_000), rng.uniform(0, 100, 400_000), rng.uniform(-3, 3, 400_000)])
    done = threading.Event()
    spent = {}

    def work():
        t0 = time.perf_counter()
        obstacles.check(ROBOT, poses)
        spent["check"] = time.perf_counter() - t0
        done.set()

    worker = threading.Thread(target=work)
    ticks = 0
    worker.start()
    time.sleep(0.01)  # the worker is in the call
    t0 = time.perf_counter()
    while not done.is_set():
        ticks += 1
    running = time.perf_counter() - t0
    worker.join()
    # Held, the GIL would leave this loop a few ticks per switch interval
    # (5 ms); released, it runs freely (millions of ticks a second).
    assert spent["check"] > 0.1
    assert ticks / running > 100_000, (ticks, running)


@pytest.mark.parametrize("threads", [2])
def test_threads_give_the_same_answers(threads):
    rng = np.random.default_rng(5)
    obstacles = Obstacles([np.array([(0, 0), (1, 0), (1, 1), (0, 1)]) + rng.uniform(0, 20, 2) for _ in range(200)])
    poses = np.column_stack([rng.uniform(0, 20, 20_000), rng.uniform(0, 20, 20_000), rng.uniform(-3, 3, 20_000)])
    expected = obstacles.check(ROBOT, poses)
    results = [None] * threads

    def work(k):
        results[k] = obstacles.check(ROBOT, poses)

    pool = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    for result in results:
        for name in expected._fields:
            np.testing.assert_array_equal(getattr(result, name), getattr(expected, name))


def test_threads_argument_cuts_the_batch_alone():
    """``threads`` > 1 cuts a big batch among threads: the same answers."""
    rng = np.random.default_rng(9)
    obstacles = Obstacles([np.array([(0, 0), (1, 0), (1, 1), (0, 1)]) + rng.uniform(0, 30, 2) for _ in range(300)])
    poses = np.column_stack([rng.uniform(0, 30, 9_001), rng.uniform(0, 30, 9_001), rng.uniform(-3, 3, 9_001)])
    one = obstacles.check(ROBOT, poses)
    for threads in (2, 3, 8):
        many = obstacles.check(ROBOT, poses, threads=threads)
        for name in one._fields:
            np.testing.assert_array_equal(getattr(many, name), getattr(one, name))
        np.testing.assert_array_equal(obstacles.collides(ROBOT, poses, threads=threads), one.colliding)
    with pytest.raises(ValueError, match="threads must be >= 1"):
        obstacles.check(ROBOT, poses, threads=0)
    with pytest.raises(TypeError, match="threads: expected an int"):
        obstacles.collides(ROBOT, poses, threads="2")
