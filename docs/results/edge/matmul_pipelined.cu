// shaders/matmul_pipelined.wgsl (BK = 8) written in CUDA, step for step: the same 128 × 128 tile per 16 × 16
// block, 8 × 8 outputs per thread in the same quadrants, the same double-buffered, A-transposed tiles in
// shared memory, one barrier a step. Nsight Compute cannot see Vulkan dispatches; this lets it profile the
// algorithm itself, and says how much of the gap to cuBLAS is the algorithm and how much the path from
// WGSL to the GPU (naga's SPIR-V, then the driver's compiler).
//
//   nvcc -O3 -arch=sm_90 -Xptxas -v -o /tmp/mm docs/results/edge/matmul_pipelined.cu && /tmp/mm
#include <cstdio>
#include <cuda_runtime.h>

constexpr int BK = 8;

__global__ void __launch_bounds__(256) matmul_pipelined(const float4* a, const float4* b, float4* c, int n) {
    __shared__ float4 tile_a[2 * BK * 32];
    __shared__ float4 tile_b[2 * BK * 32];
    const int tx = threadIdx.x, ty = threadIdx.y, index = ty * 16 + tx;
    const int row0 = blockIdx.y * 128, col0 = blockIdx.x * 128;
    const int a_m = index / 2, a_k = (index % 2) * 4, b_k = index / 32, b_n = index % 32;
    const int n4 = n / 4;
    float4 acc[16] = {};
    auto stage = [&](int buffer, float4 from_a, float4 from_b) {
        float* ta = reinterpret_cast<float*>(tile_a);
        int row = buffer * BK + a_k;
        ta[(row + 0) * 128 + a_m] = from_a.x;
        ta[(row + 1) * 128 + a_m] = from_a.y;
        ta[(row + 2) * 128 + a_m] = from_a.z;
        ta[(row + 3) * 128 + a_m] = from_a.w;
        tile_b[(buffer * BK + b_k) * 32 + b_n] = from_b;
    };
    stage(0, a[(row0 + a_m) * n4 + a_k / 4], b[b_k * n4 + col0 / 4 + b_n]);
    __syncthreads();
    int buffer = 0;
    for (int k0 = 0; k0 < n; k0 += BK) {
        int next = k0 + BK;
        float4 from_a = {}, from_b = {};
        if (next < n) {
            from_a = a[(row0 + a_m) * n4 + (next + a_k) / 4];
            from_b = b[(next + b_k) * n4 + col0 / 4 + b_n];
        }
#pragma unroll
        for (int k = buffer * BK; k < buffer * BK + BK; k++) {
            float4 a0 = tile_a[k * 32 + ty], a1 = tile_a[k * 32 + ty + 16];
            float4 b0 = tile_b[k * 32 + tx], b1 = tile_b[k * 32 + tx + 16];
            float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
#pragma unroll
            for (int i = 0; i < 8; i++) {
                acc[2 * i].x += av[i] * b0.x; acc[2 * i].y += av[i] * b0.y;
                acc[2 * i].z += av[i] * b0.z; acc[2 * i].w += av[i] * b0.w;
                acc[2 * i + 1].x += av[i] * b1.x; acc[2 * i + 1].y += av[i] * b1.y;
                acc[2 * i + 1].z += av[i] * b1.z; acc[2 * i + 1].w += av[i] * b1.w;
            }
        }
        buffer = 1 - buffer;
        if (next < n) stage(buffer, from_a, from_b);
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 8; i++) {
        int row = row0 + (i < 4 ? 4 * ty + i : 64 + 4 * ty + i - 4);
        c[row * n4 + (col0 + 4 * tx) / 4] = acc[2 * i];
        c[row * n4 + (col0 + 64 + 4 * tx) / 4] = acc[2 * i + 1];
    }
}

int main() {
    for (int n : {2048, 4096}) {
        size_t bytes = size_t(n) * n * 4;
        float *a, *b, *c;
        cudaMalloc(&a, bytes), cudaMalloc(&b, bytes), cudaMalloc(&c, bytes);
        cudaMemset(a, 0, bytes), cudaMemset(b, 0, bytes);
        dim3 grid(n / 128, n / 128), block(16, 16);
        auto launch = [&] { matmul_pipelined<<<grid, block>>>((float4*)a, (float4*)b, (float4*)c, n); };
        for (int i = 0; i < 10; i++) launch();
        cudaEvent_t start, end;
        cudaEventCreate(&start), cudaEventCreate(&end);
        cudaEventRecord(start);
        for (int i = 0; i < 30; i++) launch();
        cudaEventRecord(end);
        cudaEventSynchronize(end);
        float ms;
        cudaEventElapsedTime(&ms, start, end);
        ms /= 30;
        printf("n %d: %.3f ms, %.1f TFLOP/s\n", n, ms, 2.0 * n * n * n / (ms * 1e-3) / 1e12);
        cudaFree(a), cudaFree(b), cudaFree(c);
    }
    return cudaGetLastError() != cudaSuccess;
}
