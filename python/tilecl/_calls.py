"""What every op on PyOpenCL arrays does around the C++ call: find the queue, collect the events to wait for,
allocate outputs, turn arrays into (buffer handle, element offset), and attach the returned event."""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Sequence, Tuple

import pyopencl as cl
import pyopencl.array as cl_array

from ._errors import ArgumentTypeError, refuse
from ._layout import element_offset


def queue_of(op: str, arrays: Sequence[Any], queue: Optional[cl.CommandQueue]) -> cl.CommandQueue:
    """``queue`` if given, else the queue of the first array that has one."""
    if queue is not None:
        return queue
    for array in arrays:
        if array is not None and getattr(array, "queue", None) is not None:
            return array.queue
    refuse(op, "queue", "no array has a queue: pass queue=")


def device_array(op: str, argument: str, array: Any) -> cl_array.Array:
    """The array, which must be a pyopencl.array.Array (NumPy arrays go through tilecl.numpy)."""
    if not isinstance(array, cl_array.Array):
        refuse(
            op,
            argument,
            f"{type(array).__name__} is not a pyopencl.array.Array (for NumPy arrays use tilecl.numpy)",
            ArgumentTypeError,
        )
    return array


def wait_handles(queue: cl.CommandQueue, arrays: Iterable[Any], wait_for: Optional[Sequence[cl.Event]]) -> List[int]:
    """``wait_for``, plus the events of arrays that belong to another queue, or of every array when ``queue``
    runs out of order, as handles. An in-order queue orders the commands on its own arrays already (PyOpenCL's
    own ops wait only for ``wait_for``), and making each call wait for the previous one's pending event held
    PoCL to one call at a time: 196 instead of 46 us per call of a tiny vector_add in a loop."""
    handles = [event.int_ptr for event in wait_for or ()]
    in_order = not queue.properties & cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE
    for array in arrays:
        if array is not None and array.events and not (in_order and array.queue == queue):
            handles.extend(event.int_ptr for event in array.events)
    return handles


def place(op: str, argument: str, array: Any) -> Tuple[int, int]:
    """(buffer handle, element offset); an empty array may have no buffer (tilecl checks none for zero sizes)."""
    buffer = array.base_data
    return (buffer.int_ptr if buffer is not None else 0), element_offset(op, argument, array)


def new_array(queue: cl.CommandQueue, shape: Tuple[int, ...], dtype: Any, like: Any) -> cl_array.Array:
    """An uninitialised output array on ``queue`` (with the allocator of ``like``)."""
    return cl_array.empty(queue, shape, dtype, allocator=like.allocator)


def attach(handle: int, outputs: Sequence[cl_array.Array]) -> Optional[cl.Event]:
    """Wraps the event tilecl returned (its reference is handed over) and adds it to each output's events. A
    zero-sized problem returns no event."""
    if not handle:
        return None
    event = cl.Event.from_int_ptr(handle, retain=False)
    for output in outputs:
        output.add_event(event)
    return event
