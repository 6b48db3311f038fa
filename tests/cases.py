"""Shared case tables of the unit tests: the CPU gradient checks (test_nn_grad.py) and the GPU parity tests
(test_cuda_units.py) run the same cases. Activation cases derive from alpha_py.ops.ACTIVATIONS."""
from alpha_py import nn
from alpha_py.ops import ACTIVATIONS

CONV_CASES = [   # (factory name, args, input shape)
    ("conv3D", (True, 3, 4, 3, 1, 1), (2, 5, 6, 3)),
    ("conv3D", (True, 3, 5, 3, 2, 1), (1, 7, 7, 3)),                 # stride 2, odd size, batch 1
    ("conv3D", (False, 2, 3, 2, 3, 1, 2, 0, 1), (2, 6, 5, 2)),       # non-square, per-axis
    ("conv3D", (True, 2, 3, 3, 2, 2, 1, 1, 0), (1, 6, 5, 2)),        # kh != kw, stride 2
    ("conv3D", (2, 2, 4), (1, 5, 4, 2)),                             # biased default, k=4
    ("conv3D", (True, 3, 2, 2, 2, 0), (2, 6, 7, 3)),                 # stride 2, no pad, odd W
    ("pointwise_conv3D", (True, 3, 4), (2, 3, 5, 3)),
    ("pointwise_conv3D", (False, 2, 3), (1, 1, 1, 2)),
    ("deconv3D", (True, 3, 2, 3, 2, 1), (2, 4, 3, 3)),               # stride 2, padding
    ("deconv3D", (False, 2, 3, 2, 2, 0), (1, 3, 3, 2)),              # batch 1, k=s=2
    ("deconv3D", (True, 2, 2, 3, 2, 2, 1, 1, 0), (1, 3, 4, 2)),      # non-square per-axis
    ("deconv3D", (True, 3, 2, 3), (2, 3, 5, 3)),                     # stride 1 no pad
    ("depthwise_conv3D", (True, 3, 3, 1, 1), (2, 5, 6, 3)),
    ("depthwise_conv3D", (True, 4, 3, 2, 1), (1, 7, 7, 4)),          # stride 2, odd, batch 1
    ("depthwise_conv3D", (False, 2, 2, 3, 1, 2, 0, 1), (2, 5, 6, 2)),  # non-square per-axis
    ("conv2D", (True, 3, 4, 3, 2, 1), (1, 9, 3)),                    # 1D over NWC
    ("conv2D", (False, 2, 3, 2), (2, 6, 2)),
    ("deconv2D", (True, 3, 2, 3, 2, 1), (2, 5, 3)),
    ("deconv2D", (False, 2, 2, 2), (1, 4, 2)),
]

NORM_CASES = [
    ("batchNorm", lambda: nn.batchNorm(4), (6, 3, 4), True),
    ("batchNorm_noaffine", lambda: nn.batchNorm(False, 0.9, 0.9, 1e-5, 4), (5, 4), True),
    ("batchNorm_eval", lambda: nn.batchNorm(3), (2, 3, 2, 3), False),
    ("batchNorm_2dims", lambda: nn.batchNorm(2, 3), (4, 2, 3), True),
    ("global_batchNorm_eval", lambda: nn.global_batchNorm(3), (4, 3), False),
    ("layerNorm", lambda: nn.layerNorm(5), (3, 5), True),
    ("layerNorm_2dims", lambda: nn.layerNorm(2, 3), (4, 2, 3), True),
    ("layerNorm_noaffine", lambda: nn.layerNorm(False, 1e-5, 4), (3, 4), True),
    ("affine", lambda: nn.affine(4), (2, 3, 4), True),
]

# (factory name, args): every activation with its defaults, non-default parameters, and softmax forms
ACTS = ([(name, ()) for name in ACTIVATIONS] + [("leakyRelu", (0.2,)), ("elu", (0.5, 1.5))]
        + [("softmax", ()), ("log_softmax", ()), ("softmax", (5,))])

ADD_ACTS = list(ACTIVATIONS)          # add_<act> for every activation

POOL_CASES = [
    ("maxPool2D", (3, 2, 1), (2, 5, 7, 3)),
    ("maxPool2D", (2,), (1, 4, 6, 2)),
    ("maxPool2D", (3, 2, 2, 1, 1, 0), (1, 7, 5, 2)),      # non-square, per-axis, batch 1
    ("avgPool2D", (2, 2, 1), (2, 5, 7, 3)),
    ("avgPool2D", (3, 1, 1), (1, 5, 5, 2)),
    ("avgPool2D", (2, 3, 2, 1, 1, 1), (2, 5, 6, 2)),
    ("adaptive_avgPool2D", (2,), (2, 5, 7, 3)),
    ("adaptive_avgPool2D", (1,), (1, 3, 4, 2)),
    ("adaptive_maxPool2D", (2, 3), (2, 5, 7, 3)),
    ("adaptive_maxPool2D", (3, 2), (1, 7, 5, 2)),
]

