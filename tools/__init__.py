"""Tools for pyab's maintainers, not shipped in the wheel: they write
generated pages of docs/ (``python -m tools.algorithms_doc``)."""
