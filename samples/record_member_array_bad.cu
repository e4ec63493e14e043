// Each block fills the record of its own, but its loop stops at half the codes: the upper 128
// codes of every record are never written.
#define N_CODE 256

struct Record {
    unsigned size;
    unsigned code[N_CODE];
};

__global__ void fill_records(Record* records, const unsigned* in)
{
    if (threadIdx.x == 0)
        records[blockIdx.x].size = N_CODE;
    for (unsigned i = threadIdx.x; i < N_CODE / 2; i += blockDim.x)
        records[blockIdx.x].code[i] = in[blockIdx.x * N_CODE + i];  // expect: CL301
}

void fill_records_launch(Record* records, const unsigned* in, int nrec)
{
    fill_records<<<nrec, 128>>>(records, in);
}
