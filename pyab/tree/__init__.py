"""The game tree: its model (:class:`Tree`, :mod:`.model`) and the one
validated builder every tree goes through (:func:`build` and its fast
modes, :mod:`.builder`)."""

from .builder import (build, build_plain, build_preorder, check_window, from_nested,
                    nested_declarations, plain_values_ok, with_sides)
from .model import AnyTree, Number, Pos, Tree, TreeError

__all__ = ["AnyTree", "Number", "Pos", "Tree", "TreeError", "build", "build_plain", "build_preorder",
           "check_window", "from_nested", "nested_declarations", "plain_values_ok", "with_sides"]
