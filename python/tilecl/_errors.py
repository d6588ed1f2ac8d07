"""Exceptions: tilecl's C++ errors and the Python layer's own checks, in one hierarchy.

Every message reads like the C++ library's: ``tilecl::<op>: <argument>: <detail> [<CL_ERROR_NAME>]``.
"""

from __future__ import annotations

from typing import NoReturn, Type

CL_INVALID_VALUE = -30


class Error(Exception):
    """A failure tilecl reports: bad input, a failed enqueue, a driver error.

    Attributes: ``op`` (``"gaussian_blur"``), ``argument`` (``"sigma"``), ``status`` (the OpenCL status code,
    e.g. -30) and ``status_name`` (``"CL_INVALID_VALUE"``). ``str(error)`` is tilecl's message.
    """

    def __init__(
        self,
        message: str,
        op: str = "",
        argument: str = "",
        status: int = CL_INVALID_VALUE,
        status_name: str = "CL_INVALID_VALUE",
    ) -> None:
        super().__init__(message)
        self.op = op
        self.argument = argument
        self.status = status
        self.status_name = status_name


class BuildError(Error):
    """A kernel program failed to compile: ``family``, ``options`` (the -D options) and the compiler's ``log``."""

    def __init__(
        self,
        message: str,
        op: str = "",
        argument: str = "",
        status: int = 0,
        status_name: str = "",
        family: str = "",
        options: str = "",
        log: str = "",
    ) -> None:
        super().__init__(message, op, argument, status, status_name)
        self.family = family
        self.options = options
        self.log = log


class ArgumentTypeError(Error, TypeError):
    """An array of an element type the op does not take (raised before anything is enqueued)."""


class ArgumentValueError(Error, ValueError):
    """An array of a shape or memory layout the op cannot take, or a bad option (raised before anything is
    enqueued)."""


def refuse(op: str, argument: str, detail: str, kind: Type[Error] = ArgumentValueError) -> NoReturn:
    """Raises ``kind`` with tilecl's message format and status CL_INVALID_VALUE."""
    raise kind(f"tilecl::{op}: {argument}: {detail} [CL_INVALID_VALUE]", op, argument)


def from_library(
    kind: str, message: str, op: str, argument: str, status: int, status_name: str, family: str, options: str, log: str
) -> Error:
    """The exception for a tilecl::Error (``kind`` "error") or tilecl::BuildError ("build") raised in C++."""
    if kind == "build":
        return BuildError(message, op, argument, status, status_name, family, options, log)
    return Error(message, op, argument, status, status_name)
