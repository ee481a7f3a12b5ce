package io.tollgate.server.rpc;

import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.FilterResponse;

/** An RPC response as filters see it: its status's HTTP meaning, and no headers. */
record RpcFilterResponse(int status, boolean local) implements FilterResponse {

    @Override
    public FilterHeaders headers() {
        return RpcFilterHeaders.NONE;
    }
}
