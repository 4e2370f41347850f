#!/usr/bin/env bash
# A container sandbox without any registry: installs Docker (Debian's docker.io), starts a daemon that leaves
# the host network alone, and builds rlvr's sandbox image from this machine's own Python. Idempotent.
#
#   scripts/docker_sandbox.sh [--gvisor]   install + start the daemon + build the image (+ gVisor's runsc)
#   scripts/docker_sandbox.sh stop         stop the daemon this script started (by its recorded pid)
#   scripts/docker_sandbox.sh status       say what is installed and running
#
# The daemon runs with --iptables=false --ip-forward=false --ip-masq=false --bridge=none: no docker0 bridge,
# no NAT rules, ip_forward untouched (the backend only uses --network none). A daemon that already answers
# (yours) is used as it is and never stopped by this script.
#
# The image: the interpreter that runs rlvr (the one .venv was built from, else python3 on PATH) with its
# standard library (no site-packages, no test suite) and the shared libraries `ldd` lists for it and its
# extension modules, imported as one layer (`docker import`). The sandbox runs the judge and the program in
# the container, so the same Python version as the verifier's host side keeps both sides' behaviour identical.
# Env: RLVR_DOCKER_IMAGE (tag, default rlvr-sandbox:latest), RLVR_DOCKER_PYTHON (interpreter to copy),
#      RLVR_DOCKER_STATE (pid/log dir, default /tmp/rlvr-docker).
set -euo pipefail
cd "$(dirname "$0")/.."
IMAGE=${RLVR_DOCKER_IMAGE:-rlvr-sandbox:latest}
STATE=${RLVR_DOCKER_STATE:-/tmp/rlvr-docker}
PIDFILE=$STATE/dockerd.pid
DAEMON_FLAGS=(--iptables=false --ip-forward=false --ip-masq=false --bridge=none)
say() { echo "docker_sandbox: $*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }

daemon_answers() { timeout 5 docker info >/dev/null 2>&1; }

stop_daemon() {
  [ -f "$PIDFILE" ] || { say "no daemon started by this script"; return 0; }
  local pid; pid=$(cat "$PIDFILE")
  if kill -0 "$pid" 2>/dev/null; then
    as_root kill "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && as_root kill -9 "$pid"
    say "stopped dockerd (pid $pid)"
  fi
  rm -f "$PIDFILE"
}

install_packages() {  # apt packages given as args, only those missing
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} = 0 ] && return 0
  command -v apt-get >/dev/null || { say "no apt-get: install ${missing[*]} yourself"; return 1; }
  say "installing ${missing[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

register_runsc() {  # add runsc to /etc/docker/daemon.json; prints "changed" when the file changed
  local runsc; runsc=$(command -v runsc)
  as_root mkdir -p /etc/docker
  as_root python3 - "$runsc" <<'PY'
import json, os, sys
path = "/etc/docker/daemon.json"
conf = json.load(open(path)) if os.path.exists(path) and os.path.getsize(path) else {}
want = {"path": sys.argv[1], "runtimeArgs": ["--network=none"]}  # gVisor's own netstack off: no network
if conf.get("runtimes", {}).get("runsc") != want:
    conf.setdefault("runtimes", {})["runsc"] = want
    json.dump(conf, open(path, "w"), indent=2)
    print("changed")
PY
}

