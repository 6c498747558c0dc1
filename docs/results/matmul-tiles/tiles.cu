// Tile shapes for an f32 matrix product on the H100, in CUDA, beside cuBLAS's SGEMM in the same process: which
// shape could take shaders/matmul_pipelined.wgsl (a 128 × 128 tile, 8 × 8 outputs a thread) from 0.85-0.91× of
// cuBLAS to 0.95×. Each kernel is that WGSL's algorithm with its sizes as parameters: a block of THREADS
// computes a BM × BN tile of C, each thread TM × TN outputs in 4 × 4 groups (row groups BM / (TM / 4) apart,
// column groups BN / (TN / 4) apart, so that a warp's reads of a tile row are distinct float4s), k advancing BK
// a step through two buffers of shared memory (A's tile stored transposed), the next step's tiles loaded into
// registers while this step's FMAs run, one barrier a step.
//
//   nvcc -O3 -arch=sm_90 -Xptxas -v -o /tmp/tiles docs/results/matmul-tiles/tiles.cu -lcublas && /tmp/tiles
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

// RT: A's tile transposed in registers (each thread loads 4 rows × KW elements of k and stores KW float4s
// down the rows, a warp's stores side by side) instead of four scalar stores a float4, which conflict.
template <int BM, int BN, int BK, int TM, int TN, bool RT = false>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    tiled(const float4* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ c, int n) {
    constexpr int TX = BN / TN, TY = BM / TM, THREADS = TX * TY;
    constexpr int RG = TM / 4, CG = TN / 4;  // row and column groups of a thread
    constexpr int RS = BM / RG, CS = BN / CG;  // the groups' spacing
    constexpr int A_PER = BM * BK / 4 / THREADS, B_PER = BK * BN / 4 / THREADS;  // float4 a thread a step
    static_assert(A_PER * THREADS * 4 == BM * BK && B_PER * THREADS * 4 == BK * BN, "loads divide evenly");
    constexpr int KW = A_PER;  // with RT: the elements of k a thread loads from each of its 4 rows
    static_assert(!RT || (BM / 4) * (BK / KW) == THREADS, "with RT, the threads cover A's tile in 4 × KW blocks");
    __shared__ float4 sa[2][BK][BM / 4];
    __shared__ float4 sb[2][BK][BN / 4];
    const int tid = threadIdx.x, tx = tid % TX, ty = tid / TX;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN, n4 = n / 4;
    float4 ra[A_PER], rb[B_PER];
    auto fetch = [&](int k0) {
#pragma unroll
        if (RT) {
            const float* af = reinterpret_cast<const float*>(a);
            const int rb = tid % (BM / 4), kb = tid / (BM / 4);
            float* r = reinterpret_cast<float*>(ra);
#pragma unroll
            for (int row = 0; row < 4; row++) {
                const float* at = af + size_t(row0 + 4 * rb + row) * n + k0 + kb * KW;
                if constexpr (KW == 4) {
                    float4 v = *reinterpret_cast<const float4*>(at);
                    r[row * 4] = v.x, r[row * 4 + 1] = v.y, r[row * 4 + 2] = v.z, r[row * 4 + 3] = v.w;
                } else if constexpr (KW == 2) {
                    float2 v = *reinterpret_cast<const float2*>(at);
                    r[row * 2] = v.x, r[row * 2 + 1] = v.y;
                } else {
#pragma unroll
                    for (int kk = 0; kk < KW; kk++) r[row * KW + kk] = at[kk];
                }
            }
        } else {
#pragma unroll
            for (int i = 0; i < A_PER; i++) {
                int v = tid + i * THREADS, m = v / (BK / 4), kk = (v % (BK / 4)) * 4;
                ra[i] = a[(row0 + m) * n4 + (k0 + kk) / 4];
            }
        }
#pragma unroll
        for (int i = 0; i < B_PER; i++) {
            int v = tid + i * THREADS, kk = v / (BN / 4), nn = v % (BN / 4);
            rb[i] = b[(k0 + kk) * n4 + col0 / 4 + nn];
        }
    };
    auto stage = [&](int buf) {
        if (RT) {
            const int rb = tid % (BM / 4), kb = tid / (BM / 4);
            const float* r = reinterpret_cast<const float*>(ra);
#pragma unroll
            for (int kk = 0; kk < KW; kk++)
                sa[buf][kb * KW + kk][rb] = make_float4(r[kk], r[KW + kk], r[2 * KW + kk], r[3 * KW + kk]);
        } else {
            float* fa = reinterpret_cast<float*>(&sa[buf][0][0]);
#pragma unroll
            for (int i = 0; i < A_PER; i++) {
                int v = tid + i * THREADS, m = v / (BK / 4), kk = (v % (BK / 4)) * 4;
                fa[(kk + 0) * BM + m] = ra[i].x;
                fa[(kk + 1) * BM + m] = ra[i].y;
                fa[(kk + 2) * BM + m] = ra[i].z;
                fa[(kk + 3) * BM + m] = ra[i].w;
            }
        }
#pragma unroll
        for (int i = 0; i < B_PER; i++) {
            int v = tid + i * THREADS, kk = v / (BN / 4), nn = v % (BN / 4);
            sb[buf][kk][nn] = rb[i];
        }
    };
    float4 acc[TM][CG];
#pragma unroll
    for (int r = 0; r < TM; r++)
#pragma unroll
        for (int g = 0; g < CG; g++) acc[r][g] = make_float4(0, 0, 0, 0);
    fetch(0);
    stage(0);
    __syncthreads();
    int buf = 0;
    for (int k0 = 0; k0 < n; k0 += BK) {
        const bool more = k0 + BK < n;
        if (more) fetch(k0 + BK);
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float4 av[RG], bv[CG];
#pragma unroll
            for (int g = 0; g < RG; g++) av[g] = sa[buf][k][g * RS / 4 + ty];
#pragma unroll
            for (int g = 0; g < CG; g++) bv[g] = sb[buf][k][g * CS / 4 + tx];
#pragma unroll
            for (int rg = 0; rg < RG; rg++) {
                const float x[4] = {av[rg].x, av[rg].y, av[rg].z, av[rg].w};
#pragma unroll
                for (int r = 0; r < 4; r++)
#pragma unroll
                    for (int g = 0; g < CG; g++) {
                        float4& s = acc[rg * 4 + r][g];
                        s.x = fmaf(x[r], bv[g].x, s.x);
                        s.y = fmaf(x[r], bv[g].y, s.y);
                        s.z = fmaf(x[r], bv[g].z, s.z);
                        s.w = fmaf(x[r], bv[g].w, s.w);
                    }
            }
        }
        if (more) {
            stage(1 - buf);
            __syncthreads();
            buf = 1 - buf;
        }
    }
