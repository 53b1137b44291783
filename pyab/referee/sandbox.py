"""The operating-system sandbox of ``--untrusted``: a program under test
(any route: ``--python``, ``--exec``, ``--program``) runs in namespaces of
its own, with a private copy of its folder and nothing else of the machine's.

A :class:`Sandbox` is one submission's confinement:

* a private, writable **copy of the submission folder**, mounted where the
  folder is (so the program's own paths keep working) and the only place it
  can write, besides an empty ``/tmp``; pyab's package and the reference
  programs are never copied, even when they sit inside that folder;
* the few files pyab's own child code needs (``pychild.py``, ``child.pl``),
  *shipped*: copied into a folder of their own, mounted read-only;
* read-only system paths (``/usr`` and its links, the interpreter's prefix,
  the dynamic loader's cache), and nothing else: no ``/home``, ``/root``,
  ``/etc/passwd``, no other submission, no pyab package (hidden by an empty
  mount even where it is installed under ``/usr``);
* its own user, pid, network, mount, ipc and uts namespaces (no network
  at all, no way to see, signal or trace pyab), a fresh ``/proc``, a clean
  environment, and, when pyab runs as root, the user ``nobody`` outside the
  namespace (so that the process limit holds: the kernel does not apply
  ``RLIMIT_NPROC`` to root).

Two ways to get there, the first that works on this machine:
`bubblewrap <https://github.com/containers/bubblewrap>`_ (``bwrap``; Debian
package ``bubblewrap``), an allow-list of mounts; else util-linux's
``unshare`` with a small mount script: every top-level folder but the
system ones covered by an empty tmpfs, the copy bound back, and all
capabilities dropped (``setpriv``) so the program cannot unmount the covers.
``PYAB_SANDBOX=bwrap|unshare`` picks one (tests compare them).  When neither
works, :func:`backend` raises :class:`SandboxUnavailable`: an ``--untrusted``
run is refused, never run unconfined.

The limits (rlimits, deadlines) are set by :class:`~pyab.referee.child.Child`;
:data:`LIMITS` are their defaults under ``--untrusted``.
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

from ..errors import Error

__all__ = ["LIMITS", "Sandbox", "SandboxUnavailable", "backend"]

# What an --untrusted child gets unless told otherwise: seconds a search,
# MB of address space, CPU seconds, processes (on top of those running),
# MB a written file, open files, and seconds of wall clock for the whole run.
LIMITS = {"timeout": 10.0, "memory_mb": 1024, "cpu_seconds": 600, "nproc": 32, "fsize_mb": 16,
          "nofile": 64, "wall_seconds": 1800.0}

COPY_LIMIT = 64 * 1024 * 1024   # bytes of a submission folder copied, at most
COPY_FILES = 5000               # files of it, at most
NOBODY = 65534

# Mounted read-only when present (links stay links: Debian's /bin -> usr/bin).
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
       "/etc/localtime", "/etc/mime.types")
PATH = "/usr/local/bin:/usr/bin:/bin"
TOOLS = {"bwrap": "bwrap", "unshare": "unshare"}  # the commands, by name


class SandboxUnavailable(Error):
    """``--untrusted`` was asked for and no isolation can be had here."""


_BACKEND: dict[str, str] = {}


def _base() -> str:
    """Where a sandbox's folder goes: the temporary folder, or /tmp when the
    child runs as nobody and cannot pass through the temporary folder (a
    TMPDIR of root's own)."""
    tmp = Path(tempfile.gettempdir()).resolve()
    if os.geteuid() != 0 or all(os.stat(p).st_mode & 0o001 for p in (tmp, *tmp.parents)):
        return str(tmp)
    return "/tmp"


def _drop() -> dict:
    """Popen arguments that run the child as ``nobody`` when pyab is root."""
    if os.geteuid() != 0:
        return {}
    return {"user": NOBODY, "group": NOBODY, "extra_groups": []}


def backend() -> str:
    """"bwrap" or "unshare": the first that confines a trial ``true`` here
    (cached).  :raises SandboxUnavailable: naming what to install."""
    wanted = os.environ.get("PYAB_SANDBOX", "")
    if wanted in _BACKEND:
        return _BACKEND[wanted]
    tried = []
    for name in ([wanted] if wanted else ["bwrap", "unshare"]):
        if name not in ("bwrap", "unshare"):
            raise SandboxUnavailable(f"PYAB_SANDBOX={wanted!r}: the sandboxes are bwrap and unshare")
        with tempfile.TemporaryDirectory(prefix="pyab-probe-", dir=_base()) as d:
            os.chmod(d, 0o755)
            box = Sandbox(d, kind=name, probe=True)
            try:
                done = subprocess.run(box.command(["/bin/true"], d), capture_output=True,
                                      timeout=20, env=box.env(), **_drop())
                ok, why = done.returncode == 0, done.stderr.decode("utf-8", "replace").strip()
            except (OSError, subprocess.TimeoutExpired) as err:
                ok, why = False, str(err)
            finally:
                box.cleanup()
        if ok:
            _BACKEND[wanted] = name
            return name
        tried.append(f"{name}: {why.splitlines()[-1] if why else 'failed'}")
    raise SandboxUnavailable(
        "--untrusted needs an operating-system sandbox and none works here ("
        + "; ".join(tried) + "): install bubblewrap (apt-get install bubblewrap) or allow "
        "unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1); "
        "pyab does not run untrusted code unconfined")


def _hidden() -> list[str]:
    """pyab's package and the reference programs: never visible inside."""
    from ..resources import prolog_dir
    here = Path(__file__).resolve().parent.parent
    return sorted({str(here), str(Path(prolog_dir()).resolve())})


def _copy(folder: Path, dest: Path) -> None:
    """The submission folder, copied (links as links), minus pyab's own
    files; refused when it is too big to be one submission."""
    hidden = {Path(p) for p in _hidden()}
    size = files = 0

    def ignore(dirpath: str, names: list[str]) -> list[str]:
        nonlocal size, files
        skip = []
        for n in names:
            p = Path(dirpath, n)
            if p.resolve() in hidden or n in ("__pycache__", ".git"):
                skip.append(n)
                continue
            try:
                st = p.lstat()
            except OSError:
                skip.append(n)
                continue
            if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode) or stat.S_ISLNK(st.st_mode)):
                skip.append(n)  # a pipe, socket or device: not part of a submission
                continue
            size += st.st_size
            files += 1
        if size > COPY_LIMIT or files > COPY_FILES:
            raise SandboxUnavailable(
                f"--untrusted: the submission folder {folder} holds more than "
                f"{COPY_LIMIT // 2**20} MB or {COPY_FILES} files, too much to copy for one "
                "program; run pyab from the submission's own folder")
        return skip
    try:
        shutil.copytree(folder, dest, symlinks=True, ignore=ignore)
    except (shutil.Error, OSError) as err:
        raise SandboxUnavailable(f"--untrusted: cannot copy the submission folder {folder}: "
                                 f"{err}") from None


