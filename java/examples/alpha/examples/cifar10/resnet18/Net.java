package alpha.examples.cifar10.resnet18;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;

import alpha.engine.Tensor;
import alpha.nn.Module;
import alpha.nn.Unit;

/** ResNet18 for 32x32 CIFAR-10 images, written as Dragon-Alpha Java Modules (fused BN+activation units). */
public class Net {
    public static class BasicBlock extends Module {
        Unit conv1, bn1, conv2, bn2, downsample;

        public BasicBlock(int in_channel, int out_channel, int stride) {
            conv1 = nn.conv3D(false, in_channel, out_channel, 3, stride, 1);
            bn1 = nn.batchNorm_leakyRelu(nn.batchNorm(out_channel), nn.leakyRelu());
            conv2 = nn.conv3D(false, out_channel, out_channel, 3, 1, 1);
            bn2 = nn.batchNorm(out_channel);
            if (stride != 1 || out_channel != in_channel)
                downsample = nn.sequence(
                        nn.conv3D(false, in_channel, out_channel, 3, stride, 1),
                        nn.batchNorm(out_channel));
        }

        @Override
        public Tensor[] __forward__(Tensor... X) {
            Tensor[] res = X;
            X = bn1.forward(conv1.forward(X));
            X = bn2.forward(conv2.forward(X));
            if (downsample != null) res = downsample.forward(res);
            return F.add_leakyRelu(X[0], res[0]);
        }
    }

    public static class ResNet18 extends Module {
        Unit prepare = nn.sequence(
                nn.conv3D(false, 3, 64, 3, 1, 1),
                nn.batchNorm_leakyRelu(nn.batchNorm(64), nn.leakyRelu()));
        Unit layer1 = nn.sequence(new BasicBlock(64, 64, 1), new BasicBlock(64, 64, 1));
        Unit layer2 = nn.sequence(new BasicBlock(64, 128, 2), new BasicBlock(128, 128, 1));
        Unit layer3 = nn.sequence(new BasicBlock(128, 256, 2), new BasicBlock(256, 256, 1));
        Unit layer4 = nn.sequence(new BasicBlock(256, 512, 2), new BasicBlock(512, 512, 1));
        Unit pool = nn.adaptive_avgPool2D(1, 1);
        Unit fc = nn.sequence(
                nn.dropout(0.9f),
                nn.fullconnect(true, 512, 128),
                nn.leakyRelu(),
                nn.dropout(false, 0.9f),
                nn.fullconnect(true, 128, 10));

        @Override
        public Tensor[] __forward__(Tensor... X) {
            X = prepare.forward(X);
            X = layer1.forward(X);
            X = layer2.forward(X);
            X = layer3.forward(X);
            X = layer4.forward(X);
            X = pool.forward(X);
            return fc.forward(F.flatten(X));
        }

        public static String weight = System.getProperty("alpha.weights", "resnet18-cifar10.zip");

        public void load() { alpha.stat.load_zip(this, weight); }

        public void save() { alpha.stat.save_zip(this, weight); }
    }
}
