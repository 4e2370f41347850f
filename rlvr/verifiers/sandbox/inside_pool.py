# ruff: noqa: SIM105  (try/except/pass on purpose, as in inside.py)
"""The warm pool's processes inside the sandbox: master zygote, slot zygotes, prepared inits.

Shipped after inside.py's source, in one code object whose globals they share; stdlib only.
"""

import marshal
import os

if "setup_root" not in globals():  # for readers and linters; in the sandbox inside.py's source comes first
    from rlvr.verifiers.sandbox.inside import (
        CLONE_NEWNET,
        PR_SET_PDEATHSIG,
        SETUP_FAILED,
        SIGKILL,
        cold_main,
        fork_init,
        open_cgroup_procs,
        prctl,
        prepare_init,
        run_init,
        setup_root,
        unshare,
        write_all,
    )


def zygote_main(args):
    """Long-lived master zygote: set up the root once, then fork one slot zygote per request."""
    import socket

    ctrl = socket.socket(fileno=args["ctrl_fd"])
    try:
        slots = {slot: open_cgroup_procs(paths) for slot, paths in args["slots"].items()}
        own_pidns = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
        setup_root(args["root"])
        for name in ("atexit", "select", *args["preload"]):
            try:
                __import__(name)
            except BaseException:
                pass
        ctrl.sendall(b"R")
    except BaseException as exc:
        import traceback

        ctrl.sendall(b"X" + "".join(traceback.format_exception(exc)).encode())
        os._exit(1)
    while True:
        try:
            msg, fds, _flags, _addr = socket.recv_fds(ctrl, 1 << 16, 1)
        except OSError:
            os._exit(0)
        if not msg:
            os._exit(0)  # the host closed the socket: shut down; slot zygotes and their runs die with us
        while True:  # reap slot zygotes that ended
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        try:
            request = marshal.loads(msg)
            slot = request["slot"]
            pid = os.fork()
            if pid == 0:
                try:
                    prctl(PR_SET_PDEATHSIG, SIGKILL)
                    ctrl.close()
                    for other, cgroup_fds in slots.items():
                        for fd in cgroup_fds:
                            if other == slot:
                                os.write(
                                    fd, b"0"
                                )  # join the slot's cgroups once; every run forked inherits them
                            os.close(fd)
                    slot_zygote(socket.socket(fileno=fds[0]), own_pidns, request["box"])
                finally:
                    os._exit(1)
            ctrl.sendall(b"Z")
        except BaseException as exc:
            try:
                ctrl.sendall(b"X" + repr(exc).encode())
            except OSError:
                os._exit(1)
        finally:
            for fd in fds:
                os.close(fd)


def slot_zygote(sock, own_pidns, box):
    """One slot's zygote (already in the slot's cgroups): keeps one prepared init waiting for the next run."""
    import select

    if not box["network"]:
        # one network namespace per slot, not per run: creating and destroying one is the costliest step of
        # a run, and nothing persists in it between the slot's (sequential) runs: it has no interface up,
        # sockets die with their processes, and only root in the host's user namespace could configure it
        unshare(CLONE_NEWNET)
    hangup = select.poll()
    hangup.register(sock, select.POLLHUP)
    while True:
        pid = fork_init(own_pidns)
        if pid == 0:
            ready_init(sock, own_pidns, box)
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) == SETUP_FAILED:
            os._exit(1)  # it told the host why; do not spin
        for _fd, events in hangup.poll(0):
            if events & select.POLLHUP:
                os._exit(0)  # the host closed the slot


def ready_init(sock, own_pidns, box):
    """A prepared init: wait on the slot's socket for a run, acknowledge with a pidfd of itself, run it."""
    import socket

    try:
        os.close(own_pidns)
        prepare_init(box, new_net=False)
    except BaseException as exc:
        import traceback

        try:
            sock.send(b"X" + "".join(traceback.format_exception(exc)).encode()[:60000])
        finally:
            os._exit(SETUP_FAILED)
    try:
        msg, fds, _flags, _addr = socket.recv_fds(sock, 1 << 16, 8)
    except OSError:
        os._exit(0)
    if not msg:
        os._exit(0)
    fdmap = dict(zip(marshal.loads(msg)["fds"], fds))
    pidfd = os.pidfd_open(os.getpid())  # this process (pid 1 here), for the host to wait on and kill
    socket.send_fds(sock, [b"A"], [pidfd])
    os.close(pidfd)
    sock.close()
    try:
        run = marshal.loads(os.pread(fdmap["payload"], os.fstat(fdmap["payload"]).st_size, 0))
        os.close(fdmap["payload"])
    except BaseException as exc:
        write_all(fdmap["status"], b"X" + repr(exc).encode())
        os._exit(1)
    run_init(run, fdmap, box)


def _main(args):
    os.umask(0o022)
    if args["mode"] == "zygote":
        zygote_main(args)
    else:
        cold_main(args)


ARGS: dict  # injected by the host's launcher: declared, not assigned, for type checkers


if __name__ == "__rlvr_inside__":
    _main(ARGS)  # noqa: F821 - ARGS is injected by the host's launcher
