// cudalint confirm mode: the device half of the access log, prepended to the instrumented copy.
// Every memory access of the kernel is rewritten to go through __cl_addr(), which checks the
// address against the buffer it belongs to, appends (site, block slot, thread, instance,
// barrier epoch, flags, address, offset) to a bounded log, and redirects an out-of-range
// address to a scratch slot so the instrumented kernel itself never faults.
typedef unsigned int uint;

// The control block, written by the host before the launch (all 64-bit words, no padding).
#define CL_MAX_BUF 64
#define CL_MAX_BLOCKS 64
enum {
  CL_COUNT = 0,    // unsigned int[2]: records asked for, out-of-range events
  CL_SITE, CL_SLOT, CL_TID, CL_INST, CL_EPOCH, CL_FLAGS,   // unsigned int[capacity] each
  CL_ADDR, CL_OFF,                                          // 64-bit [capacity] each
  CL_COUNTERS,     // unsigned int[slots * threads * (sites + 1)]: per-thread instance counters
  CL_CAPACITY, CL_NSITES, CL_NBUF, CL_NTHREADS,
  CL_GRID,         // 3 words: the logical gridDim
  CL_BASE = CL_GRID + 3,                 // CL_MAX_BUF buffer base addresses
  CL_BYTES = CL_BASE + CL_MAX_BUF,       // CL_MAX_BUF buffer sizes
  CL_BLOCKS = CL_BYTES + CL_MAX_BUF,     // 3 * CL_MAX_BLOCKS logical block coordinates
  CL_REQUESTS = CL_BLOCKS + 3 * CL_MAX_BLOCKS,   // unsigned int[slots * warps * sites]: each warp's requests
  CL_WORDS = CL_REQUESTS + 1
};
__device__ unsigned long long __cl_ctl[CL_WORDS];
__device__ __align__(16) unsigned char __cl_scratch[1024];

// flags: space bits, out-of-range bit, access width, buffer id + 1
#define CL_F_GLOBAL 1u
#define CL_F_SHARED 2u
#define CL_F_LOCAL 4u
#define CL_F_OOR 8u

__device__ __forceinline__ unsigned __cl_u32(int k) { return (unsigned)__cl_ctl[k]; }

// Only the sampled blocks are launched: launch block b stands for logical block __cl_blocks[b].
__device__ __forceinline__ uint3 __cl_uint3(int k) {
  uint3 v;
  v.x = __cl_u32(k);
  v.y = __cl_u32(k + 1);
  v.z = __cl_u32(k + 2);
  return v;
}
__device__ __forceinline__ uint3 __cl_block_idx() { return __cl_uint3(CL_BLOCKS + 3 * blockIdx.x); }
__device__ __forceinline__ uint3 __cl_grid_dim() { return __cl_uint3(CL_GRID); }

__device__ __forceinline__ unsigned __cl_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ __forceinline__ unsigned* __cl_counters() {
  unsigned n = __cl_u32(CL_NSITES) + 1;
  return (unsigned*)__cl_ctl[CL_COUNTERS] + ((size_t)blockIdx.x * __cl_u32(CL_NTHREADS) + __cl_thread()) * n;
}

// The warp request a thread's access belongs to: counted per warp and site by the first active lane,
// so lanes that skip iterations (`if (tx <= m)` in a loop) are grouped by the request they made
// together, not by how many times each ran the site.
__device__ __forceinline__ unsigned __cl_request(unsigned site) {
  unsigned mask = __activemask();
  unsigned lane = __cl_thread() & 31u;
  int leader = __ffs(mask) - 1;
  unsigned req = 0;
  if ((int)lane == leader) {
    unsigned warps = (__cl_u32(CL_NTHREADS) + 31u) / 32u;
    unsigned* reqs = (unsigned*)__cl_ctl[CL_REQUESTS] + ((size_t)blockIdx.x * warps + __cl_thread() / 32u) *
                     __cl_u32(CL_NSITES);
    req = atomicAdd(reqs + site, 1u);
  }
  return __shfl_sync(mask, req, leader);
}

// A thread's barrier epoch: block barriers in the low 20 bits, __syncwarp()s above them, so
// two lanes of one warp are ordered by either and two warps only by a block barrier.
#define CL_WARP_EPOCH (1u << 20)

__device__ __forceinline__ void __cl_epoch() {
  __cl_counters()[__cl_u32(CL_NSITES)] += 1;
}

__device__ __forceinline__ void __cl_syncwarp(unsigned mask = 0xffffffffu) {
  __syncwarp(mask);
  __cl_counters()[__cl_u32(CL_NSITES)] += CL_WARP_EPOCH;
}

// a cooperative-groups tile's sync(): the warp-level epoch, as __syncwarp()
__device__ __forceinline__ void __cl_warp_epoch() {
  __cl_counters()[__cl_u32(CL_NSITES)] += CL_WARP_EPOCH;
}

// a warp collective that returns a value (__shfl_*_sync, cg::reduce): its lanes meet there
template <class T>
__device__ __forceinline__ T __cl_warp_after(T v) {
  __cl_warp_epoch();
  return v;
}

