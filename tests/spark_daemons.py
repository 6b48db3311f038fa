"""Test helper: daemons from the pip pyspark on 127.0.0.1 — a Spark Connect server (spark-submit --class
SparkConnectServer) on a free port, started by a module fixture and stopped by its process id."""
import os
import socket
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spark_home():
    import pyspark
    return os.path.dirname(pyspark.__file__)


def wait_port(port, proc, seconds, log):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"daemon exited with {proc.returncode}; log {log}:\n" + open(log).read()[-3000:])
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.5)
    stop(proc)
    raise RuntimeError(f"daemon did not listen on 127.0.0.1:{port} within {seconds} s; log {log}")


def stop(proc):
    """Stop one daemon by its process id (spark-class execs the JVM: the pid is the JVM's)."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def connect_server(log_dir, master="local[2]", extra_conf=None):
    """(process, "sc://127.0.0.1:port"): a Connect server whose Python workers import this checkout; extra_conf:
    more server settings (--conf KEY=VALUE)."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p))
    log = os.path.join(log_dir, "connect-server.log")
    cmd = [os.path.join(spark_home(), "bin", "spark-submit"), "--class",
           "org.apache.spark.sql.connect.service.SparkConnectServer", "--master", master,
           "--conf", f"spark.connect.grpc.binding.port={port}",
           "--conf", "spark.connect.grpc.binding.address=127.0.0.1",
           "--conf", "spark.ui.enabled=false", "--conf", "spark.sql.shuffle.partitions=2"]
    for k, v in (extra_conf or {}).items():
        cmd += ["--conf", f"{k}={v}"]
    proc = subprocess.Popen(cmd, env=env, stdout=open(log, "w"), stderr=subprocess.STDOUT)
    wait_port(port, proc, 120, log)
    return proc, f"sc://127.0.0.1:{port}"
