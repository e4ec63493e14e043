"""Command line: `cudalint [check] PATH...`, `cudalint rule CODE`, `cudalint config --show [PATH]`.

Exit codes: 0 nothing at warning level or above, 1 findings, 2 usage error, unreadable input or
internal error (one line on stderr, no traceback).
"""
from __future__ import annotations

import argparse
import errno
import math
import os
import sys

from . import __version__
from .args import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, _int, _kv, _launch, _Parser, _Usage, want_color


def _ratio(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not (math.isfinite(v) and v > 0):
        raise _Usage(f"bad --min-ratio value `{text}`: expected a positive number (default 2)")
    return v


def _jobs(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        v = -1
    if v < 0:
        raise _Usage(f"bad -j value `{text}`: expected a number of processes (0: all cores)")
    return v


def _codes(text: str) -> list[str]:
    from .selection import is_valid, normalize
    out = [normalize(x) for x in text.split(",") if x.strip()]
    for x in out:
        if not is_valid(x):
            from .didyoumean import selector_hint
            raise _Usage(f"unknown rule code or category `{x}`{selector_hint(x)} (see `cudalint rule --all`)")
    return out


def _check_parser(prog: str = "cudalint") -> argparse.ArgumentParser:
    from .report import FORMATS
    p = _Parser(prog=prog, description="Static analyzer for CUDA kernels: uncoalesced, out-of-range and "
                                       "stride-mismatched accesses, read off the two-tree table.",
                epilog="other commands: `cudalint explain PATH` (the two-tree table, for people), "
                       "`cudalint rule CODE|--all` (rule docs), "
                       "`cudalint config --show [PATH]` (the configuration that applies, and why)")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help=".cu/.cuh files or directories (recursed); `-` reads standard input")
    out = p.add_argument_group("output")
    out.add_argument("--format", "--output-format", dest="format", choices=list(FORMATS), default=None,
                     help="full (default on a terminal), concise (default otherwise; `text` is the same), gcc, "
                          "json, json-lines, sarif, github, junit; also CUDALINT_OUTPUT_FORMAT")
    out.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of standard output")
    out.add_argument("--statistics", action="store_true", help="print the number of findings per rule instead")
    out.add_argument("-q", "--quiet", action="store_true", help="print diagnostics only (no summary line)")
    out.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                     help="color the text formats (auto: on a terminal; NO_COLOR, FORCE_COLOR and TERM=dumb are "
                          "honoured)")
    out.add_argument("--no-assumptions", action="store_true", help="text output: omit the [assumes: ...] suffix")
    out.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    out.add_argument("--fail-on", choices=["warning", "error"], default="warning",
                     help="lowest severity that makes the exit code 1 (default warning)")
    fix = p.add_argument_group("fixes (a fix is offered only when linting the rewritten file drops the finding "
                               "and adds none)")
    fix.add_argument("--fix", action="store_true",
                     help="apply the safe fixes to the files, then report what remains (standard input: the fixed "
                          "text on standard output, what remains on standard error)")
    fix.add_argument("--unsafe-fixes", action="store_true",
                     help="with --fix or --diff, also the fixes that change what the kernel computes")
    fix.add_argument("--diff", action="store_true",
                     help="print the fixes as a unified diff and write nothing (exit 1 when there is one)")
    sel = p.add_argument_group("rule selection and files")
    sel.add_argument("--select", type=_codes, action="append", metavar="CODES",
                     help="rules to run: codes, code prefixes or categories, comma-separated (replaces the "
                          "configuration's)")
    sel.add_argument("--extend-select", type=_codes, action="append", metavar="CODES", help="rules to add")
    sel.add_argument("--ignore", type=_codes, action="append", metavar="CODES", help="rules to skip")
    sel.add_argument("--exclude", action="append", metavar="GLOBS", help="files to skip (replaces the configuration's)")
    sel.add_argument("--extend-exclude", action="append", metavar="GLOBS", help="more files to skip")
    sel.add_argument("--show-limits", action="store_true",
                     help="print the notes on where cudalint's reading stops (CL901: what the analysis did not "
                          "follow; CL900 info: regions it could not parse); otherwise only their count")
    sel.add_argument("--show-uncertain", action="store_true",
                     help="also list, as info, findings that hold only for some of the block shapes and sizes "
                          "cudalint tries where the program gives none")
    sel.add_argument("--force-exclude", action="store_true",
                     help="apply excludes to files named on the command line too (for pre-commit)")
    sel.add_argument("--no-respect-gitignore", action="store_true", help="also lint files that .gitignore lists")
    sel.add_argument("--config", metavar="FILE", help="use this configuration file for every file")
    sel.add_argument("--stdin-filename", metavar="NAME",
                     help="the name of the file read from standard input (its configuration, its name in findings "
                          "and diffs)")
    sel.add_argument("--baseline", metavar="FILE", help="report only findings not recorded in FILE")
    sel.add_argument("--write-baseline", metavar="FILE", help="record every finding in FILE and exit 0")
    sel.add_argument("-j", "--jobs", type=_jobs, default=0, metavar="N",
                     help="processes analysing kernels (default and most: the cores this process may use)")
    ana = p.add_argument_group("analysis")
    ana.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                     help="define a macro, as for nvcc")
    ana.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                     help="directory searched for local #include files")
    ana.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                     help="problem size of a kernel/host integer (default 1000)")
    ana.add_argument("--launch", action="append", default=[], metavar="KERNEL:grid=X,Y,Z:block=X,Y,Z",
                     help="launch configuration of a kernel")
    ana.add_argument("--min-ratio", type=_ratio, default=None,
                     help="CL101 threshold: sectors/request at least this many times the ideal (default 2)")
    ana.add_argument("--min-ways", type=int, default=None,
                     help="CL401 threshold: report bank conflicts of at least this many ways (default 2)")
    gpu = p.add_argument_group("confirmation on a GPU")
    gpu.add_argument("--confirm", nargs="?", const="log", metavar="ncu",
                     help="run the kernels on the GPU (CuPy) and confirm each finding; --confirm=ncu adds Nsight "
                          "Compute")
    gpu.add_argument("--confirm-timeout", type=float, default=30.0, metavar="SECONDS",
                     help="stop a confirm run after this long (default 30)")
    gpu.add_argument("--smem", action="append", default=[], metavar="KERNEL=BYTES",
                     help="dynamic shared memory of a kernel's launch, where confirm mode cannot compute it")
    p.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("-V", "--version", action="version", version=f"cudalint {__version__}")
    return p


