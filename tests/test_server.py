"""`cudalint server` spoken to as an editor speaks to it: a Language Server Protocol client over the
server's standard input and output (tests/lsp_client.py)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import importlib.util

import pytest
from lsp_client import ROOT, LspClient

from cudalint.config import Resolver
from cudalint.lint import lint_paths
from cudalint.server import lint_buffer

needs_pygls = pytest.mark.skipif(importlib.util.find_spec("pygls") is None,
                                 reason="the language server needs pygls (pip install 'cudalint[server]')")

SAMPLES = ROOT / "samples"
ERROR, WARNING, INFO = 1, 2, 3


@pytest.fixture(scope="module")
def client():
    if importlib.util.find_spec("pygls") is None:
        pytest.skip("the language server needs pygls (pip install 'cudalint[server]')")
    c = LspClient("--debounce", "100", cwd=ROOT)
    try:
        c.initialize(ROOT)
        yield c
    finally:
        c.kill()


def check_json(*paths, cwd=ROOT) -> list[dict]:
    """What `cudalint check` reports for the files on disk."""
    out = subprocess.run([sys.executable, "-m", "cudalint", "--format", "json", "--exit-zero", *map(str, paths)],
                         cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    return json.loads(out.stdout)["diagnostics"]


def spanned(text: str, rng: dict) -> str:
    lines = text.splitlines()
    assert rng["start"]["line"] == rng["end"]["line"]
    return lines[rng["start"]["line"]][rng["start"]["character"]:rng["end"]["character"]]


def apply_edits(text: str, edits: list[dict]) -> str:
    """Whole-line edits, as the server's fixes make them (ranges on distinct lines)."""
    lines = text.splitlines(keepends=True)
    for e in sorted(edits, key=lambda e: -e["range"]["start"]["line"]):
        r = e["range"]
        n = r["start"]["line"]
        assert r["end"]["line"] == n
        body = lines[n]
        ending = body[len(body.rstrip("\r\n")):]
        line = body[:-len(ending)] if ending else body
        lines[n] = line[:r["start"]["character"]] + e["newText"] + line[r["end"]["character"]:] + ending
    return "".join(lines)


def opened(client, path: Path, text: str | None = None, version: int = 1):
    uri = path.resolve().as_uri()
    text = path.read_text() if text is None else text
    client.open(uri, text, version)
    return uri, text, client.diagnostics(uri, version)[1]


def close(client, uri: str) -> None:
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    _, m = client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                           and m["params"]["uri"] == uri and m["params"].get("version") is None)
    assert m["params"]["diagnostics"] == []          # closing a file clears its diagnostics
    # what was published for the file before is no answer to the next test that opens it
    client.notifications = [(t, n) for t, n in client.notifications if n.get("params", {}).get("uri") != uri]


def test_open_publishes_the_findings_with_their_codes_ranges_and_severities(client):
    path = SAMPLES / "matmul_naive_bad.cu"
    uri, text, diags = opened(client, path)
    got = sorted((d["range"]["start"]["line"] + 1, d["code"], spanned(text, d["range"]), d["severity"]) for d in diags)
    assert got == [(12, "CL101", "left[row * K + i]", WARNING),
                   (16, "CL102", "out[row * N + col]", WARNING)]
    assert all(d["source"] == "cudalint" for d in diags)
    # the same findings `cudalint check` prints for the file
    assert sorted((d["line"], d["code"]) for d in check_json(path)) == [(g[0], g[1]) for g in got]
    close(client, uri)


def test_errors_are_errors(client):
    path = SAMPLES / "barrier_in_if_bad.cu"
    uri, text, diags = opened(client, path)
    assert [(d["code"], d["severity"]) for d in diags] == [("CL502", ERROR)]
    close(client, uri)


def test_ranges_count_utf16_units_where_a_line_holds_wider_characters(client):
    path = SAMPLES / "matmul_naive_bad.cu"
    text = path.read_text().replace("float a = left", "/* é€😀 */ float a = left")
    uri, text, diags = opened(client, path, text)
    assert sorted(spanned(text.replace("😀", "xx"), d["range"]) for d in diags)[0] == "left[row * K + i]"
    close(client, uri)


def test_a_fix_applied_through_its_code_action_clears_the_diagnostics_after_the_change(client):
    path = SAMPLES / "matmul_naive_bad.cu"
    uri, text, diags = opened(client, path)
    store = next(d for d in diags if d["code"] == "CL102")
    actions = client.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": store["range"],
                                                         "context": {"diagnostics": [store]}})
    assert len(actions) == 1
    (act,) = actions
    assert act["kind"] == "quickfix" and act["diagnostics"][0]["code"] == "CL102"
    assert act["isPreferred"] is False and "unsafe" in act["title"]     # it swaps which thread does what
    fixed = apply_edits(text, act["edit"]["changes"][uri])
    assert "int row = blockIdx.y * blockDim.y + threadIdx.y;" in fixed
    client.change(uri, fixed, 2)
    assert client.diagnostics(uri, 2)[1] == []
    close(client, uri)


