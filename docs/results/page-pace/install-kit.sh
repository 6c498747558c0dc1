#!/usr/bin/env bash
# On the device machine: installs the gpu-browser kit from its pieces staged under /tmp/gbp (ab.sh says how),
# unless it is installed already. Sourced by ab.sh, traced.sh and ../estimates/paces.sh.
if ! bash /opt/gpu-browser/install.sh check > /dev/null 2>&1; then
    cat /tmp/gbp/gbpiece.* > /tmp/gb.tar && mkdir -p /tmp/gbx && tar -xf /tmp/gb.tar -C /tmp/gbx && rm /tmp/gb.tar
    bash /tmp/gbx/part1/install.sh part1 /tmp/gbx/part1 > /dev/null
    bash /tmp/gbx/part2/install.sh part2 /tmp/gbx/part2 | tail -1
fi
