#!/usr/bin/env bash
# On the device machine, after ab.sh (the kit installed): the link at the configuration bound opened with the
# page before a change (.bench/bound-before) and after it (.bench/bound-after), alternately, twice each; each
# folder is the built page with go.html, go.js, longtasks.js and link.txt beside it (bounds.md says how the
# link is made). Prints each run's tasks over 50 ms by the page's own longtask entries.
set -u
for run in before-1 after-1 before-2 after-2; do
    python3 /opt/gpu-browser/run-page.py --serve ".bench/bound-${run%-*}" --out "/tmp/bound-$run" --timeout 120 \
        --wait-selector '#shared-families tbody tr' --eval "$(cat docs/results/page-pace/bound-h200/longtasks.js)" \
        go.html | tail -1
    cp "/tmp/bound-$run/eval.json" "$OUT/bound-$run.json"
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(sys.argv[2], r['rows'], 'rows; tasks over 50 ms:', [t for t in r['tasks'] if t[1] > 50])" "/tmp/bound-$run/eval.json" "$run"
done