start_daemon() {
  if [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null && daemon_answers; then return 0; fi
  if daemon_answers; then say "using the Docker daemon that already answers"; return 0; fi
  mkdir -p "$STATE"
  as_root sh -c "nohup dockerd ${DAEMON_FLAGS[*]} >'$STATE/dockerd.log' 2>&1 & echo \$! >'$PIDFILE'"
  for _ in $(seq 300); do daemon_answers && break; sleep 0.1; done
  daemon_answers || { say "dockerd did not answer; see $STATE/dockerd.log"; tail -n 20 "$STATE/dockerd.log"; exit 1; }
  say "dockerd running (pid $(cat "$PIDFILE"), flags ${DAEMON_FLAGS[*]})"
}

pick_python() {
  if [ -n "${RLVR_DOCKER_PYTHON:-}" ]; then echo "$RLVR_DOCKER_PYTHON"; return; fi
  if [ -x .venv/bin/python ]; then
    .venv/bin/python -c 'import sys, os; print(os.path.join(sys.base_exec_prefix, "bin", "python%d.%d" % sys.version_info[:2]))'
    return
  fi
  python3 -c 'import sys; print(sys.executable)'
}

build_image() {
  local py ver stamp tag_stamp
  py=$(readlink -f "$(pick_python)")
  ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  stamp=$("$py" -c 'import sys; print(sys.version.split()[0], sys.base_exec_prefix)')
  tag_stamp=$(docker image inspect -f '{{index .Config.Labels "rlvr.python"}}' "$IMAGE" 2>/dev/null || true)
  if [ "$tag_stamp" = "$stamp" ]; then say "image $IMAGE is up to date ($stamp)"; return 0; fi
  say "building $IMAGE from $py ($stamp)"
  local root; root=$(mktemp -d /tmp/rlvr-image.XXXXXX)
  trap 'rm -rf "$root"; trap - RETURN' RETURN
  "$py" - "$root" <<'PY'
import glob, os, shutil, subprocess, sys, sysconfig
root = sys.argv[1]
stdlib, dynload = sysconfig.get_paths()["stdlib"], sysconfig.get_config_var("DESTSHARED")
ver = "%d.%d" % sys.version_info[:2]
dest_lib = os.path.join(root, "usr/local/lib/python" + ver)
skip = shutil.ignore_patterns("site-packages", "test", "tests", "idlelib", "tkinter", "turtledemo", "ensurepip",
                              "config-*", "lib2to3", "*.exe")
for d in ("bin", "sbin", "lib", "lib64"):  # a merged-/usr layout, as Debian's: /lib/x.so is /usr/lib/x.so
    os.makedirs(os.path.join(root, "usr", d), exist_ok=True)
    os.symlink("usr/" + d, os.path.join(root, d))
shutil.copytree(stdlib, dest_lib, ignore=skip, symlinks=True)
os.makedirs(os.path.join(dest_lib, "site-packages"), exist_ok=True)
if os.path.realpath(dynload) != os.path.realpath(os.path.join(stdlib, "lib-dynload")):  # Debian's layout
    shutil.copytree(dynload, os.path.join(dest_lib, "lib-dynload"), dirs_exist_ok=True)
exe = os.path.realpath(sys.executable)
os.makedirs(os.path.join(root, "usr/local/bin"), exist_ok=True)
shutil.copy2(exe, os.path.join(root, "usr/local/bin/python" + ver))
for name in ("python3", "python"):
    os.symlink("python" + ver, os.path.join(root, "usr/local/bin", name))
# the interpreter's and every extension module's shared libraries, each at the path the loader uses
libs = set()
for obj in [exe, *glob.glob(os.path.join(dest_lib, "lib-dynload", "*.so"))]:
    for line in subprocess.run(["ldd", obj], capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        path = parts[2] if "=>" in parts and len(parts) > 2 else parts[0]
        if path.startswith("/"):
            libs.add(path)
for lib in libs:
    real = os.path.realpath(lib)
    for src in {lib, real}:  # the name the loader asks for, and the file it points at
        dst = root + src
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if not os.path.lexists(dst):
            shutil.copy2(real, dst)
for d in ("tmp", "sandbox", "rlvr/in", "rlvr/out", "dev/shm", "proc", "etc", "root"):
    os.makedirs(os.path.join(root, d), exist_ok=True)
os.chmod(os.path.join(root, "tmp"), 0o1777)
with open(os.path.join(root, "etc/passwd"), "w") as f:
    f.write("root:x:0:0:root:/root:/bin/false\nsandbox:x:1000:1000::/sandbox:/bin/false\n"
            "judge:x:1001:1001::/:/bin/false\n")
with open(os.path.join(root, "etc/group"), "w") as f:
    f.write("root:x:0:\nsandbox:x:1000:\njudge:x:1001:\n")
PY
  # a shared-libpython build (pyenv's) finds libpython through its RUNPATH: ldd's path, copied as it is
  tar -C "$root" -c . | docker import \
    -c "ENV PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8" -c "LABEL rlvr.python=\"$stamp\"" \
    -c 'CMD ["python3"]' - "$IMAGE" >/dev/null
  docker run --rm --network none "$IMAGE" python3 -c 'import ctypes, marshal, json, sys; print(sys.version.split()[0])' \
    | sed "s/^/docker_sandbox: image $IMAGE runs Python /"
}

setup_gvisor() {
  install_packages runsc
  if [ "$(register_runsc)" = changed ] && [ -f "$PIDFILE" ]; then
    say "runsc registered: restarting the daemon"; stop_daemon; start_daemon
  elif ! docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q runsc; then
    if [ -f "$PIDFILE" ]; then stop_daemon; start_daemon
    else say "runsc is in /etc/docker/daemon.json: restart your Docker daemon to load it"; fi
  fi
  docker run --rm --runtime runsc --network none "$IMAGE" python3 -c 'import os; print(os.uname().release)' \
    | sed 's/^/docker_sandbox: gVisor (runsc) runs; kernel reported: /'
}

case "${1:-}" in
  stop) stop_daemon; exit 0 ;;
  status)
    command -v dockerd >/dev/null && say "dockerd: $(command -v dockerd)" || say "dockerd: not installed"
    daemon_answers && say "daemon answers" || say "no daemon answers"
    docker image inspect "$IMAGE" >/dev/null 2>&1 && say "image $IMAGE present" || say "image $IMAGE absent"
    exit 0 ;;
esac
gvisor=0
for arg in "$@"; do
  case "$arg" in --gvisor) gvisor=1 ;; *) say "unknown argument $arg (use --gvisor, stop or status)"; exit 2 ;; esac
done
command -v dockerd >/dev/null || install_packages docker.io
command -v docker >/dev/null || install_packages docker.io
start_daemon
build_image
[ "$gvisor" = 1 ] && setup_gvisor
say "ready: SandboxConfig(backend=\"docker\", docker_image=\"$IMAGE\")$([ "$gvisor" = 1 ] && echo ' (+ docker_runtime="runsc")')"
