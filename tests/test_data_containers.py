"""Dragon-Alpha v1.2's data containers: alpha.data.list (ListContainer), alpha.data.autoLoad (AutoLoadContainer with
loader threads and the update/full trigers) and alpha.data.file_folder (FileFolder)."""
import threading
import time

import pytest

from alpha_py import alpha
from alpha_py.data import containers
from alpha_py.errors import AlphaError


def test_list_container():
    con = alpha.data.list(str, int).seed(3)
    con.add("a", 0)
    con.add(["b", "c", None, "d"], [1, 1, 5, 0])                 # None entries are skipped (v1.2)
    assert con.size() == 4 and con.inputs() == ["a", "b", "c", "d"]
    assert con.class_sample_num() == {0: 2, 1: 2}
    k, v = con.get()
    assert (k, v) in set(zip(con.inputs(), con.labels()))
    ks, vs = con.get(10)
    assert len(ks) == 10 and all((a, b) in set(zip(con.inputs(), con.labels())) for a, b in zip(ks, vs))
    pairs = set(zip(con.inputs(), con.labels()))
    con.shuffle_sort().shuffle_swap(1.5)
    assert set(zip(con.inputs(), con.labels())) == pairs           # shuffles keep every (input, label) pair
    first, last = con.split(0.5)
    assert first.size() == 2 and last.size() == 2
    a, b = con.class_split(0.5)
    assert a.class_sample_num() == {0: 1, 1: 1} and b.size() == 2
    it = con.batch_iter()
    seen = []
    while it.has_next():
        seen += it.next(3)[0]
    assert len(seen) == 6 and seen[:4] == con.inputs() and seen[4:] == con.inputs()[:2]
    con.clear()
    assert con.is_empty()
    with pytest.raises(AlphaError, match="empty"):
        con.get()


def test_auto_load_container_refills_in_the_background():
    count = {"n": 0}
    lock = threading.Lock()

    def loader():
        with lock:
            count["n"] += 1
            return f"x{count['n']}", count["n"] % 3

    con = alpha.data.autoLoad(str, int, 8, loader)
    assert con.capacity() == 8 and con.thread_num() == 4
    con.start_load(3)                                   # 6 now, then the background thread fills up
    try:
        deadline = time.time() + 5
        while con.size() < 8 and time.time() < deadline:
            time.sleep(0.01)
        assert con.size() == 8
        loaded = count["n"]
        for _ in range(4):                              # reads of >= 0.5 * capacity trigger more loads
            con.get(2)
        deadline = time.time() + 5
        while count["n"] == loaded and time.time() < deadline:
            time.sleep(0.01)
        assert count["n"] > loaded and con.size() == 8  # full: new samples overwrite random slots
    finally:
        con.stop_load()
    trig = containers.full()
    assert trig(con, 1) is False


def test_file_folder(tmp_path):
    for d, files in (("cat", ["b.png", "a.png"]), ("dog", ["c.png"])):
        (tmp_path / d).mkdir()
        for f in files:
            (tmp_path / d / f).write_bytes(b"x")
    ff = alpha.data.file_folder(str(tmp_path)).init()
    assert ff.labels() == {"cat": 0, "dog": 1} and ff.label("dog") == 1
    assert [p.rsplit("/", 1)[-1] for p in ff.inputs()] == ["a.png", "b.png", "c.png"]
    assert ff.class_sample_num() == {0: 2, 1: 1}
    ff2 = alpha.data.file_folder(tmp_path, {"dog": 7}).init()
    assert ff2.size() == 1 and ff2.get()[1] == 7
    with pytest.raises(AlphaError, match="does not exist"):
        alpha.data.file_folder(str(tmp_path / "nope"))
