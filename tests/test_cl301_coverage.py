"""CL301 reads the accesses of one array that differ only in their offset as one pattern: together
their copies of the lower levels may fill a stride that each alone leaves with holes."""
import textwrap

import pytest

from cudalint.lint import Config, lint_paths


def cl301(tmp_path, source, **params):
    cu = tmp_path / "k.cu"
    cu.write_text(textwrap.dedent(source))
    result = lint_paths([str(cu)], Config(params=params))
    return [d for d in result.diagnostics if d.code == "CL301"]


REDUCE = """\
    __global__ void k(const float *g, float *o, unsigned int n) {{
      unsigned int i = blockIdx.x * (blockDim.x * {unroll}) + threadIdx.x;
      float s = 0;
      if (i + {last} * blockDim.x < n) s = {loads};
      o[blockIdx.x * blockDim.x + threadIdx.x] = s;
    }}
    void host(const float *g, float *o, unsigned int n) {{ k<<<(n + 1023) / 1024, 256>>>(g, o, n); }}
"""


def reduce(unroll, offsets):
    loads = " + ".join("g[i]" if k == 0 else f"g[i + {k} * blockDim.x]" for k in offsets)
    return REDUCE.format(unroll=unroll, last=max(offsets), loads=loads)


def test_two_loads_per_thread_fill_the_block_stride(tmp_path):
    src = """\
        __global__ void k(const float *g, float *o, unsigned int n) {
          unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
          float s = (i < n) ? g[i] : 0;
          if (i + blockDim.x < n) s += g[i + blockDim.x];
          o[blockIdx.x * blockDim.x + threadIdx.x] = s;
        }
        void host(const float *g, float *o, unsigned int n) { k<<<(n + 511) / 512, 256>>>(g, o, n); }
    """
    assert cl301(tmp_path, src) == []


def test_one_load_with_the_doubled_stride_skips_half(tmp_path):
    src = """\
        __global__ void k(const float *g, float *o, unsigned int n) {
          unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
          float s = (i < n) ? g[i] : 0;
          o[blockIdx.x * blockDim.x + threadIdx.x] = s;
        }
        void host(const float *g, float *o, unsigned int n) { k<<<(n + 511) / 512, 256>>>(g, o, n); }
    """
    (d,) = cl301(tmp_path, src)
    assert d.line == 3
    assert "256 of every 512 elements are skipped; make it 256" in d.message


def test_four_unrolled_loads_fill_four_block_strides(tmp_path):
    assert cl301(tmp_path, reduce(4, [0, 1, 2, 3])) == []


@pytest.mark.parametrize("unroll, offsets, skipped", [
    (4, [0, 2], 512),         # g[i], g[i + 2 * bd]: the second and fourth quarter are never read
    (4, [0, 1, 2], 256),      # the fourth unrolled load dropped
    (2, [0, 2], 256),         # the second load jumps a whole stride: it reads the next block's first half
])
def test_loads_that_leave_a_hole_are_one_finding_naming_each_other(tmp_path, unroll, offsets, skipped):
    (d,) = cl301(tmp_path, reduce(unroll, offsets))
    assert d.line == 4 and d.array == "g"
    assert f"{skipped} of every {unroll * 256} elements are still skipped" in d.message
    for k in offsets[1:]:
        assert f"`g[i + {k} * blockDim.x]` (line 4)" in d.message
    assert d.metrics["skipped"] == skipped and d.metrics["accesses"] == len(offsets)


def test_grid_stride_loop_with_two_loads_per_trip(tmp_path):
    src = """\
        template <unsigned int blockSize>
        __global__ void k(const float *g, float *o, unsigned int n) {
          unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x;
          unsigned int gridSize = blockSize * 2 * gridDim.x;
          float s = 0;
          while (i < n) {
            s += g[i];
            if (i + blockSize < n) s += g[i + blockSize];
            i += gridSize;
          }
          o[blockIdx.x * blockSize + threadIdx.x] = s;
        }
        void host(const float *g, float *o, unsigned int n) { k<256><<<64, 256>>>(g, o, n); }
    """
    assert cl301(tmp_path, src) == []
    # the second load half a block on: both read the first 3/4 of the window, the last 1/4 is lost
    (d,) = cl301(tmp_path, src.replace("s += g[i + blockSize]", "s += g[i + blockSize / 2]"))
    assert d.line == 7 and "`g[i + blockSize / 2]` (line 8)" in d.message
    assert "128 of every 512 elements are still skipped" in d.message


