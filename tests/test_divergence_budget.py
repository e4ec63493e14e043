"""A barrier inside a loop that runs no iteration at a trial (a halving loop from `blockDim.x / 2`
at a one-thread block) is reached by no thread there: its divergence is asked of no block, however
large the grid, instead of every block of it (a grid of 10^9 one-thread blocks took 22 GiB)."""
from cudalint.analysis import divergence
from cudalint.analysis.simulate import Simulation
from cudalint.lint import Config, lint_paths

SRC = """
__global__ void fold(const float* in, float* out, int n) {
  __shared__ float cache[1024];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    cache[threadIdx.x] = in[i];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
      __syncthreads();
    }
    if (threadIdx.x == 0) out[i / blockDim.x] = cache[0];
  }
}
void run(const float* in, float* out, int n) { fold<<<(n + 255) / 256, 256>>>(in, out, n); }
"""


def test_a_barrier_no_iteration_reaches_is_not_asked_of_every_block(tmp_path, monkeypatch):
    path = tmp_path / "k.cu"
    path.write_text(SRC)
    (table,) = lint_paths([str(path)], Config(debug=True)).tables
    sim = Simulation(table)
    barrier = next(b for b in table.barriers if any(it.var == "s" for it in b.loops))
    monkeypatch.setattr(sim, "grid", (10 ** 9, 1, 1))
    samples = sim.loop_samples
    monkeypatch.setattr(sim, "loop_samples", lambda it: [] if it.var == "s" else samples(it))
    real = divergence.np.indices

    def indices(shape, **kw):
        # the grid's blocks written out one by one: 3 x 10^9 coordinates
        assert shape[0] * shape[1] * shape[2] <= 1 << 21, f"every block of a {shape} grid enumerated"
        return real(shape, **kw)
    monkeypatch.setattr(divergence.np, "indices", indices)
    assert divergence._diverges(sim, barrier) is None
