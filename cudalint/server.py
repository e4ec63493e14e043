"""`cudalint server`: a Language Server Protocol server (over standard input and output).

An editor's buffer is linted as `cudalint check FILE` lints the file it stands for: with the
configuration that applies to the file (.cudalint.toml or `[tool.cudalint]`, the closest one), with
the project's files that include it or launch its kernels, and with the buffer's text in place of
the file's, wherever the file is read (a translation unit of its own, or inside the unit of the
file that includes it). A buffer saved nowhere (an untitled one) is linted alone, with the
configuration of the workspace's folder.

What the editor gets: diagnostics when a file is opened, changed (after a pause in typing) and
saved; code actions for the fixes `--fix` applies (and, not preferred, the unsafe ones), each
proved on the buffer's text as `--fix` proves it on the file; and a hover on an array access with
what `cudalint explain --line` shows for it, in a few lines: its two-tree terms, the max check and
the warp picture.

The first half of this module knows nothing of the protocol (it lints a buffer, proves fixes, writes
the hover); the second half speaks it through pygls, an optional dependency
(`pip install 'cudalint[server]'`).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from .diagnostic import Diagnostic
from .lint import Config, Result

DEBOUNCE_MS = 250           # a pause in typing this long and the buffer is linted
FIXABLE = ("CL102", "CL301", "CL401")      # the rules fix.propose has a rewrite for


# ---- one buffer's lint (no protocol here) ------------------------------------------------------
@dataclass
class Linted:
    """One buffer's lint, kept for the code actions and hovers asked of that text."""
    path: str
    text: str
    cfg: Config | None                      # the run's configuration (it resolves each file's)
    result: Result = field(default_factory=lambda: Result([], []))
    source: object = None                   # the buffer's SourceFile (None: not linted)
    alone: bool = False
    problem: str = ""                       # why the buffer could not be linted, for the user
    cfg_problem: bool = False               # `problem` is a configuration file passed over
    context: list[str] | None = None        # the project's files read with it (context_paths)
    excluded: bool = False                  # the configuration excludes the file: nothing to say

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for d in self.result.diagnostics if d.path == self.path]


def lint_buffer(path: str, text: str, alone: bool = False, context: list[str] | None = None) -> Linted:
    """Lint `text` as the content of `path`. `alone`: no project context (an untitled buffer, whose
    `path` only names it, in the folder whose configuration applies). `context`: the project's
    files that include the file or launch its kernels, when known (else found: finding them reads
    every CUDA file of the project, longer than linting a kernel file)."""
    from .config import ConfigError, Resolver
    from .preprocess import file_key
    file_key.cache_clear()          # links may have changed since the last lint, as between two runs
    text = text.removeprefix("\ufeff")
    from .config import clear_found
    from .inputs import take_skipped
    clear_found(loaded=True)        # an edited configuration file is read again, as a new run reads it
    take_skipped()
    try:
        cfg = Resolver({}).run_config()
        fcfg = cfg.for_file(path)
    except ConfigError as exc:
        return Linted(path, text, None, problem=str(exc))
    # a configuration file that cannot be used is passed over, as `check` does, and said in the editor
    skipped = "; ".join(m for _, error, m in take_skipped() if error)
    linted = _lint_with(path, text, cfg, fcfg, alone, context)
    if skipped and not linted.problem:
        linted.problem, linted.cfg_problem = skipped, True
    return linted


def _lint_with(path: str, text: str, cfg, fcfg, alone: bool, context) -> Linted:
    from .lint import UsageError, lint_sources
    if fcfg.excluded(path):         # as `--force-exclude` does: the editor opens what the project excludes
        return Linted(path, text, cfg, alone=alone, excluded=True)
    if context is None:
        from .lint import context_paths
        context = [] if alone else context_paths([path], cfg)
    try:
        src, read = read_buffer(path, text, cfg, alone, context)
    except (UsageError, RecursionError, MemoryError) as exc:
        return Linted(path, text, cfg, alone=alone, problem=str(exc) or type(exc).__name__, context=context)
    return Linted(path, text, cfg, lint_sources([src], read, cfg), src, alone, context=context)