def test_a_store_does_not_fill_the_holes_of_a_load(tmp_path):
    # reading g[i] and writing g[i + bd] is not reading the whole range
    src = """\
        __global__ void k(float *g, unsigned int n) {
          unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
          if (i + blockDim.x < n) g[i + blockDim.x] = g[i];
        }
        void host(float *g, unsigned int n) { k<<<(n + 511) / 512, 256>>>(g, n); }
    """
    found = cl301(tmp_path, src)
    assert {(d.line, d.access) for d in found} == {(3, "load"), (3, "store")}
    assert all("other" not in d.message for d in found)


def test_two_stores_fill_the_block_stride(tmp_path):
    src = """\
        __global__ void k(const float *a, float *o, unsigned int n) {
          unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
          float v = a[blockIdx.x * blockDim.x + threadIdx.x];
          o[i] = v;
          o[i + blockDim.x] = -v;
        }
        void host(const float *a, float *o, unsigned int n) { k<<<n / 512, 256>>>(a, o, n); }
    """
    assert cl301(tmp_path, src) == []


TRANSPOSE = """\
    #define TILE_DIM 32
    #define BLOCK_ROWS 16
    __global__ void fine(float *odata, const float *idata, int width, int height) {
      __shared__ float block[TILE_DIM][TILE_DIM + 1];
      int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
      int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
      int index = xIndex + yIndex * width;
      for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        block[threadIdx.y + i][threadIdx.x] = idata[index + i * width];
      __syncthreads();
      for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        odata[index + i * height] = block[threadIdx.x][threadIdx.y + i];
    }
    void run(float *o, const float *in, int w, int h) {
      dim3 grid(w / TILE_DIM, h / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS);
      fine<<<grid, threads>>>(o, in, w, h);
    }
"""


def test_equal_sizes_given_by_the_user_share_one_radix(tmp_path):
    # index + i * height walks rows of width elements only because width == height
    assert cl301(tmp_path, TRANSPOSE, width=1024, height=1024, w=1024, h=1024) == []


def test_different_sizes_keep_the_finding(tmp_path):
    (d,) = cl301(tmp_path, TRANSPOSE, width=1024, height=2048, w=1024, h=2048)
    assert d.line == 12 and "`blockIdx.y * 32 * width`" in d.message


def test_sizes_the_program_does_not_give_are_compared_by_the_values_tried(tmp_path):
    # width and height take the same trial values (1000, then 1024): the finding needs them to
    # differ, which only the user can say, so it is not reported by default
    assert cl301(tmp_path, TRANSPOSE) == []


def test_unrolled_loop_of_loads_is_a_level_of_its_own(tmp_path):
    src = """\
        __global__ void k(const float *g, float *o, unsigned int n) {
          unsigned int i = blockIdx.x * (blockDim.x * 4) + threadIdx.x;
          float s = 0;
        #pragma unroll
          for (int u = 0; u < 4; ++u)
            if (i + u * blockDim.x < n) s += g[i + u * blockDim.x];
          o[blockIdx.x * blockDim.x + threadIdx.x] = s;
        }
        void host(const float *g, float *o, unsigned int n) { k<<<(n + 1023) / 1024, 256>>>(g, o, n); }
    """
    assert cl301(tmp_path, src) == []


TILE_ROWS = """\
    __global__ void copy_tile(float *out, const float *in, int w) {
      __shared__ float tile[32][33];
      int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
      tile[threadIdx.y][threadIdx.x] = in[y * w + x];
      tile[threadIdx.y + ROWS][threadIdx.x] = in[(y + ROWS) * w + x];
      __syncthreads();
      out[y * w + x] = tile[threadIdx.y][threadIdx.x];
      out[(y + ROWS) * w + x] = tile[threadIdx.y + ROWS][threadIdx.x];
    }
    void run(float *o, const float *in, int w) {
      dim3 grid(w / 32, w / 32), threads(32, 16);
      copy_tile<<<grid, threads>>>(o, in, w);
    }
"""


def test_two_rows_per_thread_fill_a_tile_in_every_array(tmp_path):
    # 16 thread rows and a second copy 16 rows down: the rows of the matrix and of the tile are all read
    assert cl301(tmp_path, TILE_ROWS.replace("ROWS", "16"), w=1024) == []


def test_second_row_copy_at_the_wrong_distance_is_reported_per_array(tmp_path):
    found = cl301(tmp_path, TILE_ROWS.replace("ROWS", "8"), w=1024)
    assert {(d.line, d.array, d.access) for d in found} == {(4, "in", "load"), (7, "out", "store")}
    assert all("8 of every 32 elements are still skipped" in d.message for d in found)


