"""The README's Python example runs as written (on CIFAR-10 files in the official binary layout)."""
import re
from pathlib import Path

import numpy as np

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_trains(tmp_path, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks, "README has no python example"
    code = blocks[0]
    d = tmp_path / "data" / "cifar-10-batches-bin"
    d.mkdir(parents=True)
    rng = np.random.default_rng(0)
    for name, n in (("data_batch_1.bin", 64), ("test_batch.bin", 16)):
        labels = rng.integers(0, 10, size=(n, 1), dtype=np.uint8)
        pixels = rng.integers(0, 256, size=(n, 3 * 32 * 32), dtype=np.uint8)
        (d / name).write_bytes(np.concatenate([labels, pixels], axis=1).tobytes())
    monkeypatch.chdir(tmp_path)
    code = code.replace("buffered_iter(eg, 128)", "buffered_iter(eg, 32)")
    scope = {}
    exec(compile(code, str(README), "exec"), scope)
    assert (tmp_path / "weight.zip").stat().st_size > 0
    assert np.isfinite(scope["ls"].loss(scope["yh"], scope["pair"].label).get())