SHAPE_CASES = [
    ("flatten", lambda: nn.flatten(), [(2, 3, 4, 2)]),
    ("flaten", lambda: nn.flaten(), [(2, 3, 2)]),
    ("view", lambda: nn.view(4, -1), [(2, 3, 4)]),
    ("reshape", lambda: nn.reshape(3, 8), [(2, 3, 4)]),
    ("transpose", lambda: nn.transpose(1, 2), [(2, 3, 4, 2)]),
    ("transpose_neg", lambda: nn.transpose(0, -1), [(2, 3, 4)]),
    ("pad", lambda: nn.pad(1, 2, 0), [(2, 3, 4, 2)]),
    ("pad_before_after", lambda: nn.pad([0, 1, 2], [2, 0, 1]), [(2, 3, 4, 2)]),
    ("pad2D", lambda: nn.pad2D(1, 1), [(1, 3, 3, 2)]),
    ("trim", lambda: nn.trim(1, 1, 0), [(2, 4, 5, 2)]),
    ("trim2D", lambda: nn.trim2D([1, 0], [0, 2]), [(2, 4, 5, 2)]),
    ("expand", lambda: nn.expand(6, 7, -1), [(2, 3, 4, 2)]),
    ("expand_start", lambda: nn.expand([1, 2], [5, 6]), [(2, 3, 4, 2)]),
    ("expand2D", lambda: nn.expand2D(5, 5), [(1, 3, 4, 2)]),
    ("crop", lambda: nn.crop(2, 3, -1), [(2, 5, 6, 2)]),
    ("crop_start", lambda: nn.crop([1, 2, 0], [3, 3, 2]), [(2, 5, 6, 2)]),
    ("crop2D", lambda: nn.crop2D(3, 3), [(1, 5, 6, 2)]),
]

COMBINE_CASES = [
    ("add", lambda: nn.add(), [(2, 3, 4)] * 2),
    ("sub", lambda: nn.sub(), [(2, 3, 4)] * 2),
    ("mul", lambda: nn.mul(), [(2, 3, 4)] * 2),
    ("linear2", lambda: nn.linear2(0.5, -2.0, 0.3), [(3, 4)] * 2),
    ("add_alpha_beta", lambda: nn.add(0.5, -2.0), [(3, 4)] * 2),
    ("sub_likeX2_bcast", lambda: nn.sub(False, 2.0, 0.5), [(4,), (3, 4)]),
    ("add_bcast_row", lambda: nn.add(True), [(2, 3, 4), (1, 4)]),
    ("mul_alpha_bcast", lambda: nn.mul(True, 0.5), [(2, 3, 4), (3, 1)]),
    ("mul_reshape", lambda: nn.mul(False, 2.0), [(3, 4), (2, 6)]),
    ("div_params", lambda: nn.div(True, 2.0, 0.5, 1.0, 3.0, 0.25), [(3, 4), (3, 4)]),
    ("linear2_likeX2", lambda: nn.linear2(False, 0.5, -2.0, 0.3), [(4,), (2, 4)]),
    ("concat_last", lambda: nn.concat(), [(2, 3, 2), (2, 3, 4)]),
    ("concat_dim1", lambda: nn.concat(1), [(2, 1, 3), (2, 4, 3), (2, 2, 3)]),
    ("split", lambda: nn.split(1, 2, 1, 3), [(2, 6, 3)]),
    ("split_last", lambda: nn.split(-1, [1, 4]), [(3, 5)]),
    ("chunk", lambda: nn.chunk(3), [(2, 6)]),
    ("chunk_dim", lambda: nn.chunk(0, 2), [(4, 3)]),
    ("sum_inputs", lambda: nn.sum(), [(2, 3)] * 3),
    ("sum_alpha", lambda: nn.sum(0.5), [(2, 3)] * 2),
    ("sum_alpha_one", lambda: nn.sum(-2.0), [(2, 3)]),
    ("mean_inputs", lambda: nn.mean(), [(2, 3)] * 2),
    ("mean_alpha", lambda: nn.mean(3.0), [(2, 3)] * 3),
    ("sqadd", lambda: nn.sqadd(0.5, -2.0), [(3, 4)] * 2),
    ("sqsub_bcast", lambda: nn.sqsub(True), [(3, 4), (4,)]),
    ("quadratic2", lambda: nn.quadratic2(0.5, -1.0, 2.0, 0.3, -0.7, 0.1), [(3, 4)] * 2),
    ("linear_sum", lambda: nn.linear_sum(0.5, 2.0), [(2, 3)] * 3),
    ("linear_mean", lambda: nn.linear_mean(-1.5, 2.0), [(2, 3)] * 2),
    ("sqsum", lambda: nn.sqsum(0.5), [(2, 3)] * 3),
    ("sqmean", lambda: nn.sqmean(), [(2, 3)] * 2),
    ("quadratic_sum", lambda: nn.quadratic_sum(0.5, -1.0, 2.0), [(2, 3)] * 2),
    ("quadratic_mean", lambda: nn.quadratic_mean(0.5, -1.0, 2.0), [(2, 3)] * 3),
    ("add_row", lambda: nn.add_row(0.5, -2.0), [(2, 3, 4), (12,)]),
    ("sub_row", lambda: nn.sub_row(), [(4, 6), (2, 3)]),
    ("mul_row", lambda: nn.mul_row(1.5), [(3, 4), (4,)]),
    ("linear2_row", lambda: nn.linear2_row(0.5, -1.0, 0.2), [(3, 4), (4,)]),
    ("sqadd_row", lambda: nn.sqadd_row(), [(3, 4), (4,)]),
    ("sqsub_row", lambda: nn.sqsub_row(2.0, 0.5), [(3, 4), (4,)]),
    ("quadratic2_row", lambda: nn.quadratic2_row(0.5, -1.0, 2.0, 0.3, -0.7, 0.1), [(2, 6), (3,)]),
    ("reduce_sum_all", lambda: nn.reduce_sum(), [(2, 3, 4)]),
    ("reduce_sum_dim", lambda: nn.reduce_sum(1), [(2, 3, 4)]),
    ("reduce_mean_all", lambda: nn.reduce_mean(), [(2, 3, 4)]),
    ("reduce_mean_dim", lambda: nn.reduce_mean(-1), [(2, 3, 4)]),
]

