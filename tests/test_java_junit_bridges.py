"""JUnit classes run under both bridges through alpha.JUnitMain (Maven compiles them; `mvn verify` runs
them under Py4J only): SharedNetThreadsTest (one net shared by 8 threads x 1000 forward calls, equal to
serial, no handle leak, concurrent training refused naming both threads; docs/java-threads.md),
BatchedForwardTest (a Java Module's forward as one request, a data-dependent branch included) and
HandleGrowthTest, LazyStepTest (a forward's batch carried by the next request), TemplateTest (repeated requests
sent as template replays, bit-equal to whole requests), DirectChannelTest (Py4J's direct request channel, and with
it off, its callback, and with polling on). Skipped without mvn/java."""
import pytest

from java_support import NEEDS_MAVEN, run_junit

pytestmark = NEEDS_MAVEN
CLASSES = ["alpha.SharedNetThreadsTest", "alpha.BatchedForwardTest", "alpha.HandleGrowthTest", "alpha.ModuleTest",
           "alpha.LazyStepTest", "alpha.TemplateTest", "alpha.DirectChannelTest"]


@pytest.mark.parametrize("bridge", ["jpype", "py4j"])
def test_junit_under_both_bridges(junit_cp, bridge):
    run_junit(junit_cp, bridge, *CLASSES, passed=26)


def test_py4j_through_its_callback_when_the_direct_channel_is_off(junit_cp):
    """-Dalpha.py4j.direct=false: requests through Py4J's callback protocol, the same results (DirectChannelTest
    checks which transport runs)."""
    run_junit(junit_cp, "py4j", "alpha.DirectChannelTest", "alpha.SharedNetThreadsTest", "alpha.TemplateTest",
              passed=7, jvm_opts=("-Dalpha.py4j.direct=false",))


def test_py4j_with_polling_on_both_sides(junit_cp):
    """-Dalpha.py4j.spin_us=300 (the default on 4+ cores; off on this 2-core machine): the caller polls for its
    reply and Python's serving thread for the next request before blocking; the same results, threads included."""
    run_junit(junit_cp, "py4j", "alpha.DirectChannelTest", "alpha.SharedNetThreadsTest", "alpha.TemplateTest",
              passed=7, jvm_opts=("-Dalpha.py4j.spin_us=300",))
