#!/usr/bin/env bash
# The gallery under load on 127.0.0.1: wrk (Debian's package) sends a mix of device lists, reads and
# publishes (mix.lua) for DURATION (default 60 s) over CONNECTIONS (default 32) against the server on
# DATABASE (an SQLite file by default; a postgres:// URL for PostgreSQL). Run from the workspace root after
# `cargo build --release -p wgsweep-server`:  bash server/load/load.sh [DATABASE]
set -euo pipefail
database=${1:-sqlite:///tmp/wgsweep-load.db?mode=rwc}
duration=${DURATION:-60s}
connections=${CONNECTIONS:-32}
work=$(mktemp -d)
mkdir -p "$work/dist" && echo '<!doctype html>' > "$work/dist/index.html"
target/release/wgsweep-server --listen 127.0.0.1:0 --publishes-per-minute 10000000 --dist "$work/dist" \
    --database "$database" > "$work/server.txt" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q http "$work/server.txt" && break; sleep 0.1; done
address=$(grep -o 'http://[^/]*' "$work/server.txt")
# A published result to read, and the result the publishes vary (the H100's native default suite).
cp docs/results/pace/h100-native-suite-5.json "$work/result.json"
curl -s -X POST -H 'Content-Type: application/json' --data-binary @"$work/result.json" "$address/api/results" \
    | grep -o '"id":"[0-9a-f]*"' | cut -d'"' -f4 > "$work/id.txt"
cp server/load/mix.lua "$work/"
(cd "$work" && wrk --latency -t 4 -c "$connections" -d "$duration" -s mix.lua "$address")
echo "results stored: $(curl -s "$address/api/devices" | grep -o '"results":[0-9]*')"
