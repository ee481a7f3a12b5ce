package io.tollgate.server.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.util.List;

/**
 * The OpenAPI Initiative's JSON Schema of OpenAPI 3.1 documents, with Schema Object validation
 * ({@code schema-base}: every schema checked against the OpenAPI dialect of JSON Schema 2020-12),
 * read from test resources ({@code openapi/3.1}, where its README says where they come from).
 */
public final class OpenApiSchema {

    private static final String SPEC = "https://spec.openapis.org/oas/3.1/";
    private static final String RELEASE = "/WORK-IN-PROGRESS";
    private static final JsonSchema DOCUMENT = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
            factory -> factory.schemaMappers(mappers -> mappers.mappings(OpenApiSchema::resource)))
            .getSchema(SchemaLocation.of(SPEC + "schema-base" + RELEASE));

    private OpenApiSchema() {
    }

    /** Where the schema of {@code uri} is among the test resources; null for any other. */
    private static String resource(String uri) {
        if (!uri.startsWith(SPEC) || !uri.endsWith(RELEASE)) {
            return null;
        }
        return "classpath:openapi/3.1/" + uri.substring(SPEC.length(), uri.length() - RELEASE.length()) + ".json";
    }

    /** What makes {@code document} no valid OpenAPI 3.1 document; empty when it is one. */
    public static List<String> violations(JsonNode document) {
        return DOCUMENT.validate(document).stream().map(ValidationMessage::toString).sorted().toList();
    }
}
