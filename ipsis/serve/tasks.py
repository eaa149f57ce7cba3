"""Library calls in a bounded thread pool, stopped when their request runs out of time.

Two ways, cheapest first: the request's :class:`Deadline` is checked between units of work
(records, citations, store results) and is cancelled at once when the client has been answered
422 or has disconnected (queued work of a client that left never starts); as a backstop for a
long stretch of library code with no check in it, the worker thread gets :class:`Cancelled`
raised in it (``PyThreadState_SetAsyncExc``: delivered between two Python bytecodes, so a single
long C call still runs to its end, which is why every parser must be linear). The exception can
only land while the task runs; it is cleared if still pending when the task ends, so an idle
pool thread is never hit.

>>> d = Deadline(30)
>>> d.check(0, 1)
>>> d.cancel()
>>> try:
...     d.check(3, 10)
... except ApiError as exc:
...     print(exc.code, exc.details)
time_limit_exceeded {'done': 3, 'total': 10}
"""

from __future__ import annotations

import asyncio
import ctypes
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ipsis.serve.limits import ApiError


class Cancelled(BaseException):
    """Raised inside a worker thread whose request was answered ``time_limit_exceeded``."""


class ClientGoneError(Exception):
    """The client disconnected before its answer was ready (its work was stopped)."""


class Deadline:
    """The wall-time limit of one request, checked between units of work."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def cancel(self) -> None:
        self.end = float("-inf")

    def expired(self) -> bool:
        return time.monotonic() > self.end

    def check(self, done: int, total: int) -> None:
        if self.expired():
            raise time_limit(self.seconds, done, total)


def time_limit(seconds: float, done: int | None = None, total: int | None = None) -> ApiError:
    counts = f" ({done} of {total} done)" if done is not None else ""
    msg = (
        f"the request took longer than the limit of {seconds:g} s{counts}; "
        "send fewer records or shorter sources per request"
    )
    details = {"done": done, "total": total} if done is not None else {}
    return ApiError(422, "time_limit_exceeded", msg, **details)


def _raise_in(thread_id: int, exc: type[BaseException] | None) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc else None)


class _Task:
    def __init__(self, fn: Callable[[], Any]) -> None:
        self.fn = fn
        self.lock = threading.Lock()
        self.thread: int | None = None
        self.stopped = False
        self.interrupted = False

    def __call__(self) -> Any:
        with self.lock:
            if self.stopped:  # cancelled before a thread picked it up
                return None
            self.thread = threading.get_ident()
        try:
            return self.fn()
        except Cancelled:
            return None
        finally:
            with self.lock:
                self.thread = None
                if self.interrupted:  # not delivered yet: never let it reach the idle pool thread
                    _raise_in(threading.get_ident(), None)

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            if self.thread is not None and not self.interrupted:
                self.interrupted = True
                _raise_in(self.thread, Cancelled)


class Workers:
    """The pool; :attr:`busy` counts the tasks running now (shown by ``/v1/health``)."""

    def __init__(self, threads: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="ipsis-serve")
        self.threads = max(1, threads)
        self._lock = threading.Lock()
        self.busy = 0

    def _counted(self, task: _Task) -> Any:
        with self._lock:
            self.busy += 1
        try:
            return task()
        finally:
            with self._lock:
                self.busy -= 1

    async def run(self, fn: Callable[[], Any], deadline: Deadline, gone: Awaitable[Any] | None = None) -> Any:
        """``fn()`` in the pool; past ``deadline`` (plus half a second for it to notice by itself)
        the client gets a 422 at once and the work is stopped. When ``gone`` (the client's
        disconnect) completes first, the work is stopped too and :class:`ClientGoneError` raised."""
        task = _Task(fn)
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.pool, self._counted, task)
        watcher = asyncio.ensure_future(gone) if gone is not None else None
        waiting: set[asyncio.Future[Any]] = {future} if watcher is None else {future, watcher}
        try:
            timeout = max(0.0, deadline.end - time.monotonic()) + 0.5
            done, _ = await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if future in done:
                return future.result()
            deadline.cancel()
            task.stop()
            if watcher is not None and watcher in done:
                raise ClientGoneError
            raise time_limit(deadline.seconds)
        except asyncio.CancelledError:  # the server is stopping
            deadline.cancel()
            task.stop()
            raise
        finally:
            if watcher is not None:
                watcher.cancel()

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
