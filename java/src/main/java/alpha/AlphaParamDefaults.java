package alpha;

import static alpha.Alpha.AlphaParam.*;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Alpha.AlphaParam}'s defaults: captured by reflection when that class is initialised, restored by reset(),
 * compared by changed() (the facade asks on each alpha.nn / alpha.F / alpha.optim call). allDefault() answers the
 * common case first, reading the fields directly (no reflection, no boxing); AlphaParamDefaultsTest sets every field
 * found by reflection to other values and fails if it misses one, so a field added to Alpha.AlphaParam must be added
 * to allDefault() too.
 */
final class AlphaParamDefaults {
    private static final Field[] FIELDS = fields();
    private static final Object[] NONE = new Object[0];
    private static Object[] defaults;

    private AlphaParamDefaults() {}

    /** Alpha.AlphaParam's static initialiser, after its fields: their values now are v1.2's defaults. */
    static void capture() { defaults = values(); }

    static void reset() {
        try {
            for (int i = 0; i < FIELDS.length; i++) FIELDS[i].set(null, defaults[i]);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Name/value pairs of the fields that differ from the defaults (Float.equals: bit for bit). */
    static Object[] changed() {
        if (allDefault()) return NONE;
        Object[] now = values();
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < now.length; i++)
            if (!now[i].equals(defaults[i])) { out.add(FIELDS[i].getName()); out.add(now[i]); }
        return out.toArray();
    }

    private static Field[] fields() {
        List<Field> out = new ArrayList<>();
        for (Field f : Alpha.AlphaParam.class.getDeclaredFields()) {
            int m = f.getModifiers();
            if (Modifier.isPublic(m) && Modifier.isStatic(m) && !Modifier.isFinal(m)) out.add(f);
        }
        return out.toArray(new Field[0]);
    }

    private static Object[] values() {
        Object[] v = new Object[FIELDS.length];
        try {
            for (int i = 0; i < v.length; i++) v[i] = FIELDS[i].get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
        return v;
    }

    static boolean allDefault() {
        return sp_math2_inplace && sp_tensor_inplace && sp_affine_inplace && same(leakyRelu_neg_slope, 0.01f) &&
                same(elu_alpha, 1.0f) && same(elu_neg_slope, 0.01f) && batchNorm_affine &&
                same(batchNorm_beta1, 0.9f) && same(batchNorm_beta2, 0.9f) && same(batchNorm_eps, 1e-5f) &&
                layerNorm_affine && same(layerNorm_eps, 1e-5f) && !avgpool2D_igpad && !avgpool1D_igpad &&
                !avgunpool2D_ignore_padding && dl_likeX1 && same(Momentum_beta, 0.9f) &&
                same(SGDMN_momentum, 0.9f) && same(SGDMN_dampen, 0.0f) && same(nestrov, 0.0f) &&
                same(RMSprop_lr, 1e-2f) && same(RMSprop_beta, 0.99f) && same(RMSprop_eps, 1e-8f) &&
                same(Adam_lr, 1e-3f) && same(Adam_beta1, 0.9f) && same(Adam_beta2, 0.999f) &&
                same(Adam_eps, 1e-8f) && same(Adamax_lr, 2e-3f) && same(Adamax_beta1, 0.9f) &&
                same(Adamax_beta2, 0.999f) && same(Adamax_eps, 1e-8f) && same(AdamW_lr, 1e-3f) &&
                same(AdamW_beta1, 0.9f) && same(AdamW_beta2, 0.999f) && same(AdamW_eps, 1e-8f) &&
                same(AdamW_L1, 0) && same(AdamW_L2, 1e-2f) && same(RAdam_lr, 1e-3f) && same(RAdam_beta1, 0.9f) &&
                same(RAdam_beta2, 0.999f) && same(RAdam_eps, 1e-8f) && same(Adamod_lr, 1e-3f) &&
                same(Adamod_beta1, 0.9f) && same(Adamod_beta2, 0.999f) && same(Adamod_beta3, 0.999f) &&
                same(Adamod_eps, 1e-8f) && same(cosAnnealingLr_minLr, 0.0001f) &&
                same(cosAnnealingLr_Tmax, (float) Math.PI);
    }

    private static boolean same(float v, float d) { return Float.floatToIntBits(v) == Float.floatToIntBits(d); }
}
