"""Configuration files and rule selection: each key changes what a user sees, errors name the file,
line and key, and `cudalint config --show` says where every value came from."""
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT, SAMPLES

# CL101 + CL102 at line 16, CL101 at line 12; launched 32x8 so blockDim.x >= 32.
MATMUL = (SAMPLES / "matmul_naive_bad.cu").read_text()
VECADD = (SAMPLES / "vecadd_bad.cu").read_text()        # CL202 x3 at line 7
TILE_KERNEL = ("__global__ void k(float* a) {\n  __shared__ float t[TILE];\n  t[threadIdx.x] = a[threadIdx.x];\n}\n"
               "void run(float* a) { k<<<1, 64>>>(a); }\n")                # CL201 unless TILE >= 64


def cudalint(cwd, *args, stdin=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "cudalint", *args], cwd=cwd, capture_output=True, text=True,
                       env=env, input=stdin, timeout=120)
    return p.returncode, p.stdout, p.stderr


def codes(out):
    return sorted({(line.split(":")[0], int(line.split(":")[1]), line.split()[2]) for line in out.splitlines()})


def project(tmp_path, config: str, name="pyproject.toml", files=None):
    (tmp_path / name).write_text(textwrap.dedent(config))
    for f, text in (files or {"matmul.cu": MATMUL, "vecadd.cu": VECADD}).items():
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f).write_text(text)
    return tmp_path


def test_no_config_runs_every_rule(tmp_path):
    project(tmp_path, "[project]\nname = 'x'\n")
    code, out, _ = cudalint(tmp_path, ".")
    assert {c for _, _, c in codes(out)} == {"CL101", "CL102", "CL202"}


@pytest.mark.parametrize("config, expected", [
    ('select = ["CL1"]', {"CL101", "CL102"}),
    ('select = ["range"]', {"CL202"}),
    ('select = ["CL1"]\nignore = ["CL102"]', {"CL101"}),
    ('select = ["CL102"]\nignore = ["CL1"]', {"CL102"}),          # the more specific selector wins
    ('ignore = ["coalescing"]', {"CL202"}),
    ('select = ["CL202"]\nextend-select = ["CL102"]', {"CL102", "CL202"}),
])
def test_select_ignore_extend_select(tmp_path, config, expected):
    project(tmp_path, "[tool.cudalint]\n" + config + "\n")
    _, out, err = cudalint(tmp_path, ".")
    assert {c for _, _, c in codes(out)} == expected, err


def test_command_line_selection_over_the_file(tmp_path):
    project(tmp_path, '[tool.cudalint]\nselect = ["range"]\n')
    assert {c for _, _, c in codes(cudalint(tmp_path, ".", "--select", "coalescing")[1])} == {"CL101", "CL102"}
    assert {c for _, _, c in codes(cudalint(tmp_path, ".", "--extend-select", "CL101")[1])} == {"CL101", "CL202"}
    assert {c for _, _, c in codes(cudalint(tmp_path, ".", "--ignore", "CL2")[1])} == set()
    code, _, err = cudalint(tmp_path, ".", "--select", "CL7")
    assert code == 2 and "unknown rule code or category `CL7`" in err


def test_per_file_ignores(tmp_path):
    project(tmp_path, '[tool.cudalint.per-file-ignores]\n"vec*.cu" = ["range"]\n"sub/*.cu" = ["CL101"]\n',
            files={"matmul.cu": MATMUL, "vecadd.cu": VECADD, "sub/matmul.cu": MATMUL})
    got = codes(cudalint(tmp_path, ".")[1])
    assert not any(p.endswith("vecadd.cu") for p, _, _ in got)
    assert {c for p, _, c in got if p.endswith("sub/matmul.cu")} == {"CL102"}
    assert {c for p, _, c in got if p == "./matmul.cu"} == {"CL101", "CL102"}


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_exclude_extend_exclude_gitignore_and_force_exclude(tmp_path):
    files = {"matmul.cu": MATMUL, "vecadd.cu": VECADD, "third_party/v.cu": VECADD, "gen/m.cu": MATMUL}
    project(tmp_path, '[tool.cudalint]\nexclude = ["third_party"]\nextend-exclude = ["vec*.cu"]\n', files=files)
    paths = {p for p, _, _ in codes(cudalint(tmp_path, ".")[1])}
    assert paths == {"./matmul.cu", "./gen/m.cu"}
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".gitignore").write_text("gen/\n")
    assert {p for p, _, _ in codes(cudalint(tmp_path, ".")[1])} == {"./matmul.cu"}
    assert "./gen/m.cu" in {p for p, _, _ in codes(cudalint(tmp_path, ".", "--no-respect-gitignore")[1])}
    # a file named on the command line is linted unless --force-exclude (pre-commit names every file)
    assert codes(cudalint(tmp_path, "vecadd.cu")[1])
    assert cudalint(tmp_path, "vecadd.cu", "--force-exclude") == (0, "", "")
    (tmp_path / "pyproject.toml").write_text('[tool.cudalint]\nexclude = ["third_party"]\nrespect-gitignore = false\n'
                                             'force-exclude = true\n')
    assert "./gen/m.cu" in {p for p, _, _ in codes(cudalint(tmp_path, ".")[1])}
    assert cudalint(tmp_path, "third_party/v.cu") == (0, "", "")


