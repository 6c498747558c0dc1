# The best valid workgroup of each kernel, variant, checks and n in the results named, in TFLOP/s (TOP/s for
# the 8-bit kernels), with the ratio to the library's figure in library.json beside them where it has one.
import gzip, json, sys
from pathlib import Path

def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)

folder = Path(sys.argv[1])
library = load(str(folder / "library.json"))["runs"] if (folder / "library.json").exists() else []
def library_rate(kernel, n):
    if kernel.startswith("matmul_pipelined"):
        if kernel.endswith("_f16"):
            return None
        op = "torch.mm f32 (SGEMM"
    elif "subgroup_matrix/" in kernel or kernel == "matmul_subgroup_matrix":
        op = "torch._int_mm"
    else:
        op = "torch.mm f16 (HGEMM), B column by column"
    return next((r.get("tflops") or r.get("tops") for r in library if r["op"].startswith(op) and r["n"] == n), None)

for path in sys.argv[2:]:
    best = {}
    for r in load(path)["results"]:
        if not r.get("valid") or not r.get("median_ns"):
            continue
        key = (r["kernel"], r["variant"], r["shader_checks"], r["parameter"]["value"])
        rate = r["flops_per_dispatch"] / r["median_ns"] / 1e3
        if rate > best.get(key, (0,))[0]:
            best[key] = (rate, r["workgroup_size"][0])
    failed = [r for r in load(path)["results"] if r.get("valid") is False]
    print(f"{Path(path).name}: {len(failed)} failed")
    for (kernel, variant, checks, n), (rate, size) in sorted(best.items()):
        lib = library_rate(f"{kernel}/{variant}", n)
        ratio = f" ({rate / lib:.2f}x)" if lib else ""
        print(f"  {kernel}/{variant} {checks} n={n}: {rate:.1f} in {size}{ratio}")