#pragma unroll
    for (int rg = 0; rg < RG; rg++)
#pragma unroll
        for (int r = 0; r < 4; r++)
#pragma unroll
            for (int g = 0; g < CG; g++)
                c[(row0 + rg * RS + 4 * ty + r) * n4 + (col0 + g * CS) / 4 + tx] = acc[rg * 4 + r][g];
}

static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Milliseconds a call of `launch` takes: the median of 7 batches of 10 after 3 warm-ups, by CUDA events.
template <typename F>
static float time_ms(F launch) {
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (int i = 0; i < 3; i++) launch();
    std::vector<float> batches;
    for (int b = 0; b < 7; b++) {
        cudaEventRecord(start);
        for (int i = 0; i < 10; i++) launch();
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        batches.push_back(ms / 10);
    }
    return median(batches);
}

struct Problem {
    int n;
    float *a, *b, *c, *reference;
};

template <int BM, int BN, int BK, int TM, int TN, bool RT = false>
static void measure(const Problem& p, float cublas_ms) {
    constexpr int THREADS = (BM / TM) * (BN / TN);
    dim3 grid(p.n / BN, p.n / BM);
    auto launch = [&] {
        tiled<BM, BN, BK, TM, TN, RT><<<grid, THREADS>>>(reinterpret_cast<const float4*>(p.a),
                                                      reinterpret_cast<const float4*>(p.b),
                                                      reinterpret_cast<float4*>(p.c), p.n);
    };
    cudaMemset(p.c, 0, sizeof(float) * p.n * p.n);
    launch();
    cudaError_t error = cudaDeviceSynchronize();
    if (error != cudaSuccess) {
        printf("%4d x %-4d BK %-2d %2d x %-2d: %s\n", BM, BN, BK, TM, TN, cudaGetErrorString(error));
        return;
    }
    // Against cuBLAS's product of the same matrices: the largest difference relative to the largest element.
    size_t count = size_t(p.n) * p.n;
    std::vector<float> mine(count), theirs(count);
    cudaMemcpy(mine.data(), p.c, sizeof(float) * count, cudaMemcpyDeviceToHost);
    cudaMemcpy(theirs.data(), p.reference, sizeof(float) * count, cudaMemcpyDeviceToHost);
    double worst = 0, largest = 0;
    for (size_t i = 0; i < count; i++) {
        worst = std::max(worst, double(std::fabs(mine[i] - theirs[i])));
        largest = std::max(largest, double(std::fabs(theirs[i])));
    }
    float ms = time_ms(launch);
    double tflops = 2.0 * p.n * double(p.n) * p.n / (ms * 1e-3) / 1e12;
    printf("%4d x %-4d BK %-2d %2d x %-2d %3d threads%s  n %5d  %7.3f ms  %6.2f TFLOP/s  %.3fx cuBLAS  diff %.1e\n",
           BM, BN, BK, TM, TN, THREADS, RT ? " RT" : "   ", p.n, ms, tflops, cublas_ms / ms, worst / largest);
}

