package alpha;

import alpha.bridge.Handle;
import alpha.bridge.Ref;
import alpha.bridge.Wrap;
import alpha.engine.Result;
import alpha.engine.Tensor;

import java.util.List;
import java.util.Map;

/**
 * One-call training steps (Python's alpha.train_step): {@code TrainStep step = alpha.train_step(net,
 * loss, opt)}, then {@code Result<Float> l = step.run(x, y)} per batch — forward, loss, backward,
 * optimizer update and net.gc() in ONE bridge round trip (on a CUDA engine a captured CUDA graph,
 * replayed as one launch). The loss is lazy: {@code l.get()} is a second round trip that waits for
 * that step; read it every k steps, or read all losses at once with {@link #history()}.
 * The net must be a Python-side unit (nn.* units and containers, zoo nets such as nn.ResNet18): a
 * Java Module's forward runs in Java, one bridge call per unit, and cannot be folded into one call.
 * A NaN/Inf loss throws an AlphaException (pyType "NonFiniteError") naming the step, the loss and the learning
 * rate (on the CPU from that step's run(), before its update; on a GPU from the next history()), unless the step
 * was made with onNonfinite "skip" or "continue" (docs/divergence.md).
 */
public class TrainStep extends Handle {
    /**
     * Wraps the Python {@code TrainStep} that {@code alpha.train_step} returned.
     *
     * @param ref the Python object's reference
     */
    public TrainStep(Ref ref) { super(ref); }

    private Object py(String method, Object... args) { return Wrap.wrap(backend().call(this, method, args), this); }

    /**
     * One training step on (x, y); returns at once with the step's loss (get() waits for it).
     *
     * @param x the inputs
     * @param y the labels (one-hot rows)
     * @return the step's loss (its {@code get()} waits for that step only)
     */
    @SuppressWarnings("unchecked")
    public Result<Float> run(Tensor x, Tensor y) { return (Result<Float>) py("run", x, y); }

    /**
     * {'loss': [...], 'accuracy': [...] or null} of the steps since the previous call (one wait).
     *
     * @return {@code {loss: [...], accuracy: [...]}} of the steps since the last call
     */
    @SuppressWarnings("unchecked")
    public Map<String, List<Double>> history() { return (Map<String, List<Double>>) py("history"); }

    /**
     * Steps run op by op / captured / replayed, graphs held, mode and why capture gave up (if it did).
     *
     * @return the counts of steps run op by op, captured and replayed
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> stats() { return (Map<String, Object>) py("stats"); }

    /** Drop the captured graphs (their memory goes back to the pool) and release this handle. */
    @Override
    public void close() {
        if (isReleased()) return;
        Wrap.discard(backend().call(this, "close"));
        super.close();
    }

    @Override
    public String toString() { return isReleased() ? "TrainStep(released)" : (String) py("__repr__"); }
}