def test_a_safe_fix_is_the_preferred_action_and_edits_the_declaration(client):
    path = SAMPLES / "bank_column_tile_bad.cu"
    uri, text, diags = opened(client, path)
    (conflict,) = diags
    assert conflict["code"] == "CL401"
    (act,) = client.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": conflict["range"],
                                                        "context": {"diagnostics": [conflict]}})
    assert act["isPreferred"] is True
    (edit,) = act["edit"]["changes"][uri]
    assert edit["newText"].strip() == "__shared__ float tile[TILE][TILE + 1];"
    # ranges without a fixable finding get no action
    top = {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}
    assert client.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": top,
                                                      "context": {"diagnostics": []}}) == []
    close(client, uri)


def test_hover_on_an_access_shows_its_terms_max_check_and_warp(client):
    path = SAMPLES / "matmul_naive_bad.cu"
    uri, text, _ = opened(client, path)
    line = text.splitlines()[11]
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 11, "character": line.index("left[") + 6}})
    md = hover["contents"]["value"]
    assert hover["contents"]["kind"] == "markdown"
    assert "load** of global `left`" in md
    assert "row * 1000" in md and "Global index" in md                  # row * K, K = 1000
    assert "blockIdx.x * 32" in md and "Grid -> Global" in md           # row's own terms
    assert "max check: 999*1000 + 999 = 999999" in md
    assert "ABCDEFGH IJKLMNOP QRSTUVWX YZabcdef" in md                   # one sector per lane
    assert "32 sectors for this request (ideal 4)" in md
    assert "explain samples/matmul_naive_bad.cu --line 12" in md
    assert len(md.splitlines()) <= 20
    # off any access: nothing
    assert client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": 0, "character": 3}}) is None
    close(client, uri)


def test_hover_on_a_shared_tile_shows_its_subscripts_checks_and_banks(client):
    path = SAMPLES / "bank_column_tile_bad.cu"
    uri, text, _ = opened(client, path)
    line = text.splitlines()[14]            # out[oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
    md = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {
        "line": 14, "character": line.index("tile[") + 2}})["contents"]["value"]
    assert "load** of shared `tile`" in md
    assert "[threadIdx.x]" in md and "Block -> Shared" in md
    assert "max check [threadIdx.x]: 31 <= 31 ok" in md
    assert "AAAAAAAA AAAAAAAA AAAAAAAA AAAAAAAA" in md              # every lane in one bank
    assert "32-way bank conflict" in md
    assert "ox =" not in md                 # the index variables of the store beside it are its own
    md = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {
        "line": 14, "character": line.index("out[") + 1}})["contents"]["value"]
    assert "store** of global `out`" in md and "ox = blockIdx.y * TILE + threadIdx.x" in md
    close(client, uri)


def test_an_unsaved_header_keeps_its_project_context_and_an_untitled_copy_is_linted_alone(client):
    path = SAMPLES / "headers" / "saxpy_kernel.cuh"
    on_disk = sorted((d["line"], d["column"], d["code"]) for d in check_json(path))
    assert len(on_disk) == 3
    edited = path.read_text() + "\n// an unsaved line\n"
    uri, _, diags = opened(client, path, edited)        # the launch lives in saxpy_runner.cu
    assert sorted((d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1, d["code"])
                  for d in diags) == on_disk
    untitled = "untitled:Untitled-1"
    client.open(untitled, edited)
    assert client.diagnostics(untitled)[1] == []        # no launch: nothing is known of n
    close(client, uri)
    close(client, untitled)


def test_configuration_comes_from_the_files_check_reads(client, tmp_path):
    shutil.copy(SAMPLES / "matmul_naive_bad.cu", tmp_path / "k.cu")
    shutil.copy(SAMPLES / "break_flag_bad.cu", tmp_path / "notes.cu")
    (tmp_path / "pyproject.toml").write_text('[tool.cudalint]\nignore = ["CL102"]\nshow-limits = true\n')
    uri, _, diags = opened(client, tmp_path / "k.cu")
    assert sorted(d["code"] for d in diags) == ["CL101", "CL101"]
    assert sorted(d["code"] for d in check_json(tmp_path / "k.cu", cwd=tmp_path)) == ["CL101", "CL101"]
    close(client, uri)
    uri, _, diags = opened(client, tmp_path / "notes.cu")
    assert INFO in {d["severity"] for d in diags if d["code"] == "CL901"}   # show-limits: its notes, as info
    close(client, uri)
    (tmp_path / ".cudalint.toml").write_text("ignore = [\n")     # closer than pyproject.toml, and broken
    uri, _, diags = opened(client, tmp_path / "k.cu")
    # said, and passed over as `check` does: the file is still linted (under no configuration here)
    config = [d for d in diags if d["code"] == "config"]
    assert [d["severity"] for d in config] == [ERROR] and ".cudalint.toml" in config[0]["message"]
    assert {d["code"] for d in diags} - {"config"}
    close(client, uri)


