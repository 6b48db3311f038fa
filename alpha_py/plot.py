"""Tools layer: PNG plot of a training history (loss per step, accuracy per epoch) with
matplotlib's Agg backend; written atomically (temp file then rename)."""
import os


def plot_history(history, path, title="alpha train"):
    """history: {'step_loss': [...], 'train_acc': [...], 'test_acc': [...], 'steps_per_epoch': [...]}"""
    import matplotlib
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    losses = history.get("step_loss", [])
    ax1.plot(range(1, len(losses) + 1), losses, lw=0.8, color="tab:blue", label="batch loss")
    ends = list(_cumsum(history.get("steps_per_epoch", [])))
    if ends and losses:
        means = [sum(losses[a:b]) / max(b - a, 1) for a, b in zip([0] + ends[:-1], ends)]
        ax1.plot(ends, means, "o-", color="tab:red", label="epoch mean")
    ax1.set_xlabel("step")
    ax1.set_ylabel("loss")
    ax1.set_yscale("log" if losses and min(losses) > 0 else "linear")
    ax1.legend()
    ax1.grid(alpha=0.3)
    epochs = range(1, len(history.get("test_acc", [])) + 1)
    for key, style in (("train_acc", "s-"), ("test_acc", "o-")):
        vals = history.get(key, [])
        if vals:
            ax2.plot(list(epochs)[:len(vals)], [100 * v for v in vals], style, label=key.replace("_", " "))
    ax2.set_xlabel("epoch")
    ax2.set_ylabel("accuracy (%)")
    ax2.legend()
    ax2.grid(alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, "." + os.path.basename(path) + ".tmp.png")
    fig.savefig(tmp, dpi=90)
    plt.close(fig)
    os.replace(tmp, path)
    return path


def _cumsum(xs):
    total = 0
    for x in xs:
        total += x
        yield total
