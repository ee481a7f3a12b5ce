package io.tollgate.filters.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The comparisons permissions and principals use: exact, prefix, suffix, contains and presence. */
class StringMatcherTest {

    @Test
    void eachKindComparesAsItsNameSays() {
        assertThat(new StringMatcher(StringMatcher.Kind.EXACT, "abc").matches("abc")).isTrue();
        assertThat(new StringMatcher(StringMatcher.Kind.EXACT, "abc").matches("abcd")).isFalse();
        assertThat(new StringMatcher(StringMatcher.Kind.PREFIX, "/admin").matches("/admin/users")).isTrue();
        assertThat(new StringMatcher(StringMatcher.Kind.PREFIX, "/admin").matches("/public/admin")).isFalse();
        assertThat(new StringMatcher(StringMatcher.Kind.SUFFIX, ".test").matches("api.b.test")).isTrue();
        assertThat(new StringMatcher(StringMatcher.Kind.SUFFIX, ".test").matches("test")).isFalse();
        assertThat(new StringMatcher(StringMatcher.Kind.CONTAINS, "bot").matches("a-bot/1")).isTrue();
        assertThat(new StringMatcher(StringMatcher.Kind.CONTAINS, "bot").matches("human")).isFalse();
        assertThat(new StringMatcher(StringMatcher.Kind.PRESENT, null).matches("")).isTrue();
    }

    @Test
    void anAbsentValueMatchesNothing() {
        for (StringMatcher.Kind kind : StringMatcher.Kind.values()) {
            assertThat(new StringMatcher(kind, "").matches(null)).as(kind.name()).isFalse();
        }
    }
}