def read_buffer(path: str, text: str, cfg: Config, alone: bool, context: list[str]):
    """The buffer's SourceFile and the files read for what they give it, as `lint_paths([path])`
    reads them (`context`: what `context_paths` finds for the file), the buffer's text standing
    for the file's."""
    from .lint import read_file, read_project
    from .source.cufile import SourceError, decode_source
    if alone:
        return read_file(path, cfg, text.encode("utf-8", "surrogateescape")), []
    try:
        with open(path, "rb") as f:
            saved = decode_source(path, f.read())[0]
    except (OSError, SourceError):
        saved = None
    if saved == text:               # opened or saved: exactly what `check` reads
        sources, read = read_project([path], cfg, context)
        if sources:
            return sources[0], read
    return _overlaid(path, text, cfg, context)


def _overlaid(path: str, text: str, cfg: Config, context: list[str]):
    """The unsaved buffer read in its translation unit: the unit of the context file that includes
    it (re-read with the buffer in place of the file), else a unit of its own; the context files
    and the headers the units reach, as on disk, are the rest."""
    from .lint import _defines, read_project
    from .preprocess import Preprocessor, file_key, read_header
    from .source.cufile import SourceFile
    key = file_key(path)

    def reader(p: str) -> str:
        return text if file_key(p) == key else read_header(p)

    def unit_views(unit_path: str, unit_text: str):
        fcfg = cfg.for_file(unit_path)
        return Preprocessor(_defines(fcfg).macros.values(), fcfg.include_dirs, reader).unit(unit_path, unit_text)

    others, read = read_project(context, cfg, errors=[]) if context else ([], [])
    around = [s for s in [*others, *read] if s.key != key]
    including = next((s for s in around if key in s.reached), None)
    views = unit_views(including.path, including.view.source) if including is not None else \
        unit_views(path, text)
    src = SourceFile(path, text, view=views[key])
    known = {s.key for s in around}
    headers = [SourceFile(v.path, v.source, view=v) for k, v in views.items() if k != key and k not in known]
    return src, around + headers


def _key(d: Diagnostic):
    return d.line, d.code, d.array          # as fix.plan tells findings apart across a rewrite


def prove(linted: Linted, d: Diagnostic):
    """The fix of finding `d` when linting the rewritten buffer drops it and adds nothing (the proof
    `--fix` makes on files); None otherwise."""
    from .fix import apply, propose
    if d.code not in FIXABLE or d.severity not in ("warning", "error") or linted.source is None:
        return None
    try:
        fix = propose(linted.result, linted.cfg, d, linted.source)
    except Exception:  # a proposal that cannot be made is no fix, never a failed request
        return None
    if fix is None:
        return None
    before = {_key(x) for x in linted.diagnostics if x.severity in ("warning", "error")}
    after = lint_buffer(linted.path, apply(linted.text, fix.edits), linted.alone, linted.context)
    if after.source is None:
        return None
    now = {_key(x) for x in after.diagnostics if x.severity in ("warning", "error")}
    return fix if now <= before and _key(d) not in now else None


def access_at(linted: Linted, line: int, column: int):
    """The (table, access) whose text spans 1-based `line`, byte `column` of the buffer; the
    innermost of nested ones (`A[B[i]]`)."""
    found = []
    for t in linted.result.tables:
        for a in t.accesses:
            if (a.path or t.path) == linted.path and (a.line, a.column) <= (line, column) < (a.end_line, a.end_column):
                found.append((t, a))
    return min(found, key=lambda ta: (ta[1].end_line - ta[1].line, ta[1].end_column - ta[1].column), default=None)


MAX_DERIVATIONS = 3         # index variables shown under an access; explain --line shows them all


