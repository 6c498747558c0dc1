#!/usr/bin/env bash
# On the device machine, from the repository's root: the default suite natively (as `wgsweep run` runs it:
# with and without wgpu's checks) and in Chromium on a fresh profile, each configuration's time recorded,
# nvidia-smi's clocks beside; what each said it would take before it started is kept with it. $1 names the
# round (learn: the runs `cargo xtask paces` learns from; check: a machine none of them came from, with the
# learned table built in); $2 `chromium` runs the page alone. Carried: .device-bin/wgsweep (the release
# binary), dist, .gl (the Vulkan loader); dist alone for the page alone. The gpu-browser kit is staged first
# as page-pace/ab.sh says (its pieces under /tmp/gbp).
set -u
ROUND=${1:-learn}
ENGINES=${2:-native chromium}
[[ $ENGINES == *native* ]] && { for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; }
source docs/results/page-pace/install-kit.sh
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | grep -o 'H[0-9]*' | tr H h)
R=/tmp/paces-$ROUND; rm -rf "$R"; mkdir -p "$R"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,pstate,utilization.gpu --format=csv -lms 250 \
    > "$R/$GPU-$ROUND-clocks.csv" &
clocks=$!
stamp() { echo "$1 $(date +%T.%N)" >> "$R/$GPU-$ROUND-marks.txt"; }
if [[ $ENGINES == *native* ]]; then
    stamp native
    timeout 300 .device-bin/wgsweep run --label "native (Vulkan), default suite, $ROUND" \
        --json "$R/$GPU-native-default-suite-$ROUND.json" > "$R/$GPU-native-default-suite-$ROUND.txt" 2>&1
    echo "native: exit $?"
fi
stamp chromium
timeout 300 python3 /opt/gpu-browser/run-page.py --window 1280x2400 --serve dist --out /tmp/chromium-$ROUND \
    --timeout 240 --wait-selector '#device:not([hidden])' \
    --wait-js '(window.expectedText = document.getElementById("expected-duration").textContent).includes("expected") && document.getElementById("expected-duration").title !== ""' \
    --click '#run' --wait-selector '#results[data-done]' \
    --eval '({expected: window.expectedText, result: JSON.parse(document.getElementById("result-json").textContent)})' \
    index.html | tail -1
python3 - "/tmp/chromium-$ROUND/eval.json" "$R/$GPU-chromium-default-suite-$ROUND.json" <<'PY'
import json, sys
said = json.load(open(sys.argv[1]))
json.dump(said["result"], open(sys.argv[2], "w"))
pace = said["result"]["pace"]
print(f"chromium: said {said['expected']!r}; took {pace['wall_s']:.1f} s, busy {pace['gpu_busy_s'] / pace['wall_s']:.0%}")
PY
stamp end
kill $clocks
if [[ $ENGINES == *native* ]]; then
    grep -a "expected" "$R/$GPU-native-default-suite-$ROUND.txt" | head -1
    grep -a "^time:" "$R/$GPU-native-default-suite-$ROUND.txt"
fi
tar czf "$OUT/paces-$ROUND.tgz" -C /tmp "paces-$ROUND"
