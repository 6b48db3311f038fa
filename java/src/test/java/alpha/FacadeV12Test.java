package alpha;

import static alpha.Alpha.F;
import static alpha.Alpha.alpha;
import static alpha.Alpha.nn;
import static org.junit.jupiter.api.Assertions.*;

import alpha.engine.Engine;
import alpha.engine.Tensor;
import alpha.nn.Unit;
import org.junit.jupiter.api.Test;

/** Dragon-Alpha v1.2 names beyond the core set through the Java facade, values hand-computed from v1.2's
 *  definitions (tests/test_java_facade_v12.py runs this class under JPype and Py4J and checks the same numbers
 *  in Python). */
class FacadeV12Test {
    static final Engine eg = alpha.engine.cpu_float32();

    @Test
    void pools1DIndexAndUnpool() {
        Tensor x = eg.tensor(new float[]{1, 3, 2, 5}, 1, 4, 1);                       // [N, W, C]
        assertArrayEquals(new float[]{3, 5}, F.maxPool1D(2, x)[0].value());
        Tensor[] yi = F.maxPool1D_with_Index(2, x);
        assertArrayEquals(new int[]{1, 3}, yi[1].value_int32());                      // flat offsets into X
        assertArrayEquals(new float[]{4f / 3, 2, 10f / 3, 7f / 3}, F.avgPool1D(3, 1, 1, x)[0].value(), 1e-6f);
        assertArrayEquals(new float[]{5}, nn.adaptive_maxPool1D(1).init(eg).forward(x)[0].value());
        assertArrayEquals(new float[]{3, 5}, F.eval_maxPool1D(2, x)[0].value());
        Tensor u = F.avgUnpool2D(2, eg.tensor(new float[]{4}, 1, 1, 1, 1))[0];
        assertArrayEquals(new int[]{1, 2, 2, 1}, u.dim());
        assertArrayEquals(new float[]{1, 1, 1, 1}, u.value());
        Tensor x4 = eg.tensor(new float[]{1, 7, 3, 2}, 1, 2, 2, 1);
        assertArrayEquals(new int[]{1}, F.maxPool2D_with_Index(2, x4)[1].value_int32());
        assertArrayEquals(new float[]{7}, F.eval_adaptive_maxPool2D(1, x4)[0].value());
    }

    @Test
    void mathCenterAndFusedForms() {
        assertArrayEquals(new float[]{-1, 1}, F.halfSin(1.0f, eg.tensor(new float[]{0, (float) (Math.PI / 2)}, 2))[0].value(), 1e-6f);
        Tensor X1 = eg.tensor(new float[]{1, 2, 3, 4}, 1, 2, 2), X2 = eg.tensor(new float[]{10, 20}, 1, 2);
        assertArrayEquals(new float[]{11, 22, 13, 24}, F.add_center(X1, X2)[0].value());
        assertArrayEquals(new float[]{20, 80, 60, 160}, nn.mul_center(2.0f).init(eg).forward(X1, X2)[0].value());
        Tensor a = eg.tensor(new float[]{1, 2}, 2), b = eg.tensor(new float[]{2, 1}, 2);
        assertArrayEquals(new float[]{0, 1}, F.linear2_relu(1.0f, -1.0f, 0.0f, a, b)[0].value());
        Unit fused = nn.linear2_leakyRelu(nn.linear2(1.0f, -1.0f, 0.0f), nn.leakyRelu(0.5f)).init(eg);
        assertArrayEquals(new float[]{-0.5f, 1}, fused.forward(a, b)[0].value());
        Unit bm = nn.relu_bernouliMul(nn.relu(), nn.bernouliMul(0.25f, 2.0f, 0.0f)).init(eg).eval();
        assertArrayEquals(new float[]{2, 0}, bm.forward(eg.tensor(new float[]{4, -4}, 2))[0].value());  // x * E[R]
        Tensor S = eg.ones(2, 6);                                                      // v1.2's split forms
        Tensor[] parts = F.split(S, 2, 4);
        assertArrayEquals(new int[]{2, 2}, parts[0].dim());
        assertArrayEquals(new int[]{2, 4}, parts[1].dim());
        assertArrayEquals(new int[]{1, 6}, F.split(0, new Tensor[]{S}, 1, 1)[1].dim());
        assertArrayEquals(new int[]{2, 3}, F.split(-1, 3, 3, S)[0].dim());           // ours: (dim, sections..., X)
    }