def test_a_load_only_part_of_the_block_runs_does_not_fill_the_stride(tmp_path):
    src = """\
        __global__ void k(const float *g, float *o, unsigned int n) {
          unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
          float s = (i < n) ? g[i] : 0;
          if (threadIdx.x < 128 && i + blockDim.x < n) s += g[i + blockDim.x];
          o[blockIdx.x * blockDim.x + threadIdx.x] = s;
        }
        void host(const float *g, float *o, unsigned int n) { k<<<(n + 511) / 512, 256>>>(g, o, n); }
    """
    assert [d.line for d in cl301(tmp_path, src)] == [3, 4]


def test_halo_loops_and_the_main_loop_fill_the_block_stride_together(tmp_path):
    # convolutionSeparable's rows kernel: a left halo step, eight main steps, a right halo step,
    # each loop on its own; together they load 10 x 16 elements around a block stride of 128
    src = """\
        #define STEPS 8
        #define HALO 1
        #define BX 16
        __global__ void rows(float *dst, const float *src, int pitch) {
          __shared__ float s[4][(STEPS + 2 * HALO) * BX];
          const int baseX = (blockIdx.x * STEPS - HALO) * BX + threadIdx.x;
          src += (blockIdx.y * 4 + threadIdx.y) * pitch + baseX;
          dst += (blockIdx.y * 4 + threadIdx.y) * pitch + baseX;
          for (int i = HALO; i < HALO + STEPS; i++) s[threadIdx.y][threadIdx.x + i * BX] = src[i * BX];
          for (int i = 0; i < HALO; i++) s[threadIdx.y][threadIdx.x + i * BX] = baseX >= -i * BX ? src[i * BX] : 0;
          for (int i = HALO + STEPS; i < HALO + STEPS + HALO; i++) s[threadIdx.y][threadIdx.x + i * BX] = src[i * BX];
          __syncthreads();
          for (int i = HALO; i < HALO + STEPS; i++) dst[i * BX] = s[threadIdx.y][threadIdx.x + i * BX];
        }
        void run(float *d, const float *s) { rows<<<dim3(4096 / 128, 4096 / 4), dim3(BX, 4)>>>(d, s, 4096); }
    """
    assert cl301(tmp_path, src) == []
    # the right halo alone does not fill the stride: reported, naming nothing it fills it with
    lone = src.replace("for (int i = HALO; i < HALO + STEPS; i++) s[", "for (int i = HALO; i < HALO + 2; i++) s[")
    assert [d.line for d in cl301(tmp_path, lone)] == [9]


RECORD = """\
    __global__ void k(const int *src, int *idx, int n) {{
      for (int i = threadIdx.x; i < n; i += blockDim.x) {{
        {fill}
        int s = 0;
        for (int j = 0; j < 4; ++j) s += idx[i * 9 + j];
        idx[i * 9 + 4] = s;
      }}
    }}
    void run(const int *src, int *idx, int n) {{ k<<<1, 256>>>(src, idx, n); }}
"""


def test_a_partial_reread_of_a_record_the_thread_s_loops_fill_skips_nothing(tmp_path):
    src = RECORD.format(fill="for (int j = 0; j < 9; ++j) idx[i * 9 + j] = src[i + j * n];")
    assert cl301(tmp_path, src) == []


def test_a_record_no_loop_fills_keeps_its_hole_and_says_how_many(tmp_path):
    src = RECORD.format(fill="for (int j = 0; j < 8; ++j) idx[i * 9 + j] = src[i + j * n];")
    found = cl301(tmp_path, src)
    assert found, "slot 8 of every record is never written or read"
    for d in found:
        # the store fills slots 0..7, the reread 4 of them: slot 8 is the hole, whichever access says it
        assert "1 of every 9 elements are skipped" in d.message or \
            "with the other accesses of `idx`, 1 of every 9 elements are never read" in d.message
        assert "with ," not in d.message



def test_a_size_to_a_higher_power_is_another_level(tmp_path):
    # batched square matrices `r[z * n * n + y * n + x]` with one open n: z's unit n * n is no
    # multiple of y's n at the value 1 a comparison by coefficients took (a false overlap)
    src = """\
        __global__ void batched_copy(float* r, const float* d, int n) {
          int i = blockIdx.z, j = blockIdx.y * 32 + threadIdx.y, k = blockIdx.x * 32 + threadIdx.x;
          r[i * n * n + j * n + k] = d[i * n * n + j * n + k];
        }
        void run(float* r, const float* d, int batch, int n) {
          batched_copy<<<dim3(n / 32, n / 32, batch), dim3(32, 32)>>>(r, d, n);
        }
        """
    assert cl301(tmp_path, src) == []
