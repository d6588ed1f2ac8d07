# Type stubs of the extension module tilecl._core (python/src/*.cpp). It is private: the package's modules
# validate arrays and pass PyOpenCL objects as handles (their int_ptr). Ops return the handle of their last
# event with one reference for the caller (0 for a zero-sized problem). Borders, reductions, layouts and
# transposes are the C++ enumerators' values; dtype is a NumPy dtype name.
from typing import Any, Dict, List, Optional, Sequence, Tuple

Handle = int
ImagePlace = Tuple[Handle, int, int]  # buffer, element offset, pitch in elements
ImageSize = Tuple[int, int, int]  # width, height, channels
Taps = Tuple[Handle, int, int, int]  # buffer, element offset, width, height

def cl_error_name(status: int) -> str: ...
def vector_add(
    dtype: str,
    queue: Handle,
    n: int,
    a: Handle,
    a_offset: int,
    b: Handle,
    b_offset: int,
    c: Handle,
    c_offset: int,
    wait: Sequence[Handle],
) -> Handle: ...
def axpy(
    dtype: str,
    queue: Handle,
    n: int,
    alpha: float,
    x: Handle,
    x_offset: int,
    y: Handle,
    y_offset: int,
    wait: Sequence[Handle],
) -> Handle: ...
def transpose(
    dtype: str,
    queue: Handle,
    rows: int,
    cols: int,
    input: Handle,
    in_offset: int,
    ld_in: int,
    out: Handle,
    out_offset: int,
    ld_out: int,
    wait: Sequence[Handle],
) -> Handle: ...
def reduce(
    dtype: str,
    queue: Handle,
    op: int,
    n: int,
    x: Handle,
    x_offset: int,
    result: Handle,
    result_offset: int,
    wait: Sequence[Handle],
) -> Handle: ...
def gemm(
    dtype: str,
    queue: Handle,
    math: int,
    layout: int,
    trans_a: int,
    trans_b: int,
    m: int,
    n: int,
    k: int,
    alpha: float,
    a: Handle,
    a_offset: int,
    lda: int,
    b: Handle,
    b_offset: int,
    ldb: int,
    beta: float,
    c: Handle,
    c_offset: int,
    ldc: int,
    wait: Sequence[Handle],
) -> Handle: ...
def gemv(
    dtype: str,
    queue: Handle,
    layout: int,
    trans: int,
    m: int,
    n: int,
    alpha: float,
    a: Handle,
    a_offset: int,
    lda: int,
    x: Handle,
    x_offset: int,
    incx: int,
    beta: float,
    y: Handle,
    y_offset: int,
    incy: int,
    wait: Sequence[Handle],
) -> Handle: ...
def gemm_strided_batched(
    dtype: str,
    queue: Handle,
    layout: int,
    trans_a: int,
    trans_b: int,
    m: int,
    n: int,
    k: int,
    alpha: float,
    a: Tuple[Handle, int, int, int],
    b: Tuple[Handle, int, int, int],
    beta: float,
    c: Tuple[Handle, int, int, int],
    batch_count: int,
    wait: Sequence[Handle],
) -> Handle: ...
def rgb_to_gray(
    dtype: str,
    queue: Handle,
    width: int,
    height: int,
    src: ImagePlace,
    dst: ImagePlace,
    weights: Tuple[float, float, float],
    wait: Sequence[Handle],
) -> Handle: ...
def convolve2d(
    dtype: str,
    queue: Handle,
    size: ImageSize,
    src: ImagePlace,
    dst: ImagePlace,
    taps: Taps,
    border: int,
    wait: Sequence[Handle],
) -> Handle: ...
def separable_filter(
    dtype: str,
    queue: Handle,
    size: ImageSize,
    src: ImagePlace,
    dst: ImagePlace,
    row: Taps,
    column: Taps,
    border: int,
    wait: Sequence[Handle],
) -> Handle: ...
def box_blur(
    dtype: str,
    queue: Handle,
    size: ImageSize,
    src: ImagePlace,
    dst: ImagePlace,
    radius_x: int,
    radius_y: int,
    border: int,
    wait: Sequence[Handle],
) -> Handle: ...
def gaussian_blur(
    dtype: str,
    queue: Handle,
    size: ImageSize,
    src: ImagePlace,
    dst: ImagePlace,
    sigma: float,
    border: int,
    radius: Optional[int],
    wait: Sequence[Handle],
) -> Handle: ...
def device_info(device: Handle) -> Dict[str, Any]: ...
def select_device(platform: str, device: str) -> Handle: ...
def statistics() -> Dict[str, float]: ...
def reset_statistics() -> None: ...
def cache_directory() -> str: ...
def clear_program_cache() -> None: ...
def forget_context(context: Handle) -> None: ...
def cache_sizes() -> Dict[str, int]: ...
def version() -> str: ...
def list_program_cache() -> List[Dict[str, Any]]: ...
def list_tuning_databases() -> List[Dict[str, Any]]: ...
def clear_program_cache_files() -> int: ...
def clear_tuning_databases() -> int: ...
def export_tuning(path: str) -> int: ...
def import_tuning(path: str) -> int: ...
def parameters_for(queue: Handle, op: str, dtype: str, shape: str) -> Dict[str, Any]: ...
def override_parameters(device: Handle, op: str, dtype: str, parameters: str) -> None: ...
def clear_tuning() -> None: ...
def tunable_ops() -> List[Dict[str, Any]]: ...
def tuning_mode() -> str: ...
def tune(
    queue: Handle, op: str, dtype: str, shape: str, budget_ms: float, strategy: str, seed: int, max_candidates: int
) -> Dict[str, Any]: ...
def time_vector_add(queue: Handle, n: int, a: Handle, b: Handle, c: Handle, calls: int, synchronous: bool) -> float: ...