class Sandbox:
    """One submission's confinement (see the module docstring).

    ``folder`` is the submission's folder (copied); ``ship`` files pyab's
    child code needs, copied read-only, each a path (kept by its name) or a
    (path, relative name) pair (for files that find each other by relative
    paths): :meth:`shipped` gives their paths as the program sees them.  :meth:`command` wraps an argv; :meth:`env`
    is the environment to start it with; :meth:`cleanup` removes the copy.
    """

    def __init__(self, folder: str | os.PathLike, *, ship: tuple[str | tuple[str, str], ...] = (),
                 kind: str | None = None, probe: bool = False):
        self.folder = Path(folder).resolve()
        if str(self.folder) in ("/",) + SYSTEM or not self.folder.is_dir():
            raise SandboxUnavailable(f"--untrusted: {self.folder} cannot be a submission folder")
        self.kind = kind or backend()
        self.root = Path(tempfile.mkdtemp(prefix="pyab-sandbox-", dir=_base()))
        os.chmod(self.root, 0o711)  # nobody passes through, lists nothing
        self.work = self.root / "work"
        self.helpers = self.root / "ship"
        try:
            if probe:
                self.work.mkdir()
            else:
                _copy(self.folder, self.work)
            self.helpers.mkdir(mode=0o755)
            self._shipped = {}
            for item in ship:
                source, name = item if isinstance(item, tuple) else (item, Path(item).name)
                target = self.helpers / name
                for d in reversed(target.relative_to(self.helpers).parents[:-1]):
                    (self.helpers / d).mkdir(mode=0o755, exist_ok=True)
                shutil.copyfile(source, target)
                os.chmod(target, 0o644)
                self._shipped[name] = str(target)
            if os.geteuid() == 0:  # the child runs as nobody: its copy is nobody's
                for dirpath, dirs, names in os.walk(self.work):
                    for n in [dirpath, *(os.path.join(dirpath, x) for x in dirs + names)]:
                        os.lchown(n, NOBODY, NOBODY)
        except BaseException:
            self.cleanup()
            raise

    def shipped(self, name: str) -> str:
        """The path of a shipped file, inside the sandbox as outside."""
        return self._shipped[name]

    def popen_args(self) -> dict:
        """Extra :class:`subprocess.Popen` arguments (the user to run as)."""
        return _drop()

    def env(self) -> dict:
        """The sandbox tool's own environment (the program's is set inside)."""
        return {"PATH": PATH, "LANG": "C.UTF-8"}

    def inner_env(self) -> dict:
        return {"PATH": PATH, "LANG": "C.UTF-8", "HOME": str(self.folder), "TMPDIR": "/tmp"}

    def command(self, argv: list[str], cwd: str | os.PathLike | None = None) -> list[str]:
        """``argv`` wrapped to run confined, in ``cwd`` when that is in the
        submission folder, else in the folder."""
        cwd = str(Path(cwd).resolve()) if cwd else ""
        if not (cwd == str(self.folder) or cwd.startswith(str(self.folder) + "/")):
            cwd = str(self.folder)
        if self.kind == "bwrap":
            return self._bwrap(argv, cwd)
        return self._unshare(argv, cwd)

    def _extra_ro(self, argv: list[str]) -> list[str]:
        """The program itself, read-only, when it is named by an absolute
        path outside the system folders and the submission's (a compiled
        grader-side client, say); commands are found on the sandbox's PATH."""
        p = argv[0] if argv and os.path.isabs(argv[0]) else ""
        if not p or any(p.startswith(s + "/") for s in SYSTEM) or p.startswith(str(self.folder) + "/"):
            return []
        real = str(Path(p).resolve())
        return [real] if Path(real).is_file() and not _under_hidden(real) else []

    def _masks(self) -> list[str]:
        """pyab's own folders that a system mount would show: covered."""
        return [h for h in _hidden() if any(h.startswith(s + "/") for s in SYSTEM)]

    def _bwrap(self, argv: list[str], cwd: str) -> list[str]:
        cmd = [TOOLS["bwrap"], "--unshare-all", "--die-with-parent", "--new-session",
               "--cap-drop", "ALL", "--hostname", "sandbox"]
        for s in SYSTEM:
            if os.path.islink(s):
                cmd += ["--symlink", os.readlink(s), s]
            elif os.path.isdir(s):
                cmd += ["--ro-bind", s, s]
        for e in ETC:
            cmd += ["--ro-bind-try", e, e]
        for p in self._extra_ro(argv):
            cmd += ["--ro-bind", p, p]
        cmd += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
        for h in self._masks():
            cmd += ["--tmpfs", h, "--remount-ro", h]
        cmd += ["--ro-bind", str(self.helpers), str(self.helpers),
                "--bind", str(self.work), str(self.folder), "--chdir", cwd, "--clearenv"]
        for k, v in self.inner_env().items():
            cmd += ["--setenv", k, v]
        return cmd + ["--", *argv]

    def _unshare(self, argv: list[str], cwd: str) -> list[str]:
        q = shlex.quote
        keep = {"proc", "dev", "sys", "mnt"} | {s.lstrip("/") for s in SYSTEM}
        lines = ["set -e", "mount -t tmpfs -o mode=755 none /mnt",
                 "mkdir /mnt/w /mnt/h /mnt/e",
                 f"mount --bind {q(str(self.work))} /mnt/w",
                 f"mount --bind {q(str(self.helpers))} /mnt/h",
                 "mount -o remount,ro,bind /mnt/h"]
        for e in ETC:
            lines.append(f"if [ -e {e} ]; then mkdir -p /mnt/e{os.path.dirname(e)}; "
                         f"cp -R -P {e} /mnt/e{e}; fi")
        for entry in sorted(os.listdir("/")):
            p = "/" + entry
            if entry in keep or os.path.islink(p):
                continue
            if os.path.isdir(p):
                lines.append(f"mount -t tmpfs -o mode=755 none {q(p)}")
            elif os.path.isfile(p):  # a file at the top (a container's notes): emptied
                lines.append(f"mount --bind /dev/null {q(p)}")
        lines.append("[ -d /mnt/e/etc ] && cp -R -P /mnt/e/etc/. /etc/ || true")
        for h in self._masks():
            lines.append(f"mount -t tmpfs -o ro,mode=755 none {q(h)}")
        lines += [f"mkdir -p {q(str(self.folder))} {q(str(self.helpers))}",
                  f"mount --bind /mnt/w {q(str(self.folder))}",
                  f"mount --bind /mnt/h {q(str(self.helpers))}",
                  "mount -t tmpfs -o mode=755 none /mnt",
                  "chmod 1777 /tmp",
                  f"cd {q(cwd)}",
                  "exec setpriv --no-new-privs --inh-caps=-all --bounding-set=-all -- "
                  "env -i " + " ".join(q(f"{k}={v}") for k, v in self.inner_env().items())
                  + ' "$@"']
        return [TOOLS["unshare"], "--user", "--map-root-user", "--net", "--pid", "--fork", "--kill-child",
                "--mount", "--ipc", "--uts", "--mount-proc", "--propagation", "private", "--",
                "/bin/sh", "-c", "\n".join(lines), "sh", *argv]

    def cleanup(self) -> None:
        """Remove the copy (after the child and all it started are gone)."""
        shutil.rmtree(self.root, ignore_errors=True)


