package alpha;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.io.PrintWriter;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Runs JUnit test classes from a main method, so the same JUnit tests run under either bridge:
 * `python -m alpha_py.java --cp ... alpha.JUnitMain alpha.SharedNetThreadsTest` (JPype, in-process) or
 * `java -cp ... alpha.JUnitMain ...` (Py4J). Prints the summary; fails when a test failed or none ran.
 */
public final class JUnitMain {
    private JUnitMain() {}

    public static void main(String[] args) {
        LauncherDiscoveryRequestBuilder b = LauncherDiscoveryRequestBuilder.request();
        for (String cls : args) b.selectors(selectClass(cls));
        LauncherDiscoveryRequest req = b.build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(req, listener);
        TestExecutionSummary s = listener.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        out.println("bridge " + Alpha.alpha.bridge());
        s.printTo(out);
        s.printFailuresTo(out, 40);
        out.println("junit " + s.getTestsSucceededCount() + " passed " + s.getTotalFailureCount() + " failed");
        out.flush();
        if (s.getTotalFailureCount() > 0 || s.getTestsSucceededCount() == 0)
            throw new AssertionError(s.getTotalFailureCount() + " of " + s.getTestsFoundCount() + " JUnit tests failed");
    }
}
