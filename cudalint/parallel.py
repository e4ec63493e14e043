"""Map a function over work items in forked processes, the parent working too; results come back
in item order, so a parallel run prints exactly what a serial one does.

Forking (not spawning) is the point: the children inherit everything the parent has read and
built, so nothing is pickled on the way in and nothing is parsed twice.

A worker may die (the kernel's OOM killer, a signal): the items it had taken and not sent back are
given to `lost`, the others' results stand. Workers die with their parent (PR_SET_PDEATHSIG, and a
look at the parent between items), and hold no end of a pipe but their own writing end, so none is
ever left blocked writing to a pipe nobody reads."""
from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import threading


def available() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def fork_map(fn, items: list, jobs: int, lost=None) -> list:
    """[fn(x) for x in items]; `lost(item, reason)` stands for the result of an item whose worker
    died before sending it (without `lost`, that is a RuntimeError)."""
    ctx = multiprocessing.get_context("fork")
    counter = ctx.Value("i", 0)          # the next item to take: slow items do not hold up the rest
    owner = ctx.Array("i", [-1] * len(items), lock=False)   # which worker took each item
    workers = []
    done: dict = {}
    parent = os.getpid()
    try:
        # SIGINT stays blocked while forking, so no child can take a Ctrl-C before it ignores it
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for w in range(min(jobs, len(items)) - 1):
                recv, send = ctx.Pipe(duplex=False)
                others = [r for _, r in workers] + [recv]
                proc = ctx.Process(target=_worker, args=(fn, items, counter, owner, w + 1, send, others, parent),
                                   daemon=True)
                proc.start()
                send.close()
                workers.append((proc, recv))
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        # readers start once every worker is forked: no child inherits a thread's half-held lock
        readers = []
        for proc, recv in workers:
            got: dict = {}
            reader = threading.Thread(target=_drain, args=(recv, got), daemon=True)
            reader.start()
            readers.append((reader, got))
        done.update(_take(fn, items, counter, owner, 0))
        why = {}
        for w, ((proc, recv), (reader, got)) in enumerate(zip(workers, readers), 1):
            reader.join()
            proc.join()
            if "error" in got:
                raise RuntimeError(got["error"])
            done.update(got["items"])
            for i in got.get("unsent", ()):
                done[i] = fn(items[i])
            if not got.get("finished"):
                why[w] = _death(proc.exitcode)
        for i in range(len(items)):
            if i not in done:           # taken by a worker that died before sending it
                reason = why.get(owner[i]) or next(iter(why.values()), "its process ended")
                if lost is None:
                    raise RuntimeError(f"a worker process ended without its results ({reason})")
                done[i] = lost(items[i], reason)
        return [done[i] for i in range(len(items))]
    finally:
        for proc, recv in workers:
            recv.close()
            if proc.is_alive():
                proc.terminate()


def _death(code) -> str:
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        extra = " (the system's out-of-memory killer sends it)" if -code == signal.SIGKILL else ""
        return f"its process was killed by {name}{extra}"
    return f"its process ended (exit code {code})"


def _drain(conn, got: dict) -> None:
    """A worker's results as they come (so it never waits on a full pipe), until it says it is done."""
    got["items"] = {}
    while True:
        try:
            msg = conn.recv()
        except Exception:       # closed under it (an interrupted run closes its pipes), or cut short:
            return              # nothing more comes; what did not arrive is counted as not sent
        if msg[0] == "item":
            got["items"][msg[1]] = msg[2]
        elif msg[0] == "unsent":
            got.setdefault("unsent", []).append(msg[1])
        elif msg[0] == "done":
            got["finished"] = True
            return
        else:
            got["error"] = msg[1]
            return


def _take(fn, items, counter, owner, me: int, send=None, parent: int | None = None) -> dict:
    out: dict = {}
    while True:
        if parent is not None and os.getppid() != parent:
            os._exit(1)               # the parent is gone: nobody reads what this would find
        with counter.get_lock():
            i = counter.value
            counter.value += 1
            if i < len(items):
                owner[i] = me
        if i >= len(items):
            return out
        out[i] = fn(items[i])
        if send is not None:
            try:    # a result is pickled whole before anything is written: the pipe stays whole
                send.send(("item", i, out.pop(i)))
            except (TypeError, AttributeError, pickle.PicklingError):
                send.send(("unsent", i))      # holds what does not pickle: the parent works it out


def _die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (nothing elsewhere: the between-items
    look at the parent still ends it)."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)        # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _worker(fn, items, counter, owner, me, conn, inherited, parent) -> None:
    _die_with_parent()
    if os.getppid() != parent:       # the parent died before the request took effect
        os._exit(1)
    for r in inherited:              # the reading ends of the pipes: only the parent reads them
        r.close()
    # Ctrl-C reaches the whole process group: the parent reports it once and ends the workers, which
    # must not print a traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        _take(fn, items, counter, owner, me, conn, parent)
        conn.send(("done",))
    except BaseException as exc:
        try:
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
        except OSError:
            pass
    conn.close()
