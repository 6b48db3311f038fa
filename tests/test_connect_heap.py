"""Spark Connect server memory: Alpha's jobs (connect_stages._rows) and a 13-round averaging fit leave the server's
live heap flat, even with a 2.6 MB closure per job, because they keep their plans out of the session's plan cache; the same jobs run plainly
pin about twice the closure per job (the cache Alpha avoids), and the session's setting is put back (also after a
failed job; a server refusing it gets a warning). Live heap read with `jcmd GC.run` + `GC.heap_info` on a
local[2] server started here and stopped by its process id."""
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

pytest.importorskip("pyspark")
pytest.importorskip("grpc")

from alpha_py.distributed import connect_stages  # noqa: E402
from alpha_py.distributed.connect import PLAN_CACHE, remote_session  # noqa: E402

pytestmark = pytest.mark.slow
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spark_daemons import connect_server, stop  # noqa: E402

JOBS = 12
CLOSURE = 325_000            # float64s: a 2.6 MB pickled closure, about an averaging round's state


def live_mb(pid):
    """The JVM's heap in use right after a full GC (System.gc(): G1 collects the whole heap), in MB."""
    subprocess.run(["jcmd", str(pid), "GC.run"], check=True, capture_output=True, timeout=60)
    out = subprocess.run(["jcmd", str(pid), "GC.heap_info"], check=True, capture_output=True, text=True,
                         timeout=60).stdout
    m = re.search(r"total \d+K, used (\d+)K", out)
    assert m, f"jcmd GC.heap_info: no 'used' figure in {out[:500]!r}"
    return int(m.group(1)) / 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if shutil.which("jcmd") is None:
        pytest.skip("jcmd (JDK) not on PATH: cannot read the server's heap")
    try:
        proc, url = connect_server(str(tmp_path_factory.mktemp("connect-heap")))
    except (RuntimeError, OSError) as e:
        pytest.skip(f"no local Spark Connect server: {str(e)[:300]}")
    before = os.environ.get("SPARK_CONNECT_MODE_ENABLED")
    try:
        spark = remote_session(url)
        yield spark, proc.pid
        spark.stop()
    finally:
        stop(proc)
        if before is None:                   # later modules build classic sessions
            os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)


def _growth_per_job(spark, pid, run):
    import pyarrow as pa
    frame = spark.createDataFrame(pa.table({"rank": [0, 1]})).repartitionByRange(2, "rank").cache()

    def job(i):
        payload = np.full(CLOSURE, float(i))         # a new closure each job, as each round's state is

        def fn(batches):
            for _ in batches:
                pass
            yield connect_stages._one(float(payload[0]))
        return run(frame, fn)

    try:
        for i in range(3):                            # Python workers started, the frame cached
            assert job(i) == [float(i)] * 2
        base = live_mb(pid)
        for i in range(JOBS):
            assert job(i) == [float(i)] * 2
        time.sleep(3)     # a task's Python monitor thread holds its closure until about 2 s after the task ends
        grown = (live_mb(pid) - base) / JOBS
        print(f"live heap {base:.1f} MB, then {grown:+.3f} MB per job over {JOBS} jobs")
        return grown
    finally:
        frame.unpersist()


def test_alpha_jobs_leave_the_server_heap_flat(server):
    spark, pid = server
    setting = spark.conf.get(PLAN_CACHE, None)
    per_job = _growth_per_job(spark, pid, lambda df, fn: connect_stages._rows(df, fn, "out binary"))
    assert per_job < 1.0, f"the Connect server's live heap grew {per_job:.2f} MB per Alpha job (2.6 MB closure)"
    assert spark.conf.get(PLAN_CACHE, None) == setting, "the session's plan-cache setting was not put back"


