package alpha.bridge;

/**
 * Marker: a Java object passed to Python as itself (JPype) or as a Py4J object reference, so
 * Python can call its methods (e.g. the learning-rate function of alpha.optim.lambdaLr). Python
 * calls it on a bridge thread (Py4J) or on the calling thread (JPype); keep it a pure function.
 */
public interface PassByReference {}
