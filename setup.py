"""Only what pyproject.toml cannot say: the Prolog programs (prolog/) and the
example trees (examples/) stay where the README and the SWI-Prolog REPL use
them, at the top of the checkout, and ship inside the package as
``pyab/_prolog`` and ``pyab/_examples`` (found with importlib.resources; see
pyab/resources.py); and the optional C extensions pyab.dsl._cscan and pyab.prolog._cload."""

from setuptools import Extension, find_packages, setup

DATA = {"pyab._prolog": "prolog", "pyab._examples": "examples"}

setup(
    packages=find_packages(include=["pyab", "pyab.*"]) + list(DATA),
    package_dir=DATA,
    package_data={
        "pyab": ["py.typed"],
        "pyab.dsl": ["grammar.lark"],
        "pyab._prolog": ["**/*.pl", "**/*.json", "**/*.csv", "**/*.tsv"],
        "pyab._examples": ["**/*.tree", "**/*.pl", "**/*.md", "**/*.py", "**/*.js", "**/*.ipynb"],
    },
    # The compiled scanner of the DSL (pyab/dsl/_cscan.c, see pyab/dsl/reader.py): optional,
    # so that pyab installs without a C compiler and reads trees on its
    # pure-Python paths.
    # The loader that asserts a fact tree's clauses from C (pyab/prolog/_cload.c, see
    # pyab/prolog/bridge.py): optional too, and it needs neither SWI-Prolog's headers
    # nor its library at build time (it takes the functions' addresses from
    # the library pyab starts); without it trees load with load_packed/3.
    ext_modules=[Extension("pyab.dsl._cscan", ["pyab/dsl/_cscan.c"], optional=True,
                           extra_compile_args=["-O2"]),
                 Extension("pyab.prolog._cload", ["pyab/prolog/_cload.c"], optional=True,
                           extra_compile_args=["-O2"])],
)
