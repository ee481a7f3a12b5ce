package io.tollgate.xds.transport;

import io.grpc.stub.StreamObserver;
import io.tollgate.xds.translation.ResourceType;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The response side of an ADS stream of either variant: each response of a type the gateway knows
 * becomes an {@link XdsUpdate} for the client; one of another type is logged and ignored.
 *
 * @param <R> the variant's response message
 */
final class UpdateObserver<R> implements StreamObserver<R> {

    private static final Logger log = LoggerFactory.getLogger(UpdateObserver.class);

    private final Function<R, String> typeUrl;
    private final BiFunction<ResourceType, R, XdsUpdate> update;
    private final AdsStream.Events events;

    UpdateObserver(Function<R, String> typeUrl, BiFunction<ResourceType, R, XdsUpdate> update, AdsStream.Events events) {
        this.typeUrl = typeUrl;
        this.update = update;
        this.events = events;
    }

    @Override
    public void onNext(R response) {
        ResourceType type = ResourceType.of(typeUrl.apply(response));
        if (type == null) {
            log.warn("xDS response of type {} ignored: never subscribed to", typeUrl.apply(response));
            return;
        }
        events.received(update.apply(type, response));
    }

    @Override
    public void onError(Throwable t) {
        events.ended(t);
    }

    @Override
    public void onCompleted() {
        events.ended(null);
    }
}