FUSED_CASES = [
    ("batchNorm_relu", lambda: nn.batchNorm_relu(3), (5, 2, 3), None),
    ("batchNorm_leakyRelu", lambda: nn.batchNorm_leakyRelu(nn.batchNorm(3), nn.leakyRelu(0.1)), (6, 3), None),
    ("batchNorm_elu", lambda: nn.batchNorm_elu(4), (5, 4), None),
    ("batchNorm_gelu", lambda: nn.batchNorm_gelu(3), (2, 2, 2, 3), None),
    ("batchNorm_sigmoid", lambda: nn.batchNorm_sigmoid(3), (4, 3), None),
    ("batchNorm_tanh", lambda: nn.batchNorm_tanh(3), (4, 3), None),
    ("global_batchNorm_relu_eval", lambda: nn.batchNorm_relu(nn.global_batchNorm(3)).eval(), (4, 3), None),
    ("affine_relu", lambda: nn.affine_relu(3), (4, 3), None),
    ("affine_leakyRelu", lambda: nn.affine_leakyRelu(nn.affine(3), nn.leakyRelu(0.3)), (4, 3), None),
    ("affine_elu", lambda: nn.affine_elu(3), (2, 2, 3), None),
    ("affine_gelu", lambda: nn.affine_gelu(3), (4, 3), None),
    ("affine_sigmoid", lambda: nn.affine_sigmoid(3), (4, 3), None),
    ("affine_tanh", lambda: nn.affine_tanh(3), (4, 3), None),
    ("relu_dropout", lambda: nn.relu_dropout(0.7), (4, 5), 3),
    ("leakyRelu_dropout", lambda: nn.leakyRelu_dropout(nn.leakyRelu(0.2), nn.dropout(0.6)), (4, 5), 3),
    ("elu_dropout", lambda: nn.elu_dropout(0.8), (4, 5), 3),
    ("gelu_dropout", lambda: nn.gelu_dropout(0.5), (4, 5), 3),
    ("sigmoid_dropout", lambda: nn.sigmoid_dropout(0.9), (4, 5), 3),
    ("tanh_dropout", lambda: nn.tanh_dropout(0.75), (4, 5), 3),
    ("fuse_layerNorm_gelu", lambda: nn.fuse(nn.layerNorm(4), nn.gelu()), (3, 4), None),
    ("fuse_batchNorm_sigmoid", lambda: nn.fuse(nn.batchNorm(3), nn.sigmoid()), (4, 3), None),
]