def _rule(argv: list[str]) -> int:
    from .rules import ALL, BY_CODE
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: cudalint rule CODE|NAME | cudalint rule --all")
        return EXIT_CLEAN if argv else EXIT_ERROR
    if argv[0] == "--all":
        for r in ALL:
            print(f"{r.CODE}  {r.NAME:<28} {r.CATEGORY:<13} {r.SEVERITY}")
        return EXIT_CLEAN
    r = BY_CODE.get(argv[0].upper()) or next((x for x in ALL if x.NAME == argv[0].lower()), None)
    if r is None:
        from .didyoumean import hint
        raise _Usage(f"unknown rule {argv[0]}{hint(argv[0], [x.CODE for x in ALL] + [x.NAME for x in ALL])} "
                     f"(see `cudalint rule --all`)")
    print(f"# {r.CODE} {r.NAME} [{r.CATEGORY}, {r.SEVERITY}]\n")
    print((r.__doc__ or "").strip())
    return EXIT_CLEAN


def _flat(groups) -> list[str]:
    return [x for g in groups or () for x in g]


def _globs(groups) -> list[str]:
    return [x.strip() for g in groups or () for x in g.split(",") if x.strip()]


def _resolver(args):
    """Configuration files under the command line's settings."""
    from .config import Resolver
    cli: dict = {}
    if args.select is not None:
        cli["select"] = _flat(args.select)
        if not cli["select"]:
            raise _Usage("--select names no rule: give codes, prefixes or categories (ALL for every rule)")
    if args.extend_select:
        cli["extend-select"] = _flat(args.extend_select)
    if args.ignore:
        cli["ignore"] = _flat(args.ignore)
    if args.exclude:
        cli["exclude"] = _globs(args.exclude)
    if args.extend_exclude:
        cli["extend-exclude"] = _globs(args.extend_exclude)
    if args.force_exclude:
        cli["force-exclude"] = True
    if args.show_limits:
        cli["show-limits"] = True
    if args.show_uncertain:
        cli["show-uncertain"] = True
    if args.no_respect_gitignore:
        cli["respect-gitignore"] = False
    if args.defines:
        cli["define"] = dict(_kv(d, "-D") for d in args.defines)
    if args.param:
        cli["params"] = {k: _int(v, "--param") for k, v in (_kv(p, "--param") for p in args.param)}
    if args.launch:
        cli["launch"] = dict(_launch(x) for x in args.launch)
    if args.include_dirs:
        cli["include-dirs"] = [os.path.abspath(d) for d in args.include_dirs]
    if args.min_ratio is not None:
        cli["coalescing.min-ratio"] = args.min_ratio
    if args.min_ways is not None:
        if not 2 <= args.min_ways <= 32:
            raise _Usage(f"bad --min-ways value {args.min_ways}: expected 2 to 32")
        cli["bank-conflict.min-ways"] = args.min_ways
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if args.config and not os.path.isfile(args.config):
        raise _Usage(f"cannot read configuration {args.config}: no such file")
    # more processes than cores only adds forks and memory
    return Resolver(cli, args.config, jobs=min(args.jobs or cores, cores), debug=args.debug)


