#!/usr/bin/env bash
# The gallery under load on 127.0.0.1: wrk (Debian's package) sends a mix of device lists, reads and
# publishes (mix.lua) for DURATION (default 60 s) over CONNECTIONS (default 32) against the server on
# DATABASE (an SQLite file by default, emptied first; a postgres:// URL of an empty database for
# PostgreSQL), then says how many bytes the database holds per result (sqlite3 and psql, Debian's). Run
# from the workspace root after `cargo build --release -p wgsweep-server`:
#   bash server/load/load.sh [DATABASE]
set -euo pipefail
database=${1:-sqlite:///tmp/wgsweep-load.db?mode=rwc}
duration=${DURATION:-60s}
connections=${CONNECTIONS:-32}
case $database in
    sqlite:*) file=${database#sqlite://}; file=${file%%\?*}; rm -f "$file" "$file-wal" "$file-shm" ;;
esac
source "$(dirname "$0")/server.sh"
start_server "$database"
# A published result to read, and the result the publishes vary (the H100's native default suite).
cp docs/results/pace/h100-native-suite-5.json "$work/result.json"
curl -s -X POST -H 'Content-Type: application/json' --data-binary @"$work/result.json" "$address/api/results" \
    | grep -o '"id":"[0-9a-f]*"' | cut -d'"' -f4 > "$work/id.txt"
cp server/load/mix.lua "$work/"
(cd "$work" && wrk --latency -t 4 -c "$connections" -d "$duration" -s mix.lua "$address")
results=$(curl -s "$address/api/devices" | grep -o '"results":[0-9]*' | cut -d: -f2)
case $database in
    sqlite:*) sqlite3 "$file" 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null; bytes=$(stat -c %s "$file") ;;
    *) bytes=$(psql "$database" -tAc "SELECT pg_total_relation_size('results')") ;;
esac
echo "results stored: $results; the database: $bytes bytes, $((bytes / results)) a result"
