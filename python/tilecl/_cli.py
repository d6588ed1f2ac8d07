"""The command line, ``python -m tilecl``: the C++ ``tilecl`` command's devices, tune and cache, thinly over the
same library functions (so a wheel alone has them), and a Python-level bench.

    python -m tilecl devices [--json]
    python -m tilecl tune [--device P:D] [--op OP] [--dtype T] [--shape S] [--budget MS] [--strategy S]
    python -m tilecl cache path|list|clear [--programs|--tuning]|export FILE|import FILE
    python -m tilecl bench [--device P:D] [--quick]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence

import pyopencl as cl

from . import _bench, _runtime, cache, tuning
from ._errors import Error
from ._table import print_table


def _device_type(bits: int) -> str:
    for flag, name in (
        (cl.device_type.GPU, "GPU"),
        (cl.device_type.CPU, "CPU"),
        (cl.device_type.ACCELERATOR, "accelerator"),
    ):
        if bits & flag:
            return name
    return "other"


def _devices(arguments: argparse.Namespace) -> int:
    entries: List[Dict[str, Any]] = []
    for p, platform in enumerate(cl.get_platforms()):
        for d, device in enumerate(platform.get_devices()):
            info = _runtime.device_info(device)
            info.pop("extensions")
            entries.append({**info, "type": _device_type(info["type"]), "selector": f"{p}:{d}"})
    if arguments.json:
        print(json.dumps(entries, indent=2))
    for info in [] if arguments.json else entries:
        mib = 1024 * 1024
        print(
            f"[{info['selector']}] {info['device']} ({info['type']})\n"
            f"    platform     {info['platform']} | {info['platform_version']}\n"
            f"    driver       {info['driver_version']} | {info['device_version']} | {info['opencl_c_version']}\n"
            f"    fingerprint  {info['fingerprint']}\n"
            f"    compute      {info['compute_units']} units at {info['max_clock_mhz']} MHz, work-groups up to "
            f"{info['max_work_group_size']} (multiple of {info['preferred_work_group_multiple']})\n"
            f"    memory       {info['global_memory_bytes'] // mib} MiB global, "
            f"{info['local_memory_bytes'] // 1024} KiB local\n"
            f"    features     fp64 {'yes' if info['fp64'] else 'no'}, "
            f"sub-groups {'yes' if info['subgroups'] else 'no'}"
        )
    if not entries:
        print("tilecl: no OpenCL device found", file=sys.stderr)
        return 1
    return 0


def queue_for(selector: str) -> cl.CommandQueue:
    """A new queue on the device named by ``P:D`` (each an index or a name substring; empty: the default)."""
    platform, _, device = (selector or "").partition(":")
    return cl.CommandQueue(cl.Context([_runtime.select_device(platform, device)]))


def _rate(result: tuning.TuneResult) -> str:
    if result.best_ms <= 0:
        return "-"
    unit = "GFLOP/s" if result.work_unit == "flop" else "GB/s"
    return f"{result.work / (result.best_ms * 1e-3) * 1e-9:.1f} {unit}"


def _tune(arguments: argparse.Namespace) -> int:
    queue = queue_for(arguments.device)
    info = _runtime.device_info(queue.device)
    print(
        f"tuning on {info['device']} ({info['platform']}, driver {info['driver_version']}, "
        f"fingerprint {info['fingerprint']})"
    )
    unknown = set(arguments.op or ()) - {op.name for op in tuning.tunable_ops()}
    if unknown:
        raise Error(
            f"tilecl::tune: --op: unknown op(s) {', '.join(sorted(unknown))} [CL_INVALID_VALUE]", "tune", "--op"
        )
    rows = []
    for op in tuning.tunable_ops():
        if arguments.op and op.name not in arguments.op:
            continue
        for dtype in arguments.dtype or op.dtypes:
            if dtype == "double" and not info["fp64"]:
                print(f"skipping {op.name} double: the device has no fp64")
                continue
            for shape in arguments.shape or op.default_shapes:
                result = tuning.tune(
                    queue,
                    op.name,
                    dtype,
                    shape,
                    budget_ms=arguments.budget,
                    strategy=arguments.strategy,
                    seed=arguments.seed,
                    max_candidates=arguments.max_candidates,
                )
                speedup = f"{result.default_ms / result.best_ms:.2f}x" if result.default_ms and result.best_ms else "-"
                rows.append(
                    (
                        op.name,
                        dtype,
                        result.timing_shape,
                        result.bucket,
                        result.best if result.found else "(none verified)",
                        f"{result.best_ms:.4f} ms" if result.found else "-",
                        _rate(result),
                        f"{result.default_ms:.4f} ms" if result.default_ms else "-",
                        speedup,
                        str(result.tried),
                        str(result.failed),
                    )
                )
    print_table(
        ("op", "dtype", "shape", "bucket", "best parameters", "time", "rate", "default", "speed-up", "tried", "failed"),
        rows,
    )
    print(f"\ntuned {len(rows)} key(s); cache directory: {cache.directory() or '(disk cache off)'}")
    return 0


def _cache(arguments: argparse.Namespace) -> int:
    directory = cache.directory()
    if arguments.action == "path":
        print(directory or "(disk cache off: TILECL_CACHE=off, or no HOME)")
        return 0 if directory else 1
    if arguments.action == "list":
        print(f"cache directory: {directory or '(off)'}\n\ncompiled programs")
        print_table(
            ("device fingerprint", "programs", "size"),
            [(entry.fingerprint, str(entry.files), f"{entry.bytes // 1024} KiB") for entry in cache.programs()],
        )
        print("\ntuning databases")
        print_table(
            ("device fingerprint", "device", "driver", "entries", "failures", "state"),
            [
                (
                    entry.fingerprint,
                    entry.device,
                    entry.driver_version,
                    str(entry.entries),
                    str(entry.failures),
                    entry.problem or "ok",
                )
                for entry in cache.tuning_databases()
            ],
        )
    elif arguments.action == "clear":
        both = not arguments.programs and not arguments.tuning
        removed = cache.clear(programs=both or arguments.programs, tuning=both or arguments.tuning)
        print(f"removed {removed} files from {directory or '(off)'}")
    elif arguments.action == "export":
        print(f"exported {cache.export_tuning(arguments.file)} tuning database(s) to {arguments.file}")
    else:
        print(f"merged {cache.import_tuning(arguments.file)} tuning database(s) into {directory}")
    return 0


def _bench_command(arguments: argparse.Namespace) -> int:
    _bench.run(queue_for(arguments.device), quick=arguments.quick)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tilecl",
        description=f"tilecl {_runtime.version()}: OpenCL "
        "kernels compiled at run time, tuned per device, cached in memory and on disk",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    devices = commands.add_parser("devices", help="list every OpenCL device, with fingerprints and limits")
    devices.add_argument("--json", action="store_true", help="print JSON (the keys of `tilecl devices --json`)")
    devices.set_defaults(run=_devices)
    tune = commands.add_parser("tune", help="tune kernels ahead of time and store the winners")
    tune.add_argument("--device", default="", help="P:D, each an index or a name substring")
    tune.add_argument("--op", action="append", help="op to tune (repeatable; default: all)")
    tune.add_argument("--dtype", action="append", help="float, double, int32 or uint8 (default: the op's)")
    tune.add_argument("--shape", action="append", help="shape, e.g. 1024x1024x1024 or 2^20 (default: the op's set)")
    tune.add_argument("--budget", type=float, default=10000.0, help="milliseconds per key (default 10000)")
    tune.add_argument("--strategy", choices=("exhaustive", "random"), default="exhaustive")
    tune.add_argument("--seed", type=int, default=1)
    tune.add_argument("--max-candidates", type=int, default=0, help="at most this many per key (0: no limit)")
    tune.set_defaults(run=_tune)
    cache_parser = commands.add_parser("cache", help="inspect, clear, export and import the disk cache")
    cache_parser.add_argument("action", choices=("path", "list", "clear", "export", "import"))
    cache_parser.add_argument("file", nargs="?", help="bundle file for export and import")
    cache_parser.add_argument("--programs", action="store_true", help="clear: only compiled programs")
    cache_parser.add_argument("--tuning", action="store_true", help="clear: only tuning databases")
    cache_parser.set_defaults(run=_cache)
    bench = commands.add_parser("bench", help="Python call overhead, and ops beside NumPy and OpenCV")
    bench.add_argument("--device", default="", help="P:D, each an index or a name substring")
    bench.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    bench.set_defaults(run=_bench_command)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    arguments = _parser().parse_args(argv)
    if getattr(arguments, "action", None) in ("export", "import") and not arguments.file:
        _parser().error(f"cache {arguments.action} needs FILE")
    command: Callable[[argparse.Namespace], int] = arguments.run
    try:
        return command(arguments)
    except (Error, cl.Error) as error:
        print(f"tilecl: {error}", file=sys.stderr)
        return 1
