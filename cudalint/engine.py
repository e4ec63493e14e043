"""The engine: one reading of a project that every entry point asks.

A `Workspace` holds a run's configuration (the files' own `.cudalint.toml` / `[tool.cudalint]` under
the command line's settings) and the unsaved buffers an editor or standard input gives; it reads
the files the way `cudalint check` does (each file in its translation units, with the project's
files that include it or launch its kernels as context) and answers the model, the findings and
the re-lint of a rewritten file. `check`, standard input, `explain`, `--fix` and `--confirm` all
read through it, so a file gets one verdict however it is asked.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from .config import Config
from .diagnostic import Diagnostic
from .analysis.family import derive
from .analysis.simulate import Simulation
from .lint import Result, context_paths, lint_paths, lint_stdin, program_combinations, read_project
from .preprocess import file_key
from .source.cufile import SourceFile


@dataclass
class Workspace:
    """A project as one run sees it: configuration plus unsaved buffers (by file_key)."""
    cfg: Config
    buffers: dict[str, bytes] = field(default_factory=dict)
    _context: dict[str, list[str]] = field(default_factory=dict, repr=False)

    # ---- the buffers an editor holds ----------------------------------------------------------
    def open_buffer(self, path: str, text: str | bytes) -> None:
        """`path` is read as `text` from now on (an editor's unsaved buffer)."""
        self.buffers[file_key(path)] = text.encode("utf-8") if isinstance(text, str) else text

    def close_buffer(self, path: str) -> None:
        self.buffers.pop(file_key(path), None)

    # ---- the questions ------------------------------------------------------------------------
    def check(self, paths: list[str], on_part: Callable[[Result], None] | None = None,
              tables: bool = True) -> Result:
        """`cudalint check PATH...`: the findings (and, with `tables`, the models) of the files."""
        return lint_paths(paths, self.cfg, on_part, tables, overlay=self.buffers or None)

    def check_text(self, name: str, data: bytes) -> Result:
        """Standard input named `name` (`--stdin-filename`): linted as that file of its project."""
        if name == "-":
            return lint_stdin(name, data, self.cfg)
        return lint_paths([name], self.cfg, overlay={**self.buffers, file_key(name): data})

    def findings(self, path: str) -> list[Diagnostic]:
        """The findings of one file, as `cudalint check PATH` prints them (those of the helpers it
        inlines from other files included)."""
        return self.check([path], tables=False).diagnostics

    def model(self, path: str) -> list:
        """The two-tree tables of the kernels of one file."""
        return [t for t in self.check([path]).tables if t.path == path]

    def relint(self, path: str, text: str, also: Sequence[str] = ()) -> list[Diagnostic] | None:
        """The findings `path` would have with `text` as its content (a proposed rewrite), read in
        its project as `check` reads it; `also`: files of the run read with it (those that launch its
        kernels where no project is found). None when the text cannot be read."""
        key = file_key(path)
        if key not in self._context:   # a rewrite keeps the file's includes and kernels: its context too
            found = context_paths([path], self.cfg, self.buffers or None)
            self._context[key] = list(dict.fromkeys([*found, *(p for p in also if file_key(p) != key)]))
        result = lint_paths([path], self.cfg, tables=False, overlay={**self.buffers, key: text.encode("utf-8")},
                            context=self._context[key])
        if result.errors:
            return None
        return [d for d in result.diagnostics if d.path == path]

    def simulation(self, table) -> Simulation:
        """The simulation whose figures `check`'s messages quote: the first combination of the values
        the program passes, the first trial of the values it does not give, under the file's
        `--param`s. Explain and fix read the same one. (Raises AnalysisLimit as Simulation does.)"""
        given = self.cfg.for_file(table.path).params
        params = {**program_combinations(table.launch, given)[0], **given}
        family = derive(table, {**table.launch.params, **params})
        return Simulation(table, params, family.primary, family)

    def read(self, paths: list[str]) -> tuple[list[SourceFile], list[SourceFile]]:
        """The files parsed as `check` parses them (their units and context), for what runs them
        (confirm mode compiles the same translation units the findings were made in)."""
        return read_project(paths, self.cfg, context_paths(paths, self.cfg, self.buffers or None),
                            overlay=self.buffers or None)
