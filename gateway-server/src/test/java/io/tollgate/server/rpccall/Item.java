package io.tollgate.server.rpccall;

import java.io.Serializable;
import java.math.BigDecimal;

/** A nested bean. */
public class Item implements Serializable {
    private static final long serialVersionUID = 1L;

    private String sku;
    private int quantity;
    private BigDecimal price;

    public String getSku() {
        return sku;
    }

    public void setSku(String sku) {
        this.sku = sku;
    }

    public int getQuantity() {
        return quantity;
    }

    public void setQuantity(int quantity) {
        this.quantity = quantity;
    }

    public BigDecimal getPrice() {
        return price;
    }

    public void setPrice(BigDecimal price) {
        this.price = price;
    }
}
