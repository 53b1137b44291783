"""The system-call filter of every confined child: a classic BPF program
(seccomp mode 2) that makes the calls no alpha-beta program needs fail with
``EPERM`` (``clone3`` with ``ENOSYS``, so that the C library falls back to
``clone``, whose flags the filter can read), and lets everything else pass.

Denied: ``ptrace``, ``process_vm_readv/writev``, ``keyctl``/``add_key``/
``request_key``, ``bpf``, ``perf_event_open``, ``userfaultfd``,
``io_uring_*``, ``mount``/``umount2`` and the new mount calls, ``pivot_root``,
``unshare``, ``setns``, ``clone`` with any ``CLONE_NEW*`` flag,
``kexec_*``, module loading, ``reboot``, ``swapon``/``swapoff``, ``acct``,
``open_by_handle_at``; every call of another architecture (i386 through
``int 0x80``, x32) too, since the numbers above are the native ones.

The program is written here with the standard library (``struct``): no
libseccomp binding is needed, and the same bytes serve both backends:
bubblewrap loads them itself (``--seccomp FD``); under ``unshare`` this
file is shipped into the sandbox and run by the system's ``python3`` as
``seccomp.py FILTER -- ARGV...``: it installs the filter and executes ARGV.
So it imports nothing of pyab.
"""

from __future__ import annotations

import os
import platform
import struct
import sys

# struct seccomp_data: nr (u32) at 0, arch (u32) at 4, args (u64 each) from 16.
_NR, _ARCH, _ARG0 = 0, 4, 16
_LD, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _ERRNO = 0x7FFF0000, 0x00050000
EPERM, ENOSYS = 1, 38
# CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME
CLONE_NEW = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 \
    | 0x40000000 | 0x00000080

# The denied calls by family (names as in the kernel's tables), with their
# numbers per architecture: (x86_64, aarch64).
FAMILIES = {
    "ptrace": {"ptrace": (101, 117), "process_vm_readv": (310, 270),
               "process_vm_writev": (311, 271)},
    "keys": {"keyctl": (250, 219), "add_key": (248, 217), "request_key": (249, 218)},
    "bpf": {"bpf": (321, 280)},
    "perf": {"perf_event_open": (298, 241)},
    "userfaultfd": {"userfaultfd": (323, 282)},
    "io_uring": {"io_uring_setup": (425, 425), "io_uring_enter": (426, 426),
                 "io_uring_register": (427, 427)},
    "mount": {"mount": (165, 40), "umount2": (166, 39), "pivot_root": (155, 41),
              "open_tree": (428, 428), "move_mount": (429, 429), "fsopen": (430, 430),
              "fsconfig": (431, 431), "fsmount": (432, 432), "fspick": (433, 433),
              "mount_setattr": (442, 442)},
    "namespaces": {"unshare": (272, 97), "setns": (308, 268)},
    "kexec": {"kexec_load": (246, 104), "kexec_file_load": (320, 294)},
    "modules": {"init_module": (175, 105), "finit_module": (313, 273),
                "delete_module": (176, 106)},
    "reboot": {"reboot": (169, 142)},
    "swap": {"swapon": (167, 224), "swapoff": (168, 225)},
    "other": {"acct": (163, 89), "open_by_handle_at": (304, 265)},
}
CLONE, CLONE3 = {"x86_64": 56, "aarch64": 220}, 435
ARCHES = {"x86_64": (0, 0xC000003E), "aarch64": (1, 0xC00000B7)}  # column, AUDIT_ARCH_*


def _ins(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def program(machine: str | None = None, errno: int = EPERM) -> bytes:
    """The filter for ``machine`` (``platform.machine()``), as the bytes of
    a ``struct sock_filter`` array; denied calls fail with ``errno``.  :raises ValueError: an architecture
    whose call numbers are not known here."""
    machine = machine or platform.machine()
    if machine in ("amd64",):
        machine = "x86_64"
    if machine in ("arm64",):
        machine = "aarch64"
    if machine not in ARCHES:
        raise ValueError(f"no system-call filter for {machine}")
    column, audit = ARCHES[machine]
    denied = sorted({nrs[column] for fam in FAMILIES.values() for nrs in fam.values()})
    # Labels resolved at the end: each jump is counted from the next instruction.
    body: list[tuple] = [("ld", _ARCH), ("jeq", audit, None, "deny"), ("ld", _NR)]
    if machine == "x86_64":
        body.append(("jge", 0x40000000, "deny", None))  # the x32 calls
    body += [("jeq", nr, "deny", None) for nr in denied]
    body += [("jeq", CLONE[machine], "clone", None), ("jeq", CLONE3, "nosys", None),
             ("ret", _ALLOW),
             ("label", "clone"), ("ld", _ARG0), ("jset", CLONE_NEW, "deny", None), ("ret", _ALLOW),
             ("label", "deny"), ("ret", _ERRNO | errno),
             ("label", "nosys"), ("ret", _ERRNO | ENOSYS)]
    where, n = {}, 0
    for op in body:
        if op[0] == "label":
            where[op[1]] = n
        else:
            n += 1
    out, i = [], 0
    for op in body:
        if op[0] == "label":
            continue
        i += 1  # a jump's offsets count from the next instruction

        def off(label: str | None) -> int:
            return 0 if label is None else where[label] - i
        if op[0] == "ld":
            out.append(_ins(_LD, op[1]))
        elif op[0] == "ret":
            out.append(_ins(_RET, op[1]))
        else:
            code = {"jeq": _JEQ, "jge": _JGE, "jset": _JSET}[op[0]]
            out.append(_ins(code, op[1], off(op[2]), off(op[3])))
    return b"".join(out)


def install(filter_bytes: bytes) -> None:
    """Install the filter on this thread (and what it executes):
    ``PR_SET_NO_NEW_PRIVS``, then ``PR_SET_SECCOMP``.  :raises OSError:"""
    import ctypes

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
    libc = ctypes.CDLL(None, use_errno=True)
    buf = ctypes.create_string_buffer(filter_bytes, len(filter_bytes))
    prog = SockFprog(len(filter_bytes) // 8, ctypes.cast(buf, ctypes.c_void_p))
    if libc.prctl(38, 1, 0, 0, 0) != 0 or libc.prctl(22, 2, ctypes.byref(prog), 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"cannot install the system-call filter: {os.strerror(err)}")


def main(argv: list[str]) -> int:
    """``seccomp.py FILTER -- ARGV...``: filter this process, then run ARGV."""
    if len(argv) < 3 or argv[1] != "--":
        print("usage: seccomp.py FILTER -- COMMAND [ARG...]", file=sys.stderr)
        return 125
    with open(argv[0], "rb") as f:
        install(f.read())
    try:
        os.execvp(argv[2], argv[2:])
    except OSError as err:
        print(f"{argv[2]}: {err.strerror}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