    @Test
    void sqBatchNormPointConvsAndUtilities() {
        Unit bn = nn.sqBatchNorm(false, 0.9f, 0.9f, 1e-5f, 1).init(eg);
        float s = (float) (1 / Math.sqrt(1 + 1e-5));                                 // mean 2, var 5 - 4 = 1
        assertArrayEquals(new float[]{-s, s}, bn.forward(eg.tensor(new float[]{1, 3}, 2, 1))[0].value(), 1e-6f);
        assertArrayEquals(new float[]{2}, bn.state_map().get("SqBatchNorm.run_mean").value(), 1e-6f);
        assertArrayEquals(new float[]{5}, bn.state_map().get("SqBatchNorm.run_sqmean").value(), 1e-6f);
        Unit pc = nn.point_conv2D(false, 2, 1).init(eg);
        nn.constant_params(pc, 0.5f);
        assertArrayEquals(new float[]{2}, pc.forward(eg.tensor(new float[]{1, 3}, 1, 1, 2))[0].value());
        nn.print_param_stat(pc);
        assertArrayEquals(new int[]{1, 1, 1, 3}, nn.point_deconv3D(2, 3).init(eg).forward(eg.ones(1, 1, 1, 2))[0].dim());
        assertFalse(F.need_grads());
        assertEquals(-1, F.index_of_core(null));
        StringBuilder sb = new StringBuilder();
        F.append("", sb);
        assertEquals("Alpha.functional", sb.toString());
        assertArrayEquals(new int[]{2, 12}, F.view_flatten(eg.ones(2, 3, 4))[0].dim());
        assertThrows(AlphaException.class, () -> nn.sqsub_center(1.0f, 2.0f));
    }

    @Test
    void textHelpersLossCreatorAndStatePrimitives() throws Exception {
        assertEquals("0.500000", alpha.format(0.5f));
        assertEquals("1.000000e-05", alpha.format(1e-5f));
        assertEquals(" -7", alpha.format((byte) -7));
        assertEquals("[[0, 1, 2]\n [3, 4, 5]]", alpha.str(new int[][]{{0, 1, 2}, {3, 4, 5}}));
        assertEquals("[[[0.000000e+00, 1.000000]\n  [2.000000, 3.000000]]\n [[4.000000, 5.000000]\n  [6.000000, 7.000000]]]",
                alpha.str(new float[][][]{{{0, 1}, {2, 3}}, {{4, 5}, {6, 7}}}));
        StringBuilder sb = new StringBuilder();
        alpha.append(sb, "> ", new byte[][]{{1, 1}, {1, 1}});
        assertEquals("[[  1,   1]\n > [  1,   1]]", sb.toString());
        assertEquals("null", alpha.string(null));
        assertEquals("alpha-v1.2", Alpha.version);
        Unit seq = nn.sequence(java.util.List.of(nn.relu(), nn.smul(2.0f))).init(eg);
        assertArrayEquals(new float[]{0, 4}, seq.forward(eg.tensor(new float[]{-1, 2}, 2))[0].value());

        alpha.loss.LossFunction l = alpha.loss.weighted_sum().append(0.25f, alpha.loss.L1()).append(2.0f, alpha.loss.L2()).create();
        Tensor yh = eg.tensor(new float[]{1, 3}, 1, 2), y = eg.zeros(1, 2);
        float want = 0.25f * alpha.loss.L1().loss(yh, y).get() + 2.0f * alpha.loss.L2().loss(yh, y).get();
        assertEquals(want, l.loss(yh, y).get(), 1e-6f);

        Unit a = nn.sequence(nn.fullconnect(3, 2), nn.batchNorm(2)).init(eg);
        Unit b = nn.sequence(nn.fullconnect(3, 2), nn.batchNorm(2)).init(eg);
        java.nio.file.Path p = java.nio.file.Files.createTempDirectory("facade-v12").resolve("net.zip");
        assertTrue(alpha.stat.write(a, alpha.stat.zip_writer(p.toString())));
        assertTrue(alpha.stat.update(b, alpha.stat.read(alpha.stat.zip_reader(p.toString(), java.nio.charset.StandardCharsets.UTF_8))));
        assertArrayEquals(a.params().get(0).value(), b.params().get(0).value());
        assertSame(b, alpha.stat.transform(b, u -> u.eval()));
        assertFalse(b.training());
    }

