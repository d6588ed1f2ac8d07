"""What tilecl keeps on disk: compiled programs and tuning databases under the cache directory (the ``tilecl
cache`` command's functions). The in-memory side is in the package itself (:func:`tilecl.clear_program_cache`,
:func:`tilecl.cache_sizes`)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import List, Union

from . import _core


@dataclass(frozen=True)
class ProgramCacheEntry:
    """Compiled programs of one device: its fingerprint, the number of files and their size."""

    fingerprint: str
    files: int
    bytes: int


@dataclass(frozen=True)
class TuningDatabaseEntry:
    """One tuning database: its file, device, entries, recorded failures, and ``problem`` (empty when valid)."""

    path: str
    fingerprint: str
    device: str
    driver_version: str
    entries: int
    failures: int
    problem: str


def directory() -> str:
    """The cache directory in use; empty when TILECL_CACHE=off."""
    return _core.cache_directory()


def programs() -> List[ProgramCacheEntry]:
    """The compiled programs on disk, per device."""
    return [ProgramCacheEntry(**entry) for entry in _core.list_program_cache()]


def tuning_databases() -> List[TuningDatabaseEntry]:
    """The tuning databases on disk."""
    return [TuningDatabaseEntry(**entry) for entry in _core.list_tuning_databases()]


def clear(*, programs: bool = True, tuning: bool = True) -> int:
    """Deletes compiled programs and/or tuning databases; returns the number of files removed."""
    removed = _core.clear_program_cache_files() if programs else 0
    return removed + (_core.clear_tuning_databases() if tuning else 0)


def export_tuning(path: Union[str, "os.PathLike[str]"]) -> int:
    """Writes every tuning database into one bundle file; returns how many."""
    return _core.export_tuning(os.fspath(path))


def import_tuning(path: Union[str, "os.PathLike[str]"]) -> int:
    """Merges the databases of a bundle written by :func:`export_tuning`; returns how many."""
    return _core.import_tuning(os.fspath(path))
