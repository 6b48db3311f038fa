package alpha;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Plain `java` programs: parallel JVMs get their own ports and Python processes; no orphans. */
class ProcessTest {
    static Process child(String... args) throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"), "-cp", cp,
                "-Dalpha.python=" + System.getProperty("alpha.python", "python3"),
                "-Dalpha.pythonpath=" + System.getProperty("alpha.pythonpath", "."),
                "alpha.BridgeChild"));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    static long readPid(Process p, List<String> lines) throws Exception {
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()));
        long pid = -1;
        String line;
        while ((line = r.readLine()) != null) {
            lines.add(line);
            if (line.startsWith("PYPID ")) pid = Long.parseLong(line.substring(6).trim());
            if (line.startsWith("SUM ")) break;
        }
        return pid;
    }

    @Test
    void parallelJvmsAndNoOrphans() throws Exception {
        Process a = child("wait"), b = child("wait");
        List<String> la = new ArrayList<>(), lb = new ArrayList<>();
        long pa = readPid(a, la), pb = readPid(b, lb);
        assertTrue(pa > 0 && pb > 0 && pa != pb, la + " / " + lb);
        assertTrue(la.contains("SUM 12.0") && lb.contains("SUM 12.0"), la + " / " + lb);
        a.destroyForcibly();                                   // SIGKILL: no shutdown hook runs
        b.destroy();                                           // SIGTERM: shutdown hook runs
        for (long pid : new long[]{pa, pb}) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
            while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline)
                Thread.sleep(50);
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "python " + pid + " outlived its JVM");
        }
    }

    @Test
    void normalExitEndsPython() throws Exception {
        Process p = child();
        List<String> lines = new ArrayList<>();
        long pid = readPid(p, lines);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the JVM did not exit after main returned: " + lines);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline)
            Thread.sleep(50);
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }
}