def hover_markdown(linted: Linted, line: int, column: int) -> str | None:
    """What `cudalint explain --line` shows for the access under the cursor, in a few lines."""
    from .explain.build import explain_table
    from .explain.render import point_text, term_lines, unit_strip, warp_summary
    from .explain.terms import check_text
    got = access_at(linted, line, column)
    if got is None:
        return None
    table, acc = got
    diags = [d for d in linted.result.diagnostics if d.kernel == table.kernel and d.path == table.path]
    view = explain_table(table, linted.cfg.for_file(linted.path).params, linted.source, diags, acc.line)
    av = next((v for vs in view.accesses.values() for v in vs if v.text == acc.text and v.kind == acc.kind), None)
    if av is None:
        return None
    launch = view.launch.replace(linted.path, _shown(linted.path))
    out = [f"**{av.kind}** of {av.space} `{av.array}` in kernel `{view.name}`: {launch}", "", "```"]
    checks = []
    derivations = _used(av, [d for ds in view.phases.values() for d in ds])
    derived = {d.name for d in derivations}
    for dv in av.dims:
        label = dv.written if len(av.dims) == 1 else f"[{dv.written}]"
        # a variable whose own terms follow, or a constant, has no terms of its own to show
        if not ((len(dv.terms) == 1 and dv.terms[0].coord == dv.written and dv.written in derived)
                or all(t.level == "offset" for t in dv.terms)):
            out += [label] + _columns(term_lines("", dv.terms))
        if dv.check is not None:
            checks.append(f"max check{'' if len(av.dims) == 1 else f' {label}'}: {check_text(dv.check)}")
    for d in derivations[:MAX_DERIVATIONS]:
        out += [d.written] + _columns(term_lines(d.written.split(" = ")[0], d.terms))
    out += checks
    if av.warp is not None:
        unit = "sector" if av.warp.space == "global" else "bank"
        out += [f"{point_text(av.warp)}, {unit} of each lane:", f"  {unit_strip(av.warp)}", warp_summary(av.warp)]
    elif av.note:
        out.append(f"not simulated: {av.note}")
    out.append("```")
    more = len(derivations) - MAX_DERIVATIONS
    if av.findings:
        out.append("findings here: " + ", ".join(av.findings))
    out.append(f"{f'{more} more index variables: ' if more > 0 else ''}"
               f"`cudalint explain {_shown(linted.path)} --line {acc.line}` "
               f"shows the whole walk")
    return "\n".join(out)


def _used(av, derivations: list) -> list:
    """The derivations of the index variables the access's terms name (and those theirs name), in
    explain's order: the line's other accesses have theirs."""
    names = {t.coord for dv in av.dims for t in dv.terms}
    kept: list = []
    while True:
        more = [d for d in derivations if d.name in names and d not in kept]
        if not more:
            return [d for d in derivations if d in kept]
        kept += more
        names |= {t.coord for d in more for t in d.terms}


def _shown(path: str) -> str:
    """A path as the user would type it from the folder the server runs in."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _columns(rows: list[tuple[str, str, str]]) -> list[str]:
    if not rows:
        return []
    w1, w2 = max(len(r[0]) for r in rows), max(len(r[1]) for r in rows)
    return [f"{a.ljust(w1)}   {b.ljust(w2)}   {c}".rstrip() for a, b, c in rows]


# ---- positions: cudalint counts bytes from 1; a str index counts code points from 0 -----------
def char_index(line_text: str, byte_column: int) -> int:
    return len(line_text.encode("utf-8", "surrogateescape")[:max(byte_column - 1, 0)].decode("utf-8", "ignore"))


def byte_column(line_text: str, index: int) -> int:
    return len(line_text[:index].encode("utf-8", "surrogateescape")) + 1


# ---- the protocol --------------------------------------------------------------------------
SEVERITY = {"error": 1, "warning": 2, "info": 3}      # DiagnosticSeverity: Error, Warning, Information


class _Positions:
    """LSP ranges of a buffer's text, in the code units the client and server agreed on."""

    def __init__(self, lines: list[str], codec):
        self.lines, self.codec = lines, codec

    def text(self, n: int) -> str:
        """1-based line `n` without its line ending."""
        return self.lines[n - 1].rstrip("\r\n") if 0 < n <= len(self.lines) else ""

    def at(self, line: int, index: int):
        from lsprotocol import types
        if not 0 < line <= len(self.lines):
            return types.Position(max(min(line, len(self.lines)) - 1, 0), 0)
        return self.codec.position_to_client_units(self.lines, types.Position(line - 1, index))

    def span(self, line: int, col: int, end_line: int, end_col: int):
        """The range of a finding (1-based line, byte column; end exclusive); a point covers the
        rest of its line."""
        from lsprotocol import types
        start = self.at(line, char_index(self.text(line), col))
        if (end_line, end_col) <= (line, col):
            return types.Range(start, self.at(line, len(self.text(line))))
        return types.Range(start, self.at(end_line, char_index(self.text(end_line), end_col)))

    def whole_line(self, line: int):
        from lsprotocol import types
        return types.Range(self.at(line, 0), self.at(line, len(self.text(line))))

    def byte_column(self, position) -> tuple[int, int]:
        """(1-based line, byte column) of a client's position."""
        p = self.codec.position_from_client_units(self.lines, position)
        return p.line + 1, byte_column(self.text(p.line + 1), p.character)


