package io.tollgate.server.rpccall;

/** The provider's own exception, declared by {@link OrderService#fail}. */
public class OrderException extends Exception {
    private static final long serialVersionUID = 1L;

    public OrderException(String message) {
        super(message);
    }
}
