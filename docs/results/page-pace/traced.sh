#!/usr/bin/env bash
# On the device machine, from the repository's root: the built page in Chromium on the GPU, with a trace of
# its main thread (and of the GPU process's), then its tasks over 50 ms named by longtasks.py.
#   TRACE_S=S bash docs/results/page-pace/traced.sh NAME [run-page.py's steps] ADDRESS
# Chromium writes the trace S seconds after it starts (a trace still open when the driver ends Chromium is
# lost): the page waits 20 s longer.
# Before the first: the gpu-browser kit's pieces staged in /tmp/gbp (ab.sh says how);
# carried: dist, and .bench/names.wasm (the same page's wasm with its name section: `-g` added to index.html's
# wasm-opt parameters, the code section byte for byte the same).
set -u
name=$1
shift
source docs/results/page-pace/install-kit.sh
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu --format=csv -lms 500 > "$OUT/$name-clocks.csv" &
clocks=$!
categories=devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,disabled-by-default-v8.cpu_profiler,toplevel,gpu.dawn
echo "$name $(date +%T.%N)" >> "$OUT/marks.txt"
python3 /opt/gpu-browser/run-page.py --serve dist --out "/tmp/$name" --timeout 540 \
    --flag=--trace-startup=$categories --flag=--trace-startup-file="/tmp/$name-trace.json" \
    --flag=--trace-startup-duration=$TRACE_S --flag=--trace-startup-format=json \
    --eval 'JSON.parse(document.getElementById("result-json").textContent)' "${@:1:$#-1}" \
    --wait-js "new Promise(r => setTimeout(() => r(true), Math.max(0, ${TRACE_S:?} * 1000 + 20000 - performance.now())))" \
    "${@: -1}" | tail -1
echo "end $(date +%T.%N)" >> "$OUT/marks.txt"
kill $clocks
cp "/tmp/$name/eval.json" "$OUT/$name.json"
python3 docs/results/page-pace/longtasks.py "/tmp/$name-trace.json" 50 .bench/names.wasm > "$OUT/$name-tasks.txt"
grep -c . "$OUT/$name-tasks.txt"
tail -20 "$OUT/$name-tasks.txt"
