#!/usr/bin/env bash
# On the device machine, from the repository's root: the default suite natively, twice, with the measure
# module's trace, counting the samples that found K again (a warm-up's last, a sample to keep); nvidia-smi's
# clock log beside. Carried: $C (the release CLI, stripped, as wgsweep.xz) and .gl.
set -u
O=/tmp/res; C=${C:-.bench/carry10}; rm -rf "$O"; mkdir -p "$O"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
xz -dc $C/wgsweep.xz > /tmp/wgsweep; chmod +x /tmp/wgsweep
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 > "$O/clocks.csv" 2>&1 &
smi=$!
log() { echo "$(date -u +%T) $*" | tee -a "$O/log.txt"; }
nvidia-smi -L >> "$O/log.txt"
for n in 1 2; do
    log "default suite ($n)"
    RUST_LOG=wgsweep::measure=trace /tmp/wgsweep run --json "$O/suite-$n.json" 2> "$O/trace-$n.txt" >> "$O/log.txt"
    log "found again after the warm-up: $(grep -c 'warm, a sample' "$O/trace-$n.txt"), from a sample to keep: $(grep -c 'kept, a sample' "$O/trace-$n.txt")"
    grep -E "(warm|kept), a sample" "$O/trace-$n.txt" | head -5 >> "$O/log.txt"
    rm "$O/trace-$n.txt"
done
kill $smi
log done
gzip $O/*.json
tar cf "$OUT/res.tar" -C "$O" .
grep -E "^[0-9]{2}:|configurations|^time" $O/log.txt