def lsp_diagnostic(d: Diagnostic, pos: _Positions):
    from lsprotocol import types
    message = d.message + (f" [assumes: {'; '.join(d.assumptions)}]" if d.assumptions else "")
    return types.Diagnostic(pos.span(d.line, d.column, d.end_line, d.end_column), message,
                            types.DiagnosticSeverity(SEVERITY.get(d.severity, 3)), d.code, source="cudalint")


def to_lsp(linted: Linted, pos: _Positions) -> list:
    from lsprotocol import types
    out = [lsp_diagnostic(d, pos) for d in linted.diagnostics]
    if linted.problem:      # a broken configuration, a file nested too deep: say why nothing is linted
        code = "config" if linted.cfg is None or linted.cfg_problem else None
        out.append(types.Diagnostic(pos.span(1, 1, 1, 1), f"cudalint: {linted.problem}", types.DiagnosticSeverity.Error,
                                    code, source="cudalint"))
    return out


def _path_of(uri: str, root: str | None) -> tuple[str, bool]:
    """(path, alone): a file's path, or for a buffer saved nowhere a name in the workspace folder."""
    from pygls.uris import to_fs_path
    if uri.startswith("file:"):
        return to_fs_path(uri) or uri, False
    name = uri.rsplit("/", 1)[-1].split(":")[-1] or "untitled"
    return os.path.join(root or os.getcwd(), name), True


class _Session:
    """The open buffers, their pending lints and their latest lint."""

    def __init__(self, debounce: float):
        from concurrent.futures import ThreadPoolExecutor
        self.debounce = debounce
        # one worker: lints run one at a time, off the loop that reads the editor's messages
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cudalint-lint")
        self.pending: dict = {}                       # uri -> debounce task
        self.linted: dict[str, tuple[int | None, Linted]] = {}   # uri -> (version, lint)
        # path -> its context files, found again when the file is opened and whenever a file is saved
        self.context: dict[str, list[str]] = {}
        self.shut_down = False                        # the client asked for a shutdown before exit


