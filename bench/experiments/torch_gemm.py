#!/usr/bin/env python3
"""Reference figures (not part of the build): cuBLAS through torch.matmul on the GPU machine, at the shapes of
`tilecl bench --family gemm_mma`: half, bfloat16, and float with TF32 off and on. CUDA events, median of 10 calls
after 3 warm-ups; one JSON line per row on stdout.  Run: python3 bench/experiments/torch_gemm.py"""
import json
import torch

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (1000, 1000, 1000), (4097, 4097, 4097), (8192, 8192, 64),
          (1, 4096, 4096)]


def median_ms(run):
    for _ in range(3):
        run()
    times = []
    for _ in range(10):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


for m, n, k in SHAPES:
    for name, dtype, tf32 in [("half", torch.float16, False), ("bfloat16", torch.bfloat16, False),
                              ("tf32", torch.float32, True), ("float", torch.float32, False)]:
        torch.backends.cuda.matmul.allow_tf32 = tf32
        a = torch.rand(m, k, device="cuda", dtype=dtype) - 0.5
        b = torch.rand(k, n, device="cuda", dtype=dtype) - 0.5
        ms = median_ms(lambda: torch.matmul(a, b))
        print(json.dumps({"shape": f"{m}x{n}x{k}", "dtype": name, "ms": ms, "tflops": 2 * m * n * k / ms * 1e-9}))
