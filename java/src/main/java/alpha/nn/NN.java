package alpha.nn;

/**
 * alpha.nn: unit constructors with Dragon-Alpha's names and overloads (checked in Python, where the
 * units live), containers, and zoo blocks/nets. Arguments are ints, floats, booleans, strings or units.
 */
public class NN extends NNV12 {
    /**
     * v1.2's ConvNeXt block, X + pwconv2(act(pwconv1(norm(dwconv(X))))): {@code (in_channel, out_channel, expand[, kernel])} (gelu, layerNorm) or {@code (act, norm, in_channel, expand, out_channel, kernel)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit ConvNeXtBlock(Object... args) { return unit("ConvNeXtBlock", args); }

    /**
     * v1.2's ConvNeXt (3, 3, 9, 3 blocks on C, 2C, 4C, 8C channels): {@code (in_channel, expand)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit ConvNeXt(Object... args) { return unit("ConvNeXt", args); }

    /**
     * v1.2's gated block, X + out_fc(act(gate_fc(Z)) * [dwconv(conv_fc(Z)), idty_fc(Z)]), Z = norm(X): {@code (act, norm, in_channel, [conv_ratio, expand,] kernel)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit GatedBlock(Object... args) { return unit("GatedBlock", args); }

    /**
     * v1.2's large-kernel attention, X * mask(fc3(dwconv(act(fc1(batchNorm(X)))))): {@code ([act,] mask, channel, [hidden,] kernel)}.
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit LargeKernelAttn(Object... args) { return unit("LargeKernelAttn", args); }

    /**
     * v1.2's channel-split multi-head attention over (Q, K, V): {@code (head, mask)} (mask may be null).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit ChannelMHA(Object... args) { return unit("ChannelMHA", args); }

    /**
     * v1.2's spatial-split multi-head attention over (Q, K, V): {@code (head, mask)} (mask may be null).
     *
     * @param args the constructor's arguments, in Dragon-Alpha's order (checked by the Python side)
     * @return the unit
     */
    public Unit ImageMHA(Object... args) { return unit("ImageMHA", args); }
}
