"""Only what pyproject.toml cannot say: the Prolog programs (prolog/), the
example trees (examples/) and the documentation (docs/) stay where the README
and the SWI-Prolog REPL use them, at the top of the checkout, and ship inside
the package as ``pyab/_prolog``, ``pyab/_examples`` and ``pyab/_docs`` (found
beside the package's files; see pyab/resources.py); the version and the
licence (set here, neither old nor new setuptools warns: the table form of
``project.license`` is deprecated from setuptools 77, the string form unknown
before it, and ``[tool.setuptools]`` is "beta" before 68); and the optional C
extensions pyab.dsl._cscan and pyab.prolog._cload."""

import re
from pathlib import Path

from setuptools import Extension, find_namespace_packages, find_packages, setup

VERSION = re.search(r'^__version__ = "([^"]+)"', Path(__file__).with_name("pyab").joinpath(
    "__init__.py").read_text(encoding="utf-8"), re.M).group(1)

# Each data folder and every subfolder of it is a package of its own, listed
# here: setuptools treats every directory as a package, and a coming version
# leaves out the files of a folder that is not listed.
DATA = {"pyab._prolog": "prolog", "pyab._examples": "examples", "pyab._docs": "docs"}
FILES = {"pyab._prolog": ["*.pl", "*.json", "*.csv", "*.tsv"],
         "pyab._examples": ["*.tree", "*.pl", "*.md", "*.py", "*.js", "*.ipynb", "*.toml", "*.test",
                            "*.solution"],
         "pyab._docs": ["*.md", "*.json", "*.svg", "*.txt"]}
# The plunit files that run outside the checkout (the others read
# tests/vectors/, which is not installed): `swipl -g run_tests -t halt
# .../_prolog/tests/all.pl` runs them from a wheel.  The pack ships the same
# (the Makefile's PACK_TESTS; tests/test_package.py holds the two equal).
INSTALLED_TESTS = ["all.pl", "alphabeta.plt", "variants.plt", "tree_dsl.plt"]


def data_packages() -> dict[str, list[str]]:
    packages = {}
    for package, folder in DATA.items():
        packages[package] = FILES[package]
        for sub in find_namespace_packages(where=folder, exclude=["*__pycache__*"]):
            packages[f"{package}.{sub}"] = FILES[package]
    packages["pyab._prolog.tests"] = INSTALLED_TESTS
    return packages


DATA_PACKAGES = data_packages()

setup(
    packages=find_packages(include=["pyab", "pyab.*"]) + list(DATA_PACKAGES),
    package_dir=DATA,
    package_data={"pyab": ["py.typed"], "pyab.dsl": ["grammar.lark"],
                  "pyab.render.assets": ["*.js", "*.css"], **DATA_PACKAGES},
    version=VERSION,
    license="MIT",
    # The compiled scanner of the DSL (pyab/dsl/_cscan.c, see pyab/dsl/reader.py): optional,
    # so that pyab installs without a C compiler and reads trees on its
    # pure-Python paths.
    # The loader that asserts a fact tree's clauses from C (pyab/prolog/_cload.c, see
    # pyab/prolog/bridge.py): optional too, and it needs neither SWI-Prolog's headers
    # nor its library at build time (it takes the functions' addresses from
    # the library pyab starts); without it trees load with load_packed/3.
    ext_modules=[Extension("pyab.dsl._cscan", ["pyab/dsl/_cscan.c"], optional=True,
                           extra_compile_args=["-O2"]),
                 Extension("pyab.prolog._cload", ["pyab/prolog/_cload.c", "pyab/prolog/_crecord.c",
                                                "pyab/prolog/_ctable.c"],
                           optional=True,
                           depends=["pyab/prolog/_swi.h"], extra_compile_args=["-O2"])],
)
