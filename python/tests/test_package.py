"""The package around the ops: the command line, tuning and cache functions, runtime state, events, the type
stubs of the extension module, and the cost of a call from Python."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import time

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array
import tilecl
from tilecl import _bench, _core


def run_command(*arguments, environment=None):
    return subprocess.run(
        [sys.executable, "-m", "tilecl", *arguments],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(environment or {})},
    )


def test_devices_lists_the_test_device_with_its_fingerprint(queue):
    listed = run_command("devices", "--json")
    assert listed.returncode == 0, listed.stderr
    fingerprints = [entry["fingerprint"] for entry in json.loads(listed.stdout)]
    assert tilecl.device_info(queue.device)["fingerprint"] in fingerprints
    text = run_command("devices")
    assert text.returncode == 0 and "fingerprint" in text.stdout


def test_tune_and_cache_commands_work_on_a_private_cache(tmp_path):
    environment = {"TILECL_CACHE_DIR": str(tmp_path)}
    tuned = run_command(
        "tune",
        "--op",
        "axpy",
        "--dtype",
        "float",
        "--shape",
        "2^12",
        "--budget",
        "300",
        "--max-candidates",
        "3",
        environment=environment,
    )
    assert tuned.returncode == 0, tuned.stderr
    assert "tuned 1 key(s)" in tuned.stdout
    listed = run_command("cache", "list", environment=environment)
    assert listed.returncode == 0 and str(tmp_path) in listed.stdout and "ok" in listed.stdout
    exported = run_command("cache", "export", str(tmp_path / "bundle.json"), environment=environment)
    assert exported.returncode == 0 and "exported 1" in exported.stdout
    assert run_command("cache", "path", environment=environment).stdout.strip() == str(tmp_path)
    cleared = run_command("cache", "clear", environment=environment)
    assert cleared.returncode == 0 and "removed" in cleared.stdout
    bad = run_command("tune", "--op", "nonsense", environment=environment)
    assert bad.returncode == 1 and "tilecl::tune: --op" in bad.stderr


def test_tuning_functions(queue):
    ops = {op.name: op for op in tilecl.tuning.tunable_ops()}
    assert {"gemm", "axpy", "gaussian_blur"} <= set(ops)
    choice = tilecl.tuning.parameters_for(queue, "gemm", np.float32, "64x64x64")
    assert choice.origin in ("override", "database", "first-use", "tune", "default") and choice.variant
    tilecl.tuning.override_parameters(queue.device, "gemm", "float", choice.parameters)
    assert tilecl.tuning.parameters_for(queue, "gemm", "float", "64x64x64").origin == "override"
    tilecl.tuning.clear()
    assert tilecl.tuning.parameters_for(queue, "gemm", "float", "64x64x64").origin != "override"
    assert tilecl.tuning.mode() == os.environ["TILECL_TUNE"]


def test_runtime_state_and_events(queue):
    x = cl_array.to_device(queue, np.ones(100, np.float32))
    before = tilecl.statistics()
    out = tilecl.vector_add(x, x)
    assert isinstance(out.events[-1], cl.Event)
    out.events[-1].wait()
    after = tilecl.statistics()
    assert (
        after["memory_hits"] + after["disk_hits"] + after["compiles"]
        > before["memory_hits"] + before["disk_hits"] + before["compiles"]
    )
    assert tilecl.cache_sizes()["contexts"] >= 1
    waited = tilecl.vector_add(x, x, wait_for=[cl.enqueue_marker(queue)])
    np.testing.assert_array_equal(waited.get(), 2 * np.ones(100))
    assert tilecl.__version__ == tilecl.version()


def test_the_extension_stub_lists_exactly_the_extension_functions():
    stub = ast.parse(open(os.path.join(os.path.dirname(tilecl.__file__), "_core.pyi")).read())
    declared = {node.name for node in stub.body if isinstance(node, ast.FunctionDef)}
    defined = {name for name in dir(_core) if not name.startswith("_")}
    assert declared == defined


def test_a_python_call_costs_little_more_than_the_cpp_call(queue):
    cpp, python = _bench.call_overhead(queue, calls=500, synchronous=True)
    print(f"vector_add of 16 floats: C++ {cpp}, Python {python}")
    assert python.cpu - cpp.cpu < 60e-6  # CPU time of the calling thread; the target is 20 us, the margin for noise


def test_ops_wait_for_wait_for_and_for_arrays_of_other_queues(queue):
    x = cl_array.to_device(queue, np.arange(1000, dtype=np.float32))
    queue.finish()
    for make_call in (
        lambda gate: tilecl.vector_add(x, x, wait_for=[gate]),
        lambda gate: (x.add_event(gate), tilecl.vector_add(x, x, queue=cl.CommandQueue(queue.context)))[1],
    ):
        gate = cl.UserEvent(queue.context)
        result = make_call(gate)
        event = result.events[-1]
        time.sleep(0.2)  # long enough for a call that did not wait to have finished
        assert event.command_execution_status != cl.command_execution_status.COMPLETE
        gate.set_status(cl.command_execution_status.COMPLETE)
        event.wait()
        np.testing.assert_array_equal(result.get(), 2 * np.arange(1000, dtype=np.float32))
        x.events.clear()


def test_the_readme_quick_start_runs(queue):
    readme = open(os.path.join(os.path.dirname(__file__), "..", "..", "README.md")).read()
    block = readme.split("**Quick start** (run by the tests", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    names = {}
    exec(compile(block, "README.md", "exec"), names)
    assert names["blurred"].shape == (480, 640, 3) and names["smooth"].shape == (480, 640)
    np.testing.assert_allclose(names["c"].get(), names["product"], rtol=1e-4, atol=1e-4)
