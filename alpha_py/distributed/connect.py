"""Distributed layer: Spark Connect sessions — open one (`remote_session("sc://host:port")`) with a bounded wait
and a clear error naming the URL, check the server's Spark version (barrier mapInArrow needs 3.5), and the
server's view (`ServerView`: conf through spark.conf, cores, GPUs) that pre-flight reads in place of a
SparkContext, and `plan_cache_paused`, which keeps a job's plan (and the closure in it) out of the server's
per-session plan cache. Imports pyspark (lazily), the standard library, alpha_py.errors and preflight."""
import re
import socket
import threading
import time
import warnings
from contextlib import contextmanager
from urllib.parse import urlparse

from ..errors import AlphaError
from .preflight import PreflightError, local_cores

DEFAULT_PORT = 15002
TIMEOUT_S = 10.0
MIN_VERSION = (3, 5)           # DataFrame.mapInArrow(..., barrier=True)
PLAN_CACHE = "spark.connect.session.planCache.enabled"     # a session SQL conf of the Connect server (Spark 4)


class ConnectError(AlphaError, ConnectionError):
    """A Spark Connect server could not be reached, or cannot run Alpha's stages."""


def is_connect(spark):
    """True for a Spark Connect session (pyspark.sql.connect), which has no sparkContext and no RDDs."""
    try:
        from pyspark.sql.connect.session import SparkSession as Remote
    except ImportError:                  # the Connect client's packages are absent: cannot be one
        return False
    return isinstance(spark, Remote)


def _host_port(url):
    u = urlparse(url)
    if u.scheme != "sc" or not u.hostname:
        raise ConnectError(f"Spark Connect URL {url!r}: expected sc://host[:port][/;param=value]")
    return u.hostname, u.port or DEFAULT_PORT


def _bounded(call, seconds, what):
    """call() on a helper thread; ConnectError when it gives nothing within `seconds` (gRPC retries for minutes)."""
    box = {}

    def run():
        try:
            box["value"] = call()
        except BaseException as e:       # handed to the caller below
            box["error"] = e

    t = threading.Thread(target=run, daemon=True, name="alpha-connect-probe")
    t.start()
    t.join(seconds)
    if t.is_alive():
        raise ConnectError(f"{what}: no answer within {seconds:.0f} s")
    if "error" in box:
        raise ConnectError(f"{what}: {type(box['error']).__name__}: {str(box['error']).splitlines()[0][:300]}") \
            from box["error"]
    return box["value"]


def check_version(version, url="the Spark Connect server"):
    """ConnectError naming the version when the server's Spark cannot run barrier mapInArrow stages."""
    m = re.match(r"^(\d+)\.(\d+)", str(version))
    if not m:
        raise ConnectError(f"{url}: cannot read the server's Spark version from {version!r}")
    if (int(m.group(1)), int(m.group(2))) < MIN_VERSION:
        raise ConnectError(f"{url} runs Spark {version}: Alpha's training stages are barrier "
                           f"DataFrame.mapInArrow(..., barrier=True), which needs Spark >= "
                           f"{MIN_VERSION[0]}.{MIN_VERSION[1]} on the server; upgrade the server or use a "
                           "classic session")
    return version


def server_version(spark, timeout_s=TIMEOUT_S):
    """The server's Spark version, read within timeout_s (ConnectError naming the URL otherwise)."""
    url = getattr(getattr(spark, "client", None), "_builder", None)
    url = getattr(url, "url", None) or "the Spark Connect server"
    return _bounded(lambda: spark.version, timeout_s, f"Spark Connect server {url} unreachable or not answering")


def check_session(spark, timeout_s=TIMEOUT_S):
    """A Connect session's server answers and runs Spark >= 3.5; returns its version."""
    return check_version(server_version(spark, timeout_s))


def _handshake(url, host, port, seconds):
    """The port speaks gRPC (HTTP/2 handshake done) within `seconds`: checked before pyspark's client exists, whose
    calls (and exit handler) retry a silent server for minutes."""
    try:
        import grpc
    except ImportError as e:
        raise ConnectError(f"Spark Connect client missing ({e}): pip install 'alpha_py[spark]'") from None
    target = f"{host}:{port}"
    secure = "use_ssl=true" in url.lower()
    ch = grpc.secure_channel(target, grpc.ssl_channel_credentials()) if secure else grpc.insecure_channel(target)
    try:
        grpc.channel_ready_future(ch).result(timeout=seconds)
    except grpc.FutureTimeoutError:
        raise ConnectError(f"Spark Connect server {url} not answering: no gRPC handshake within {seconds:.0f} s "
                           f"(is {target} a Spark Connect server{' with TLS' if secure else ''}?)") from None
    finally:
        ch.close()


