"""Inline suppressions (`// cudalint: ignore[...]`, disable/enable, file-ignore), CL910 for the unused
ones, and baselines that survive edits above a finding."""
import json
import os
import subprocess
import sys

import pytest

from cudalint.lint import Config, lint_paths

from conftest import ROOT, SAMPLES

# Row from threadIdx.x, column from threadIdx.y: every global access is uncoalesced because x and y
# are swapped, one CL102 finding (standing for its CL101) per access; launched 32x8.
HEAD = "__global__ void t(float* out, const float* in, int N) {\n" \
       "  int row = blockIdx.x * blockDim.x + threadIdx.x;\n" \
       "  int col = blockIdx.y * blockDim.y + threadIdx.y;\n"
TAIL = "}\nvoid run(float* o, const float* i, int N) { dim3 b(32, 8); dim3 g(N / 32, N / 8); t<<<g, b>>>(o, i, N); }\n"


def lint(tmp_path, body: str, name="k.cu"):
    f = tmp_path / name
    f.write_text(HEAD + body + TAIL)
    return sorted((d.line, d.code) for d in lint_paths([str(f)], Config()).diagnostics), \
        lint_paths([str(f)], Config()).diagnostics


def test_unsuppressed_findings(tmp_path):
    got, diags = lint(tmp_path, "  out[row * N + col] = in[row * N + col];\n")
    assert got == [(4, "CL102"), (4, "CL102")]
    assert all(d.subsumes == ["CL101"] and d.metrics["sectors_per_request"] == 32 for d in diags)


@pytest.mark.parametrize("comment", ["// cudalint: ignore[CL101, CL102]", "// cudalint: ignore[CL1]",
                                     "// cudalint: ignore[coalescing]", "// cudalint: ignore",
                                     "/* cudalint: ignore[CL1] */", "// cudalint: ignore[cl1] -- transposed on purpose",
                                     "// cudalint: ignore[CL1]  // NOLINT(readability)"])
def test_ignore_on_the_line(tmp_path, comment):
    got, _ = lint(tmp_path, f"  out[row * N + col] = in[row * N + col];  {comment}\n")
    assert got == []


def test_ignore_on_the_line_before_covers_only_the_next_line(tmp_path):
    got, _ = lint(tmp_path, "  // cudalint: ignore[CL101]\n"
                            "  out[row * N + col] = in[row * N + col];\n"
                            "  out[row * N + col + 1] = 0.0f;\n")
    assert got == [(6, "CL102")]         # CL101 names what the CL102 finding stands for


def test_wrong_code_does_not_suppress_and_is_reported_unused(tmp_path):
    got, diags = lint(tmp_path, "  out[row * N + col] = 0.0f;  // cudalint: ignore[CL2]\n")
    assert got == [(4, "CL102"), (4, "CL910")]
    cl910 = next(d for d in diags if d.code == "CL910")
    assert cl910.severity == "warning" and cl910.category == "suppression"
    assert "`CL2`" in cl910.message and cl910.column == len("  out[row * N + col] = 0.0f;  ") + 1


def test_a_prefix_is_a_prefix_of_codes_not_of_digits_elsewhere(tmp_path):
    # CL10 covers CL101 and CL102; CL11 and CL2 cover neither
    assert lint(tmp_path, "  out[row * N + col] = 0.0f;  // cudalint: ignore[CL10]\n")[0] == []
    got, _ = lint(tmp_path, "  out[row * N + col] = 0.0f;  // cudalint: ignore[CL11]\n")
    assert (4, "CL102") in got and (4, "CL910") in got


def test_partly_used_suppression_reports_the_unused_code(tmp_path):
    got, diags = lint(tmp_path, "  out[row * N + col] = 0.0f;  // cudalint: ignore[CL101, CL102, CL203]\n")
    assert got == [(4, "CL910")]
    assert diags[0].message.endswith("no `CL203` finding to suppress on this line")


def test_bare_ignore_with_nothing_to_suppress_is_unused(tmp_path):
    got, diags = lint(tmp_path, "  int x = 0;  // cudalint: ignore\n  out[row * N + col] = 0.0f;\n")
    assert (4, "CL910") in got and "no finding to suppress" in diags[0].message


