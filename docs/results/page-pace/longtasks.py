#!/usr/bin/env python3
"""Names the page's main-thread tasks over 50 ms from a Chromium trace (--trace-startup-file).

For each task of the renderer's main thread longer than the threshold: its start (ms since the trace's
first event), its length, the trace events inside it by self time, and, where the trace holds the V8 CPU
profiler's samples, the functions sampled inside it (self and the frames that called them).
"""
import collections
import json
import sys

from wasm_names import OURS, short, wasm_names

THRESHOLD_MS = float(sys.argv[2]) if len(sys.argv) > 2 else 50.0

with open(sys.argv[1]) as f:
    text = f.read()
try:
    data = json.loads(text)
except json.JSONDecodeError:
    data = json.loads(text.rstrip().rstrip(",") + "]}")
events = data["traceEvents"] if isinstance(data, dict) else data

threads = {}
for e in events:
    if e.get("ph") == "M" and e.get("name") == "thread_name":
        threads[(e["pid"], e["tid"])] = e["args"]["name"]
# The page's renderer: the one whose main thread parsed the served page (a local address).
page_pids = {e["pid"] for e in events if e.get("name") == "ParseHTML"
             and "127.0.0.1" in json.dumps(e.get("args", {}))}
mains = {key for key, name in threads.items() if name == "CrRendererMain" and key[0] in page_pids}
t0 = min(e["ts"] for e in events if e.get("ts"))

# Complete events on the renderers' main threads.
by_thread = collections.defaultdict(list)
for e in events:
    if (e.get("pid"), e.get("tid")) in mains and e.get("ph") == "X" and "dur" in e:
        by_thread[(e["pid"], e["tid"])].append(e)

# The CPU profiler's samples: nodes by id, then (time, node) pairs.
nodes, samples = {}, collections.defaultdict(list)
profile_time = {}
for e in events:
    if e.get("name") == "Profile":
        profile_time[(e["pid"], e["id"])] = e["args"]["data"]["startTime"]
    if e.get("name") == "ProfileChunk":
        data = e["args"]["data"]
        cpu = data.get("cpuProfile", {})
        for node in cpu.get("nodes", []):
            nodes[((e["pid"], e["id"]), node["id"])] = node
        t = profile_time.get((e["pid"], e["id"]), 0)
        for node_id, delta in zip(cpu.get("samples", []), data.get("timeDeltas", [])):
            t += delta
            samples[e["pid"]].append((t, ((e["pid"], e["id"]), node_id)))
        profile_time[(e["pid"], e["id"])] = t


NAMES = wasm_names(sys.argv[3]) if len(sys.argv) > 3 else {}


def frame_name(key):
    node = nodes.get(key)
    if not node:
        return "?"
    frame = node["callFrame"]
    name = frame.get("functionName") or frame.get("url", "?").rsplit("/", 1)[-1] or "(anonymous)"
    if name.startswith("wasm-function[") and NAMES:
        return short(NAMES.get(int(name[14:-1]), name))
    return name


def stack(key):
    names = []
    while key in nodes:
        names.append(frame_name(key))
        parent = nodes[key].get("parent")
        key = (key[0], parent) if parent is not None else None
    return names


found = 0
for thread, evs in by_thread.items():
    evs.sort(key=lambda e: (e["ts"], -e["dur"]))
    runs = [e for e in evs if e["name"] in ("ThreadControllerImpl::RunTask", "RunTask")]
    # Outermost tasks only: a nested run loop's tasks lie inside their caller's.
    tasks, end_of_last = [], -1
    for e in runs:
        if e["ts"] >= end_of_last:
            end_of_last = e["ts"] + e["dur"]
            if e["dur"] >= THRESHOLD_MS * 1000:
                tasks.append(e)
    for task in tasks:
        found += 1
        start, end = task["ts"], task["ts"] + task["dur"]
        inside = [e for e in evs if start <= e["ts"] < end and e is not task]
        # Self time of each event: its duration less its direct children's.
        self_time = collections.Counter()
        open_stack = []
        for e in inside:
            while open_stack and open_stack[-1]["ts"] + open_stack[-1]["dur"] <= e["ts"]:
                open_stack.pop()
            if open_stack:
                self_time[open_stack[-1]["name"]] -= e["dur"]
            self_time[e["name"]] += e["dur"]
            open_stack.append(e)
        print(f"task at {(start - t0) / 1000:.0f} ms: {task['dur'] / 1000:.1f} ms")
        for name, us in self_time.most_common(8):
            if us >= 1000:
                print(f"    {us / 1000:7.1f} ms  {name}")
        sampled = [key for t, key in samples.get(thread[0], []) if start <= t < end]
        if sampled:
            leaves = collections.Counter(frame_name(k) for k in sampled)
            ours = collections.Counter(next((n for n in stack(k) if n.split("::")[0] in OURS and "::" in n), "(outside wgsweep's code)") for k in sampled)
            print("    wgsweep's innermost: " + ", ".join(f"{n} {c}" for n, c in ours.most_common(8)))
            callers = collections.Counter(" < ".join(stack(k)[:6]) for k in sampled)
            print(f"    {len(sampled)} samples; leaves: " + ", ".join(f"{n} {c}" for n, c in leaves.most_common(6)))
            for s, c in callers.most_common(5):
                print(f"      {c:4d}  {s}")
print(f"{found} tasks over {THRESHOLD_MS:.0f} ms")

# Where the GPU process's main thread went (WebGPU's commands, Dawn's pipeline compiles): its events by self
# time over the whole trace.
gpu_mains = {key for key, name in threads.items() if name == "CrGpuMain"}
gpu_events = sorted((e for e in events if (e.get("pid"), e.get("tid")) in gpu_mains and e.get("ph") == "X" and "dur" in e),
                    key=lambda e: (e["ts"], -e["dur"]))
self_time, open_stack, top_level = collections.Counter(), [], 0
for e in gpu_events:
    while open_stack and open_stack[-1]["ts"] + open_stack[-1]["dur"] <= e["ts"]:
        open_stack.pop()
    if open_stack:
        self_time[open_stack[-1]["name"]] -= e["dur"]
    else:
        top_level += e["dur"]
    self_time[e["name"]] += e["dur"]
    open_stack.append(e)
print(f"GPU process main thread: busy {top_level / 1e6:.1f} s; by self time:")
for name, us in self_time.most_common(15):
    print(f"    {us / 1e6:7.2f} s  {name}")
