package alpha.bridge;

import java.util.function.Consumer;

/**
 * The one place a layer above the bridge learns of every newly bound {@link Handle}: alpha.Scope installs
 * itself here when it is loaded, so the bridge never imports the facade (no Scope-Handle import circle).
 */
public final class BindHook {
    private static volatile Consumer<Handle> listener;

    private BindHook() {}

    /**
     * Install the listener (one per JVM; a second call replaces the first).
     *
     * @param l called with each newly bound handle
     */
    public static void install(Consumer<Handle> l) { listener = l; }

    static void bound(Handle h) {
        Consumer<Handle> l = listener;
        if (l != null) l.accept(h);
    }
}