    @Test
    void dataContainers() throws Exception {
        alpha.data.ListContainer<String, Integer> con = alpha.data.list(String.class, Integer.class);
        con.add(new String[]{"a", "b", null, "c"}, new Integer[]{0, 1, 5, 1});
        assertEquals(3, con.size());
        assertEquals(java.util.Map.of(0, 1, 1, 2), con.class_sample_num());
        assertEquals(4, con.get(4).input.length);
        assertEquals(2, con.shuffle_swap(1.5).shuffle_sort().split(2)[0].size());

        java.nio.file.Path root = java.nio.file.Files.createTempDirectory("ff");
        for (String f : new String[]{"cat/b", "cat/a", "dog/c"}) {
            java.nio.file.Files.createDirectories(root.resolve(f).getParent());
            java.nio.file.Files.write(root.resolve(f), new byte[]{1});
        }
        alpha.data.FileFolder ff = alpha.data.file_folder(root.toString()).init();
        assertEquals(Integer.valueOf(1), ff.label("dog"));
        assertEquals("a", ff.inputs().get(0).getName());

        int[] n = {0};
        alpha.data.AutoLoadContainer<Integer, Integer> al = alpha.data.autoLoad(Integer.class, Integer.class, 8,
                () -> { synchronized (n) { n[0]++; return new alpha.data.Pair<>(n[0], n[0] % 2); } });
        al.start_load(3);
        try {
            long end = System.currentTimeMillis() + 5000;
            while (al.size() < 8 && System.currentTimeMillis() < end) Thread.sleep(10);
            assertEquals(8, al.size());
        } finally {
            al.stop_load();
        }
    }

    @Test
    void engineMathReductionsAndBlas() {
        Tensor X = eg.tensor(new float[]{1, -2, 3, 4, 5, -6}, 2, 3);
        assertArrayEquals(new float[]{3, -3, 7, 9, 11, -11}, eg.linear(false, 2.0f, X, 1.0f).value());
        assertArrayEquals(new float[]{1, 0, 3, 4, 5, 0}, eg.relu(false, X).value());
        assertArrayEquals(new float[]{1, -1, 1, 1, 1, -1}, eg.clip(false, X, -1.0f, 1.0f).value());
        assertEquals(10f, eg.straight_sum(X, 2.0f).get(), 1e-6f);
        assertEquals(-6f, eg.straight_min(X).get(), 1e-6f);
        assertArrayEquals(new float[]{5, 3, -3}, eg.field_sum(X).value());
        assertArrayEquals(new float[]{2, 3}, eg.row_sum(X).value());
        Tensor C = eg.zeros(2, 2);
        assertSame(C, eg.matMulT2(C, X, X));
        assertArrayEquals(new float[]{14, -24, -24, 77}, C.value());
        assertSame(X, eg.sadd(true, X, 1.0f));
        assertArrayEquals(new float[]{2, -1, 4, 5, 6, -5}, X.value());
    }
}