def test_extend_include_lints_more_extensions_in_a_folder(tmp_path):
    """A library that keeps its kernels in `.hxx` files: a folder's walk lints them once the
    configuration names them (as ruff's `extend-include`), and excluded ones stay out."""
    files = {"vecadd.cu": VECADD, "kernels/v.hxx": VECADD, "vendor/w.hxx": VECADD}
    project(tmp_path, '[tool.cudalint]\n', files=files)
    assert {p for p, _, _ in codes(cudalint(tmp_path, ".")[1])} == {"./vecadd.cu"}
    (tmp_path / "pyproject.toml").write_text('[tool.cudalint]\nextend-include = ["*.hxx"]\n'
                                             'extend-exclude = ["vendor"]\n')
    assert {p for p, _, _ in codes(cudalint(tmp_path, ".")[1])} == {"./vecadd.cu", "./kernels/v.hxx"}


def test_a_folder_walk_lints_cpp_files_named_for_the_cuda_compiler(tmp_path):
    """`kernel.cu.cc`: a C++ file its build compiles as CUDA (TensorFlow's custom ops): a folder's
    walk lints it as a `.cu`, while a plain `.cc` beside it stays host context."""
    files = {"ops/add_gpu.cu.cc": VECADD, "ops/add.cc": "int main() { return 0; }\n"}
    project(tmp_path, '[tool.cudalint]\n', files=files)
    assert {p for p, _, _ in codes(cudalint(tmp_path, ".")[1])} == {"./ops/add_gpu.cu.cc"}


def test_define_params_launch_min_ratio(tmp_path):
    project(tmp_path, "[tool.cudalint]\ndefine = { TILE = 32 }\n", files={"k.cu": TILE_KERNEL})
    assert "CL201" in cudalint(tmp_path, ".")[1]
    project(tmp_path, "[tool.cudalint]\ndefine = { TILE = 64 }\n", files={"k.cu": TILE_KERNEL})
    assert cudalint(tmp_path, ".")[0] == 0
    assert "CL201" in cudalint(tmp_path, ".", "-D", "TILE=16")[1]            # the command line comes last

    big = ("__global__ void k(float* out, int N) {\n  int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
           "  int col = blockIdx.x * blockDim.x + threadIdx.x;\n  out[row * N + col] = 1.0f;\n}\n")
    project(tmp_path, """
        [tool.cudalint.params]
        N = 65536
        [tool.cudalint.launch]
        k = { grid = [2048, 2048], block = [32, 32] }
        """, files={"k.cu": big})
    code, out, _ = cudalint(tmp_path, "k.cu")
    assert code == 1 and "CL203" in out and "65536" in out

    project(tmp_path, "[tool.cudalint]\n", files={"m.cu": MATMUL})
    assert "CL101" in cudalint(tmp_path, ".")[1]                      # 8x the ideal
    project(tmp_path, "[tool.cudalint.coalescing]\nmin-ratio = 9\n", files={"m.cu": MATMUL})
    assert "CL101" not in cudalint(tmp_path, ".")[1]


def test_include_dirs_relative_to_the_config(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "tile.h").write_text("#define TILE 32\n")
    project(tmp_path, '[tool.cudalint]\ninclude-dirs = ["inc"]\n',
            files={"src/k.cu": '#include "tile.h"\n' + TILE_KERNEL})
    assert "CL201" in cudalint(tmp_path / "src", "k.cu")[1]


def test_cudalint_toml_closest_to_the_file_wins_and_extend(tmp_path):
    project(tmp_path, '[tool.cudalint]\nselect = ["coalescing"]\n',
            files={"matmul.cu": MATMUL, "sub/matmul.cu": MATMUL, "sub/vecadd.cu": VECADD})
    (tmp_path / "sub" / ".cudalint.toml").write_text('extend = "../base.toml"\nignore = ["CL102"]\n')
    (tmp_path / "base.toml").write_text('select = ["CL101", "CL202"]\n')
    got = codes(cudalint(tmp_path, ".")[1])
    assert {c for p, _, c in got if p == "./matmul.cu"} == {"CL101", "CL102"}
    assert {c for p, _, c in got if p.startswith("./sub/")} == {"CL101", "CL202"}
    # --config applies one file to everything
    got = codes(cudalint(tmp_path, ".", "--config", str(tmp_path / "base.toml"))[1])
    assert {c for _, _, c in got} == {"CL101", "CL202"}


