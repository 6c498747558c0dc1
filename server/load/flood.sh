#!/usr/bin/env bash
# A flood of publishes: eight connections publish results not seen before (publish.lua) for DURATION (default
# 180 s) into an empty SQLite file with the limits lifted, while one connection each asks for the health and
# the device list in a loop, and the write-ahead log's size is read every second. Prints the probes' p50 and
# p99, the largest the log grew and how many results were stored. Run from the workspace root after
# `cargo build --release -p wgsweep-server --bins`:
#   bash server/load/flood.sh
set -euo pipefail
duration=${DURATION:-180s}
database=sqlite:///tmp/wgsweep-flood.db?mode=rwc
file=/tmp/wgsweep-flood.db
rm -f "$file" "$file-wal" "$file-shm"
source "$(dirname "$0")/server.sh"
start_server "$database"
cp docs/results/pace/h100-native-suite-5.json "$work/result.json"
cp server/load/publish.lua "$work/"
(cd "$work" && wrk --latency -t 2 -c 8 -d "$duration" -s publish.lua "$address" > flood.txt) &
flood=$!
(cd "$work" && wrk --latency -t 1 -c 1 -d "$duration" "$address/api/health" > health.txt) &
health=$!
(cd "$work" && wrk --latency -t 1 -c 1 -d "$duration" "$address/api/devices" > devices.txt) &
devices=$!
largest=0
while kill -0 "$flood" 2>/dev/null; do
    size=$(stat -c %s "$file-wal" 2>/dev/null || echo 0)
    if (( size > largest )); then largest=$size; fi
    sleep 1
done
wait "$health" "$devices"
for name in flood health devices; do
    printf '%-8s ' "$name"
    awk '/^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /^Requests\/sec/ {rps=$2} /Non-2xx/ {bad=$NF} END {printf "p50 %s  p99 %s  requests/s %s  non-2xx %s\n", p50, p99, rps, bad+0}' "$work/$name.txt"
done
results=$(curl -s "$address/api/devices" | python3 -c 'import json,sys; print(sum(d["results"] for d in json.load(sys.stdin)["devices"]))')
echo "results stored: $results; the write-ahead log at its largest: $largest bytes; the database: $(stat -c %s "$file") bytes"
