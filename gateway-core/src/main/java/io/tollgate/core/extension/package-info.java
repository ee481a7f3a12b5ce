/**
 * Extensions found by name: load-balancing policies, health checkers, and any later kind such as
 * protocols. The configuration model stays plain records; each extension reads its own settings
 * into them when the configuration is loaded.
 *
 * <p>To add a kind of extension:
 * <ol>
 *   <li>pick the immutable record its settings go into, in gateway-core ({@code C}); it names the kind;
 *   <li>in the module that runs the extensions, declare {@code interface XFactory extends
 *       ExtensionFactory<C>} with a default {@code configType()} and the method that makes the
 *       runtime object (as {@code LoadBalancerFactory} and {@code HealthCheckerFactory} do);
 *   <li>write one small public factory class per name and list each in that module's
 *       {@code META-INF/services/io.tollgate.core.extension.ExtensionFactory};
 *   <li>in {@code ConfigLoader}, select the factory by the configured name in the
 *       {@link io.tollgate.core.extension.ExtensionRegistry} and let it {@code parse} its keys.
 * </ol>
 * {@link io.tollgate.core.extension.ExtensionRegistry} itself does not change.
 */
package io.tollgate.core.extension;