def _config(argv: list[str]) -> int:
    p = _check_parser("cudalint config")
    p.add_argument("--show", action="store_true", help="print the resolved configuration of PATH")
    args = p.parse_args(argv)
    if not args.show:
        raise _Usage("usage: cudalint config --show [PATH] [options]")
    from .config import ConfigError, show
    if sys.stdout is None:
        raise _Usage("standard output is closed: nowhere to write the configuration")
    try:
        sys.stdout.write(show(_resolver(args), (args.paths or ["."])[0]))
    except ConfigError as exc:
        raise _Usage(str(exc)) from None
    return EXIT_CLEAN


def _format(args, to_terminal: bool) -> str:
    from .report import FORMATS
    if args.format:
        return args.format
    env = os.environ.get("CUDALINT_OUTPUT_FORMAT", "").strip()
    if env:
        if env not in FORMATS:
            raise _Usage(f"CUDALINT_OUTPUT_FORMAT={env}: unknown format (choose from {', '.join(FORMATS)})")
        return env
    return "full" if to_terminal else "concise"


def _color(args, to_terminal: bool) -> bool:
    return want_color(args.color, to_terminal)


def _statistics(result, fmt: str) -> str:
    import json
    from collections import Counter
    counts = Counter((d.code, d.name, d.category) for d in result.diagnostics)
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][0]))
    items = [{"code": c, "name": n, "category": k, "count": x} for (c, n, k), x in rows]
    if fmt == "json-lines":         # one object a line, as the format's name says
        return "".join(json.dumps(x) + "\n" for x in items)
    if fmt == "json":
        return json.dumps(items, indent=2) + "\n"
    return "".join(f"{x:>5}  {c}  {n:<28} [{k}]\n" for (c, n, k), x in rows)


