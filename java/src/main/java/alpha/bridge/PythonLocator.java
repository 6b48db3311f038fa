package alpha.bridge;

import alpha.AlphaException;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Finds the Python interpreter the Py4J bridge starts: the first of {@code -Dalpha.python} /
 * {@code $ALPHA_PYTHON}, {@code python3} on the PATH, and this jar's own virtual environment
 * ({@code <cache>/alpha-java/<version>/venv}) that can import {@code alpha_py}, {@code py4j} and {@code numpy}
 * (with {@link #extraPythonPath()} on its PYTHONPATH). When none can, {@link PythonSetup} creates that
 * environment from the alpha_py wheel carried in the jar, or the search stops with one {@link AlphaException}
 * that says exactly what to run. The answer is found once per JVM.
 */
public final class PythonLocator {
    /** The modules the bridge's Python side needs. */
    static final String[] NEEDED = {"alpha_py", "py4j", "numpy"};
    private static volatile String found;

    private PythonLocator() {}

    /**
     * The interpreter to start for the Py4J bridge, found (or set up) on the first call.
     *
     * @return the path or command name of a Python that can import alpha_py, py4j and numpy
     * @throws AlphaException when no such Python exists and none can be set up; its message says what to run
     */
    public static String python() {
        String p = found;
        if (p != null) return p;
        synchronized (PythonLocator.class) {
            if (found == null) found = locate();
            return found;
        }
    }

    /**
     * The folder added to the bridge process's PYTHONPATH: {@code -Dalpha.pythonpath}, else
     * {@code $ALPHA_PYTHONPATH}, else the current directory when it holds {@code alpha_py/}.
     *
     * @return that folder, or null for none
     */
    public static String extraPythonPath() {
        String extra = System.getProperty("alpha.pythonpath", System.getenv("ALPHA_PYTHONPATH"));
        if (extra == null && new File("alpha_py").isDirectory()) extra = new File(".").getAbsolutePath();
        return extra;
    }

    /**
     * The version of this jar, which is also the version of the alpha_py wheel it carries.
     *
     * @return the version from the jar's {@code alpha-java/alpha-java.properties}, or "dev" when absent
     */
    public static String version() {
        return properties().getProperty("version", "dev");
    }

    /**
     * The folder this jar version keeps its Python environment in: {@code -Dalpha.cacheDir}, else
     * {@code $XDG_CACHE_HOME}, else {@code ~/.cache}; then {@code alpha-java/<version>}.
     *
     * @return that folder (it may not exist yet)
     */
    public static Path home() {
        String root = System.getProperty("alpha.cacheDir");
        if (root == null || root.isBlank()) root = System.getenv("XDG_CACHE_HOME");
        if (root == null || root.isBlank()) root = Paths.get(System.getProperty("user.home"), ".cache").toString();
        return Paths.get(root, "alpha-java", version());
    }

    static Properties properties() {
        Properties p = new Properties();
        try (InputStream in = PythonLocator.class.getResourceAsStream("/alpha-java/alpha-java.properties")) {
            if (in != null) p.load(in);
        } catch (IOException ignored) {
            // no properties: a build without resources (version "dev", no wheel)
        }
        return p;
    }

    private static String locate() {
        Set<String> candidates = new LinkedHashSet<>();
        String configured = System.getProperty("alpha.python");
        if (configured == null || configured.isBlank()) configured = System.getenv("ALPHA_PYTHON");
        if (configured != null && !configured.isBlank()) candidates.add(configured);
        candidates.add("python3");
        String venv = PythonSetup.venvPython(home()).toString();
        if (Files.isExecutable(Paths.get(venv))) candidates.add(venv);
        List<String> tried = new ArrayList<>();
        for (String c : candidates) {
            String why = probe(c, extraPythonPath());
            if (why == null) return notice(configured, c, tried);
            tried.add(c + ": " + why);
        }
        return notice(configured, PythonSetup.setUp(tried), tried);
    }

    /** A configured Python that cannot be used is said so once, with the one used instead. */
    private static String notice(String configured, String chosen, List<String> tried) {
        if (configured != null && !configured.isBlank() && !configured.equals(chosen))
            System.err.println("alpha-java: the configured Python (" + tried.get(0) + ") cannot run the bridge; using " + chosen);
        return chosen;
    }

    /**
     * Whether a Python can run the bridge.
     *
     * @return null when {@code python} imports every needed module, else the reason it cannot
     */
    static String probe(String python, String pythonPath) {
        String check = "import importlib.util, sys\n"
                + "missing = [m for m in sys.argv[1:] if importlib.util.find_spec(m) is None]\n"
                + "sys.exit(\"No module named \" + \", \".join(repr(m) for m in missing) if missing else 0)\n";
        List<String> cmd = new ArrayList<>(List.of(python, "-c", check));
        cmd.addAll(List.of(NEEDED));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (pythonPath != null) {
            String old = pb.environment().get("PYTHONPATH");
            pb.environment().put("PYTHONPATH", old == null || old.isEmpty() ? pythonPath : pythonPath + File.pathSeparator + old);
        }
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "did not answer within 60 s";
            }
            if (p.exitValue() == 0) return null;
            String text = new String(out, StandardCharsets.UTF_8).strip();
            return text.isEmpty() ? "exited with code " + p.exitValue() : text.lines().reduce((a, b) -> b).orElse(text);
        } catch (IOException e) {
            return "cannot run it (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
