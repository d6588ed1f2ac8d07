import json, sys, glob
def load(pattern):
    out = {}
    for f in sorted(glob.glob(pattern)):
        for r in json.load(open(f))['rows']:
            if r.get('failed'): continue
            k = (r['op'], r['shape'], r['dtype'], r['implementation'])
            out.setdefault(k, []).append(r['median_ms'])
    return out
A = load('image-old-r[0-9].json'); B = load('image-new-r[0-9].json')
print("%-45s %-6s %9s %9s %9s %6s %6s %6s" % ("row", "dtype", "A ms", "B ms", "OpenCV", "A/CV", "B/CV", "A/B"))
for k in sorted(A):
    op, shape, dtype, impl = k
    if impl != 'tilecl' or op not in ('gaussian_blur', 'box_blur'): continue
    if k not in B: continue
    a = min(A[k]); b = min(B[k])
    cvk = (op, shape, dtype, 'OpenCV')
    cv = min(A.get(cvk, []) + B.get(cvk, [])) if cvk in A or cvk in B else float('nan')
    print("%-45s %-6s %9.3f %9.3f %9.3f %6.2f %6.2f %6.2f" % (op + ' ' + shape, dtype, a, b, cv, cv / a, cv / b, a / b))