def _nothing_found(paths: list[str], cfg) -> str:
    """Why a run found no file to lint: how many .cu/.cuh files the paths hold, and how many of them
    the configuration excluded or .gitignore ignored."""
    from .lint import EXTENSIONS, _GitIgnore
    excluded = sum(1 for p in paths if not os.path.isdir(p))     # a named file: dropped by force-exclude
    ignored = 0
    gitignore = _GitIgnore()
    for p in filter(os.path.isdir, paths):
        for root, dirs, files in os.walk(p):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for path in (os.path.join(root, f) for f in files if f.endswith(EXTENSIONS)):
                if cfg.for_file(path).excluded(path):     # globs match leading directories too
                    excluded += 1
                elif gitignore.ignored(path):
                    ignored += 1
    where = ", ".join(paths)
    total = excluded + ignored
    if total == 0:
        return f"no .cu/.cuh files found in {where}"
    why = [f"{excluded} excluded (configuration or --exclude)"] if excluded else []
    why += [f"{ignored} git-ignored (--no-respect-gitignore lints them)"] if ignored else []
    return f"no file linted: {total} .cu/.cuh file{'s' if total != 1 else ''} in {where}: {', '.join(why)}"


def _diff_summary(fixes, unsafe: bool) -> int:
    """`--diff`: what it would fix, on stderr; exit 1 when there is a diff (ruff's convention)."""
    shown = sum(len(fs) for fs in fixes.fixes(unsafe).values())
    hidden = sum(1 for fs in fixes.accepted.values() for f in fs if not f.safe) if not unsafe else 0
    note = f" ({hidden} more with --unsafe-fixes)" if hidden else ""
    print(f"cudalint: would apply {shown} fix{'es' if shown != 1 else ''}{note}", file=sys.stderr)
    return EXIT_FINDINGS if shown else EXIT_CLEAN