// With an argument, only the best of the two calls at n = 4096, once timed: for Nsight Compute.
int main(int argc, char**) {
    const bool profile = argc > 1;
    cublasHandle_t handle;
    cublasCreate(&handle);
    cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);  // FP32 on the FP32 units: no TF32
    for (int n : {2048, 4096}) {
        if (profile && n != 4096) continue;
        size_t count = size_t(n) * n;
        std::vector<float> host(count);
        std::mt19937 random(n);
        std::uniform_real_distribution<float> uniform(-1, 1);
        Problem p{n};
        cudaMalloc(&p.a, sizeof(float) * count);
        cudaMalloc(&p.b, sizeof(float) * count);
        cudaMalloc(&p.c, sizeof(float) * count);
        cudaMalloc(&p.reference, sizeof(float) * count);
        for (auto& x : host) x = uniform(random);
        cudaMemcpy(p.a, host.data(), sizeof(float) * count, cudaMemcpyHostToDevice);
        for (auto& x : host) x = uniform(random);
        cudaMemcpy(p.b, host.data(), sizeof(float) * count, cudaMemcpyHostToDevice);
        const float one = 1, zero = 0;
        // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ.
        auto sgemm = [&] { cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, p.b, n, p.a, n, &zero, p.reference, n); };
        float cublas_ms = time_ms(sgemm);
        printf("cuBLAS SGEMM  n %5d  %7.3f ms  %6.2f TFLOP/s\n", n, cublas_ms, 2.0 * n * double(n) * n / (cublas_ms * 1e-3) / 1e12);
        sgemm();
        cudaDeviceSynchronize();
        if (profile) {
            measure<128, 128, 8, 16, 8>(p, cublas_ms);
            measure<128, 128, 8, 16, 8, true>(p, cublas_ms);
            break;
        }
        measure<128, 128, 8, 8, 8>(p, cublas_ms);    // matmul_pipelined/k8
        measure<128, 128, 16, 8, 8>(p, cublas_ms);   // matmul_pipelined/k16
        measure<64, 128, 16, 4, 8>(p, cublas_ms);
        measure<128, 64, 16, 8, 4>(p, cublas_ms);
        measure<128, 256, 8, 8, 16>(p, cublas_ms);
        measure<256, 128, 8, 16, 8>(p, cublas_ms);
        measure<128, 256, 16, 8, 16>(p, cublas_ms);
        measure<256, 128, 16, 16, 8>(p, cublas_ms);
        measure<128, 128, 8, 8, 16>(p, cublas_ms);   // 128 threads
        measure<128, 128, 16, 8, 16>(p, cublas_ms);
        measure<128, 128, 8, 16, 8>(p, cublas_ms);
        measure<128, 128, 16, 16, 8>(p, cublas_ms);
        measure<256, 256, 8, 16, 16>(p, cublas_ms);  // 256 threads, 256 outputs each
        // Second call: around the best of the first (16 × 8 a thread, 128 threads), fewer threads a block.
        measure<128, 128, 4, 16, 8>(p, cublas_ms);
        measure<64, 128, 8, 16, 8>(p, cublas_ms);    // 64 threads
        measure<128, 64, 8, 16, 8>(p, cublas_ms);    // 64 threads
        measure<64, 64, 8, 16, 8>(p, cublas_ms);     // 32 threads
        measure<64, 128, 8, 8, 16>(p, cublas_ms);    // 64 threads
        measure<128, 128, 8, 16, 4>(p, cublas_ms);   // 256 threads, 64 outputs each
        // Third call: A transposed in registers.
        measure<128, 128, 8, 16, 8, true>(p, cublas_ms);
        measure<128, 128, 16, 16, 8, true>(p, cublas_ms);
        measure<256, 128, 8, 16, 8, true>(p, cublas_ms);
        measure<256, 128, 16, 16, 8, true>(p, cublas_ms);
        measure<128, 256, 8, 8, 16, true>(p, cublas_ms);
        measure<128, 128, 8, 8, 8, true>(p, cublas_ms);
        measure<128, 128, 16, 8, 8, true>(p, cublas_ms);
        // cuBLAS once more, after: the same clocks.
        float again = time_ms(sgemm);
        printf("cuBLAS SGEMM  n %5d  %7.3f ms  %6.2f TFLOP/s (again)\n", n, again, 2.0 * n * double(n) * n / (again * 1e-3) / 1e12);
        cudaFree(p.a);
        cudaFree(p.b);
        cudaFree(p.c);
        cudaFree(p.reference);
    }
    cublasDestroy(handle);
}
