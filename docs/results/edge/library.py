"""The vendor's library on the same GPU, for wgsweep's kernels at the hardware's edge: cuBLAS SGEMM through
torch.mm (TF32 off: every product in f32, as wgsweep's) and torch.sum over f32 and int32 vectors. Each
figure is the median of 30 timed calls (CUDA events) after 10 untimed ones. Prints JSON.

    python3 docs/results/edge/library.py > library.json
"""

import json
import statistics

import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False


def median_ms(call, warm_up=10, timed=30):
    for _ in range(warm_up):
        call()
    torch.cuda.synchronize()
    times = []
    for _ in range(timed):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        call()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times), min(times)


rows = []
for n in (1024, 2048, 4096):
    a = torch.rand(n, n, device="cuda", dtype=torch.float32)
    b = torch.rand(n, n, device="cuda", dtype=torch.float32)
    median, fastest = median_ms(lambda: torch.mm(a, b))
    rows.append({"op": "torch.mm f32 (cuBLAS SGEMM, TF32 off)", "n": n, "median_ms": median,
                 "tflops": 2 * n**3 / (median * 1e-3) / 1e12, "tflops_at_fastest": 2 * n**3 / (fastest * 1e-3) / 1e12})
for dtype, name in ((torch.float32, "f32"), (torch.int32, "int32")):
    for log2 in (24, 26, 28):
        elements = 1 << log2
        x = (torch.rand(elements, device="cuda") * 100).to(dtype)
        median, fastest = median_ms(lambda: torch.sum(x))
        rows.append({"op": f"torch.sum {name}", "elements": elements, "median_ms": median,
                     "gbps": elements * 4 / (median * 1e-3) / 1e9, "gbps_at_fastest": elements * 4 / (fastest * 1e-3) / 1e9})
print(json.dumps({"torch": torch.__version__, "cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name(),
                  "rows": rows}, indent=1))
