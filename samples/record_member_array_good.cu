// expect-clean
// Each block fills the record of its own: thread 0 its count, the block's threads its 256 codes.
// Between them every word of every record is written; the count is no hole in the codes.
#define N_CODE 256

struct Record {
    unsigned size;
    unsigned code[N_CODE];
};

__global__ void fill_records(Record* records, const unsigned* in)
{
    if (threadIdx.x == 0)
        records[blockIdx.x].size = N_CODE;
    for (unsigned i = threadIdx.x; i < N_CODE; i += blockDim.x)
        records[blockIdx.x].code[i] = in[blockIdx.x * N_CODE + i];
}

void fill_records_launch(Record* records, const unsigned* in, int nrec)
{
    fill_records<<<nrec, 128>>>(records, in);
}