def test_saving_a_file_lints_the_open_files_that_depend_on_it(client, tmp_path):
    for f in ("saxpy_kernel.cuh", "saxpy_runner.cu"):
        shutil.copy(SAMPLES / "headers" / f, tmp_path / f)
    (tmp_path / ".git").mkdir()                     # a project: the runner is the header's context
    header, _, diags = opened(client, tmp_path / "saxpy_kernel.cuh")
    assert [d["code"] for d in diags] == ["CL202"] * 3
    runner = tmp_path / "saxpy_runner.cu"
    uri, text, _ = opened(client, runner)
    text = text.replace("param n=1000", "param n=1024")       # 4 blocks of 256 threads cover n exactly
    client.change(uri, text, 2)
    runner.write_text(text)
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    # no warning left: only the info that n = 1024 keeps the unguarded kernel inside
    assert [d for d in client.diagnostics(header)[1] if d["severity"] != INFO] == []
    close(client, uri)
    close(client, header)


def test_files_the_configuration_excludes_get_no_diagnostics(client, tmp_path):
    (tmp_path / "vendor").mkdir()
    shutil.copy(SAMPLES / "matmul_naive_bad.cu", tmp_path / "vendor" / "k.cu")
    (tmp_path / ".cudalint.toml").write_text('exclude = ["vendor"]\n')
    uri, _, diags = opened(client, tmp_path / "vendor" / "k.cu")
    assert diags == []
    close(client, uri)


def test_changes_are_debounced_and_only_the_last_text_is_published(client):
    path = SAMPLES / "matmul_naive_bad.cu"
    uri, text, _ = opened(client, path)
    lines = text.splitlines(keepends=True)
    typed = "// note"
    assert lines[3] == "\n"

    def published(m):
        return m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
    for i, ch in enumerate(typed):                 # typing, one character at a time, on line 4
        sent = client.edit(uri, i + 2, 3, i, i, ch)
    t, m = client.wait_for(published)
    assert m["params"]["version"] == len(typed) + 1    # no lint of a text already typed over
    assert t - sent >= 0.1                             # the server waited for the pause in typing
    assert [d["range"]["start"]["line"] for d in m["params"]["diagnostics"]] == [11, 15]
    with pytest.raises(TimeoutError):                  # and published once
        client.wait_for(published, timeout=1)
    close(client, uri)


@needs_pygls
def test_shutdown_then_exit_ends_the_server_cleanly():
    c = LspClient(cwd=ROOT)
    try:
        got = c.initialize(ROOT)
        caps = got["capabilities"]
        assert caps["hoverProvider"] and caps["codeActionProvider"] and caps["textDocumentSync"]["save"]
        assert got["serverInfo"]["name"] == "cudalint"
        assert c.close() == 0
    finally:
        c.kill()


def test_without_pygls_the_command_says_what_to_install(tmp_path):
    (tmp_path / "pygls").mkdir()
    (tmp_path / "pygls" / "__init__.py").write_text("raise ImportError('no pygls here')\n")
    out = subprocess.run([sys.executable, "-m", "cudalint", "server"], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}"}, stdin=subprocess.DEVNULL)
    assert out.returncode == 2
    assert out.stderr.strip() == "cudalint: the language server needs pygls: pip install 'cudalint[server]'"


SAMPLE_FILES = sorted(p for p in SAMPLES.rglob("*") if p.suffix in (".cu", ".cuh"))


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_an_edited_buffer_gets_the_findings_check_prints_for_the_file(path, monkeypatch):
    """The buffer's text read in place of the file (here the file plus a comment line at its end:
    nothing a finding depends on) gives what `cudalint check FILE` gives: same configuration, same
    project context (a header's launches in another file, the unit that includes it)."""
    monkeypatch.chdir(ROOT)
    rel = str(path.relative_to(ROOT))
    edited = lint_buffer(rel, path.read_text() + "\n// not saved yet\n")
    checked = lint_paths([rel], Resolver({}).run_config())

    def found(diags):
        return [(d.line, d.column, d.code, d.message) for d in diags if d.path == rel]
    assert found(edited.diagnostics) == found(checked.diagnostics)
