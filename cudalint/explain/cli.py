"""`cudalint explain PATH... [--kernel NAME] [--line N]` and `cudalint explain --expr "..."`.

Exit codes: 0 the explanation was written (findings are shown, not counted), 2 bad input.
"""
from __future__ import annotations

import argparse
import sys

from .. import args as _args


def _parser() -> argparse.ArgumentParser:
    p = _args._Parser(prog="cudalint explain",
                     description="Explain kernels the two-tree way: the table, the iterators, every index "
                                 "as coordinate x stride terms with its max check, and what each warp touches.")
    p.add_argument("paths", nargs="*", metavar="PATH", help=".cu/.cuh files or directories")
    p.add_argument("--kernel", metavar="NAME", help="only this kernel")
    p.add_argument("--line", type=int, metavar="N", help="only the accesses on line N (and the indexes they use)")
    p.add_argument("--expr", metavar="EXPR", help="explain one index expression instead of a file")
    p.add_argument("--block", default="", metavar="X,Y,Z", help="--expr: block size (default 32,8)")
    p.add_argument("--grid", default="", metavar="X,Y,Z", help="--expr: grid size (default 1)")
    p.add_argument("--iter", action="append", default=[], metavar="NAME=COUNT",
                   help="--expr: NAME is a loop counter 0..COUNT-1")
    p.add_argument("--extent", type=int, metavar="N", help="--expr: the index must stay below N")
    p.add_argument("--format", choices=["text", "markdown", "json", "html"], default="text")
    p.add_argument("-o", dest="output", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                   help="define a macro (a constant for --expr)")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="problem size of a kernel/host integer (default 1000)")
    p.add_argument("--launch", action="append", default=[], metavar="KERNEL:grid=X,Y,Z:block=X,Y,Z")
    p.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    return p


def _dims(text: str, what: str, default: tuple[int, int, int]) -> tuple[int, int, int]:
    if not text:
        return default
    v = [_args._int(x.strip(), what) for x in text.split(",") if x.strip()]
    if not 1 <= len(v) <= 3 or any(x < 1 for x in v):
        raise _args._Usage(f"bad {what} `{text}`: expected 1 to 3 positive integers X,Y,Z")
    return tuple(v + [1] * (3 - len(v)))


def _config(args, defines: dict[str, str]):
    """The files' own configuration (`.cudalint.toml`, `[tool.cudalint]`) under the command line's,
    as `cudalint check` reads it; a learner sees every note."""
    import os
    from ..config import Resolver
    cli: dict = {"show-limits": True}
    if defines:
        cli["define"] = defines
    if args.param:
        cli["params"] = {k: _args._int(v, "--param") for k, v in (_args._kv(p, "--param") for p in args.param)}
    if args.launch:
        cli["launch"] = dict(_args._launch(x) for x in args.launch)
    if args.include_dirs:
        cli["include-dirs"] = [os.path.abspath(d) for d in args.include_dirs]
    return Resolver(cli, None, jobs=1, debug=args.debug).run_config()


def use_color(stream) -> bool:
    return _args.want_color("auto", stream.isatty())


def run(argv: list[str]) -> int:
    from ..config import ConfigError
    from ..engine import Workspace
    from ..lint import UsageError
    from .data import Explanation
    args = _parser().parse_args(argv)
    defines = dict(_args._kv(d, "-D") for d in args.defines)
    try:
        if args.expr is not None:
            if args.paths:
                raise _args._Usage("give either PATH or --expr, not both")
            from .expr import explain_expr
            iters = {k: _args._int(v, "--iter") for k, v in (_args._kv(x, "--iter") for x in args.iter)}
            if any(c < 1 for c in iters.values()):
                raise _args._Usage("bad --iter: COUNT must be a positive integer")
            ex = Explanation(expr=explain_expr(args.expr, defines, _dims(args.block, "--block", (32, 8, 1)),
                                               _dims(args.grid, "--grid", (1, 1, 1)), iters, args.extent))
        else:
            if not args.paths:
                raise _args._Usage("no input: give a .cu file (or --expr \"...\")")
            from .driver import explain_paths
            ex = explain_paths(args.paths, Workspace(_config(args, defines)), args.kernel, args.line)
            if not ex.kernels:
                raise _args._Usage("no kernel with a body in " + ", ".join(args.paths))
    except (UsageError, ConfigError) as exc:
        raise _args._Usage(str(exc)) from None
    if args.output is None and sys.stdout is None:
        raise _args._Usage("standard output is closed: nowhere to write the explanation (use -o FILE)")
    out_stream = sys.stdout if args.output is None else None
    text = render_as(ex, args.format, color=out_stream is not None and use_color(out_stream))
    if args.output is None:
        sys.stdout.write(text)
    else:
        try:
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            raise _args._Usage(f"cannot write {args.output}: {exc.strerror or exc}") from None
    return _args.EXIT_CLEAN


def render_as(ex, fmt: str, color: bool = False) -> str:
    from ..report import printable_data
    ex = printable_data(ex)         # names, snippets and paths come from the linted tree
    if fmt == "json":
        import json
        return json.dumps(ex.to_dict(), indent=2) + "\n"
    from .render import render
    if fmt == "html":
        from .html import HtmlWriter
        return render(ex, HtmlWriter())
    from .text import MarkdownWriter, TextWriter
    return render(ex, MarkdownWriter() if fmt == "markdown" else TextWriter(color))
