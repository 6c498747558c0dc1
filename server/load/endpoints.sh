#!/usr/bin/env bash
# Each of the gallery's endpoints under the mixed load, on a database filled before (wgsweep-seed): mix.lua
# (8 device lists, 1 read, 1 publish in every 10 requests) runs for DURATION (default 60 s) over
# CONNECTIONS (default 32), and meanwhile one more connection each asks, in a loop, for the device list,
# the largest class's results, its median and its presets, and publishes; wrk reports each one's p50/p99.
# Then the database's size per result. Run from the workspace root after
# `cargo build --release -p wgsweep-server --bins`:
#   bash server/load/endpoints.sh 'sqlite:///tmp/wgsweep-million.db?mode=rwc'
#   bash server/load/endpoints.sh 'postgres://postgres@localhost/million?host=/tmp/pg'
set -euo pipefail
database=$1
duration=${DURATION:-60s}
connections=${CONNECTIONS:-32}
source "$(dirname "$0")/server.sh"
start_server "$database"
cp docs/results/pace/h100-native-suite-5.json "$work/result.json"
curl -s -X POST --data-binary @"$work/result.json" "$address/api/results" \
    | grep -o '"id":"[0-9a-f]*"' | cut -d'"' -f4 > "$work/id.txt"
key=$(curl -s "$address/api/devices" | python3 -c 'import json,sys,urllib.parse; d=max(json.load(sys.stdin)["devices"], key=lambda d: d["results"]); print(urllib.parse.quote(d["key"]))')
results=$(curl -s "$address/api/devices" | python3 -c 'import json,sys; print(sum(d["results"] for d in json.load(sys.stdin)["devices"]))')
echo "results: $results; the largest class: $(python3 -c 'import sys,urllib.parse; print(urllib.parse.unquote(sys.argv[1]))' "$key")"
cp server/load/mix.lua server/load/publish.lua "$work/"
(cd "$work" && wrk --latency -t 2 -c "$connections" -d "$duration" -s mix.lua "$address" > mix.txt) &
mix=$!
sleep 2
probes=()
probe() {
    local name=$1; shift
    (cd "$work" && wrk --latency -t 1 -c 1 -d "$duration" "$@" > "probe-$name.txt") &
    probes+=($!)
}
probe devices "$address/api/devices"
probe results "$address/api/device/results?key=$key"
probe median "$address/api/device/median?key=$key"
probe presets "$address/api/device/presets?key=$key"
probe publish -s publish.lua "$address"
wait "$mix" "${probes[@]}"
echo "the mix:"; grep -E '^requests/s' "$work/mix.txt"
for name in devices results median presets publish; do
    printf '%-8s ' "$name"
    awk '/^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /^Requests\/sec/ {rps=$2} /Non-2xx/ {bad=$NF} END {printf "p50 %s  p99 %s  requests/s %s  non-2xx %s\n", p50, p99, rps, bad+0}' "$work/probe-$name.txt"
done
case $database in
    sqlite:*) file=${database#sqlite://}; file=${file%%\?*}
              sqlite3 "$file" 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null; bytes=$(stat -c %s "$file") ;;
    *) bytes=$(psql "$database" -tAc "SELECT pg_total_relation_size('results')") ;;
esac
results=$(curl -s "$address/api/devices" | python3 -c 'import json,sys; print(sum(d["results"] for d in json.load(sys.stdin)["devices"]))')
echo "results stored: $results; the database: $bytes bytes, $((bytes / results)) a result"
