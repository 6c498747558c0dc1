# The vendor's library on the same GPU, in the same call as the page: cuBLAS through PyTorch at n = 2048
# and 4096. f16: torch.mm on f16 (HGEMM, f16 results), B column by column as wgsweep's subgroup-matrix
# kernels read it and row by row; f32: torch.mm with TF32 off (SGEMM); int8: torch._int_mm (int32 results),
# B column by column. Inputs random in [-1, 1) (f16, f32) or of the full signed range (int8). Each: the
# median of 30 calls timed by CUDA events after 3 warm-up calls; a corner checked against the CPU.
import json, torch

torch.backends.cuda.matmul.allow_tf32 = False
out = {"torch": torch.__version__, "cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name(),
       "f16_reduced_precision_reduction": torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
       "runs": []}

def median_ms(f):
    for _ in range(3):
        f()
    times = []
    for _ in range(30):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); f(); e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return sorted(times)[15]

def record(op, n, ms, unit):
    out["runs"].append({"op": op, "n": n, "ms": ms, unit: 2 * n**3 / (ms * 1e-3) / 1e12})

for n in [2048, 4096]:
    x = torch.rand(n, n, device="cuda") * 2 - 1
    y = torch.rand(n, n, device="cuda") * 2 - 1
    for layout, yy in [("B column by column", y.t().contiguous().t()), ("B row by row", y)]:
        h, hy = x.half(), yy.half()
        z = torch.mm(h, hy)
        want = h[:32].cpu().double() @ hy[:, :32].cpu().double()
        assert torch.allclose(z[:32, :32].cpu().double(), want, atol=0.05, rtol=1e-2), "HGEMM disagrees"
        record(f"torch.mm f16 (HGEMM), {layout}", n, median_ms(lambda: torch.mm(h, hy)), "tflops")
    z = torch.mm(x, y)
    assert torch.allclose(z[:32, :32].cpu().double(), x[:32].cpu().double() @ y[:, :32].cpu().double(), atol=1e-3)
    record("torch.mm f32 (SGEMM, TF32 off)", n, median_ms(lambda: torch.mm(x, y)), "tflops")
    a = torch.randint(-128, 128, (n, n), dtype=torch.int8, device="cuda")
    b = torch.randint(-128, 128, (n, n), dtype=torch.int8, device="cuda").t().contiguous().t()
    c = torch._int_mm(a, b)
    assert torch.equal(c[:32, :32].cpu().long(), a[:32].cpu().long() @ b[:, :32].cpu().long()), "int_mm disagrees"
    record("torch._int_mm, B column by column", n, median_ms(lambda: torch._int_mm(a, b)), "tops")
print(json.dumps(out, indent=1))
