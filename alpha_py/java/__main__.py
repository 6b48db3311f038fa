"""Java layer: `python -m alpha_py.java --cp <jars> <MainClass> [args]` runs a Java program with the
Alpha engine in this process (JPype bridge). alpha-java's own classes are added from java/target
when --cp does not name them."""
import argparse
import sys

from .launcher import run_main


def parser():
    """The command line of `alpha java run` / `python -m alpha_py.java` (docs/cli.md is generated from it)."""
    ap = argparse.ArgumentParser(prog="python -m alpha_py.java", description=(
        "Runs a Java program's main class with the Alpha engine in this Python process (JPype bridge); "
        "alpha-java's own classes are added from java/target when --cp does not name them."))
    ap.add_argument("--cp", "-cp", "--classpath", dest="cp", default="",
                    help="class path: the alpha-java jar and your application's jars/classes")
    ap.add_argument("-D", dest="props", action="append", default=[], metavar="KEY=VALUE",
                    help="a Java system property (-Dalpha.cifar10=DIR), as with the java launcher")
    ap.add_argument("--jvm-opt", dest="jvm_opts", action="append", default=[], metavar="OPTION",
                    help="a JVM option, repeatable (--jvm-opt=-Xmx4g); unless one chooses a collector or an AVX level, "
                         "the JVM also gets -XX:+UseSerialGC and, on x86, -XX:UseAVX=2 (faster CUDA calls in a Java "
                         "training step)")
    ap.add_argument("main_class")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    return ap


def main(argv=None):
    a = parser().parse_args(argv)
    try:
        run_main(a.main_class, a.args, [a.cp] if a.cp else [], [f"-D{p}" for p in a.props] + a.jvm_opts)
    except Exception as e:  # a Java exception escaping main: print it like the java launcher does
        import jpype
        if isinstance(e, jpype.JException):
            print(e.stacktrace(), file=sys.stderr)
            return 1
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