def _under_hidden(path: str) -> bool:
    return any(path == h or path.startswith(h + "/") for h in _hidden())


def limits(timeout: float | None, memory_mb: int | None) -> dict:
    """:class:`~pyab.referee.child.Child` limits under ``--untrusted``:
    :data:`LIMITS`, with the timeout and memory the user gave."""
    out = dict(LIMITS)
    if timeout is not None:
        out["timeout"] = timeout
    if memory_mb is not None:
        out["memory_mb"] = memory_mb
    return out


def python_child(spec: str, interface: str, course: Path | None = None) -> tuple[list[str], Sandbox]:
    """The confined ``--python`` child: the system's ``python3 -I`` (no
    current folder, user site or ``PYTHON*`` variables on its path) running
    a shipped copy of ``pychild.py`` (it needs nothing else of pyab) on the
    submission, whose folder is the file's, or the current one for a
    ``module:func``."""
    target, _, name = spec.rpartition(":")
    ship: tuple[str | tuple[str, str], ...] = (str(Path(__file__).with_name("pychild.py")),)
    if interface == "cs188":  # the util, game and pacman a CS188 agent imports, beside it
        framework = Path(__file__).with_name("cs188_framework")
        ship += tuple((str(f), f"cs188_framework/{f.name}") for f in sorted(framework.glob("*.py")))
    if course is not None:  # the course's own modules (--cs188-framework), read-only
        ship += tuple((str(f), f"cs188_course/{f.name}") for f in sorted(course.glob("*.py")))
    if target.endswith(".py"):
        path = Path(target).resolve()
        box = Sandbox(path.parent, ship=ship)
        spec = f"{path}:{name}"
    else:
        box = Sandbox(os.getcwd(), ship=ship)
    argv = ["python3", "-I", box.shipped("pychild.py"), spec, "--interface", interface]
    if course is not None:
        argv += ["--framework", str(Path(box.shipped("cs188_course/util.py")).parent)]
    return argv, box


def exec_child(argv: list[str]) -> tuple[list[str], Sandbox]:
    """The confined ``--exec`` child: the command, in a copy of the current
    folder, found on the sandbox's PATH (system folders only)."""
    return list(argv), Sandbox(os.getcwd())
