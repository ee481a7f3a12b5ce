package io.tollgate.server.rpccall;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Answers from its arguments, so that a test knows every answer exactly; records what {@link #forget} got. */
public class OrderServiceImpl implements OrderService {

    volatile String forgotten;

    @Override
    public Order echo(Order order) {
        return order;
    }

    @Override
    public long nextId(long id) {
        return id + 1;
    }

    @Override
    public BigDecimal total(List<BigDecimal> prices) {
        return prices.stream().reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    @Override
    public BigInteger square(BigInteger value) {
        return value.multiply(value);
    }

    @Override
    public void forget(String id) {
        forgotten = id;
    }

    @Override
    public String nothing() {
        return null;
    }

    @Override
    public Map<String, List<Item>> bySku(List<Item> items) {
        Map<String, List<Item>> out = new LinkedHashMap<>();
        for (Item item : items) {
            out.computeIfAbsent(item.getSku(), sku -> new java.util.ArrayList<>()).add(item);
        }
        return out;
    }

    @Override
    public Date dayAfter(Date day) {
        return new Date(day.getTime() + TimeUnit.DAYS.toMillis(1));
    }

    @Override
    public Status flip(Status status) {
        return status == Status.NEW ? Status.PAID : Status.NEW;
    }

    @Override
    public byte[] reverse(byte[] data) {
        byte[] out = new byte[data.length];
        for (int i = 0; i < data.length; i++) {
            out[i] = data[data.length - 1 - i];
        }
        return out;
    }

    @Override
    public String describe(String text) {
        return "text " + text;
    }

    @Override
    public String describe(int number) {
        return "number " + number;
    }

    @Override
    public Order fail(String message) throws OrderException {
        throw new OrderException(message);
    }

    @Override
    public String crash(String message) {
        throw new IllegalStateException(message);
    }

    @Override
    public String sleep(long millis) throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(millis);
        return "slept";
    }
}
