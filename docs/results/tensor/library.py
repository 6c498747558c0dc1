# The vendor's library on the same GPU, at the sizes wgsweep's matmul runs: cuBLAS through PyTorch.
# int8: torch._int_mm (int32 results), B row-major as wgsweep stores it and B column-major (the layout
# cuBLAS's int8 kernels prefer), random bytes of the full signed range; f32: torch.mm with TF32 off (SGEMM).
# Each: medians of 30 calls timed by CUDA events after 3 warm-up calls; a corner checked against the CPU.
import json, torch

torch.backends.cuda.matmul.allow_tf32 = False
out = {"torch": torch.__version__, "cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name(), "runs": []}

def median_ms(f):
    for _ in range(3):
        f()
    times = []
    for _ in range(30):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); f(); e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return sorted(times)[15]

for n in [2048, 4096]:
    a = torch.randint(-128, 128, (n, n), dtype=torch.int8, device="cuda")
    b = torch.randint(-128, 128, (n, n), dtype=torch.int8, device="cuda")
    for layout, bb in [("B row-major", b), ("B column-major", b.t().contiguous().t())]:
        c = torch._int_mm(a, bb)
        assert torch.equal(c[:32, :32].cpu().long(), a[:32].cpu().long() @ b[:, :32].cpu().long()), "int_mm disagrees"
        ms = median_ms(lambda: torch._int_mm(a, bb))
        out["runs"].append({"op": f"torch._int_mm, {layout}", "n": n, "ms": ms, "tops": 2 * n**3 / (ms * 1e-3) / 1e12})
    x = torch.rand(n, n, device="cuda") * 2 - 1
    y = torch.rand(n, n, device="cuda") * 2 - 1
    z = torch.mm(x, y)
    assert torch.allclose(z[:32, :32].cpu().double(), x[:32].cpu().double() @ y[:, :32].cpu().double(), atol=1e-3)
    ms = median_ms(lambda: torch.mm(x, y))
    out["runs"].append({"op": "torch.mm f32 (SGEMM, TF32 off)", "n": n, "ms": ms, "tflops": 2 * n**3 / (ms * 1e-3) / 1e12})
print(json.dumps(out, indent=1))
