#!/bin/bash
# Session 19, run 2: convolve_separable_tiled launched directly at 7680x4320 with the library's default macros and
# with experimental ones (taps in private registers or as literals, prefetch, VEC 16, taller tiles): tiled_forms.
source .gpu/env.sh
cd .exp/s19r2
R=/tmp/r2; mkdir -p $R
timeout 200 ./tiled_forms kernels > $R/forms.jsonl 2> $R/forms.err; echo "rc $?" >> $R/forms.err
cp $R/* $OUT/
tail -3 $R/forms.err
python3 -c "
import json
for l in open('$R/forms.jsonl'):
  d=json.loads(l); print(d['case'][:22].ljust(22), '%7.1f'%d['us'], str(d['differing']).rjust(6), d['ptxas'][5:40].ljust(36), d['config'].replace('-D','')[:110])
"
