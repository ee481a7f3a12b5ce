package io.tollgate.core.extension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.HealthCheckConfig;
import io.tollgate.core.config.LoadBalancingConfig;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExtensionRegistryTest {

    /** A factory of any kind, with the name and keys given. */
    record Named<C>(String name, Class<C> configType, Set<String> keys) implements ExtensionFactory<C> {
    }

    /** A second class, so that a duplicate names two different ones. */
    record Other<C>(String name, Class<C> configType) implements ExtensionFactory<C> {
    }

    /** The runtime interface of a kind, as gateway-router's LoadBalancerFactory is. */
    interface Balancing extends ExtensionFactory<LoadBalancingConfig> {
    }

    /** An implementation of {@link Balancing}. */
    record Balancer(String name) implements Balancing {
        @Override
        public Class<LoadBalancingConfig> configType() {
            return LoadBalancingConfig.class;
        }
    }

    /** A second {@code round_robin}, listed only by {@link #failsToLoadTwoFactoriesOfOneNameFromTheClassPath}. */
    public static final class RoundRobinAgain implements ExtensionFactory<LoadBalancingConfig> {
        @Override
        public String name() {
            return "round_robin";
        }

        @Override
        public Class<LoadBalancingConfig> configType() {
            return LoadBalancingConfig.class;
        }
    }

    private static <C> Named<C> named(String name, Class<C> kind, String... keys) {
        return new Named<>(name, kind, Set.of(keys));
    }

    @Test
    void findsFactoriesByKindAndNameWithTheSameNameInTwoKinds() {
        Named<LoadBalancingConfig> lb = named("bolt", LoadBalancingConfig.class);
        Named<HealthCheckConfig> check = named("bolt", HealthCheckConfig.class);
        ExtensionRegistry registry = ExtensionRegistry.of(List.of(lb, check));

        assertThat(registry.find(LoadBalancingConfig.class, "bolt")).containsSame(lb);
        assertThat(registry.find(HealthCheckConfig.class, "bolt")).containsSame(check);
        assertThat(registry.find(HealthCheckConfig.class, "tcp")).isEmpty();
        assertThat(registry.find(String.class, "bolt")).isEmpty();
    }

    @Test
    void listsTheNamesAndKeysOfAKindSorted() {
        ExtensionRegistry registry = ExtensionRegistry.of(List.of(named("zeta", LoadBalancingConfig.class, "z_config"),
                named("alpha", LoadBalancingConfig.class, "shared", "a_config"),
                named("mid", LoadBalancingConfig.class, "shared"), named("other", HealthCheckConfig.class, "o")));

        assertThat(registry.names(LoadBalancingConfig.class)).containsExactly("alpha", "mid", "zeta");
        assertThat(registry.keys(LoadBalancingConfig.class)).containsExactly("a_config", "shared", "z_config");
        assertThat(registry.names(String.class)).isEmpty();
        assertThat(registry)
                .hasToString("ExtensionRegistry{HealthCheckConfig=[other], LoadBalancingConfig=[alpha, mid, zeta]}");
    }

    @Test
    void rejectsANameRegisteredTwiceInOneKindNamingBothClasses() {
        assertThatThrownBy(() -> ExtensionRegistry.of(List.of(named("ring_hash", LoadBalancingConfig.class),
                new Other<>("ring_hash", LoadBalancingConfig.class))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("LoadBalancingConfig extension 'ring_hash' is registered twice: by " + Named.class.getName()
                        + " and by " + Other.class.getName() + " (expected each name once per kind)");
    }

    @Test
    void rejectsAFactoryWithoutNameOrKind() {
        assertThatThrownBy(() -> ExtensionRegistry.of(List.of(named("", LoadBalancingConfig.class))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(Named.class.getName() + ": name '' (expected a non-empty name)");
        assertThatThrownBy(() -> ExtensionRegistry.of(List.of(new Other<>("x", null))))
                .isInstanceOf(NullPointerException.class)
                .hasMessage(Other.class.getName() + ".configType()");
    }

    @Test
    void findsAFactoryAsItsKindsInterfaceAndFailsWhenItIsNotOne() {
        Balancer balancer = new Balancer("fast");
        ExtensionRegistry registry = ExtensionRegistry.of(List.of(balancer, named("plain", LoadBalancingConfig.class)));

        assertThat(registry.find(LoadBalancingConfig.class, "fast", Balancing.class)).containsSame(balancer);
        assertThat(registry.find(LoadBalancingConfig.class, "none", Balancing.class)).isEmpty();
        assertThatThrownBy(() -> registry.find(LoadBalancingConfig.class, "plain", Balancing.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(Named.class.getName() + " is registered as LoadBalancingConfig extension 'plain'"
                        + " but is not a " + Balancing.class.getName());
    }

    @Test
    void loadsTheFactoriesListedOnTheClassPathOnce() {
        ExtensionRegistry loaded = ExtensionRegistry.load(getClass().getClassLoader());

        assertThat(loaded.names(LoadBalancingConfig.class))
                .containsExactly("least_request", "maglev", "random", "ring_hash", "round_robin");
        assertThat(ExtensionRegistry.defaults()).isSameAs(ExtensionRegistry.defaults());
        assertThat(ExtensionRegistry.defaults().names(LoadBalancingConfig.class))
                .isEqualTo(loaded.names(LoadBalancingConfig.class));
    }

    @Test
    void failsToLoadTwoFactoriesOfOneNameFromTheClassPath(@TempDir Path dir) throws IOException {
        Path services = dir.resolve("META-INF/services/" + ExtensionFactory.class.getName());
        Files.createDirectories(services.getParent());
        Files.writeString(services, RoundRobinAgain.class.getName() + "\n");

        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            assertThatThrownBy(() -> ExtensionRegistry.load(loader))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("LoadBalancingConfig extension 'round_robin' is registered twice: by ")
                    .hasMessageContaining("StandInLoadBalancers$RoundRobin")
                    .hasMessageContaining(RoundRobinAgain.class.getName());
        }
    }

    @Test
    void cannotBeChangedThroughWhatItReturns() {
        ExtensionRegistry registry = ExtensionRegistry.of(List.of(named("a", LoadBalancingConfig.class, "k")));

        assertThatThrownBy(() -> registry.names(LoadBalancingConfig.class).add("b"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> registry.keys(LoadBalancingConfig.class).add("j"))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