__device__ __forceinline__ void __cl_sync() {
  __syncthreads();
  __cl_epoch();
}

// __syncthreads_count/and/or and cooperative-groups block barriers: the barrier, then the epoch
__device__ __forceinline__ int __cl_epoch_after(int v) {
  __cl_epoch();
  return v;
}

// a block-wide call whose value the code uses (a CUB block reduction): the epoch after it, the value kept
template <class T>
__device__ __forceinline__ T __cl_epoch_kept(T v) {
  __cl_epoch();
  return v;
}

__device__ __forceinline__ unsigned __cl_total_smem() {
  unsigned v;
  asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(v));
  return v;
}

// kind: 0 global buffer `buf`, 1 shared or local array [base, base + bytes), 2 unknown (any buffer).
// Inlined: out of line (__noinline__), the compiler loaded some redirected shared accesses as
// shared at the scratch slot's address (Rodinia srad_v2 faulted on an H100).
__device__ __forceinline__ void* __cl_log(unsigned site, void* p, unsigned size, int kind, int buf, const void* base,
                                       unsigned long long bytes) {
  unsigned inst = __cl_request(site);     // before any lane leaves: every active lane takes part
  const void* vp = (const void*)p;
  unsigned long long a = (unsigned long long)vp;
  unsigned long long rec = a;
  unsigned width = size < 255 ? size : 255u;
  unsigned flags = width << 8;
  bool ok = true;
  long long off = 0;
  if (__isShared(vp)) {
    flags |= CL_F_SHARED;
    rec = (unsigned long long)__cvta_generic_to_shared(vp);
  } else if (__isLocal(vp)) {
    flags |= CL_F_LOCAL;
  } else {
    flags |= CL_F_GLOBAL;
  }
  if (kind == 0) {
    base = (const void*)__cl_ctl[CL_BASE + buf];
    bytes = __cl_ctl[CL_BYTES + buf];
  } else if (kind == 2) {
    buf = -1;
    if (flags & CL_F_GLOBAL) {
      unsigned n = __cl_u32(CL_NBUF);
      for (unsigned k = 0; k < n; ++k) {
        unsigned long long lo = __cl_ctl[CL_BASE + k];
        if (a >= lo && a + size <= lo + __cl_ctl[CL_BYTES + k]) { buf = (int)k; break; }
      }
      ok = buf >= 0;
      base = ok ? (const void*)__cl_ctl[CL_BASE + buf] : vp;
    } else if (flags & CL_F_SHARED) {
      ok = rec + size <= (unsigned long long)__cl_total_smem() + 1024;   // the block's window
      base = vp;
    } else {
      base = vp;
    }
  }
  if (kind != 2) {
    off = (long long)(a - (unsigned long long)base);
    ok = off >= 0 && (unsigned long long)off + size <= bytes;
  } else if (buf >= 0) {
    off = (long long)(a - (unsigned long long)base);
  }
  if (ok && (flags & CL_F_LOCAL)) return p;   // registers never reach memory: only bad indexes are logged
  if (buf >= 0) flags |= (unsigned)(buf + 1) << 16;
  if (!ok) flags |= CL_F_OOR;
  unsigned* cnt = __cl_counters();
  cnt[site]++;                                          // the thread's own instances: the requests' weights
  bool sampled = inst < 4 || (inst & (inst - 1)) == 0;   // requests 0-3 and every power of two, whole warps
  if (!ok || sampled) {
    unsigned* count = (unsigned*)__cl_ctl[CL_COUNT];
    unsigned i = atomicAdd(count, 1u);
    if (i < __cl_u32(CL_CAPACITY)) {
      ((unsigned*)__cl_ctl[CL_SITE])[i] = site;
      ((unsigned*)__cl_ctl[CL_SLOT])[i] = blockIdx.x;
      ((unsigned*)__cl_ctl[CL_TID])[i] = __cl_thread();
      ((unsigned*)__cl_ctl[CL_INST])[i] = inst;
      ((unsigned*)__cl_ctl[CL_EPOCH])[i] = cnt[__cl_u32(CL_NSITES)];
      ((unsigned*)__cl_ctl[CL_FLAGS])[i] = flags;
      ((unsigned long long*)__cl_ctl[CL_ADDR])[i] = rec;
      ((long long*)__cl_ctl[CL_OFF])[i] = off;
    }
  }
  if (!ok) {
    atomicAdd((unsigned*)__cl_ctl[CL_COUNT] + 1, 1u);
    return (void*)__cl_scratch;
  }
  return p;
}

// `width`: the bytes the statement really moves where the model reads a wider view of the element
// (`FETCH_FLOAT4(b[i])`); 0: the element's own size
template <typename T>
__device__ __forceinline__ T* __cl_addr(unsigned site, T* p, int kind, int buf, const void* base,
                                        unsigned long long bytes, unsigned width = 0) {
  return (T*)__cl_log(site, (void*)p, width ? width : (unsigned)sizeof(T), kind, buf, base, bytes);
}

#define blockIdx (__cl_block_idx())
#define gridDim (__cl_grid_dim())
