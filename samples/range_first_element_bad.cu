// A graph kernel in compressed sparse rows: each vertex looks at its first neighbour. The end of
// the vertex's row is read and never compared with its start: a vertex with no neighbours reads
// the next vertex's first neighbour, and the last vertex, if it has none, reads past the list.
__global__ void first_neighbour_min(const int *row_start, const int *neighbours, const int *label,
                                    int *out, int num_vertices)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < num_vertices) {
        int beg = row_start[v];
        int end = row_start[v + 1];
        int u = neighbours[beg];        // expect: CL201
        out[v] = min(label[v], label[u]);
    }
}

void run_first_neighbour_min(const int *row_start, const int *neighbours, const int *label, int *out,
                             int num_vertices)
{
    first_neighbour_min<<<(num_vertices + 255) / 256, 256>>>(row_start, neighbours, label, out, num_vertices);
}
