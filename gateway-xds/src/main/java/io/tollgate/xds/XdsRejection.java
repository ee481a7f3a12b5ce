package io.tollgate.xds;

/**
 * Why a response from the control plane was refused; its message becomes the NACK's
 * {@code error_detail} and names the resource and the field.
 */
final class XdsRejection extends RuntimeException {

    private static final long serialVersionUID = 1L;

    XdsRejection(String detail) {
        super(detail, null, false, false);
    }
}
