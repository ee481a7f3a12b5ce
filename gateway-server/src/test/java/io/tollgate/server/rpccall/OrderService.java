package io.tollgate.server.rpccall;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Date;
import java.util.List;
import java.util.Map;

/** A service whose methods take and return what the JSON mapping must carry exactly. */
public interface OrderService {

    Order echo(Order order);

    long nextId(long id);

    BigDecimal total(List<BigDecimal> prices);

    BigInteger square(BigInteger value);

    void forget(String id);

    String nothing();

    Map<String, List<Item>> bySku(List<Item> items);

    Date dayAfter(Date day);

    Status flip(Status status);

    byte[] reverse(byte[] data);

    String describe(String text);

    String describe(int number);

    Order fail(String message) throws OrderException;

    String crash(String message);

    /** Answers {@code "slept"} after {@code millis}: a method slower than a route's timeout. */
    String sleep(long millis) throws InterruptedException;

}
