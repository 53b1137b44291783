"""The operating-system sandbox of ``--untrusted``: a program under test
(any route: ``--python``, ``--exec``, ``--program``) runs in namespaces of
its own, with a private copy of its folder and nothing else of the machine's.

A :class:`Sandbox` is one submission's confinement:

* a private, writable **copy of the submission folder**, mounted where the
  folder is (so the program's own paths keep working): pyab copies it
  (links that leave it, pyab's package and the reference programs never),
  and the sandbox fills the copy into a tmpfs of the disk budget (``--disk``);
  ``/tmp`` and a private ``/dev/shm`` are tmpfs of the same size, the only
  other writable places;
* the few files pyab's own child code needs (``pychild.py``, ``child.pl`` or its state),
  *shipped*: copied into a folder of their own, mounted read-only; the
  modules a teacher allows (:func:`allowed_modules`), bound read-only;
* read-only system paths (``/usr`` and its links, the dynamic loader's
  cache), and nothing else: no ``/home``, ``/root``, ``/sys``,
  ``/etc/passwd``, no other submission, no pyab package (hidden by an empty
  mount even where it is installed under ``/usr``);
* its own user, pid, network, mount, ipc and uts namespaces (no network
  at all, no way to see, signal or trace pyab), a fresh ``/proc``, a clean
  environment, and, when pyab runs as root, the user ``nobody`` outside the
  namespace;
* a memory and a pids cgroup of its own where pyab can make them
  (:meth:`Sandbox.budget`, :mod:`.cgroup`), and a system-call filter
  (:mod:`.seccomp`).

Two ways to get there, the first that works on this machine:
`bubblewrap <https://github.com/containers/bubblewrap>`_ (``bwrap``; Debian
package ``bubblewrap``), an allow-list of mounts; else util-linux's
``unshare`` with a small mount script: every top-level folder but the
system ones covered by an empty read-only tmpfs, the copy bound back, and
all capabilities dropped (``setpriv``) so the program cannot unmount the
covers.  ``PYAB_SANDBOX=bwrap|unshare`` picks one (tests compare them).
When neither works, :func:`backend` raises :class:`SandboxUnavailable`: an
``--untrusted`` run is refused, never run unconfined.  Every sandbox of a
run lives in that run's own folder (:func:`run_root`).

The limits (rlimits, deadlines) are set by :class:`~pyab.referee.child.Child`
(between fork and exec: :mod:`.supervise`); their defaults under
``--untrusted`` and a run's settings are :mod:`.limits`, what a child may see
of the machine :mod:`.allowed`.  docs/sandbox.md says what each part covers,
per backend.
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

from ..errors import Error
from .allowed import SYSTEM, hidden, inside, under_hidden, allowed_modules
from .limits import DISK_MB, LIMITS, FALLBACK_WHY, positive_int, fallback, limits, settings

__all__ = ["DISK_MB", "LIMITS", "Sandbox", "SandboxUnavailable", "allowed_modules", "backend",
           "exec_child", "fallback", "limits", "python_child", "run_root", "settings"]


TOOL_PIDS = 8                   # processes of the sandbox's own tools, on top of LIMITS["nproc"]
COPY_LIMIT = 64 * 1024 * 1024   # bytes of a submission folder copied, at most
COPY_FILES = 5000               # files of it, at most
NOBODY = 65534

ETC = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
       "/etc/localtime", "/etc/mime.types")
PATH = "/usr/local/bin:/usr/bin:/bin"
TOOLS = {"bwrap": "bwrap", "unshare": "unshare"}  # the commands, by name


# Run first inside the sandbox (sh -c FILL sh COPY FOLDER CWD ARGV...): the
# read-only copy of the folder filled into the folder's own sized tmpfs
# (the child's writable space is never the host's disk), then the program.
FILL = ('src=$1 dst=$2 cwd=$3; shift 3; cp -pR -- "$src"/. "$dst"/ '
        '|| { echo "pyab: cannot fill the sandbox folder" >&2; exit 125; }; '
        'cd -- "$cwd" && exec "$@"')


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


_RUN: dict = {"root": None, "pid": 0, "users": 0}
_RUN_LOCK = threading.Lock()


def run_root() -> str:
    """This run's own folder of sandboxes (``pyab-run-PID-*`` in the
    temporary folder): every sandbox (and probe) of the run lives inside it,
    so that runs sharing a machine (a test suite, another grader) never see
    or count each other's.  It is removed when the run's last sandbox is
    (:func:`_release_run_root`), so it is gone by the time pyab exits,
    however it exits (the command line skips ``atexit``)."""
    with _RUN_LOCK:
        if _RUN["pid"] != os.getpid() or not (_RUN["root"] and os.path.isdir(_RUN["root"])):
            root = tempfile.mkdtemp(prefix=f"pyab-run-{os.getpid()}-", dir=_base())
            os.chmod(root, 0o711)  # nobody passes through to its sandbox, lists nothing
            _RUN.update(root=root, pid=os.getpid(), users=0)
        _RUN["users"] += 1
        return _RUN["root"]


def _release_run_root() -> None:
    with _RUN_LOCK:
        if _RUN["pid"] != os.getpid():
            return
        _RUN["users"] -= 1
        if _RUN["users"] <= 0 and _RUN["root"]:
            shutil.rmtree(_RUN["root"], ignore_errors=True)
            _RUN.update(root=None, users=0)


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
        base = run_root()
        try:
            with tempfile.TemporaryDirectory(prefix="pyab-probe-", dir=base) as d:
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
        finally:
            _release_run_root()
        if ok:
            _BACKEND[wanted] = name
            return name
        tried.append(f"{name}: {why.splitlines()[-1] if why else 'failed'}")
    raise SandboxUnavailable(
        "--untrusted needs an operating-system sandbox and none works here ("
        + "; ".join(tried) + "): install bubblewrap (apt-get install bubblewrap) or allow "
        "unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1); "
        "pyab does not run untrusted code unconfined")


def _copy(folder: Path, dest: Path) -> None:
    """The submission folder, copied (links as links, and only those that
    stay inside it), minus pyab's own files; refused when it is too big to
    be one submission."""
    pyab_own = {Path(p) for p in hidden()}
    root = os.path.realpath(folder)
    size = files = 0

    def ignore(dirpath: str, names: list[str]) -> list[str]:
        nonlocal size, files
        skip = []
        for n in names:
            p = Path(dirpath, n)
            if n in ("__pycache__", ".git") or Path(os.path.realpath(p)) in pyab_own:
                skip.append(n)
                continue
            try:
                st = p.lstat()
            except OSError:
                skip.append(n)
                continue
            if stat.S_ISLNK(st.st_mode) and not inside(os.path.realpath(p), root):
                skip.append(n)  # a link leaving the submission: never copied, never followed
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
    paths): :meth:`shipped` gives their paths as the program sees them.
    ``disk_mb`` is the size of each writable tmpfs (default ``PYAB_DISK_MB``,
    else :data:`DISK_MB`); ``readonly`` more paths bound read-only where they
    are (allowed modules); ``cgroup`` and ``seccomp`` False leave out the
    budget and the filter (only to measure what they cost).
    :meth:`command` wraps an argv; :meth:`env` is the environment to start
    it with; :meth:`budget` makes the cgroups; :meth:`cleanup` removes the
    copy, the cgroups and the filter's descriptor.
    """

    def __init__(self, folder: str | os.PathLike, *, ship: tuple[str | tuple[str, str], ...] = (),
                 kind: str | None = None, probe: bool = False, disk_mb: int | None = None,
                 readonly: list[str] | tuple[str, ...] = (), cgroup: bool = True,
                 seccomp: bool = True):
        self.folder = Path(folder).resolve()
        if disk_mb is None:  # check --disk sets it for the run (its --jobs workers inherit it)
            disk_mb = positive_int(os.environ.get("PYAB_DISK_MB", "")) or DISK_MB
        self.disk_mb = disk_mb
        if self.disk_mb < 1:
            raise ValueError(f"a disk budget must be at least 1 MB, not {self.disk_mb!r}")
        self._budget: Any = None
        self._cgroup = cgroup
        self.readonly = list(readonly)  # more paths bound read-only where they are (modules)
        if str(self.folder) in ("/",) + SYSTEM or not self.folder.is_dir():
            raise SandboxUnavailable(f"--untrusted: {self.folder} cannot be a submission folder")
        self.kind = kind or backend()
        self._held = True  # a share of the run's root, given back at cleanup
        self.root = Path(tempfile.mkdtemp(prefix="pyab-sandbox-", dir=run_root()))
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
            self._filter_fd: int | None = None
            if seccomp and not probe:
                self._ship_filter()
            if os.geteuid() == 0:  # the child runs as nobody: its copy is nobody's
                for dirpath, dirs, names in os.walk(self.work):
                    for n in [dirpath, *(os.path.join(dirpath, x) for x in dirs + names)]:
                        os.lchown(n, NOBODY, NOBODY)
        except BaseException:
            self.cleanup()
            raise

    def _ship_filter(self) -> None:
        """The system-call filter (:mod:`.seccomp`), as each backend loads
        it: a memory file bubblewrap reads (``--seccomp FD``), or the filter
        and its loader shipped for the ``unshare`` script."""
        from . import seccomp
        try:
            program = seccomp.program()
        except ValueError as err:
            raise SandboxUnavailable(f"--untrusted: {err}") from None
        if self.kind == "bwrap":
            self._filter_fd = os.memfd_create("pyab-seccomp", os.MFD_CLOEXEC)
            os.write(self._filter_fd, program)
            os.lseek(self._filter_fd, 0, os.SEEK_SET)
            return
        shutil.copyfile(seccomp.__file__, self.helpers / "seccomp.py")
        (self.helpers / "seccomp.bpf").write_bytes(program)
        for n in ("seccomp.py", "seccomp.bpf"):
            os.chmod(self.helpers / n, 0o644)

    def shipped(self, name: str) -> str:
        """The path of a shipped file, inside the sandbox as outside."""
        return self._shipped[name]

    def budget(self, memory_mb: int | None) -> Any:
        """Make the child's own memory and pids cgroups (:mod:`.cgroup`),
        where this machine lets pyab: the memory limit is ``memory_mb`` plus
        the disk budget (its tmpfs pages are charged there too).  Returns
        the function the child runs between fork and exec to enter them, or
        None when the limits stay rlimits (:func:`fallback` says which)."""
        from . import cgroup
        if not self._cgroup or cgroup.available():
            return None
        memory = None if memory_mb is None else memory_mb + self.disk_mb
        try:
            self._budget = cgroup.Budget(memory, int(LIMITS["nproc"]) + TOOL_PIDS,
                                         uid=NOBODY if os.geteuid() == 0 else None)
        except OSError as err:
            FALLBACK_WHY[:] = [f"cannot make a cgroup: {err}"]
            return None
        return self._budget.enter

    def popen_args(self) -> dict:
        """Extra :class:`subprocess.Popen` arguments (the user to run as, the
        filter's descriptor for bwrap)."""
        fds = {"pass_fds": (self._filter_fd,)} if self._filter_fd is not None else {}
        return {**_drop(), **fds}

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
        return [real] if Path(real).is_file() and not under_hidden(real) else []

    def _masks(self) -> list[str]:
        """pyab's own folders that a system mount would show: covered."""
        return [h for h in hidden() if any(h.startswith(s + "/") for s in SYSTEM)]

    def _bwrap(self, argv: list[str], cwd: str) -> list[str]:
        size = str(self.disk_mb * 1024 * 1024)
        cmd = [TOOLS["bwrap"], "--unshare-all", "--die-with-parent", "--new-session",
               "--cap-drop", "ALL", "--hostname", "sandbox"]
        for s in SYSTEM:
            if os.path.islink(s):
                cmd += ["--symlink", os.readlink(s), s]
            elif os.path.isdir(s):
                cmd += ["--ro-bind", s, s]
        for e in ETC:
            cmd += ["--ro-bind-try", e, e]
        cmd += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size", size,
                "--tmpfs", "/dev/shm", "--perms", "1777", "--size", size, "--tmpfs", "/tmp"]
        for h in self._masks():
            cmd += ["--tmpfs", h, "--remount-ro", h]
        for p in self._extra_ro(argv) + self.readonly:  # after /tmp: one may be under it
            cmd += ["--ro-bind", p, p]
        cmd += ["--ro-bind", str(self.helpers), str(self.helpers),
                "--ro-bind", str(self.work), str(self.work),
                "--perms", "0755", "--size", size, "--tmpfs", str(self.folder),
                "--chdir", "/", "--clearenv"]
        if self._filter_fd is not None:
            os.lseek(self._filter_fd, 0, os.SEEK_SET)  # bwrap reads it from where it stands
            cmd += ["--seccomp", str(self._filter_fd)]
        for k, v in self.inner_env().items():
            cmd += ["--setenv", k, v]
        return cmd + ["--", "/bin/sh", "-c", FILL, "sh", str(self.work), str(self.folder), cwd, *argv]

    def _unshare(self, argv: list[str], cwd: str) -> list[str]:
        q = shlex.quote
        size = f"size={self.disk_mb}m"
        keep = {"proc", "dev", "mnt", "tmp"} | {s.lstrip("/") for s in SYSTEM}
        lines = ["set -e", "mount -t tmpfs -o mode=755 none /mnt",
                 "mkdir /mnt/w /mnt/h /mnt/e",
                 f"mount --bind {q(str(self.work))} /mnt/w",
                 "mount -o remount,ro,bind /mnt/w",
                 f"mount --bind {q(str(self.helpers))} /mnt/h",
                 "mount -o remount,ro,bind /mnt/h"]
        for e in ETC:
            lines.append(f"if [ -e {e} ]; then mkdir -p /mnt/e{os.path.dirname(e)}; "
                         f"cp -R -P {e} /mnt/e{e}; fi")
        extra = self._extra_ro(argv) + self.readonly  # kept aside before the covers hide them
        for i, p in enumerate(extra):
            make = "mkdir" if os.path.isdir(p) else "touch"
            lines += [f"{make} /mnt/r{i}", f"mount --bind {q(p)} /mnt/r{i}",
                      f"mount -o remount,ro,bind /mnt/r{i}"]
        covers = []
        for entry in sorted(os.listdir("/")):
            p = "/" + entry
            if entry in keep or os.path.islink(p):
                continue
            if os.path.isdir(p):  # /sys (and the cgroup tree) too: an empty cover
                lines.append(f"mount -t tmpfs -o size=1m,mode=755 none {q(p)}")
                covers.append(p)
            elif os.path.isfile(p):  # a file at the top (a container's notes): emptied
                lines.append(f"mount --bind /dev/null {q(p)}")
        lines.append("[ -d /mnt/e/etc ] && cp -R -P /mnt/e/etc/. /etc/ || true")
        for h in self._masks():
            lines.append(f"mount -t tmpfs -o ro,mode=755 none {q(h)}")
        # The writable places, each a tmpfs of the disk budget: /tmp, /dev/shm
        # (else the host's) and the folder, filled from the read-only copy.
        lines += [f"mount -t tmpfs -o {size},mode=1777 none /tmp",
                  f"if [ -d /dev/shm ]; then mount -t tmpfs -o {size},mode=1777 none /dev/shm; fi",
                  f"mkdir -p {q(str(self.folder))} {q(str(self.helpers))}",
                  f"mount -t tmpfs -o {size},mode=755 none {q(str(self.folder))}",
                  f"cp -pR /mnt/w/. {q(str(self.folder))}/",
                  f"mount --bind /mnt/h {q(str(self.helpers))}",
                  *(f"mkdir -p {q(os.path.dirname(p))} && {'mkdir' if os.path.isdir(p) else 'touch'} "
                    f"{q(p)} && mount --bind /mnt/r{i} {q(p)}" for i, p in enumerate(extra)),
                  "mount -t tmpfs -o ro,mode=755 none /mnt"]
        lines += [f"mount -o remount,ro,bind {q(c)}" for c in covers]
        filtered = ""
        if (self.helpers / "seccomp.bpf").exists():  # the system's python3 installs the filter
            filtered = (f" python3 -I -S {q(str(self.helpers / 'seccomp.py'))} "
                        f"{q(str(self.helpers / 'seccomp.bpf'))} --")
        lines += [f"cd {q(cwd)}",
                  "exec setpriv --no-new-privs --inh-caps=-all --bounding-set=-all -- "
                  "env -i " + " ".join(q(f"{k}={v}") for k, v in self.inner_env().items())
                  + filtered + ' "$@"']
        return [TOOLS["unshare"], "--user", "--map-root-user", "--net", "--pid", "--fork", "--kill-child",
                "--mount", "--ipc", "--uts", "--mount-proc", "--propagation", "private", "--",
                "/bin/sh", "-c", "\n".join(lines), "sh", *argv]

    def cleanup(self) -> None:
        """Remove the copy (after the child and all it started are gone)."""
        fd, self._filter_fd = getattr(self, "_filter_fd", None), None
        if fd is not None:
            os.close(fd)
        if self._budget is not None:
            self._budget.remove()
            self._budget = None
        shutil.rmtree(self.root, ignore_errors=True)
        if self._held:
            self._held = False
            _release_run_root()


