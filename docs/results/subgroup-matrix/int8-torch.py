# torch._int_mm (cuBLAS int8 GEMM, int32 results) at the probe's sizes: medians of 30 calls by CUDA events.
import json, torch
out = {"torch": torch.__version__, "cuda": torch.version.cuda, "runs": []}
for n in [2048, 4096, 8192]:
    a = torch.randint(0, 4, (n, n), dtype=torch.int8, device="cuda")
    b = torch.randint(0, 4, (n, n), dtype=torch.int8, device="cuda")
    c = torch._int_mm(a, b)
    assert torch.equal(c[:64, :64].cpu().long(), a[:64].cpu().long() @ b[:, :64].cpu().long()), "int_mm disagrees"
    times = []
    for _ in range(30):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); torch._int_mm(a, b); e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    ms = sorted(times)[15]
    out["runs"].append({"n": n, "ms": ms, "tops": 2 * n ** 3 / (ms * 1e-3) / 1e12})
print(json.dumps(out))
