#!/usr/bin/env python3
"""Names the page's main-thread tasks over 50 ms from what profiled.sh took in the page itself: the JS
Self-Profiling API's samples (every 10 ms) and the browser's longtask and long-animation-frame entries.
Where a Chromium trace is not written (on the device machine's GPU it was not), this still names them.

    python3 profiled.py EVAL.json[.gz] [NAMES.wasm]

For each long task: its start (ms since the page's time origin), its length, the samples in it by the
innermost frame of wgsweep's own code (wasm functions named from a build with its name section), and the
long animation frame around it with the scripts it names (their entry point and source).
"""
import collections
import gzip
import json
import sys

from wasm_names import OURS, short, wasm_names

taken = json.load((gzip.open if sys.argv[1].endswith(".gz") else open)(sys.argv[1]))  # kept ones are gzipped
if isinstance(taken, str):  # stop-profiler.js hands it back as text
    taken = json.loads(taken)
names = wasm_names(sys.argv[2]) if len(sys.argv) > 2 else {}
trace = taken["trace"]
frames, stacks = trace["frames"], trace["stacks"]


def frame_name(index):
    frame = frames[index]
    name = frame.get("name") or "(anonymous)"
    # A build without its name section samples as wasm-function[i]: named from NAMES.wasm where given.
    if name.startswith("wasm-function[") and names:
        name = names.get(int(name[14:-1]), name)
    return short(name)


def stack(stack_id):
    out = []
    while stack_id is not None:
        entry = stacks[stack_id]
        out.append(frame_name(entry["frameId"]))
        stack_id = entry.get("parentId")
    return out


samples = [(s["timestamp"], stack(s["stackId"]) if s.get("stackId") is not None else []) for s in trace["samples"]]
tasks = sorted(taken["tasks"], key=lambda t: t["startTime"])
print(f"{len(samples)} samples, {len(tasks)} long tasks, {len(taken['frames'])} long animation frames")
for task in tasks:
    start, end = task["startTime"], task["startTime"] + task["duration"]
    print(f"task at {start:.0f} ms: {task['duration']:.0f} ms")
    inside = [s for t, s in samples if start <= t < end]
    ours = collections.Counter(
        next((n for n in s if n.split("::")[0].lstrip("<") in OURS and "::" in n), "(outside wgsweep's code)")
        for s in inside)
    print(f"    {len(inside)} samples; wgsweep's innermost: " + ", ".join(f"{n} {c}" for n, c in ours.most_common(6)))
    callers = collections.Counter(" < ".join(s[:5]) or "(idle)" for s in inside)
    for s, c in callers.most_common(4):
        print(f"      {c:4d}  {s}")
    for frame in taken["frames"]:
        if frame["startTime"] <= start < frame["startTime"] + frame["duration"]:
            for script in frame.get("scripts", []):
                if script["duration"] >= 10:
                    print(f"    script {script['duration']:.0f} ms: {script.get('invoker', '?')} "
                          f"({script.get('sourceFunctionName', '')} {script.get('sourceURL', '').rsplit('/', 1)[-1]})")
