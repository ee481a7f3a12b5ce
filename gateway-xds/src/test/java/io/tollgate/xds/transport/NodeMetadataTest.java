package io.tollgate.xds.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The node's metadata keeps the shapes Istio selects by (moved from IstioTranslationTest with NodeMetadata). */
class NodeMetadataTest {

    @Test
    void nodeMetadataKeepsMappingsListsNumbersAndBooleans() {
        Map<String, Object> labels = new LinkedHashMap<>();
        labels.put("istio", "ingressgateway");
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("LABELS", labels);
        metadata.put("PORTS", List.of(80L, 443L));
        metadata.put("DNS_CAPTURE", true);
        metadata.put("RATIO", 0.5);
        metadata.put("NOTHING", null);

        Struct struct = NodeMetadata.struct(metadata);

        assertThat(struct.getFieldsOrThrow("LABELS").getStructValue().getFieldsOrThrow("istio").getStringValue())
                .isEqualTo("ingressgateway");
        assertThat(struct.getFieldsOrThrow("PORTS").getListValue().getValuesList()).extracting(Value::getNumberValue)
                .containsExactly(80.0, 443.0);
        assertThat(struct.getFieldsOrThrow("DNS_CAPTURE").getBoolValue()).isTrue();
        assertThat(struct.getFieldsOrThrow("RATIO").getNumberValue()).isEqualTo(0.5);
        assertThat(struct.getFieldsOrThrow("NOTHING").hasNullValue()).isTrue();
    }
}
