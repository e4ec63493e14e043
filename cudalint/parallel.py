"""Map a function over work items in forked processes, the parent working too; results come back
in item order, so a parallel run prints exactly what a serial one does.

Forking (not spawning) is the point: the children inherit everything the parent has read and
built, so nothing is pickled on the way in and nothing is parsed twice."""
from __future__ import annotations

import multiprocessing
import signal


def available() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def fork_map(fn, items: list, jobs: int) -> list:
    ctx = multiprocessing.get_context("fork")
    counter = ctx.Value("i", 0)          # the next item to take: slow items do not hold up the rest
    workers = []
    try:
        # SIGINT stays blocked while forking, so no child can take a Ctrl-C before it ignores it
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for _ in range(min(jobs, len(items)) - 1):
                recv, send = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_worker, args=(fn, items, counter, send), daemon=True)
                proc.start()
                send.close()
                workers.append((proc, recv))
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        done = _take(fn, items, counter)
        for proc, recv in workers:
            try:
                status, payload = recv.recv()
            except EOFError:
                proc.join()
                raise RuntimeError(f"a worker process ended without its results (exit code {proc.exitcode})") \
                    from None
            if status == "error":
                raise RuntimeError(payload)
            done.update(payload)
            proc.join()
        return [done[i] for i in range(len(items))]
    finally:
        for proc, recv in workers:
            recv.close()
            if proc.is_alive():
                proc.terminate()


def _take(fn, items, counter) -> dict:
    out: dict = {}
    while True:
        with counter.get_lock():
            i = counter.value
            counter.value += 1
        if i >= len(items):
            return out
        out[i] = fn(items[i])


def _worker(fn, items, counter, conn) -> None:
    # Ctrl-C reaches the whole process group: the parent reports it once and ends the workers, which
    # must not print a traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    # Results go back in one message at the end, so a busy parent never stalls a worker on a full pipe.
    try:
        result = ("ok", _take(fn, items, counter))
    except BaseException as exc:
        result = ("error", f"{type(exc).__name__}: {exc}")
    conn.send(result)
    conn.close()
