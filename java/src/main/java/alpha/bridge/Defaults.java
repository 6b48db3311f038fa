package alpha.bridge;

import java.util.function.Supplier;

/**
 * How the facade's alpha.nn / alpha.F / alpha.optim calls carry {@code Alpha.AlphaParam} (v1.2's global defaults):
 * {@code Alpha.AlphaParam} registers the source of its changed fields here when it is first used, and each call
 * asks for them, so the values read are those at the time of the call.
 */
public final class Defaults {
    private static volatile Supplier<Object[]> source = () -> new Object[0];

    private Defaults() {}

    /**
     * Sets where the changed fields come from (Alpha.AlphaParam does this itself).
     *
     * @param changed supplies name1, value1, name2, value2, ... of the fields that differ from v1.2's defaults
     */
    public static void source(Supplier<Object[]> changed) { source = changed; }

    /**
     * How the facade sends the call {@code path(args)}: unchanged while every field holds v1.2's default, else as
     * Python's {@code with_params(path, n, name1, value1, ..., args...)} carrying the n changed fields.
     *
     * @param path the facade path, e.g. "nn.leakyRelu"
     * @param args the call's arguments
     * @return {path, args} to send
     */
    public static Object[] request(String path, Object[] args) {
        Object[] ch = source.get();
        if (ch.length == 0) return new Object[] {path, args};
        Object[] all = new Object[2 + ch.length + args.length];
        all[0] = path;
        all[1] = ch.length / 2;
        System.arraycopy(ch, 0, all, 2, ch.length);
        System.arraycopy(args, 0, all, 2 + ch.length, args.length);
        return new Object[] {"with_params", all};
    }

    /**
     * Sends the facade call {@code path(args)} with Alpha.AlphaParam's values (see {@link #request}).
     *
     * @param path the facade path, e.g. "nn.leakyRelu"
     * @param args the call's arguments
     * @return the bridge's reply
     */
    public static Object create(String path, Object... args) {
        Object[] r = request(path, args);
        return Bridge.backend().create((String) r[0], (Object[]) r[1]);
    }
}
