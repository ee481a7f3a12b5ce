package io.tollgate.xds.translation;

import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.extensions.retry.host.previous_hosts.v3.PreviousHostsPredicate;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The parts of an Envoy retry policy beyond the gateway's own conditions, as istiod writes them
 * (its default: {@code connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes},
 * the previous-hosts predicate, five host selection attempts): the gateway's retries already go to
 * another host than the ones tried, {@code refused-stream} is one of the resets its {@code reset}
 * retries, and gRPC {@code cancelled} answers are not retried (accepted, logged once).
 */
final class RetryOptions {

    private static final String PREVIOUS_HOSTS = "envoy.retry_host_predicates.previous_hosts";

    private RetryOptions() {
    }

    /**
     * Envoy's comma-separated {@code retry_on} as the gateway's conditions, each once;
     * {@code retriable-status-codes} without {@code statusCodes} retries nothing in Envoy, and is left out.
     */
    static Set<String> conditions(String retryOn, boolean statusCodes) {
        Set<String> conditions = new LinkedHashSet<>();
        for (String condition : retryOn.split(",")) {
            String name = condition.strip();
            if (name.isEmpty()) {
                continue;
            }
            switch (name) {
                case "refused-stream" -> conditions.add("reset");
                case "retriable-status-codes" -> {
                    if (statusCodes) {
                        conditions.add(name);
                    }
                }
                case "cancelled" -> IstioExtensions.accepted("retry_on cancelled", "would retry gRPC answers with"
                        + " status CANCELLED, which the gateway passes to the client");
                default -> conditions.add(name);
            }
        }
        return conditions;
    }

    /**
     * Accepts {@code retry_host_predicate} when it is the previous-hosts predicate, which the
     * gateway's retries follow anyway, and {@code host_selection_retry_max_attempts} with it.
     */
    static void checkHosts(RetryPolicy policy, String at) {
        for (int i = 0; i < policy.getRetryHostPredicateCount(); i++) {
            RetryPolicy.RetryHostPredicate predicate = policy.getRetryHostPredicate(i);
            String where = at + ".retry_host_predicate[" + i + "]";
            Fields.allowOnly(predicate, where, Set.of("name", "typed_config"));
            boolean previous = predicate.hasTypedConfig() ? predicate.getTypedConfig().is(PreviousHostsPredicate.class)
                    : predicate.getName().equals(PREVIOUS_HOSTS);
            if (!previous) {
                throw new XdsRejection(where + ": '" + predicate.getName() + "' not supported (supported: "
                        + PREVIOUS_HOSTS + ", which the gateway's retries follow)");
            }
        }
    }
}
