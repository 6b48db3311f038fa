"""A program that needs the matMul family: a one-head self-attention block (fullconnect Q/K/V, batchMatMulT2,
softmax, batchMatMul, fullconnect) trains on a toy sequence task generated here — is the first token equal to
the last? — and beats a bag-of-tokens baseline (order-blind, so near chance). Java twin:
java/examples/alpha/examples/Attention.java (run through JPype in test_java_jpype-style below)."""
import numpy as np

from alpha_py import F, alpha, nn

V, T = 5, 6                       # vocabulary, sequence length


def toy_task(n, seed):
    """Inputs [n, T, V+T]: one-hot token then one-hot position; label 1 when the first token equals the last
    (half the rows by construction)."""
    rng = np.random.RandomState(seed)
    tok = rng.randint(0, V, (n, T))
    same = rng.rand(n) < 0.5
    tok[same, -1] = tok[same, 0]
    tok[~same, -1] = (tok[~same, 0] + rng.randint(1, V, (~same).sum())) % V
    x = np.zeros((n, T, V + T), np.float32)
    x[np.arange(n)[:, None], np.arange(T)[None, :], tok] = 1
    x[:, np.arange(T), V + np.arange(T)] = 1
    return x, same.astype(np.int64)


class Attention(nn.Module):
    """softmax(Q K^T / sqrt(d)) V over the sequence, then a classifier on the flattened result."""

    def __init__(self, d_in, d, classes):
        super().__init__()
        self.q, self.k, self.v = (nn.fullconnect(True, d_in, d) for _ in range(3))
        self.scores = nn.batchMatMulT2()
        self.scale = nn.smul(1.0 / np.sqrt(d))
        self.softmax = nn.softmax()
        self.mix = nn.batchMatMul()
        self.flat = nn.flatten()
        self.hidden = nn.fullconnect(True, T * d, 32)
        self.out = nn.fullconnect(True, 32, classes)

    def __forward__(self, *X):
        q, k, v = self.q(*X)[0], self.k(*X)[0], self.v(*X)[0]
        a = self.softmax(self.scale(self.scores(q, k)[0])[0])[0]
        h = self.mix(a, v)[0]
        return self.out(F.relu(self.hidden(self.flat(h)[0])[0])[0])


class BagOfTokens(nn.Module):
    """Order-blind baseline: the mean over positions of the token one-hots, then an MLP."""

    def __init__(self, classes):
        super().__init__()
        self.hidden = nn.fullconnect(True, V, 32)
        self.out = nn.fullconnect(True, 32, classes)

    def __forward__(self, *X):
        bag = F.reduce_mean(1, F.split(-1, V, T, X[0])[0])[0]
        return self.out(F.relu(self.hidden(bag)[0])[0])


def train(net, eg, x, y, steps=300, lr=1e-2):
    net.init(eg)
    opt = alpha.optim.Adam(net.params(), lr)
    loss = alpha.loss.softmax_crossEntropy()
    X, Y = eg.tensor(x), eg.onehot(y, 2)
    for _ in range(steps):
        yh = net(X)[0]
        net.backward(loss.gradient(yh, Y))
        opt.update()
        net.clear_grads()
        net.gc()
    return net


def accuracy(net, eg, x, y):
    net.eval()
    pred = net(eg.tensor(x))[0].numpy().argmax(1)
    net.train()
    return float((pred == y).mean())


def test_attention_beats_bag_of_tokens():
    eg = alpha.engine.cpu_float32().set_seed(0)
    x, y = toy_task(512, 0)
    xt, yt = toy_task(512, 1)
    att = accuracy(train(Attention(V + T, 16, 2), eg, x, y), eg, xt, yt)
    bag = accuracy(train(BagOfTokens(2), eg, x, y), eg, xt, yt)
    assert att > 0.9, f"attention test accuracy {att:.3f}"
    assert att > bag + 0.2, f"attention {att:.3f} vs bag-of-tokens {bag:.3f}"
