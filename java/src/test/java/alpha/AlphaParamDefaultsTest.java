package alpha;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** AlphaParamDefaults.allDefault(), the facade's fast check, sees a change of every Alpha.AlphaParam field (found by
 *  reflection: a new field missing from the fast check fails here), and changed() then names it. No bridge. */
class AlphaParamDefaultsTest {
    @AfterEach
    void reset() { Alpha.AlphaParam.reset(); }

    @Test
    void everyFieldChangeIsSeenByTheFastCheck() throws IllegalAccessException {
        assertTrue(AlphaParamDefaults.allDefault());
        int n = 0;
        for (Field f : Alpha.AlphaParam.class.getDeclaredFields()) {
            int m = f.getModifiers();
            if (!Modifier.isPublic(m) || !Modifier.isStatic(m) || Modifier.isFinal(m)) continue;
            Object[] others = f.getType() == boolean.class ? new Object[] {!f.getBoolean(null)}
                    : new Object[] {f.getFloat(null) + 1f, -f.getFloat(null), Float.NaN};
            Object dflt = f.get(null);
            for (Object v : others) {
                if (v.equals(dflt)) continue;            // (no change; -0f of a 0f default is one: Float.equals)
                f.set(null, v);
                assertFalse(AlphaParamDefaults.allDefault(), f.getName() + " = " + v + " is not seen by allDefault()");
                assertArrayEquals(new Object[] {f.getName(), v}, Alpha.AlphaParam.changed());
                Alpha.AlphaParam.reset();
                assertTrue(AlphaParamDefaults.allDefault(), "after reset, " + f.getName());
                assertEquals(0, Alpha.AlphaParam.changed().length);
                n++;
            }
        }
        assertTrue(n >= 48 * 2, "fields checked: " + n);
    }
}