def build_server(debounce: float = DEBOUNCE_MS / 1000):
    import asyncio

    from lsprotocol import types
    from pygls.lsp.server import LanguageServer

    from . import __version__

    ls = LanguageServer("cudalint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
    s = _Session(debounce)

    async def lint_now(uri: str) -> Linted | None:
        doc = ls.workspace.get_text_document(uri)
        version, text = doc.version, doc.source
        got = s.linted.get(uri)
        if got is not None and got[0] == version:
            return got[1]
        path, alone = _path_of(uri, ls.workspace.root_path)
        linted = await asyncio.get_running_loop().run_in_executor(s.worker, lint_buffer, path, text, alone,
                                                                  s.context.get(path))
        if linted.context is not None:
            s.context[path] = linted.context
        if uri not in ls.workspace.text_documents or ls.workspace.get_text_document(uri).version != version:
            return None                 # edited (or closed) meanwhile: a newer lint is on its way
        s.linted[uri] = (version, linted)
        return linted

    def positions(uri: str) -> _Positions:
        return _Positions(list(ls.workspace.get_text_document(uri).lines), ls.workspace.position_codec)

    async def publish(uri: str) -> None:
        try:
            linted = await lint_now(uri)
        except Exception as exc:  # a bug must not take the server down: say it, keep serving
            from .lint import exception_line
            ls.window_log_message(types.LogMessageParams(types.MessageType.Error,
                                                         f"cudalint: internal error: {exception_line(exc)}"))
            return
        if linted is None:
            return
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri, to_lsp(linted, positions(uri)), ls.workspace.get_text_document(uri).version))

    def schedule(uri: str, delay: float) -> None:
        old = s.pending.pop(uri, None)
        if old is not None:
            old.cancel()

        async def later():
            await asyncio.sleep(delay)
            s.pending.pop(uri, None)
            await publish(uri)
        s.pending[uri] = asyncio.ensure_future(later())

    # notifications are handled at once (pygls keeps the task of an async one for the session)
    @ls.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams):
        s.context.pop(_path_of(params.text_document.uri, ls.workspace.root_path)[0], None)
        schedule(params.text_document.uri, 0)

    @ls.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams):
        schedule(params.text_document.uri, s.debounce)

    @ls.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams):
        # a saved file may be another open file's context (its includer, its launches)
        s.context.clear()
        schedule(params.text_document.uri, 0)
        for uri in list(ls.workspace.text_documents):
            if uri != params.text_document.uri:
                s.linted.pop(uri, None)
                schedule(uri, s.debounce)

    @ls.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams):
        uri = params.text_document.uri
        task = s.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        s.linted.pop(uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))

    @ls.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    async def code_action(params: types.CodeActionParams):
        uri, r = params.text_document.uri, params.range
        linted = await lint_now(uri)
        if linted is None:
            return None
        pos = positions(uri)
        wanted = [d for d in linted.diagnostics
                  if d.code in FIXABLE and d.line - 1 <= r.end.line and d.end_line - 1 >= r.start.line]
        actions = []
        for d in wanted:
            fix = await asyncio.get_running_loop().run_in_executor(s.worker, prove, linted, d)
            if fix is None:
                continue
            title = f"cudalint: {fix.title}" + ("" if fix.safe else " (unsafe: it changes what the kernel computes)")
            edits = [types.TextEdit(pos.whole_line(e.line), e.new) for e in fix.edits]
            actions.append(types.CodeAction(title, types.CodeActionKind.QuickFix, [lsp_diagnostic(d, pos)],
                                            is_preferred=fix.safe, edit=types.WorkspaceEdit(changes={uri: edits})))
        return actions

    @ls.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams):
        uri = params.text_document.uri
        linted = await lint_now(uri)
        if linted is None or linted.source is None:
            return None
        line, column = positions(uri).byte_column(params.position)
        md = await asyncio.get_running_loop().run_in_executor(s.worker, hover_markdown, linted, line, column)
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, md)) if md else None

    @ls.feature(types.SHUTDOWN)
    def shutdown(params):
        s.shut_down = True
        for task in s.pending.values():
            task.cancel()

    return ls, s


def run(argv: list[str]) -> int:
    """`cudalint server [--debounce MS]`: serve one editor over standard input and output."""
    from . import args as _args
    p = _args._Parser(prog="cudalint server",
                     description="Language Server Protocol server over standard input and output: diagnostics "
                                 "as you type, code actions for the proven fixes, the two-tree terms of an access "
                                 "on hover (docs/editors.md sets up VS Code, Neovim and Helix).")
    p.add_argument("--debounce", type=int, default=DEBOUNCE_MS, metavar="MS",
                   help=f"lint a changed buffer after this pause in typing (default {DEBOUNCE_MS})")
    p.add_argument("--stdio", action="store_true", help="accepted for the clients that pass it (stdio is the only "
                                                        "transport)")
    args = p.parse_args(argv)
    if args.debounce < 0:
        raise _args._Usage(f"bad --debounce value {args.debounce}: expected milliseconds, 0 or more")
    import importlib
    try:
        importlib.import_module("pygls.lsp.server")
    except ImportError:
        raise _args._Usage("the language server needs pygls: pip install 'cudalint[server]'") from None
    ls, session = build_server(args.debounce / 1000)
    # `cudalint check` runs the collector rarely (cli.entry says why): right for one run, but a
    # server lints for hours and each lint leaves its tables' reference cycles behind. The objects
    # of the start (modules, the protocol's types) are frozen out of the collector's passes.
    import gc
    gc.freeze()
    gc.set_threshold(700, 10, 10)
    ls.start_io()
    return 0 if session.shut_down else 1