def check(argv: list[str]) -> int:
    args = _check_parser().parse_args(argv)
    if args.confirm not in (None, "log", "ncu"):   # `--confirm kernel.cu`: the word after it is a path
        args.paths.insert(0, args.confirm)
        args.confirm = "log"
    if not args.paths:
        raise _Usage("no input: give one or more .cu/.cuh files or directories (or `-` for standard input)")
    if "-" in args.paths and len(args.paths) > 1:
        raise _Usage("`-` (standard input) cannot be mixed with other paths")
    if args.output is None and sys.stdout is None:
        raise _Usage("standard output is closed: nowhere to write the report (use -o FILE)")
    from .baseline import BaselineError, filter_baseline, write_baseline
    from .config import ConfigError
    from .inputs import InputError, read_stream
    from .engine import Workspace
    from .lint import Result, UsageError
    from .report import RenderOptions, printable, render
    to_terminal = args.output is None and sys.stdout.isatty()
    stdin_text = None
    fmt = _format(args, to_terminal)
    # line formats of a large run are printed part by part (lint_paths.STREAM_FILES): a run killed
    # at a time limit still shows what it found; what the whole report needs first cannot be
    streamed = fmt in STREAMED_FORMATS and not (args.output or args.statistics or args.baseline or
                                                args.write_baseline or args.confirm)
    try:
        cfg = _resolver(args).run_config()
        workspace = Workspace(cfg)
        if args.paths == ["-"]:
            name = args.stdin_filename or "-"
            fcfg = cfg.for_file(name)
            if fcfg.force_exclude and fcfg.excluded(name):
                result = Result([], [])
            else:
                if sys.stdin is None:
                    raise _Usage("cannot read standard input: it is closed")
                try:
                    data = read_stream(sys.stdin.buffer, name)
                except InputError as exc:
                    raise _Usage(str(exc)) from None
                stdin_text = data.decode("utf-8", "surrogateescape")
                result = workspace.check_text(name, data)
        else:
            result = workspace.check(args.paths, on_part=_printer(args, fmt, _color(args, to_terminal))
                                if streamed else None,
                                tables=bool(fmt == "full" or args.fix or args.diff or args.confirm))
            if not result.files and any(os.path.isdir(p) for p in args.paths):   # named files: force-exclude
                print(printable(f"cudalint: warning: {_nothing_found(args.paths, cfg)}"), file=sys.stderr)
        _warn_unknown_launches(args, result)
        if args.write_baseline:
            n = write_baseline(result, args.write_baseline)
            print(f"cudalint: recorded {n} finding{'s' if n != 1 else ''} in {printable(args.write_baseline)}",
                  file=sys.stderr)
            return EXIT_ERROR if result.errors else EXIT_CLEAN
        if args.baseline:
            _, stale = filter_baseline(result, args.baseline)
            for s in stale:
                n = f" ({s['count']} findings)" if s["count"] > 1 else ""
                print(printable(f"cudalint: {args.baseline}: stale entry{n}: {s['code']} in {s['path']}"
                                f"{' kernel `' + s['kernel'] + '`' if s.get('kernel') else ''} at `{s['source']}` is "
                                f"no longer found (--write-baseline {args.baseline} drops it)"), file=sys.stderr)
    except (UsageError, ConfigError, BaselineError) as exc:
        raise _Usage(str(exc)) from None
    if args.confirm:
        from .confirm import ConfirmUnavailable, confirm_result
        smem = {}
        for item in args.smem:
            name, _, value = item.partition("=")
            if not name or not value.strip().isdigit():
                raise _Usage(f"bad --smem value `{item}`: give KERNEL=BYTES, e.g. --smem reduce0=4096")
            smem[name.strip()] = int(value)
        try:
            for r in confirm_result(result, workspace, args.confirm, args.confirm_timeout, smem):
                print(r.line(), file=sys.stderr)
        except ConfirmUnavailable as exc:
            raise _Usage(str(exc)) from None
    for e in result.errors:                 # one line each; the other files' findings still follow
        print(f"cudalint: {printable(e.message)}", file=sys.stderr)
    for w in result.warnings:
        print(f"cudalint: {printable(w)}", file=sys.stderr)
    fixes = None
    unwritten = []
    if args.fix or args.diff or (fmt == "full" and not args.statistics):
        from . import fix
        stdin = args.paths == ["-"]
        fixes = fix.plan(result, workspace, {args.stdin_filename or "-": stdin_text} if stdin and stdin_text is not None
                         else None)
        if stdin and args.fix and not args.diff:
            return _fix_stdin(args, fixes, result, cfg, stdin_text, fmt)
        if args.diff:
            sys.stdout.write(fixes.diff(args.unsafe_fixes))
            return _diff_summary(fixes, args.unsafe_fixes)
        if args.fix:
            unwritten: list[str] = []
            fixed = fix.write(fixes, args.unsafe_fixes, args.paths, unwritten)
            for line in unwritten:
                print(f"cudalint: {printable(line)}", file=sys.stderr)
            if fixed:
                before = sum(1 for d in result.diagnostics if d.path in fixed)
                result = workspace.check(args.paths)
                if args.baseline:
                    filter_baseline(result, args.baseline)
                n, fewer = sum(fixed.values()), before - sum(1 for d in result.diagnostics if d.path in fixed)
                print(f"cudalint: applied {n} fix{'es' if n != 1 else ''} in {len(fixed)} "
                      f"file{'s' if len(fixed) != 1 else ''}: {fewer} finding{'s' if fewer != 1 else ''} fewer",
                      file=sys.stderr)
                fixes = fix.plan(result, workspace) if fmt == "full" else None
    levels = ("warning", "error") if args.fail_on == "warning" else ("error",)
    failing = [d for d in result.diagnostics if d.severity in levels]
    exit_code = EXIT_FINDINGS if failing and not args.exit_zero else EXIT_CLEAN
    if result.errors or (args.fix and fixes is not None and unwritten):
        exit_code = EXIT_ERROR      # a file went unchecked: the run cannot pass, nor read as "findings only"
    if result.streamed:
        text = ""
    elif args.statistics:
        text = _statistics(result, fmt)
    else:
        text = render(fmt, result, RenderOptions(color=_color(args, to_terminal),
                                                 show_assumptions=not args.no_assumptions, quiet=args.quiet,
                                                 fixes=fixes, unsafe_fixes=args.unsafe_fixes, exit_code=exit_code))
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            raise _Usage(f"cannot write {args.output}: {exc.strerror or exc}") from None
    else:
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:
            # `cudalint src | head`: the reader left; the findings still decide the exit code
            _silence_stdout()
    summary = hidden_summary(result)
    if summary and not args.quiet and fmt in ("full", "concise", "text", "gcc"):
        print(printable(summary), file=sys.stderr)
    return exit_code


