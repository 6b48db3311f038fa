"""Backend layer: per-shape convolution algorithm choice, like cudnn.benchmark. A (pass, shape, mode) found in
the table shipped with the package (conv_algo_known.json, choices timed on the GPUs it names by
bench/conv_algo_table.py) is taken from it untimed; on the first use of another one every candidate kernel is
timed on the GPU and the fastest is kept, in memory and in a JSON file keyed by GPU name + pass + shape + mode,
so later processes skip the timing. A corrupt cache file is rebuilt with a warning; a corrupt table is ignored
with one. Imports json/os/tempfile/warnings only; the timer is injected (CUDA events in use)."""
import json
import os
import tempfile
import warnings

FORMAT = 1


KNOWN_TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "conv_algo_known.json")


def known_table_path():
    """The shipped table, or $ALPHA_CONV_TABLE (a path; `0` or `off`: no table, every new shape is timed)."""
    env = os.environ.get("ALPHA_CONV_TABLE")
    if env is not None and env.strip().lower() in ("0", "off", "none", ""):
        return None
    return env or KNOWN_TABLE


def read_choices(path, what="convolution algorithm cache", action="rebuilding it"):
    """{file key: algorithm} of a `{'format': 1, 'choices': {...}}` file; a missing file gives {}, an unreadable
    one a RuntimeWarning naming `what` and `action`, then {}."""
    if not path or not os.path.exists(path):
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("choices"), dict):
            raise ValueError(f"expected {{'format': {FORMAT}, 'choices': {{...}}}}")
        return {str(k): str(v) for k, v in data["choices"].items()}
    except (OSError, ValueError) as e:
        warnings.warn(f"{what} {path!r} is unreadable ({e}); {action}", RuntimeWarning, stacklevel=3)
        return {}


def load_known(device_name, path=None):
    """The shipped table's choices for one GPU name ({file key: algorithm}); see known_table_path."""
    path = known_table_path() if path is None else path
    prefix = str(device_name) + "|"
    return {k: v for k, v in read_choices(path, "convolution algorithm table", "ignoring it").items()
            if k.startswith(prefix)}


def default_cache_path():
    root = os.environ.get("ALPHA_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "alpha_py")
    return os.path.join(root, "conv_algo.json")


class ConvAlgoCache:
    """`pick(key, candidates, default)` -> the name of the fastest candidate for `key`.
    candidates: {name: zero-argument callable that runs the kernel}; `timer(fn, reps) -> ms` times one.
    enabled=False (the engine's conv_autotune=False) always returns `default` and times nothing, so a run's
    kernels depend on nothing but the shapes (determinism tests). `path=None`: memory only."""

    def __init__(self, device_name, timer, path=None, enabled=True, reps=3, known=None, round_timer=None, rounds=3):
        self.device_name, self.timer, self.path = str(device_name), timer, path
        self.enabled, self.reps = bool(enabled), int(reps)
        self.round_timer, self.rounds = round_timer, int(rounds)    # see _time
        self.known = dict(known or {})    # file key -> name: the shipped table (load_known), never timed
        self.timings = {}                 # key -> {name: ms} measured by this process
        self.table_hits = 0               # picks answered by the shipped table
        self._choice = None               # loaded lazily from the file
        self.memo = {}                    # the engine's (pass, shapes, mode, enabled) -> parsed choice (cuda_conv.py)

    # ---------------------------------------------------------------- file
    def _entries(self):
        if self._choice is None:
            self._choice = self._read()
        return self._choice

    def _read(self):
        return read_choices(self.path)

    def _write(self):
        """Merge with what other processes wrote meanwhile, then replace the file atomically."""
        if not self.path:
            return
        merged = dict(self._read_quiet())
        merged.update(self._choice)
        folder = os.path.dirname(os.path.abspath(self.path))
        try:
            os.makedirs(folder, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".conv_algo.", suffix=".tmp", dir=folder)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"format": FORMAT, "choices": merged}, f, indent=0, sort_keys=True)
            os.replace(tmp, self.path)
        except OSError as e:          # a read-only home must not stop training: the choice stays in memory
            warnings.warn(f"convolution algorithm cache {self.path!r} not written ({e})", RuntimeWarning,
                          stacklevel=3)

    def _read_quiet(self):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return self._read()

    def _time(self, candidates):
        """{name: ms}. With a round_timer (`round_timer(fns, reps) -> [ms]`, all candidates timed back to back in one
        go), `rounds` rounds, the order rotated by one each round, each candidate's best round kept: a candidate is
        not judged by one moment of the GPU's clocks or by its place in the order. Else `timer(fn, reps)` once each."""
        names = list(candidates)
        if self.round_timer is None:
            return {n: self.timer(candidates[n], self.reps) for n in names}
        best = {}
        for r in range(max(1, self.rounds)):
            k = r % len(names)
            order = names[k:] + names[:k]
            for n, ms in zip(order, self.round_timer([candidates[n] for n in order], self.reps)):
                best[n] = min(ms, best.get(n, ms))
        return best

    # ---------------------------------------------------------------- choice
    def file_key(self, key):
        return "|".join([self.device_name] + [str(k) for k in key])

    def pick(self, key, candidates, default, can_time=True):
        """Name of the algorithm to run for `key`. `can_time=False` (e.g. inside CUDA graph capture, where
        timing is illegal) uses a cached choice if there is one, else `default`, and caches nothing."""
        if default not in candidates:
            raise KeyError(f"default algorithm {default!r} is not a candidate ({sorted(candidates)})")
        if not self.enabled or len(candidates) == 1:
            return default
        fk = self.file_key(key)
        name = self._entries().get(fk)
        if name in candidates:
            return name
        name = self.known.get(fk)
        if name in candidates:
            self.table_hits += 1
            return name
        if not can_time:
            return default
        times = self._time(candidates)
        self.timings[fk] = times
        best = min(times, key=times.get)
        self._choice[fk] = best
        self._write()
        return best