def test_disable_enable_range(tmp_path):
    got, _ = lint(tmp_path, "  // cudalint: disable[CL101]\n"
                            "  out[row * N + col] = 0.0f;\n"
                            "  out[row * N + col + 1] = 0.0f;\n"
                            "  // cudalint: enable[CL101]\n"
                            "  out[row * N + col + 2] = 0.0f;\n")
    assert got == [(8, "CL102")]


def test_disable_without_enable_runs_to_the_end_and_stray_enable_is_reported(tmp_path):
    got, diags = lint(tmp_path, "  // cudalint: enable[CL1]\n"
                                "  // cudalint: disable[coalescing]\n"
                                "  out[row * N + col] = 0.0f;\n")
    assert got == [(4, "CL910")]
    assert "no `disable` above it" in diags[0].message


def test_enable_ends_only_the_codes_it_names(tmp_path):
    got, diags = lint(tmp_path, "  // cudalint: disable[CL101, CL102]\n"
                                "  // cudalint: enable[CL102]\n"
                                "  out[row * N + col] = 0.0f;\n")
    assert got == [(4, "CL910")]       # CL101 (which the CL102 finding stands for) still off; CL102 covered nothing
    assert diags[0].message.endswith("no `CL102` finding to suppress on lines 4-5")


def test_file_ignore(tmp_path):
    got, _ = lint(tmp_path, "  out[row * N + col] = in[row * N + col];\n  // cudalint: file-ignore[CL203]\n")
    assert got == [(4, "CL102"), (4, "CL102"), (5, "CL910")]
    got, _ = lint(tmp_path, "  out[row * N + col] = in[row * N + col];\n  // cudalint: file-ignore[CL102]\n")
    assert got == []
    got, diags = lint(tmp_path, "  // cudalint: file-ignore[CL203]\n  out[row * N + col] = 0.0f;\n")
    assert (4, "CL910") in got and "in this file" in next(d for d in diags if d.code == "CL910").message


def test_unknown_code_and_unreadable_suppression(tmp_path):
    got, diags = lint(tmp_path, "  int x = 0;  // cudalint: ignore[CL999]\n  int y = 0;  // cudalint: ignore[CL101\n")
    assert got == [(4, "CL910"), (5, "CL900")]
    assert "`CL999` names no rule code, name or category" in diags[0].message
    assert "cannot read suppression" in diags[1].message