def remote_session(url, app="alpha", timeout_s=TIMEOUT_S, conf=None):
    """A SparkSession on the Spark Connect server at `url` (sc://host:port), or ConnectError naming the URL within
    about timeout_s: the port must accept a TCP connection, the server must answer and run Spark >= 3.5."""
    host, port = _host_port(url)
    t0 = time.monotonic()
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
    except OSError as e:
        raise ConnectError(f"Spark Connect server {url} unreachable: {type(e).__name__}: {e} (is "
                           f"start-connect-server.sh running and listening on {host}:{port}?)") from None
    _handshake(url, host, port, max(timeout_s - (time.monotonic() - t0), 0.5))
    try:
        from pyspark.sql import SparkSession
        builder = SparkSession.builder.remote(url).appName(app)
        for k, v in (conf or {}).items():
            builder = builder.config(k, v)
        spark = _bounded(builder.getOrCreate, timeout_s, f"Spark Connect server {url} not answering")
        type(spark)._set_default_and_active_session(spark)      # made on a helper thread: active here too
    except ImportError as e:
        raise ConnectError(f"Spark Connect client missing ({e}): pip install 'alpha_py[spark]'") from None
    left = max(timeout_s - (time.monotonic() - t0), 0.5)          # the whole call stays within about timeout_s
    check_version(_bounded(lambda: spark.version, left, f"Spark Connect server {url} not answering"), url)
    return spark


class ServerView:
    """What pre-flight reads of a SparkContext (getConf().get, master, defaultParallelism), read from a Connect
    session: settings through spark.conf; the cluster's cores by one tiny job (the partitions Spark gives a range,
    its default parallelism)."""

    def __init__(self, spark):
        self.spark = spark
        self.master = spark.conf.get("spark.master", "") or ""

    def getConf(self):
        return self

    def get(self, key, default=None):
        return self.spark.conf.get(key, default)

    @property
    def defaultParallelism(self):
        if self.spark.conf.get("spark.sql.leafNodeDefaultParallelism", None) is not None:
            raise PreflightError(f"over Spark Connect (master {self.master}) the cluster's cores are read as the "
                                 "partitions of spark.range(), but spark.sql.leafNodeDefaultParallelism is set: "
                                 "unset it so pre-flight can count the barrier slots")
        from pyspark.sql import functions as sf
        row = self.spark.range(1 << 16).agg(sf.max(sf.spark_partition_id()).alias("p")).first()
        return int(row["p"]) + 1

    def local_gpus(self):
        """GPUs of the server's host (local master): counted by one task there, not on this client."""
        def count(batches):
            import pyarrow as pa
            from alpha_py.distributed.preflight import local_gpu_count
            for _ in batches:
                pass
            try:
                yield pa.RecordBatch.from_pydict({"n": [local_gpu_count()], "err": [""]})
            except Exception as e:          # reported on the client, with its remedy
                yield pa.RecordBatch.from_pydict({"n": [0], "err": [str(e)]})
        row = self.spark.range(0, 1, 1, 1).mapInArrow(count, "n long, err string").first()
        if row["err"]:
            raise PreflightError(row["err"])
        return int(row["n"])


def preflight_view(spark):
    """A ServerView; local masters are recognised as in a classic session (local_cores)."""
    view = ServerView(spark)
    view.is_local = local_cores(view.master) is not None
    return view


_PAUSED = {}              # session id -> how many plan_cache_paused blocks are open on it (this client)
_PAUSED_LOCK = threading.Lock()


@contextmanager
def plan_cache_paused(spark):
    """Run a job with the server's plan cache off for this session, then put the setting back.

    A Spark 4 Connect server keeps, per session, the last spark.connect.session.planCache.maxSize (32) plans it
    resolved: both the request's proto and the resolved plan, each holding the pickled Python closure. Alpha's
    stages carry the training state in their closures and never repeat a plan, so each cached entry pins about
    twice the state in the server's heap (docs/spark-connect.md, "The server's memory"). With the cache off
    the server drops the plan when the job ends. A server that refuses the setting is warned about, and the
    job runs anyway. Blocks nest: inside an open one (fit() opens one for its whole run) a job costs no RPC."""
    key = getattr(spark, "session_id", None) or id(spark)
    with _PAUSED_LOCK:
        nested = _PAUSED.get(key, 0) > 0
        if nested:
            _PAUSED[key] += 1
    if nested:
        try:
            yield
        finally:
            with _PAUSED_LOCK:
                _PAUSED[key] -= 1
        return
    try:
        before = spark.conf.get(PLAN_CACHE, None)
        if before != "false":
            spark.conf.set(PLAN_CACHE, "false")
    except Exception as e:               # e.g. a managed server that forbids the setting: warn, run anyway
        warnings.warn(f"Spark Connect: could not turn {PLAN_CACHE} off ({type(e).__name__}: "
                      f"{str(e).splitlines()[0][:200]}); the server keeps up to 32 of Alpha's plans, each "
                      "holding about twice the training state", RuntimeWarning, stacklevel=3)
        yield
        return
    with _PAUSED_LOCK:
        _PAUSED[key] = 1
    try:
        yield
    finally:
        with _PAUSED_LOCK:
            _PAUSED.pop(key, None)
        if before != "false":
            try:
                spark.conf.unset(PLAN_CACHE) if before is None else spark.conf.set(PLAN_CACHE, before)
            except Exception:            # the session is gone: nothing left to restore
                pass
