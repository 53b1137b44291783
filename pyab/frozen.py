"""Immutable value classes without importing ``dataclasses``.

:class:`~pyab.tree.Tree`, :class:`~pyab.result.Result` and
:class:`~pyab.search.Algorithm` were ``@dataclass(frozen=True)`` classes.
Importing ``dataclasses`` (and ``inspect``, which it imports) and making
their methods cost a cold ``pyab solve`` about 0.012 s CPU, a tenth of
it.  :class:`Frozen` gives them what the dataclass did, from one list of
fields (``_fields``): ``__repr__``, ``__eq__`` and ``__hash__`` over the
compared fields (a class may define its own), and ``__setattr__`` /
``__delattr__`` that raise ``dataclasses.FrozenInstanceError``.  Each class
writes its ``__init__`` out.  Instances keep their fields in ``__dict__``,
so pickles and copies are what they were.

For code that treats them as dataclasses (``dataclasses.fields``,
``replace``, ``asdict``, ``is_dataclass``), ``__dataclass_fields__`` and
``__dataclass_params__`` are made by the ``dataclasses`` module itself, from
the same list, the first time they are asked for.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["REQUIRED", "Factory", "Frozen"]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


#: The default of a field that has none.
REQUIRED: Any = _Required()


class Factory:
    """The default of a field made afresh for each instance (``default_factory``)."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


class _AsDataclass:
    """``__dataclass_fields__`` / ``__dataclass_params__``, made on first use:
    a dataclass with the same fields is made and its two attributes are
    kept on the class."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, cls: type) -> Any:
        if cls is Frozen:  # the base itself is no dataclass (and keeps the descriptor)
            raise AttributeError(self.name)
        import dataclasses
        ns: dict[str, Any] = {"__annotations__": {}, "__module__": cls.__module__,
                              "__qualname__": cls.__qualname__}
        hints: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            hints.update(getattr(klass, "__annotations__", {}))
        for name, default, compare, shown in cls._fields:  # type: ignore[attr-defined]
            ns["__annotations__"][name] = hints.get(name, "Any")
            kw: dict[str, Any] = {"compare": compare, "repr": shown}
            if isinstance(default, Factory):
                kw["default_factory"] = default.make
            elif default is not REQUIRED:
                kw["default"] = default
            ns[name] = dataclasses.field(**kw)
        twin: Any = dataclasses.dataclass(frozen=True, eq=cls.__eq__ is Frozen.__eq__)(
            type(cls.__name__, (), ns))
        cls.__dataclass_fields__ = twin.__dataclass_fields__  # type: ignore[attr-defined]
        cls.__dataclass_params__ = twin.__dataclass_params__  # type: ignore[attr-defined]
        return getattr(cls, self.name)


def _frozen(verb: str, name: str) -> AttributeError:
    from dataclasses import FrozenInstanceError
    return FrozenInstanceError(f"cannot {verb} field {name!r}")


class Frozen:
    """The base of an immutable value class: see the module docstring.

    ``_fields`` lists (name, default, compare, repr) in ``__init__``'s
    order; default is a value, :data:`REQUIRED` or a :class:`Factory`.
    """

    _fields: tuple[tuple[str, Any, bool, bool], ...] = ()

    __dataclass_fields__ = _AsDataclass()
    __dataclass_params__ = _AsDataclass()

    def _set(self, **values: Any) -> None:
        """Set the fields (for ``__init__`` only)."""
        self.__dict__.update(values)

    def _replace(self, **changes: Any) -> Any:
        """A copy with ``changes``: ``dataclasses.replace(self, **changes)``."""
        return type(self)(**{**{f[0]: getattr(self, f[0]) for f in self._fields}, **changes})

    def __setattr__(self, name: str, value: Any) -> None:
        raise _frozen("assign to", name)

    def __delattr__(self, name: str) -> None:
        raise _frozen("delete", name)

    def _compared(self) -> tuple:
        return tuple(getattr(self, f[0]) for f in self._fields if f[2])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._compared() == other._compared()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        shown = ", ".join(f"{f[0]}={getattr(self, f[0])!r}" for f in self._fields if f[3])
        return f"{type(self).__qualname__}({shown})"