def test_plain_jobs_pin_their_closures_in_the_plan_cache(server):
    """The control: the measurement sees the growth Alpha avoids (the plan cache holds the request's proto and the
    resolved plan, each with the closure, for the session's last 32 plans)."""
    import pickle
    spark, pid = server

    def plain(df, fn):
        return [pickle.loads(r["out"]) for r in df.mapInArrow(fn, "out binary").collect()]
    per_job = _growth_per_job(spark, pid, plain)
    assert per_job > 3.0, f"plain jobs grew the heap only {per_job:.2f} MB each: the plan cache no longer holds " \
                          "closures, so docs/spark-connect.md's 'The server's memory' is out of date"


def test_averaging_fit_leaves_the_server_heap_flat(server):
    """13 averaging rounds of mnist_cnn (each sends a 2.5 MB state in its closure): with the plan cache on they
    grew the server 5.4 MB per round (bench/NOTES-spark.md), Alpha's rounds well under 2 MB."""
    from alpha_py.distributed import fit
    spark, pid = server
    quiet = dict(batch=64, workers=2, mode="average", spark=spark, log=lambda *_: None)
    fit("mnist5k", "mnist_cnn", epochs=1, sync_every=62, **quiet)      # warm: workers, imports, data read
    time.sleep(3)
    base = live_mb(pid)
    res = fit("mnist5k", "mnist_cnn", epochs=1, sync_every=5, **quiet)
    time.sleep(3)
    per_round = (live_mb(pid) - base) / len(res.history)
    print(f"live heap {base:.1f} MB, then {per_round:+.3f} MB per averaging round over {len(res.history)} rounds")
    assert len(res.history) == 13
    assert per_round < 2.0, f"the Connect server's live heap grew {per_round:.2f} MB per averaging round"


class _Conf:
    def __init__(self, value=None, refuse=False):
        self.values, self.refuse, self.calls = ({} if value is None else {PLAN_CACHE: value}), refuse, []

    def get(self, key, default=None):
        return self.values.get(key, default)

    def set(self, key, value):
        self.calls.append(("set", value))
        if self.refuse:
            raise RuntimeError("CANNOT_MODIFY_CONFIG: spark.connect.session.planCache.enabled")
        self.values[key] = value

    def unset(self, key):
        self.calls.append(("unset",))
        self.values.pop(key, None)


class _Session:
    def __init__(self, conf):
        self.conf = conf


@pytest.mark.parametrize("before, calls", [(None, [("set", "false"), ("unset",)]),
                                           ("true", [("set", "false"), ("set", "true")]),
                                           ("false", [])])
def test_plan_cache_paused_puts_the_setting_back(before, calls):
    from alpha_py.distributed.connect import plan_cache_paused
    conf = _Conf(before)
    with plan_cache_paused(_Session(conf)):
        assert conf.get(PLAN_CACHE) == "false"
    assert conf.calls == calls and conf.get(PLAN_CACHE) == before


def test_plan_cache_paused_warns_when_the_server_refuses():
    from alpha_py.distributed.connect import plan_cache_paused
    ran = []
    with pytest.warns(RuntimeWarning, match="planCache.enabled off.*CANNOT_MODIFY_CONFIG"):
        with plan_cache_paused(_Session(_Conf("true", refuse=True))):
            ran.append(1)
    assert ran == [1]


def test_plan_cache_paused_restores_after_a_failed_job():
    from alpha_py.distributed.connect import plan_cache_paused
    conf = _Conf("true")
    with pytest.raises(ValueError, match="task failed"):
        with plan_cache_paused(_Session(conf)):
            raise ValueError("task failed")
    assert conf.get(PLAN_CACHE) == "true"


def test_plan_cache_paused_nests_without_rpcs():
    # fit() opens one block for its whole run: the jobs inside it (connect_stages._rows) set nothing more
    from alpha_py.distributed.connect import plan_cache_paused
    conf = _Conf("true")
    s = _Session(conf)
    with plan_cache_paused(s):
        for _ in range(3):
            with plan_cache_paused(s):
                assert conf.get(PLAN_CACHE) == "false"
        assert conf.calls == [("set", "false")]
    assert conf.calls == [("set", "false"), ("set", "true")] and conf.get(PLAN_CACHE) == "true"
    with plan_cache_paused(s):                          # a later run pauses again
        pass
    assert len(conf.calls) == 4