MAX_NAMED_FILES = 10


def hidden_summary(result) -> str:
    """One line for the notes a run counted but did not print: how many of each kind, and the files
    cudalint could not fully read (each named once, not once per region it misread)."""
    hidden = result.hidden
    total = sum(hidden.values())
    if not total:
        return ""
    kinds = [f"{hidden[c]} {what}{'s' if hidden[c] != 1 else ''} ({c})"
             for c, what in (("CL900", "parse note"), ("CL901", "analysis-limit note")) if hidden.get(c)]
    line = f"cudalint: {' and '.join(kinds)} not shown (--show-limits shows {'them' if total != 1 else 'it'})"
    if hidden.get("CL900"):
        partial = [f["path"] for f in result.files if f.get("status") == "parse-errors"]
        if partial:
            named = ", ".join(partial[:MAX_NAMED_FILES])
            more = f" and {len(partial) - MAX_NAMED_FILES} more" if len(partial) > MAX_NAMED_FILES else ""
            line += (f"; {len(partial)} file{'s' if len(partial) != 1 else ''} not fully parsed, the rest of "
                     f"{'each' if len(partial) != 1 else 'it'} analysed: {named}{more}")
    return line


def _fix_stdin(args, fixes, result, cfg, text: str, fmt: str) -> int:
    """`--fix` on standard input, as editors fix on save: the text with the safe fixes applied on
    standard output (the text as it came when there is none), and the findings that remain on
    standard error; the exit code is that of the fixed text."""
    from .lint import lint_stdin
    from .report import RenderOptions, render
    name = args.stdin_filename or "-"
    fixed = fixes.rewritten(name, args.unsafe_fixes) if name in fixes.fixes(args.unsafe_fixes) else text
    if fixed != text:
        result = lint_stdin(name, fixed.encode("utf-8", "surrogateescape"), cfg)
    sys.stdout.write(fixed)
    sys.stdout.flush()
    levels = ("warning", "error") if args.fail_on == "warning" else ("error",)
    failing = [d for d in result.diagnostics if d.severity in levels]
    fmt = fmt if fmt in ("concise", "text", "gcc", "json", "json-lines") else "concise"
    report = render(fmt, result, RenderOptions(quiet=True))
    if report and not args.quiet:
        sys.stderr.write(report)
    if result.errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if failing and not args.exit_zero else EXIT_CLEAN


STREAMED_FORMATS = ("concise", "text", "json-lines", "github")


def _printer(args, fmt: str, color: bool):
    """What prints one part of a large run as soon as it is done."""
    from .report import RenderOptions, render
    opts = RenderOptions(color=color, show_assumptions=not args.no_assumptions, quiet=args.quiet)

    def print_part(part) -> None:
        try:
            sys.stdout.write(render(fmt, part, opts))
            sys.stdout.flush()
        except BrokenPipeError:
            _silence_stdout()
    return print_part


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so that Python's flush at exit is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _warn_unknown_launches(args, result) -> None:
    """A `--launch` for a kernel no linted file defines is almost always a typo: say so."""
    from .report import printable
    kernels = {k for f in result.files for k in f["kernels"]}
    for x in args.launch:
        name = x.replace(" ", "").split(":grid=")[0]
        if name.split("::")[-1] not in kernels:
            print(f"cudalint: warning: --launch names kernel `{printable(name)}`, which no linted file defines "
                  f"(kernels: {', '.join(sorted(kernels)[:10]) or 'none'})", file=sys.stderr)


COMMANDS = ("check", "explain", "rule", "config")


def run(argv: list[str]) -> int:
    if argv and argv[0] not in COMMANDS and _looks_like_a_command(argv[0]):
        from .didyoumean import closest
        raise _Usage(f"unknown command `{argv[0]}`; did you mean `{closest(argv[0], COMMANDS)}`? "
                     f"(commands: {', '.join(COMMANDS)}; a file or directory to lint must exist)")
    if argv and argv[0] == "explain":
        from .explain.cli import run as explain_run
        return explain_run(argv[1:])
    if argv and argv[0] == "rule":
        return _rule(argv[1:])
    if argv and argv[0] == "config":
        return _config(argv[1:])
    if argv and argv[0] == "server":
        from .server import run as server_run
        return server_run(argv[1:])
    if argv and argv[0] == "check":
        argv = argv[1:]
    return check(argv)


