#!/usr/bin/env bash
# The built page in Chromium with its main thread sampled by the page's own profiler (the JS Self-Profiling
# API, started before the steps and stopped after them), then its tasks over 50 ms named by profiled.py:
#   bash docs/results/page-pace/profiled.sh DIST NAME [run-page.py's steps and options] ADDRESS
# ADDRESS is a path inside DIST ("index.html?kernels=..."). On the device machine run-page.py is the
# gpu-browser kit's (staged as ab.sh says); here, add --cpu for SwiftShader. NAMES is the same page's wasm
# with its name section (`-g` added to index.html's wasm-opt parameters, then `trunk build --release`; its
# code section is byte for byte the same), which names the sampled wasm functions: not DIST's own, whose
# imports `cargo xtask dist` renames.
# PAGE_TIMEOUT bounds the page's load and each step (540 s unless given).
set -u
here=$(dirname "$0")
dist=$1 name=$2
shift 2
run_page=/opt/gpu-browser/run-page.py
[ -e $run_page ] || run_page=$here/../../../../shared/gpu-browser/run-page.py
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 "$here/serve.py" "$dist" "$port" &
server=$!
out=${OUT:-/tmp}
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu --format=csv -lms 500 > "$out/$name-clocks.csv" 2>/dev/null &
clocks=$!
python3 "$run_page" --out "/tmp/$name" --timeout "${PAGE_TIMEOUT:-540}" --wait-js "$(cat "$here/start-profiler.js")" "${@:1:$#-1}" \
    --eval "$(cat "$here/stop-profiler.js")" "http://127.0.0.1:$port/${*: -1}" | tail -1
kill $server $clocks 2>/dev/null
cp "/tmp/$name/eval.json" "$out/$name.json"
cp "/tmp/$name/screenshot.png" "$out/$name.png" 2>/dev/null
python3 "$here/profiled.py" "$out/$name.json" "${NAMES:-$dist/wgsweep_bg.wasm}" > "$out/$name-tasks.txt"
cat "$out/$name-tasks.txt"
