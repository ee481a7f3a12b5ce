package io.tollgate.protocols.generic;

import io.tollgate.protocols.hessian2.Hessian2Object;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an exception a provider sent back, without its class, into the error contract: its class
 * name and message. Two wrappers are seen through: Dubbo's {@code GenericException} (which names the
 * original class and message in fields of its own) and the {@code RuntimeException} Dubbo's
 * {@code ExceptionFilter} makes of an undeclared exception (whose message is the original's stack trace).
 */
final class ProviderExceptions {

    /** "com.example.SomeException: its message" followed by a stack trace. */
    private static final Pattern STACK_TRACE = Pattern.compile("^([\\w$.]+): ?(.*?)\\r?\\n\\s+at ", Pattern.DOTALL);

    private ProviderExceptions() {
    }

    /** Whether {@code value} is a throwable as hessian writes one: an object with a detail message and a stack trace. */
    static boolean isThrowable(Object value) {
        return value instanceof Hessian2Object object && object.fields().containsKey("detailMessage")
                && object.fields().containsKey("stackTrace");
    }

    /** The 500 error for {@code thrown}, an exception object read from the provider's answer. */
    static CallError of(Object thrown) {
        if (!(thrown instanceof Hessian2Object exception)) {
            return CallError.badGateway("the provider answered an exception of no known form");
        }
        String type = exception.type();
        String message = text(exception.field("detailMessage"));
        if (exception.field("exceptionClass") instanceof String original) {
            type = original;
            message = text(exception.field("exceptionMessage"));
        }
        if (message != null) {
            Matcher wrapped = STACK_TRACE.matcher(message);
            if (type.equals("java.lang.RuntimeException") && wrapped.lookingAt()) {
                type = wrapped.group(1);
                message = wrapped.group(2);
            }
        }
        return CallError.providerException(type, message);
    }

    private static String text(Object value) {
        return value instanceof String text ? text : null;
    }
}
