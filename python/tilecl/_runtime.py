"""Devices and the runtime's in-memory state (include/tilecl/device.hpp and runtime.hpp)."""

from __future__ import annotations

from typing import Any, Dict

import pyopencl as cl

from . import _core


def version() -> str:
    """The C++ library's version, which is the package's."""
    return _core.version()


def select_device(platform: str = "", device: str = "") -> cl.Device:
    """A device by index or case-insensitive name substring of platform and device; empty selectors fall back to
    TILECL_PLATFORM / TILECL_DEVICE, then to the first. Raises :class:`tilecl.Error` listing what is available
    when nothing matches."""
    return cl.Device.from_int_ptr(_core.select_device(platform, device))


def device_info(device: cl.Device) -> Dict[str, Any]:
    """What tilecl knows about a device: identity, fingerprint and limits (the fields of ``tilecl devices
    --json``; ``type`` as CL_DEVICE_TYPE_* bits), plus ``extensions``."""
    return _core.device_info(device.int_ptr)


def statistics() -> Dict[str, float]:
    """Counters since the process started or :func:`reset_statistics`: memory_hits, disk_hits, disk_writes,
    disk_rejects, compiles, compile_seconds, tunings, tuning_seconds, tuning_db_hits."""
    return _core.statistics()


def reset_statistics() -> None:
    """Sets every counter of :func:`statistics` to zero."""
    _core.reset_statistics()


def cache_directory() -> str:
    """The cache directory ($TILECL_CACHE_DIR, else $XDG_CACHE_HOME/tilecl, else ~/.cache/tilecl); empty when
    TILECL_CACHE=off."""
    return _core.cache_directory()


def clear_program_cache() -> None:
    """Drops every compiled program held in memory (the disk cache is kept)."""
    _core.clear_program_cache()


def forget_context(context: cl.Context) -> None:
    """Drops everything tilecl keeps for ``context`` (programs, workspaces, tuning queue)."""
    _core.forget_context(context.int_ptr)


def cache_sizes() -> Dict[str, int]:
    """What the in-memory caches hold: contexts, context_limit, programs, workspaces, tuning_queues."""
    return _core.cache_sizes()