def python_child(spec: str, interface: str, course: Path | None = None,
                 modules: tuple[str, ...] | None = None) -> tuple[list[str], Sandbox]:
    """The confined ``--python`` child: the system's ``python3 -I`` (no
    current folder, user site or ``PYTHON*`` variables on its path) running
    a shipped copy of ``pychild.py`` (it needs nothing else of pyab) on the
    submission, whose folder is the file's, or the current one for a
    ``module:func``; ``modules`` (default: ``--allow-module``'s) are bound
    read-only from pyab's environment (:func:`allowed_modules`)."""
    target, _, name = spec.rpartition(":")
    ship: tuple[str | tuple[str, str], ...] = (str(Path(__file__).with_name("pychild.py")),)
    if interface == "cs188":  # the util, game and pacman a CS188 agent imports, beside it
        framework = Path(__file__).with_name("cs188_framework")
        ship += tuple((str(f), f"cs188_framework/{f.name}") for f in sorted(framework.glob("*.py")))
    paths, folders = allowed_modules(modules)
    if course is not None:  # the course's own modules (--cs188-framework), read-only
        ship += tuple((str(f), f"cs188_course/{f.name}") for f in sorted(course.glob("*.py")))
    if target.endswith(".py"):
        path = Path(target).resolve()
        box = Sandbox(path.parent, ship=ship, readonly=paths)
        spec = f"{path}:{name}"
    else:
        box = Sandbox(os.getcwd(), ship=ship, readonly=paths)
    extra = [a for f in folders for a in ("--path", f)]
    argv = ["python3", "-I", box.shipped("pychild.py"), *extra, spec, "--interface", interface]
    if course is not None:
        argv += ["--framework", str(Path(box.shipped("cs188_course/util.py")).parent)]
    return argv, box


def exec_child(argv: list[str], folder: str | os.PathLike | None = None
               ) -> tuple[list[str], Sandbox]:
    """The confined ``--exec`` child: the command, in a copy of ``folder``
    (the submission's, :func:`pyab.referee.exec_folder`; default the current folder), which is
    also where it starts; commands are found on the sandbox's PATH (system
    folders only), a path into ``folder`` is the copy's."""
    return list(argv), Sandbox(os.getcwd() if folder is None else folder)


if __name__ == "__main__":  # python -m pyab.referee.sandbox: what --untrusted gets here
    try:
        print(f"backend: {backend()}")
    except SandboxUnavailable as err:
        print(err)
    print(fallback())
