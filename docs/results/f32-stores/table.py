"""Each build's TFLOP/s of every configuration over the rounds of builds.sh (or native.sh), their median, and
its ratio to the library's SGEMM in the same call: python3 table.py DIR (the unpacked res.tar)."""
import collections, glob, gzip, json, re, statistics, sys

d = sys.argv[1]
lib = json.load(gzip.open(f"{d}/library.json.gz"))
sgemm = {r["n"]: r["tflops"] for r in lib["runs"] if "SGEMM" in r["op"]}
rates = collections.defaultdict(list)
for path in sorted(glob.glob(f"{d}/*-[0-9]*.json.gz")):
    build = re.sub(r"-\d+\.json\.gz$", "", path.split("/")[-1])
    for r in json.load(gzip.open(path))["results"]:
        if not r["valid"]:
            print("invalid:", path, r["kernel"], r["variant"], r["error"])
            continue
        n = round((r["flops_per_dispatch"] / 2) ** (1 / 3))
        label = r["parameter"].get("label", "").split(" · ", 1)[1:]
        key = (n, r["shader_checks"], build, " ".join([f'{r["kernel"]}/{r["variant"]}'] + label))
        rates[key].append(r["flops_per_dispatch"] / r["median_ns"] / 1e3)
print("SGEMM", {n: round(t, 2) for n, t in sgemm.items()})
for key, v in sorted(rates.items()):
    m = statistics.median(v)
    print(*key, " ".join(f"{x:.2f}" for x in v), f"median {m:.2f}", f"{m / sgemm[key[0]]:.3f}x")
