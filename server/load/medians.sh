#!/usr/bin/env bash
# One client cannot stall the gallery: four clients ask for a device's median in a loop (wrk, 4 connections)
# while one more asks for /api/health, then for the device list, each for DURATION (default 20 s), all on
# 127.0.0.1. The gallery is seeded first with every H100 result under docs/results (as the tests seed it),
# and the median asked for is the largest class's. Run from the workspace root after
# `cargo build --release -p wgsweep-server`:
#   bash server/load/medians.sh [DATABASE]
set -euo pipefail
database=${1:-sqlite:///tmp/wgsweep-medians.db?mode=rwc}
duration=${DURATION:-20s}
case $database in
    sqlite:*) file=${database#sqlite://}; file=${file%%\?*}; rm -f "$file" "$file-wal" "$file-shm" ;;
esac
source "$(dirname "$0")/server.sh"
start_server "$database"
for file in docs/results/h100-*.json docs/results/pace/h100-*.json docs/results/tune/*.json; do
    # Tuning records hold their result under "result".
    python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); v=v.get("result",v) if isinstance(v,dict) else {}; print(json.dumps(v)) if "schema_version" in v else None' \
        "$file" > "$work/one.json"
    [ -s "$work/one.json" ] && curl -s -o /dev/null -X POST --data-binary @"$work/one.json" "$address/api/results"
done
key=$(curl -s "$address/api/devices" | python3 -c 'import json,sys,urllib.parse; d=max(json.load(sys.stdin)["devices"], key=lambda d: d["results"]); print(urllib.parse.quote(d["key"]))')
echo "classes: $(curl -s "$address/api/devices" | grep -o '"key"' | wc -l); medians of: $(python3 -c 'import sys,urllib.parse; print(urllib.parse.unquote(sys.argv[1]))' "$key")"
echo "median alone:"
wrk --latency -t 1 -c 1 -d 5s "$address/api/device/median?key=$key" | grep -E 'Requests/sec|^ +(50|99)%'
wrk --latency -t 4 -c 4 -d "$duration" "$address/api/device/median?key=$key" > "$work/medians.txt" &
loop=$!
sleep 1
echo "health, while four clients ask for medians:"
wrk --latency -t 1 -c 1 -d 9s "$address/api/health" | grep -E 'Requests/sec|^ +(50|99)%'
echo "device list, while four clients ask for medians:"
wrk --latency -t 1 -c 1 -d 9s "$address/api/devices" | grep -E 'Requests/sec|^ +(50|99)%'
wait $loop
echo "the four clients' medians:"
grep -E 'Requests/sec|^ +(50|99)%' "$work/medians.txt"
