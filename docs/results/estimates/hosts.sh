#!/usr/bin/env bash
# On the device machine, from the repository's root: the default suite as a first run (a fresh Chromium
# profile, and the GPU driver's shader cache in a fresh folder, so that nothing compiled before is found)
# on this host as it is and with other work holding its cores (N busy loops beside the run), so that hosts
# of several speeds, each probed by the run itself (`host_probe_ms`), are recorded on one machine. $1 names
# the round (learn, check); $2 the engines (`chromium`, `native`, or both); $3 the numbers of busy loops.
# Carried: dist for the page; .device-bin/wgsweep (the release binary) and .gl (the Vulkan loader) natively.
# The gpu-browser kit is staged first as page-pace/ab.sh says (its pieces under /tmp/gbp).
set -u
ROUND=${1:-learn}
ENGINES=${2:-chromium native}
LOADS=${3:-0 24 48}
[[ $ENGINES == *native* ]] && { for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; }
[[ $ENGINES == *chromium* ]] && source docs/results/page-pace/install-kit.sh
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | grep -o 'H[0-9]*' | tr H h)
R=/tmp/hosts-$ROUND; mkdir -p "$R"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,pstate,utilization.gpu --format=csv -lms 250 \
    > "$R/$GPU-$ROUND-$(date +%H%M%S)-clocks.csv" &
clocks=$!
stamp() { echo "$1 $(date +%T.%N)" >> "$R/$GPU-$ROUND-marks.txt"; }
nproc > "$R/$GPU-$ROUND-cores.txt"
for engine in $ENGINES; do
    for load in $LOADS; do
        name="$GPU-$engine-default-suite-$ROUND-busy$load"
        loops=()
        for _ in $(seq 1 "$load"); do (while :; do :; done) & loops+=($!); done
        export __GL_SHADER_DISK_CACHE_PATH=$(mktemp -d)
        stamp "$name"
        if [[ $engine == native ]]; then
            timeout 400 .device-bin/wgsweep run --label "native (Vulkan), default suite, $ROUND, $load busy loops" \
                --json "$R/$name.json" > "$R/$name.txt" 2>&1
            echo "$name: exit $?; $(grep -a expected "$R/$name.txt" | head -1); $(grep -a '^time:' "$R/$name.txt")"
        else
            timeout 400 python3 /opt/gpu-browser/run-page.py --window 1280x2400 --serve dist --out "/tmp/$name" \
                --timeout 360 --wait-selector '#device:not([hidden])' \
                --wait-js '(window.expectedText = document.getElementById("expected-duration").textContent).includes("expected") && document.getElementById("expected-duration").title !== ""' \
                --click '#run' --wait-selector '#results[data-done]' \
                --eval '({expected: window.expectedText, result: JSON.parse(document.getElementById("result-json").textContent)})' \
                index.html | tail -1
            python3 - "/tmp/$name/eval.json" "$R/$name.json" <<'PY'
import json, sys
said = json.load(open(sys.argv[1]))
json.dump(said["result"], open(sys.argv[2], "w"))
pace, probe = said["result"]["pace"], said["result"]["environment"].get("host_probe_ms")
print(f"{sys.argv[2]}: said {said['expected']!r}; took {pace['wall_s']:.1f} s, busy "
      f"{pace['gpu_busy_s'] / pace['wall_s']:.0%}, probe {probe} ms")
PY
        fi
        if [[ ${#loops[@]} -gt 0 ]]; then kill "${loops[@]}"; wait "${loops[@]}" 2>/dev/null; fi
    done
done
stamp end
kill $clocks
tar czf "$OUT/hosts-$ROUND-$(date +%H%M%S).tgz" -C /tmp "hosts-$ROUND"
