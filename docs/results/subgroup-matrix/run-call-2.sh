#!/bin/bash
# The probe again on the warm machine, with GPUSubgroupMatrixConfig's resultComponentType.
O=/tmp/o4; mkdir -p $O
R="python3 /opt/gpu-browser/run-page.py --serve dist --window 1280x1600 --timeout 120"
$R --out $O/probe --wait-selector '#device:not([hidden])' --eval "$(cat .bench/matrix-probe.js)" index.html
python3 -c "import json; r=json.load(open('$O/probe/eval.json')); print(json.dumps(r.get('configs'))); [print(t) for t in r.get('trials', [])]; print(r.get('error', ''))"
cd $O && tar czf $OUT/issue27-probe.tgz . && ls -la $OUT
