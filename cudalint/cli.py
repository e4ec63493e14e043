"""Command line: `cudalint [check] PATH...`, `cudalint rule CODE`.

Exit codes: 0 nothing at warning level or above, 1 findings, 2 usage error, unreadable input or
internal error (one line on stderr, no traceback).
"""
from __future__ import annotations

import argparse
import re
import sys

from . import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _Usage(message)


class _Usage(Exception):
    pass


def _kv(text: str, what: str) -> tuple[str, str]:
    if "=" in text:
        k, v = text.split("=", 1)
    else:
        k, v = text, "1"
    if not re.fullmatch(r"[A-Za-z_]\w*", k):
        raise _Usage(f"bad {what} `{text}`: expected NAME=VALUE")
    return k, v


def _int(text: str, what: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise _Usage(f"bad {what} value `{text}`: expected an integer") from None


def _launch(text: str):
    from .model.launch import CliLaunch
    m = re.fullmatch(r"([A-Za-z_][\w:]*):grid=([\d,]+):block=([\d,]+)", text.replace(" ", ""))
    if not m:
        raise _Usage(f"bad --launch `{text}`: expected NAME:grid=X,Y,Z:block=X,Y,Z")

    def dims(s):
        v = [_int(x, "--launch") for x in s.split(",") if x]
        if not 1 <= len(v) <= 3 or any(x < 1 for x in v):
            raise _Usage(f"bad --launch `{text}`: dimensions must be 1 to 3 positive integers")
        return tuple(v + [1] * (3 - len(v)))
    return m.group(1), CliLaunch(dims(m.group(2)), dims(m.group(3)))


def _check_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cudalint", description="Static analyzer for CUDA kernels: uncoalesced, out-of-range and "
                                             "stride-mismatched accesses, read off the two-tree table.")
    p.add_argument("paths", nargs="*", metavar="PATH", help=".cu/.cuh files or directories (recursed)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                   help="define a macro, as for nvcc")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                   help="directory searched for local #include files")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="problem size of a kernel/host integer (default 1000)")
    p.add_argument("--launch", action="append", default=[], metavar="KERNEL:grid=X,Y,Z:block=X,Y,Z",
                   help="launch configuration of a kernel")
    p.add_argument("--min-ratio", type=float, default=2.0,
                   help="CL101 threshold: sectors/request at least this many times the ideal (default 2)")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    p.add_argument("--no-assumptions", action="store_true", help="text output: omit the [assumes: ...] suffix")
    p.add_argument("--confirm", nargs="?", const="log", metavar="ncu",
                   help="run the kernels on the GPU (CuPy) and confirm each finding; --confirm=ncu adds Nsight Compute")
    p.add_argument("--confirm-timeout", type=float, default=30.0, metavar="SECONDS",
                   help="stop a confirm run after this long (default 30)")
    p.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--version", action="version", version=f"cudalint {__version__}")
    return p


def _rule(argv: list[str]) -> int:
    from .rules import ALL, BY_CODE
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: cudalint rule CODE | cudalint rule --all")
        return EXIT_CLEAN if argv else EXIT_ERROR
    if argv[0] == "--all":
        for r in ALL:
            print(f"{r.CODE}  {r.NAME:<28} {r.CATEGORY:<12} {r.SEVERITY}")
        return EXIT_CLEAN
    code = argv[0].upper()
    r = BY_CODE.get(code)
    if r is None:
        raise _Usage(f"unknown rule {argv[0]} (see `cudalint rule --all`)")
    print(f"# {r.CODE} {r.NAME} [{r.CATEGORY}, {r.SEVERITY}]\n")
    print((r.__doc__ or "").strip())
    return EXIT_CLEAN


def run(argv: list[str]) -> int:
    if argv and argv[0] == "explain":
        from .explain.cli import run as explain_run
        return explain_run(argv[1:])
    if argv and argv[0] == "rule":
        return _rule(argv[1:])
    if argv and argv[0] == "check":
        argv = argv[1:]
    args = _check_parser().parse_args(argv)
    if args.confirm not in (None, "log", "ncu"):   # `--confirm kernel.cu`: the word after it is a path
        args.paths.insert(0, args.confirm)
        args.confirm = "log"
    if not args.paths:
        raise _Usage("no input: give one or more .cu/.cuh files or directories")
    from .lint import Config, UsageError, lint_paths
    cfg = Config(
        defines=dict(_kv(d, "-D") for d in args.defines),
        params={k: _int(v, "--param") for k, v in (_kv(p, "--param") for p in args.param)},
        launches=dict(_launch(x) for x in args.launch),
        include_dirs=tuple(args.include_dirs),
        min_ratio=args.min_ratio,
        debug=args.debug,
    )
    try:
        result = lint_paths(args.paths, cfg)
    except UsageError as exc:
        raise _Usage(str(exc)) from None
    if args.confirm:
        from .confirm import ConfirmUnavailable, confirm_result
        try:
            for r in confirm_result(result, cfg, args.confirm, args.confirm_timeout):
                print(r.line(), file=sys.stderr)
        except ConfirmUnavailable as exc:
            raise _Usage(str(exc)) from None
    if args.format == "json":
        from .report.json_report import render
        out = render(result)
    else:
        from .report.text import render
        out = render(result, not args.no_assumptions)
    sys.stdout.write(out)
    failing = [d for d in result.diagnostics if d.severity in ("warning", "error")]
    return EXIT_FINDINGS if failing and not args.exit_zero else EXIT_CLEAN


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    debug = "--debug" in argv
    try:
        code = run(argv)
    except _Usage as exc:
        print(f"cudalint: {exc}", file=sys.stderr)
        code = EXIT_ERROR
    except KeyboardInterrupt:
        print("cudalint: interrupted", file=sys.stderr)
        code = EXIT_ERROR
    except BrokenPipeError:
        code = EXIT_CLEAN
    except Exception as exc:  # internal error: one line, no traceback
        if debug:
            raise
        print(f"cudalint: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        code = EXIT_ERROR
    return code


if __name__ == "__main__":
    sys.exit(main())
