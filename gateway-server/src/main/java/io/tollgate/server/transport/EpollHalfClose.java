package io.tollgate.server.transport;

import io.netty.channel.Channel;
import java.lang.reflect.Field;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a half-closed epoll channel writable despite a defect of Netty 4.2.18's epoll transport.
 * When a channel's interest set becomes empty (its input ended, so it no longer waits for reads,
 * and it has nothing left to write) Netty removes its descriptor from epoll but keeps counting it
 * registered; its next wait for writability then modifies a descriptor epoll no longer has
 * ({@code epoll_ctl(..) failed with error(-2)}), and Netty shuts the channel's output with data
 * still queued. A proxy keeps writing to a connection whose peer sent its FIN, so before it
 * flushes such a channel it calls {@link #beforeFlush}, which, when the interest set is empty,
 * marks the registration as not added, so that Netty adds the descriptor again instead of
 * modifying it.
 *
 * <p>The repair reads and writes Netty's private fields; when they are not found (another Netty
 * version) it logs one warning and does nothing.
 */
public final class EpollHalfClose {

    private static final Logger log = LoggerFactory.getLogger(EpollHalfClose.class);
    private static final Class<?> EPOLL_CHANNEL;
    private static final Field OPS;
    private static final Field OPS_VALUE;
    private static final Field REGISTRATION;
    private static final Field WRAPPED;
    private static final Field STATE;
    private static final Object ADDED;
    private static final Object PENDING;

    static {
        Class<?> epollChannel = null;
        Field ops = null;
        Field opsValue = null;
        Field registration = null;
        Field wrapped = null;
        Field state = null;
        Object added = null;
        Object pending = null;
        try {
            epollChannel = Class.forName("io.netty.channel.epoll.AbstractEpollChannel");
            ops = accessible(epollChannel.getDeclaredField("ops"));
            opsValue = accessible(Class.forName("io.netty.channel.epoll.EpollIoOps").getDeclaredField("value"));
            registration = accessible(epollChannel.getDeclaredField("registration"));
            wrapped = accessible(Class.forName("io.netty.channel.SingleThreadIoEventLoop$IoRegistrationWrapper")
                    .getDeclaredField("registration"));
            state = accessible(Class.forName("io.netty.channel.epoll.EpollIoHandler$DefaultEpollIoRegistration")
                    .getDeclaredField("state"));
            added = constant(state.getType(), "Added");
            pending = constant(state.getType(), "Pending");
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.warn("cannot repair half-closed epoll channels on this Netty ({}): a half-closed TCP proxy connection "
                    + "may lose data when its peer reads slowly", e.toString());
            ops = null;
        }
        EPOLL_CHANNEL = epollChannel;
        OPS = ops;
        OPS_VALUE = opsValue;
        REGISTRATION = registration;
        WRAPPED = wrapped;
        STATE = state;
        ADDED = added;
        PENDING = pending;
    }

    private EpollHalfClose() {
    }

    /** Before flushing {@code channel}, whose input ended: makes sure Netty can wait for its writability. */
    public static void beforeFlush(Channel channel) {
        if (OPS == null || !EPOLL_CHANNEL.isInstance(channel)) {
            return;
        }
        try {
            if (OPS_VALUE.getInt(OPS.get(channel)) != 0) {
                return;
            }
            Object registration = REGISTRATION.get(channel);
            if (registration == null) {
                return;
            }
            if (WRAPPED.getDeclaringClass().isInstance(registration)) {
                registration = WRAPPED.get(registration);
            }
            if (!STATE.getDeclaringClass().isInstance(registration)) {
                return;
            }
            synchronized (registration) {
                if (STATE.get(registration) == ADDED) {
                    STATE.set(registration, PENDING);
                }
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("the fields were made accessible", e);
        }
    }

    private static Field accessible(Field field) {
        field.setAccessible(true);
        return field;
    }

    private static Object constant(Class<?> enumType, String name) {
        for (Object constant : enumType.getEnumConstants()) {
            if (((Enum<?>) constant).name().equals(name)) {
                return constant;
            }
        }
        throw new IllegalStateException(enumType.getName() + " has no " + name);
    }
}
