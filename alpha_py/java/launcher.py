"""Java layer: JVM start-up for the JPype bridge. The endpoint answers Java's typed requests
(alpha_py/bridge/codec.py) with the shared Dispatcher; tensor data crosses as direct buffers: Java
views a staged NumPy array (jpype.nio.convertToDirectBuffer) and Python views Java's direct
buffers (memoryview), no copies. Imports jpype, numpy, alpha_py.bridge and backend/cpu_fused."""
import glob
import os
import platform

from ..backend.cpu_fused import one_malloc_arena

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_state = {}


def alpha_java_classpath():
    """alpha-java's classes as built here by Maven (java/target/classes, else the jar), if present."""
    target = os.path.join(_REPO, "java", "target")
    classes = os.path.join(target, "classes")
    if os.path.isdir(os.path.join(classes, "alpha")):
        return [classes]
    jars = sorted(glob.glob(os.path.join(target, "alpha-java-*.jar")))
    return [j for j in jars if not j.endswith(("-sources.jar", "-tests.jar"))][-1:]


def default_jvm_options(jvm_args=()):
    """The options this launcher adds for a JVM that lives inside the Python process (JPype), unless `jvm_args`
    already chooses a collector or an AVX level: the serial collector and AVX2 code. With the defaults (G1's
    parallel workers, AVX-512 copies) every CUDA call of a Java training step measured 1.7-5x slower on the lent
    H100 host (a kernel launch 94-121 us instead of 24-28: bench/NOTES-java.md); the Java side of a step is small
    and single-threaded, so neither costs it anything measurable."""
    chosen = " ".join(jvm_args)
    out = []
    if not any(f"-XX:+Use{gc}GC" in chosen for gc in ("Serial", "Parallel", "G1", "Z", "Shenandoah", "Epsilon")):
        out.append("-XX:+UseSerialGC")
    if "-XX:UseAVX=" not in chosen and platform.machine().lower() in ("x86_64", "amd64"):
        out.append("-XX:UseAVX=2")              # (an x86 flag: other JVMs refuse to start with it)
    return out


def start_jvm(classpath=(), jvm_args=()):
    """Start the JVM (once per process) and install the JPype backend; returns the endpoint."""
    import jpype
    import jpype.imports  # noqa: F401  (enables `import alpha` style access for callers)

    if "endpoint" in _state:
        return _state["endpoint"]
    cp = [p for part in classpath for p in part.split(os.pathsep) if p]
    if not any(os.path.basename(p).startswith("alpha-java") or p.endswith(os.path.join("target", "classes"))
               for p in cp):
        cp += alpha_java_classpath()
    if not jpype.isJVMStarted():
        one_malloc_arena()        # Java threads other than the one hosting the JVM call in with steps of their own
        jpype.startJVM(*jvm_args, *default_jvm_options(jvm_args), classpath=cp, convertStrings=True)
    endpoint = _make_endpoint()
    jpype.JClass("alpha.bridge.Bridge").install(jpype.JClass("alpha.bridge.JPypeBackend")(endpoint))
    _state["endpoint"] = endpoint
    return endpoint


def _make_endpoint():
    import jpype
    import jpype.nio

    from ..bridge.codec import SELF_REPLY, long_array_reader
    from ..bridge.dispatch import Dispatcher

    long_array, object_array = jpype.JArray(jpype.JLong), jpype.JArray(jpype.JObject)
    self_marker = jpype.JClass("alpha.bridge.Codec").SELF
    alpha_exception = jpype.JClass("alpha.AlphaException")

    @jpype.JImplements("alpha.bridge.PyEndpoint")
    class JPypeEndpoint:
        """Typed calls: the request's long[] is read through the buffer protocol, Java objects
        (direct buffers, callables) pass as themselves; replies are Java values or long[]."""

        def __init__(self):
            self.dispatcher = Dispatcher(java_object=lambda o: o)
            self.read_ints = long_array_reader()

        @jpype.JOverride
        def call(self, name, ints, objs):
            ok, r = self.dispatcher.handle(name, self.read_ints(ints), objs)
            if not ok:
                return alpha_exception(*r)
            if type(r) is tuple:
                return long_array(r[0]) if r[1] is None else object_array([long_array(r[0]), object_array(r[1])])
            return self_marker if r is SELF_REPLY else r

        @jpype.JOverride
        def invoke(self, request):
            raise NotImplementedError("invoke(): Py4J only; the JPype backend calls call()")

        @jpype.JOverride
        def staged(self):
            return jpype.nio.convertToDirectBuffer(self.dispatcher.staged)

    return JPypeEndpoint()


def run_main(main_class, args=(), classpath=(), jvm_args=()):
    """Start the JVM if needed and run MainClass.main(args) on this thread."""
    import jpype

    start_jvm(classpath, jvm_args)
    try:
        cls = jpype.JClass(main_class)
    except TypeError:
        cp = jpype.JClass("java.lang.System").getProperty("java.class.path")
        raise SystemExit(f"alpha java: class {main_class} is not on the class path {cp}") from None
    cls.main(jpype.JArray(jpype.JString)(list(args)))
