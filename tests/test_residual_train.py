"""End-to-end autograd over a DAG: a residual two-block network (residual adds, one unit output used
twice, split/concat, fused units) trains on a tiny synthetic problem with plain SGD written here
until its loss falls by 10x."""
import numpy as np

from alpha_py import F, alpha, nn


class Block(nn.Module):
    """conv-bn-relu-conv-bn + identity, then relu (fused add_relu)."""

    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.conv3D(False, c, c, 3, 1, 1)
        self.bn1 = nn.batchNorm_relu(c)
        self.conv2 = nn.conv3D(False, c, c, 3, 1, 1)
        self.bn2 = nn.batchNorm(c)

    def __forward__(self, *X):
        x = X[0]
        y = self.bn2(self.conv2(self.bn1(self.conv1(x))))
        return F.add_relu(y[0], x)


class SplitBlock(nn.Module):
    """Split channels, a different conv per half, concat, add the input back."""

    def __init__(self, c):
        super().__init__()
        self.split = nn.split(-1, c // 2, c - c // 2)
        self.left = nn.conv3D(True, c // 2, c // 2, 3, 1, 1)
        self.right = nn.depthwise_conv3D(True, c - c // 2, 3, 1, 1)
        self.concat = nn.concat()
        self.act = nn.leakyRelu(0.1)

    def __forward__(self, *X):
        a, b = self.split(X[0])
        y = self.concat(self.left(a)[0], self.right(b)[0])
        return self.act(F.add(y[0], X[0])[0])


class ResNet(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.stem = nn.conv3D(True, 3, 8, 3, 1, 1)
        self.block1 = Block(8)
        self.block2 = SplitBlock(8)
        self.pool = nn.adaptive_avgPool2D(1)
        self.flat = nn.flatten()
        self.fc = nn.fullconnect(True, 16, classes)

    def __forward__(self, *X):
        s = self.stem(X[0])[0]
        h = self.block2(self.block1(s)[0])[0]
        both = F.concat(h, s)[0]                 # the stem output is used twice (block1 and here)
        return self.fc(self.flat(self.pool(both)))


def test_residual_network_loss_falls_10x():
    eg = alpha.engine.cpu_float32().set_seed(0)
    rng = np.random.RandomState(0)
    n, classes = 32, 4
    x = rng.randn(n, 6, 6, 3).astype(np.float32)
    teacher = rng.randn(3, classes)
    labels = (x.mean(axis=(1, 2)) @ teacher + 0.3 * rng.randn(n, classes)).argmax(1)
    X, Y = eg.tensor(x), eg.onehot(labels, classes)
    net = ResNet(classes).init(eg)
    loss = alpha.loss.softmax_crossEntropy()
    names = list(net.param_map())
    assert "ResNet.block1.bn1.weight" in names and "ResNet.block2.right.weight" in names

    lr, history = 0.1, []
    for step in range(200):
        yh = net(X)[0]
        history.append(loss.loss(yh, Y).get())
        net.backward(loss.gradient(yh, Y))
        for p in net.params():
            assert p.grad_data is not None, f"no gradient reached {p.name}"
            p.data = p.data - np.float32(lr) * p.grad_data
        net.clear_grads()
        net.gc()
        if history[-1] < history[0] / 10:
            break
    assert np.isfinite(history).all()
    assert history[-1] < history[0] / 10, f"loss {history[0]:.4f} -> {history[-1]:.4f} in {len(history)} steps"
