"""Work fanned out to worker processes, results in input order (`pbem replay --jobs`).

Only the fan-out lives here: what each item costs and what it returns is the caller's.
A result comes back when it and every result before it are done, so that a caller that
prints as they come prints exactly what a serial loop would, in the same order.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

CHUNKS_PER_WORKER = 4
"""Items go to the workers in chunks, about this many per worker (fewer round trips,
yet a slow chunk near the end leaves the other workers little to wait for)."""
MAX_CHUNK = 32


def cpu_count() -> int:
    """The CPUs this process may run on (its affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on every system
        return max(1, os.cpu_count() or 1)


def chunk_size(items: int, workers: int) -> int:
    return max(1, min(MAX_CHUNK, items // (workers * CHUNKS_PER_WORKER)))


def _run_chunk(work: Callable[[T], R], chunk: Sequence[T]) -> list[tuple[bool, Any]]:
    """A worker's job: each item's result, or the exception it raised (the items after
    it are still done; the caller raises where a serial loop would)."""
    done: list[tuple[bool, Any]] = []
    for item in chunk:
        try:
            done.append((True, work(item)))
        except Exception as e:
            done.append((False, e))
    return done


def ordered_map(work: Callable[[T], R], items: Sequence[T], *, jobs: int) -> Iterator[R]:
    """`work` of each item, in the order of `items`; with `jobs` > 1 and more than one
    item, done by up to `jobs` worker processes (`work` and the items must pickle).

    The workers start here, before the caller starts any thread of its own (a progress
    bar's), so that no thread is running when they are forked. An exception raised by
    `work` is raised by the iterator, after the results of the items before it, as in
    a serial loop.
    """
    workers = min(jobs, len(items))
    if workers <= 1:
        return map(work, items)
    from concurrent.futures import ProcessPoolExecutor

    size = chunk_size(len(items), workers)
    chunks = [items[i:i + size] for i in range(0, len(items), size)]
    pool = ProcessPoolExecutor(max_workers=workers)
    return _results(pool, pool.map(functools.partial(_run_chunk, work), chunks))


def _results(pool: Any, chunks: Iterator[list[tuple[bool, Any]]]) -> Iterator[Any]:
    try:
        for done in chunks:
            for ok, value in done:
                if not ok:
                    raise value
                yield value
    except BaseException:  # a failed item, an interrupt, or a caller that stopped early
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
