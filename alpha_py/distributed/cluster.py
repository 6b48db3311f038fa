"""Distributed layer: a Spark standalone cluster from the pip pyspark (which has no start-master.sh /
start-worker.sh): one master and N workers started as background JVMs through spark-class, their process ids
kept in a state directory, stopped by those ids.
  python3 -m alpha_py.distributed.cluster start --workers 2 [--cores 1] [--host 127.0.0.1] [--port 7077]
  python3 -m alpha_py.distributed.cluster stop
Imports only the standard library and pyspark's location."""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

STATE = os.path.join(os.path.expanduser("~"), ".alpha", "spark-cluster")


class ClusterError(RuntimeError):
    """The standalone cluster could not be started or reached."""


def spark_class():
    try:
        import pyspark
    except ImportError:
        raise ClusterError("alpha_py.distributed.cluster needs pyspark: pip install 'alpha_py[spark]'") from None
    return os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-class")


def free_ports(host, n):
    """n distinct free ports (all bound at once, so the system cannot hand the same one out twice)."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind((host, 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _launch(args, log, env):
    with open(log, "ab") as out:       # spark-class execs the JVM: this process id is the daemon's
        return subprocess.Popen([spark_class(), *args], stdout=out, stderr=subprocess.STDOUT, env=env,
                                stdin=subprocess.DEVNULL, start_new_session=True).pid


def master_status(ui):
    """The master's JSON status (http://host:webui/json): workers, aliveworkers, cores."""
    with urllib.request.urlopen(f"{ui}/json", timeout=2) as r:
        return json.loads(r.read())


def _alive(pid):
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:                               # a child of this process that exited: reap it
        return os.waitpid(pid, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        return True


def start(workers=2, cores=1, memory="1g", host="127.0.0.1", port=None, state_dir=STATE, timeout_s=120.0,
          env=None):
    """Start a master and `workers` workers on `host`; wait until all workers registered. Returns the state
    dict (master URL, web UI, pids), also written to state_dir/cluster.json. ClusterError naming the log."""
    if workers < 1 or cores < 1:
        raise ClusterError(f"cluster start: workers={workers} and cores={cores} must be >= 1")
    os.makedirs(state_dir, exist_ok=True)
    path = os.path.join(state_dir, "cluster.json")
    if os.path.exists(path) and any(_alive(p) for p in load(state_dir)["pids"]):
        raise ClusterError(f"a cluster recorded in {path} is still running: stop it first "
                           f"(python3 -m alpha_py.distributed.cluster stop --dir {state_dir})")
    ports = free_ports(host, 2 + workers)    # master, its web UI, each worker's web UI: all distinct
    port, ui_port = port or ports[0], ports[1]
    env = dict(os.environ if env is None else env, SPARK_LOG_DIR=state_dir, SPARK_WORKER_DIR=os.path.join(
        state_dir, "work"))
    url, ui = f"spark://{host}:{port}", f"http://{host}:{ui_port}"
    log = os.path.join(state_dir, "master.log")
    pids = [_launch(["org.apache.spark.deploy.master.Master", "--host", host, "--port", str(port),
                     "--webui-port", str(ui_port)], log, env)]
    state = {"master": url, "ui": ui, "pids": pids, "workers": workers, "cores": cores, "dir": state_dir}
    for i in range(workers):
        pids.append(_launch(["org.apache.spark.deploy.worker.Worker", "--host", host, "--cores", str(cores),
                             "--memory", memory, "--webui-port", str(ports[2 + i]), url],
                            os.path.join(state_dir, f"worker-{i}.log"), env))
    with open(path, "w") as f:
        json.dump(state, f)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        dead = [p for p in pids if not _alive(p)]
        if dead:
            stop(state_dir)
            raise ClusterError(f"cluster start: process(es) {dead} exited; see the logs in {state_dir}")
        try:
            if master_status(ui).get("aliveworkers", 0) >= workers:
                return state
        except (OSError, ValueError):          # not up yet, or not (yet) the master's JSON page
            pass
        time.sleep(0.5)
    stop(state_dir)
    raise ClusterError(f"cluster start: {workers} worker(s) did not register with {url} within {timeout_s:.0f} s; "
                       f"see the logs in {state_dir}")


def load(state_dir=STATE):
    path = os.path.join(state_dir, "cluster.json")
    if not os.path.exists(path):
        raise ClusterError(f"no cluster recorded in {state_dir} (start one with "
                           "python3 -m alpha_py.distributed.cluster start)")
    with open(path) as f:
        return json.load(f)


def stop(state_dir=STATE, timeout_s=30.0):
    """Stop the recorded master and workers by process id (workers first); returns the pids stopped."""
    state = load(state_dir)
    pids = state["pids"][1:] + state["pids"][:1]
    for pid in pids:
        if _alive(pid):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.2)
    for pid in pids:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    os.unlink(os.path.join(state_dir, "cluster.json"))
    return pids


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m alpha_py.distributed.cluster",
                                description="A Spark standalone cluster from the pip pyspark.")
    p.add_argument("action", choices=("start", "stop", "status"))
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--cores", type=int, default=1, help="cores per worker")
    p.add_argument("--memory", default="1g", help="memory per worker")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=7077)
    p.add_argument("--dir", default=STATE, help="state directory: pids, logs, worker dirs")
    a = p.parse_args(argv)
    try:
        if a.action == "start":
            s = start(a.workers, a.cores, a.memory, a.host, a.port, a.dir)
            print(f"master {s['master']} (web UI {s['ui']}), {s['workers']} worker(s) x {s['cores']} core(s); "
                  f"pids {s['pids']}")
        elif a.action == "stop":
            print(f"stopped pids {stop(a.dir)}")
        else:
            s = load(a.dir)
            print(json.dumps(dict(s, status=master_status(s["ui"]).get("aliveworkers")), indent=1))
    except ClusterError as e:
        print(f"alpha cluster: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
