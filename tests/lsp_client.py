"""A small Language Server Protocol client over a subprocess's standard input and output, as an
editor speaks to `cudalint server`: JSON-RPC messages framed by Content-Length headers. Used by
tests/test_server.py and bench/bench_server.py."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class LspClient:
    def __init__(self, *args: str, cwd: str | os.PathLike | None = None):
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen([sys.executable, "-m", "cudalint", "server", *args], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue = queue.Queue()     # (time received, message) from the server
        self.notifications: list[dict] = []            # what wait_for passed over, for later calls
        self._id = 0
        self._stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self._stderr.extend(self.proc.stderr), daemon=True).start()

    # ---- wire -------------------------------------------------------------------------------
    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            body = out.read(length)
            self.messages.put((time.perf_counter(), json.loads(body)))

    def send(self, message: dict) -> float:
        """Write one message; the time it was written."""
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return time.perf_counter()

    def notify(self, method: str, params) -> float:
        return self.send({"method": method, "params": params})

    def request(self, method: str, params, timeout: float = 60):
        self._id += 1
        rid = self._id
        self.send({"id": rid, "method": method, "params": params})
        _, msg = self.wait_for(lambda m: m.get("id") == rid and "method" not in m, timeout)
        if "error" in msg:
            raise RuntimeError(f"{method}: {msg['error']}")
        return msg.get("result")

    def wait_for(self, match, timeout: float = 60) -> tuple[float, dict]:
        """The first message `match` accepts, from those passed over before, then new ones."""
        for i, (t, m) in enumerate(self.notifications):
            if match(m):
                del self.notifications[i]
                return t, m
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message from the server in {timeout} s; "
                                   f"stderr: {b''.join(self._stderr).decode(errors='replace')[-2000:]}")
            try:
                t, m = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if match(m):
                return t, m
            if "id" in m and "method" in m:        # a request from the server: answer it
                self.send({"id": m["id"], "result": None})
            else:
                self.notifications.append((t, m))

    def diagnostics(self, uri: str, version: int | None = None, timeout: float = 60) -> tuple[float, list[dict]]:
        """The next diagnostics published for `uri` (for `version`, when given)."""
        t, m = self.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                             and m["params"]["uri"] == uri
                             and (version is None or m["params"].get("version") == version), timeout)
        return t, m["params"]["diagnostics"]

    # ---- session ----------------------------------------------------------------------------
    def initialize(self, root: str | os.PathLike) -> dict:
        root = Path(root).resolve()
        got = self.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                                          "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                                          "capabilities": {}})
        self.notify("initialized", {})
        return got

    def open(self, uri: str, text: str, version: int = 1, language: str = "cuda-cpp") -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language,
                                                              "version": version, "text": text}})

    def change(self, uri: str, text: str, version: int) -> float:
        """Replace the whole text (a client may send ranges; the server is sent both kinds)."""
        return self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                      "contentChanges": [{"text": text}]})

    def edit(self, uri: str, version: int, line: int, start: int, end: int, new: str) -> float:
        """Replace characters start..end of a line (an incremental change, as editors send them)."""
        rng = {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}
        return self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                      "contentChanges": [{"range": rng, "text": new}]})

    def close(self, timeout: float = 30) -> int:
        """shutdown, then exit: the server's exit status."""
        self.request("shutdown", None)
        self.notify("exit", None)
        try:
            return self.proc.wait(timeout)
        finally:
            self.kill()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except OSError:
                pass

    def rss_kb(self) -> int:
        """The server's resident memory (Linux)."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            return next(int(ln.split()[1]) for ln in f if ln.startswith("VmRSS:"))
