"""The Java attention program (java/examples/alpha/examples/Attention.java: batchMatMul + softmax + linear
layers) under both bridges: it beats the bag-of-tokens baseline, and JPype and Py4J print the same numbers."""
import re

import pytest

from java_support import NEEDS_JDK, run_jpype, run_py4j

pytestmark = NEEDS_JDK
pytest.importorskip("jpype")


def _acc(out, key):
    return float(re.search(rf"^{key} (\S+)$", out, re.M).group(1))


def test_java_attention_beats_bag_of_tokens_under_both_bridges(classes):
    outs = [run_jpype(classes, "alpha.examples.Attention", 300), run_py4j(classes, "alpha.examples.Attention", 300)]
    att, bag = _acc(outs[0], "attention_accuracy"), _acc(outs[0], "bag_accuracy")
    assert att > 0.9 and att > bag + 0.2, outs[0]
    assert [_acc(o, k) for o in outs[1:] for k in ("attention_accuracy", "bag_accuracy")] == [att, bag]