def test_config_show_names_the_origin_of_every_value(tmp_path):
    project(tmp_path, """
        [tool.cudalint]
        extend = "base.toml"
        ignore = ["CL102"]
        [tool.cudalint.coalescing]
        min-ratio = 3.0
        """)
    (tmp_path / "base.toml").write_text('select = ["coalescing"]\n[params]\nN = 4096\n')
    code, out, err = cudalint(tmp_path, "config", "--show", "matmul.cu", "--param", "M=64")
    assert code == 0, err
    rows = {line.split(" = ")[0]: line.rsplit("# ", 1)[1] for line in out.splitlines() if not line.startswith("#")}
    pyproject, base = str(tmp_path / "pyproject.toml"), str(tmp_path / "base.toml")
    assert rows["ignore"] == pyproject
    assert rows["coalescing.min-ratio"] == pyproject
    assert rows["select"].startswith(base) and "extended by" in rows["select"]
    assert rows["params.N"].startswith(base)
    assert rows["params.M"] == "command line"
    assert rows["exclude"] == "default"
    assert f"# config file: {pyproject}" in out


@pytest.mark.parametrize("config, line, needle", [
    ("[tool.cudalint]\nselct = ['CL1']\n", 2, "unknown key 'selct' in [tool.cudalint]"),
    ("[project]\nname='x'\n\n[tool.cudalint]\nselect = ['CL1']\n\n[tool.cudalint.coalescing]\nmin-ratio = 0\n",
     8, "'coalescing.min-ratio' must be a positive number"),
    ("[tool.cudalint.coalescing]\nmax-ratio = 2\n", 2, "unknown key 'max-ratio' in [tool.cudalint.coalescing]"),
    ("[tool.cudalint]\nignore = ['CL999']\n", 2, "unknown rule code or category 'CL999'"),
    ("[tool.cudalint]\nselect = 'CL1'\n", 2, "'select' must be a list of strings"),
    ("[tool.cudalint]\nparams = { N = 'big' }\n", 2, "'params.N' must be an integer"),
    ("[tool.cudalint.launch]\nk = { grid = [0], block = [32] }\n", 2, "'launch.k.grid' must be 1 to 3 positive"),
    ("[tool.cudalint]\nrespect-gitignore = 'yes'\n", 2, "'respect-gitignore' must be true or false"),
    ("[tool.cudalint]\nextend = 'missing.toml'\n", 2, "does not exist"),
    ("[tool.cudalint]\nselect = [\n", 3, "invalid TOML"),
])
def test_bad_configuration_is_one_line_naming_file_line_and_key(tmp_path, config, line, needle):
    project(tmp_path, config)
    code, out, err = cudalint(tmp_path, ".")
    assert code == 2        # the run cannot pass...
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"cudalint: {tmp_path / 'pyproject.toml'}:{line}: ") and needle in err, err
    assert "not applied" in err
    assert "vecadd.cu:7:" in out      # ...but the files are still linted, as if the file were not there


def test_extend_cycle_is_an_error(tmp_path):
    (tmp_path / "a.toml").write_text('extend = "b.toml"\n')
    (tmp_path / "b.toml").write_text('extend = "a.toml"\n')
    (tmp_path / "k.cu").write_text(VECADD)
    code, _, err = cudalint(tmp_path, "k.cu", "--config", "a.toml")
    assert code == 2 and "cycle" in err


def test_stdin_filename_picks_the_configuration(tmp_path):
    project(tmp_path, '[tool.cudalint]\nper-file-ignores = { "k.cu" = ["CL202"] }\n', files={})
    assert cudalint(tmp_path, "-", "--stdin-filename", "k.cu", stdin=VECADD)[0] == 0
    code, out, _ = cudalint(tmp_path, "-", "--stdin-filename", "v.cu", stdin=VECADD)
    assert code == 1 and out.startswith("v.cu:7:")


def test_the_readme_example_is_a_valid_configuration(tmp_path):
    readme = (ROOT / "README.md").read_text()
    example = readme.split("### Configuration", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "cudalint-base.toml").write_text('select = ["ALL"]\n')
    (tmp_path / "proj" / "include").mkdir(parents=True)
    project(tmp_path / "proj", example, files={"k.cu": TILE_KERNEL})
    code, out, err = cudalint(tmp_path / "proj", "config", "--show", "k.cu")
    assert code == 0, err
    assert "launch.sgemm = { grid = [128, 128, 1], block = [16, 16, 1] }" in out
    assert cudalint(tmp_path / "proj", ".")[0] in (0, 1)


def test_bank_conflict_min_ways(tmp_path):
    files = {"s.cu": (SAMPLES / "sgemm_2d_vec_good.cu").read_text()}      # 2-way conflicts only
    project(tmp_path, "[tool.cudalint]\n", files=files)
    assert "CL401" in cudalint(tmp_path, ".")[1]
    project(tmp_path, "[tool.cudalint.bank-conflict]\nmin-ways = 4\n", files=files)
    assert "CL401" not in cudalint(tmp_path, ".")[1]
    assert "CL401" in cudalint(tmp_path, ".", "--min-ways", "2")[1]
    project(tmp_path, "[tool.cudalint.bank-conflict]\nmin-ways = 1\n", files=files)
    code, _, err = cudalint(tmp_path, ".")
    assert code == 2 and "pyproject.toml:2: 'bank-conflict.min-ways' must be an integer from 2 to 32" in err
