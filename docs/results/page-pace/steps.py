"""Where the page's time between measurements goes: reads a trace (traced-pair.sh's trace-*.json.gz, the
lines of a page built with its debug lines, run at `?log=trace`) and sums the time from each step of a
configuration to the next (the trace lines runner.rs and runner/one.rs write), largest first; then the
configurations that waited longest for a reference built ahead.

    python3 docs/results/page-pace/steps.py docs/results/page-pace/steps/trace-h200.json.gz
"""
import collections
import gzip
import json
import re
import statistics
import sys

STEPS = ("its reference built ahead and its readying done", "readied ahead", "run once and checked ahead",
         "prepared and submitted", "prepared and ran once, its error scope back", "reference ready", "run once and validated",
         "calibrated", "the page had its turn", "reported")

lines = json.load(gzip.open(sys.argv[1]))
steps = []  # (ms, step, configuration)
for line in lines:
    ms, text = line.split(" ", 1)
    if text.startswith("calibration:"):
        steps.append((int(ms), "a calibration round", None))
        continue
    match = re.match(r"(.*?): (" + "|".join(map(re.escape, STEPS)) + r")", text)
    if match:
        steps.append((int(ms), match.group(2), match.group(1)))

between = collections.defaultdict(list)
for (start, step, _), (end, next_step, _) in zip(steps, steps[1:]):
    between[(step, next_step)].append(end - start)
for (step, next_step), spans in sorted(between.items(), key=lambda item: -sum(item[1])):
    print(f"{sum(spans) / 1000:6.2f} s  {len(spans):4d} times, median {statistics.median(spans):5.1f} ms:  "
          f"{step} -> {next_step}")

waits = [(end - start, configuration) for (start, step, _), (end, next_step, configuration) in zip(steps, steps[1:])
         if step == "reported" and next_step == STEPS[0]]
print(f"\nwaits for a reference built ahead: {sum(w for w, _ in waits) / 1000:.2f} s; the longest:")
for wait, configuration in sorted(waits, reverse=True)[:12]:
    print(f"{wait:5d} ms  {configuration}")
