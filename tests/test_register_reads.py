"""Reads nvcc serves from a register are no memory requests: a shared word a thread stored at every
iteration of a loop nvcc unrolls, read again after the loop, costs no load (its bank conflict is
the store's, said once), while one read after a loop that may skip the store, or across a barrier,
is still a load."""
from cudalint.lint import Config, lint_paths

FOLD = """
__global__ void fold(const int* in, int* out, int n) {
  __shared__ int sh[128];
  int t = threadIdx.x, lane = t & 31;
  int* p = sh + (lane << 2);
  sh[t] = (blockIdx.x * 128 + t < n) ? in[blockIdx.x * 128 + t] : 0;
  __syncthreads();
  if (t < 32) {
    for (int i = 1; i < 4; i++)
      STEP
    BETWEEN
    out[blockIdx.x * 32 + lane] = p[0];
  }
}
void run(const int* in, int* out, int n) { fold<<<(n + 127) / 128, 128>>>(in, out, n); }
"""


def bank_lines(tmp_path, src: str) -> dict[int, set[str]]:
    path = tmp_path / "k.cu"
    path.write_text(src)
    out: dict[int, set[str]] = {}
    for d in lint_paths([str(path)], Config()).diagnostics:
        if d.code == "CL401":
            out.setdefault(d.line, set()).add(d.access)
    return out


def test_a_word_stored_at_every_unrolled_iteration_is_read_from_a_register_after_the_loop(tmp_path):
    got = bank_lines(tmp_path, FOLD.replace("STEP", "p[0] = p[0] | p[i];").replace("BETWEEN", ""))
    assert "store" in got.get(10, set())     # the loop's store is 4-way
    assert 12 not in got                     # the read after the loop is the register
    guarded = FOLD.replace("STEP", "p[0] = p[0] | p[i];").replace("BETWEEN", "").replace(
        "    out[blockIdx.x * 32 + lane] = p[0];", "    if (blockIdx.x * 32 + lane < n) out[blockIdx.x * 32 + lane] = p[0];")
    assert 12 not in bank_lines(tmp_path, guarded)      # read under a test of its own: still the register


def test_a_store_some_iterations_skip_or_a_barrier_between_leaves_a_load(tmp_path):
    skipped = FOLD.replace("STEP", "if (p[i] > 0) p[0] = p[0] | p[i];").replace("BETWEEN", "")
    assert "load" in bank_lines(tmp_path, skipped).get(12, set())
    fenced = FOLD.replace("STEP", "p[0] = p[0] | p[i];").replace("BETWEEN", "__syncwarp();")
    assert "load" in bank_lines(tmp_path, fenced).get(12, set())