def _looks_like_a_command(word: str) -> bool:
    """`cudalint chek x.cu`: a word near a command's name that names no file and no option is a
    misspelt command, not a path (which would only be reported as missing)."""
    from .didyoumean import closest
    from .lint import EXTENSIONS
    return (not word.startswith("-") and "/" not in word and not word.endswith(EXTENSIONS)
            and not os.path.exists(word) and closest(word, COMMANDS, cutoff=0.6) is not None)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    debug = "--debug" in argv
    for stream in (sys.stdout, sys.stderr):   # a terminal that is not UTF-8 gets escapes, not a crash
        if stream is not None and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        code = run(argv)
    except _Usage as exc:
        _say(f"cudalint: {exc}")
        code = EXIT_ERROR
    except KeyboardInterrupt:
        _say("cudalint: interrupted")
        code = EXIT_ERROR
    except BrokenPipeError:      # help or rule text into a closed pipe
        _silence_stdout()
        code = EXIT_CLEAN
    except RecursionError:
        _say("cudalint: input nested deeper than cudalint follows")
        code = EXIT_ERROR
    except MemoryError:
        _say("cudalint: out of memory")
        code = EXIT_ERROR
    except OSError as exc:
        if exc.errno not in _OUTPUT_ERRNOS and not debug:
            from .lint import exception_line
            _say(f"cudalint: internal error: {exception_line(exc)}")
        elif debug:
            raise
        else:   # an output that cannot be written (a full disk): the system's fault, said as such
            _say(f"cudalint: cannot write {exc.filename or 'the output'}: {exc.strerror or exc}")
        code = EXIT_ERROR
    except Exception as exc:  # internal error: one line, no traceback
        if debug:
            raise
        from .lint import exception_line
        _say(f"cudalint: internal error: {exception_line(exc)}")
        code = EXIT_ERROR
    return code


_OUTPUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS}


def _say(line: str) -> None:
    """One line on stderr, control characters escaped; nothing when stderr is closed."""
    from .report import printable
    if sys.stderr is not None:
        try:
            print(printable(line), file=sys.stderr)
        except OSError:
            pass


def entry() -> None:
    """The `cudalint` program: `main`, then out of the process without Python's teardown, which
    frees every parse tree, table and array a run built one object at a time (1.5 s after the
    real-code corpus, longer than parsing it). Output is flushed first; nothing cudalint runs
    needs an exit handler (temporary folders and worker processes are closed where they are used).

    The collector runs less often: a run keeps its parse trees and tables to the end and makes few
    cycles, so Python's default (a pass every 700 allocations, and full passes over the growing heap)
    spent 1.6 s of a 10 s corpus run finding almost nothing. A pass comes after a million new
    objects: none in a run over the real-code corpus (a pass every 50,000 cost it 4% of its time,
    each object that lives on being looked at once), while a larger tree still gets its passes;
    peak memory is 2% higher.

    numpy's linear-algebra library starts a pool of threads when it is imported, one per core,
    which cudalint never uses (it multiplies no float matrices): one thread, unless the user says
    otherwise, saves 80 ms of CPU in every process."""
    import gc
    import os
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    gc.set_threshold(1_000_000, 20, 20)
    code = main()
    for stream in (sys.stdout, sys.stderr):
        if stream is None:
            continue
        try:
            stream.flush()
        except BrokenPipeError:        # a reader that closed early (`cudalint ... | head`)
            if stream is sys.stdout:
                _silence_stdout()
        except (OSError, ValueError):
            pass
    if sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(code)          # a profiler or coverage tool writes its report at exit
    os._exit(code)


if __name__ == "__main__":
    entry()