def test_suppression_used_by_a_deselected_rule_is_not_reported(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(HEAD + "  out[row * N + col] = 0.0f;  // cudalint: ignore[CL101]\n" + TAIL)
    from cudalint.selection import RuleSelection
    diags = lint_paths([str(f)], Config(selection=RuleSelection(("CL2",)))).diagnostics
    assert diags == []


def test_cl910_can_be_ignored_by_selection(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(HEAD + "  int x = 0;  // cudalint: ignore[CL101]\n" + TAIL)
    from cudalint.selection import RuleSelection
    assert [d.code for d in lint_paths([str(f)], Config()).diagnostics] == ["CL910"]
    assert lint_paths([str(f)], Config(selection=RuleSelection(ignore=("CL910",)))).diagnostics == []


@pytest.mark.parametrize("comment", ["// the store is transposed on purpose, cudalint: ignore[CL102]",
                                     "/* row-major on the host; cudalint: ignore[CL1] -- see the docs */",
                                     "// NOLINT cudalint: ignore[thread-y-major-access]",
                                     "// cudalint: ignore[Thread-Y-Major-Access, CL203]"])
def test_suppression_anywhere_in_the_comment_by_code_or_rule_name(tmp_path, comment):
    got, _ = lint(tmp_path, f"  out[row * N + col] = 0.0f;  {comment}\n")
    assert got == ([(4, "CL910")] if "CL203" in comment else [])


def test_prose_that_mentions_cudalint_is_no_suppression(tmp_path):
    got, _ = lint(tmp_path, "  out[row * N + col] = 0.0f;  // see the cudalint docs: ignore nothing\n")
    assert got == [(4, "CL102")]


def test_a_misspelt_rule_name_is_reported_with_the_near_one(tmp_path):
    got, diags = lint(tmp_path, "  out[row * N + col] = 0.0f;  // cudalint: ignore[thread-y-major-acess]\n")
    assert got == [(4, "CL102"), (4, "CL910")]
    assert "did you mean `CL102` (thread-y-major-access)?" in diags[1].message


def test_ignoring_the_cause_rule_brings_back_the_coalescing_finding(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(HEAD + "  out[row * N + col] = 0.0f;\n" + TAIL)
    from cudalint.selection import RuleSelection
    diags = lint_paths([str(f)], Config(selection=RuleSelection(ignore=("CL102",)))).diagnostics
    assert [(d.line, d.code) for d in diags] == [(4, "CL101")] and "lanes 4·N B apart" in diags[0].message


def test_fix_removes_unused_suppressions_and_keeps_the_used_part(tmp_path):
    (tmp_path / "k.cu").write_text(HEAD + "  out[row * N + col] = 0.0f;  // stays, cudalint: ignore[CL102, CL203] -- why\n"
                                   "  // cudalint: ignore[CL203]\n"
                                   "  out[row * N + col + 1] = 0.0f;  // cudalint: ignore[CL1]\n"
                                   "  int x = 0;  // x is scratch, cudalint: ignore[CL202]\n" + TAIL)
    code, out, err = cudalint(tmp_path, "k.cu", "--fix")
    assert "applied 3 fixes" in err and code == 0, (out, err)
    body = (tmp_path / "k.cu").read_text().splitlines()[3:7]
    assert body == ["  out[row * N + col] = 0.0f;  // stays, cudalint: ignore[CL102] -- why",
                    "  out[row * N + col + 1] = 0.0f;  // cudalint: ignore[CL1]",
                    "  int x = 0;  // x is scratch",
                    "}"]


# ---- baseline ------------------------------------------------------------------------------
def cudalint(cwd, *args):
    p = subprocess.run([sys.executable, "-m", "cudalint", *args], cwd=cwd, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    return p.returncode, p.stdout, p.stderr


def test_baseline_round_trip_survives_edits_above_and_catches_new_findings(tmp_path):
    src = (SAMPLES / "matmul_naive_bad.cu").read_text()
    (tmp_path / "m.cu").write_text(src)
    (tmp_path / "v.cu").write_text((SAMPLES / "vecadd_bad.cu").read_text())
    code, out, err = cudalint(tmp_path, ".", "--write-baseline", "cudalint-baseline.json")
    assert code == 0 and out == "" and "recorded 5 findings" in err
    doc = json.loads((tmp_path / "cudalint-baseline.json").read_text())
    assert {f["path"] for f in doc["findings"]} == {"m.cu", "v.cu"}
    assert cudalint(tmp_path, ".", "--baseline", "cudalint-baseline.json") == (0, "", "")
    # lines move: still known
    (tmp_path / "m.cu").write_text("// licence header\n// second line\n\n" + src)
    assert cudalint(tmp_path, ".", "--baseline", "cudalint-baseline.json")[0] == 0
    # a second, identical store in the same kernel is new although its key is known
    lines = src.splitlines()
    i = next(n for n, x in enumerate(lines) if "out[row * N + col] = sum;" in x)
    (tmp_path / "m.cu").write_text("\n".join(lines[:i + 1] + [lines[i]] + lines[i + 1:]) + "\n")
    code, out, _ = cudalint(tmp_path, ".", "--baseline", "cudalint-baseline.json")
    assert code == 1 and len(out.splitlines()) == 1 and all(":17:" in x for x in out.splitlines())
    # the baseline is read relative to its own directory, wherever cudalint runs from
    code, _, _ = cudalint(tmp_path.parent, str(tmp_path / "v.cu"), "--baseline",
                          str(tmp_path / "cudalint-baseline.json"))
    assert code == 0


def test_bad_baseline_file_is_exit_2(tmp_path):
    (tmp_path / "b.json").write_text("{not json")
    code, _, err = cudalint(tmp_path, str(SAMPLES / "vecadd_bad.cu"), "--baseline", "b.json")
    assert code == 2 and "cannot read baseline b.json" in err and len(err.splitlines()) == 1
    code, _, err = cudalint(tmp_path, str(SAMPLES / "vecadd_bad.cu"), "--baseline", "missing.json")
    assert code == 2 and "cannot read baseline missing.json" in err
