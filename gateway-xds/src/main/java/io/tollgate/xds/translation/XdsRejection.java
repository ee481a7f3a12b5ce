package io.tollgate.xds.translation;

/**
 * Why a response from the control plane was refused; its message becomes the NACK's
 * {@code error_detail} and names the resource and the field.
 */
public final class XdsRejection extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The name of the resource refused, or {@code *} when the whole response is. */
    private final String resource;

    public XdsRejection(String detail) {
        this(detail, "*");
    }

    private XdsRejection(String detail, String resource) {
        super(detail, null, false, false);
        this.resource = resource;
    }

    /** This rejection, blamed on the resource called {@code name}. */
    XdsRejection of(String name) {
        return new XdsRejection(getMessage(), name);
    }

    public String resource() {
        return resource;
    }
}
