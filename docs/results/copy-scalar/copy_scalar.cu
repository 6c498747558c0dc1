// STREAM's scalar copy in CUDA, beside wgsweep's copy/scalar on the same GPU (copy-scalar-h100.md): one f32
// an invocation over 64 Mi elements (256 MiB an array, as wgsweep's default on the H100), in the shapes that
// separate what wgsweep's kernel does from BabelStream's CUDA copy:
//   flat        BabelStream's: a 1-D grid, the bound a kernel argument
//   grid2d      wgsweep's 2-D grid (x, y spread as kernel::dispatch_grid spreads them), index (x + y·gx)·WG + lid
//   grid2d_len  as grid2d, the bound read from memory as wgpu reads arrayLength (a buffer of sizes)
//   clamped     as grid2d_len, each index also clamped to the array as wgpu's checks clamp it
//   two         two elements an invocation, half the array apart, on half the workgroups
// Each is timed by CUDA events around 200 launches, the median of 15 such samples, at 128–1024 threads.
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

__global__ void flat(const float* __restrict__ a, float* __restrict__ c, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i];
}
__global__ void grid2d(const float* a, float* c, unsigned n) {
    unsigned i = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i];
}
__global__ void grid2d_len(const float* a, float* c, const unsigned* sizes) {
    unsigned i = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;
    if (i < sizes[1]) c[i] = a[i];
}
__global__ void clamped(const float* a, float* c, const unsigned* sizes) {
    unsigned i = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;
    if (i < sizes[1]) c[min(i, sizes[1] - 1)] = a[min(i, sizes[0] - 1)];
}
__global__ void two(const float* a, float* c, unsigned n) {
    unsigned i = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;
    unsigned half = n / 2;
    if (i < half) { float x = a[i], y = a[i + half]; c[i] = x; c[i + half] = y; }
}

// kernel::dispatch_grid: groups over x and, past 65535, y, as evenly as possible.
static dim3 spread(unsigned groups) {
    unsigned y = (groups + 65534) / 65535, x = (groups + y - 1) / y;
    return dim3(x, y, 1);
}

template <typename Launch> static double gbps(Launch launch, double bytes) {
    cudaEvent_t start, stop;
    cudaEventCreate(&start); cudaEventCreate(&stop);
    for (int i = 0; i < 50; i++) launch();
    std::vector<float> ms;
    for (int s = 0; s < 15; s++) {
        cudaEventRecord(start);
        for (int i = 0; i < 200; i++) launch();
        cudaEventRecord(stop); cudaEventSynchronize(stop);
        float t; cudaEventElapsedTime(&t, start, stop); ms.push_back(t / 200);
    }
    std::sort(ms.begin(), ms.end());
    return bytes / (ms[ms.size() / 2] * 1e-3) / 1e9;
}

int main() {
    const unsigned n = 1u << 26;
    float *a, *c; unsigned* sizes;
    cudaMalloc(&a, n * 4ull); cudaMalloc(&c, n * 4ull); cudaMalloc(&sizes, 8);
    unsigned host_sizes[2] = {n, n};
    cudaMemcpy(sizes, host_sizes, 8, cudaMemcpyHostToDevice);
    cudaMemset(a, 0, n * 4ull);
    const double bytes = 8.0 * n;
    printf("threads flat grid2d grid2d_len clamped two (GB/s)\n");
    for (unsigned wg = 128; wg <= 1024; wg *= 2) {
        unsigned groups = n / wg;
        double f = gbps([&] { flat<<<groups, wg>>>(a, c, n); }, bytes);
        double g = gbps([&] { grid2d<<<spread(groups), wg>>>(a, c, n); }, bytes);
        double l = gbps([&] { grid2d_len<<<spread(groups), wg>>>(a, c, sizes); }, bytes);
        double k = gbps([&] { clamped<<<spread(groups), wg>>>(a, c, sizes); }, bytes);
        double t = gbps([&] { two<<<spread(groups / 2), wg>>>(a, c, n); }, bytes);
        printf("%u %.0f %.0f %.0f %.0f %.0f\n", wg, f, g, l, k, t);
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) { printf("CUDA error: %s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
