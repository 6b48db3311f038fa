// kernels/grid.cuh — the grid-stride loop every elementwise-style kernel uses: i runs over [0, n) in steps of the
// whole grid (64-bit, so tensors past 2^31 elements work).
#pragma once
#define GRID_LOOP(i, n) \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)
