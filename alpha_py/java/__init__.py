"""Java layer (JPype, in-process): start a JVM inside this Python process with the alpha-java
classes, install the JPype backend (a Python proxy of alpha.bridge.PyEndpoint) and run Java code.
`python -m alpha_py.java --cp <jars> <MainClass> [args]`. Imports jpype and alpha_py.bridge."""
from .launcher import alpha_java_classpath, run_main, start_jvm

__all__ = ["start_jvm", "run_main", "alpha_java_classpath"]
