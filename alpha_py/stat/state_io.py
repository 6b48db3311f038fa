"""stat layer: Dragon-Alpha v1.2's state primitives — a State (name -> host array), ZipStateWriter / ZipStateReader
over the text-zip format (v1.2's zip_writer / zip_reader), and the Stats functions read, write, update and transform
built on them. Imports stat.state_files, stat.formats, numpy (host copies only) and alpha_py.errors."""
import codecs
import os
from collections import OrderedDict
from collections.abc import Mapping

import numpy as np

from ..errors import ArgumentError
from .formats import TextZipReader, write_text_zip
from .state_files import atomic_write, check_finite_state, host_state, load_arrays


def _charset(cs):
    """v1.2 passes a java.nio Charset; here its name. The text zip is written as UTF-8 (an ASCII subset)."""
    name = str(cs)
    try:
        codecs.lookup(name)
    except LookupError:
        raise ArgumentError(f"zip_writer/zip_reader: unknown charset {name!r}") from None
    return name


class State(Mapping):
    """v1.2's State: ordered name -> host NumPy array (what a stateful's state() holds); one object, so that it
    reaches Java as one handle."""

    def __init__(self, arrays=()):
        self._d = OrderedDict(arrays)

    def __getitem__(self, key):
        return self._d[key]

    def __setitem__(self, key, value):
        self._d[key] = np.asarray(value)

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def __repr__(self):
        return "State(" + ", ".join(f"{k}: {list(v.shape)}" for k, v in self._d.items()) + ")"


class ZipStateWriter:
    """write(state): the state into `path` as a text zip (atomic: temp file, fsync, rename)."""

    def __init__(self, path, charset="UTF-8"):
        self.path, self.charset = os.fspath(path), _charset(charset)

    def write(self, state):
        arrays = {str(k): np.asarray(v) for k, v in dict(state).items()}
        check_finite_state(arrays, "zip_writer", self.path)
        return atomic_write(self.path, lambda f: write_text_zip(f, arrays))


class ZipStateReader:
    """read() -> State: every entry of the text zip at `path`."""

    def __init__(self, path, charset="UTF-8"):
        self.path, self.charset = os.fspath(path), _charset(charset)
        if not os.path.isfile(self.path):
            raise ArgumentError(f"zip_reader: no file {self.path!r}")

    def read(self):
        r = TextZipReader(self.path)
        try:
            out = State()
            for k in r.keys():  # noqa: SIM118 (a reader, not a dict)
                a, shape = r.read(k), r.shape(k)
                out[k] = a.reshape(shape) if shape is not None else a
            return out
        finally:
            r.close()


class StateOps:
    """Mixin of alpha.stat: v1.2's update / transform / read / write / zip_writer / zip_reader."""

    default_partial = False

    def zip_writer(self, path, charset="UTF-8"):
        return ZipStateWriter(path, charset)

    def zip_reader(self, path, charset="UTF-8"):
        return ZipStateReader(path, charset)

    def read(self, reader):
        """reader.read(): a State."""
        return reader.read()

    def write(self, stateful, writer):
        """writer.write(the stateful's state); True."""
        writer.write(State(host_state(stateful, "write")))
        return True

    def update(self, stateful, state, partial=None):
        """Load a State into a net or optimizer (strict unless partial; shapes checked); True."""
        partial = self.default_partial if partial is None else bool(partial)
        load_arrays(stateful, {str(k): np.asarray(v) for k, v in dict(state).items()}, "a State", "update", partial)
        return True

    def transform(self, stateful, transformer):
        """transformer(stateful) (or transformer.transform(stateful)): v1.2's StatefulTransformer."""
        fn = getattr(transformer, "transform", transformer)
        if not callable(fn):
            raise ArgumentError(f"transform: expected a function or an object with transform(st), "
                                f"got {type(transformer).__name__}")
        return fn(stateful)
