package io.tollgate.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProviderUrlTest {

    @Test
    void readsWhatDubboWritesAsANodeName() {
        String url = "dubbo://10.0.0.7:20880/com.example.Echo?anyhost=true&application=demo&group=blue"
                + "&interface=com.example.Echo&methods=echo,tagged&prefer.serialization=hessian2,fastjson2"
                + "&version=1.0&weight=50&empty=";
        ProviderUrl parsed = ProviderUrl.parseEncoded(URLEncoder.encode(url, StandardCharsets.UTF_8));

        assertThat(parsed.protocol()).isEqualTo("dubbo");
        assertThat(parsed.host()).isEqualTo("10.0.0.7");
        assertThat(parsed.port()).isEqualTo(20880);
        assertThat(parsed.path()).isEqualTo("com.example.Echo");
        assertThat(parsed.parameters()).containsEntry("methods", "echo,tagged")
                .containsEntry("prefer.serialization", "hessian2,fastjson2").containsEntry("empty", "");
        assertThat(parsed.intParameter("weight", 100)).isEqualTo(50);
        assertThat(parsed.parameter("empty", "x")).isEqualTo("x");
    }

    @Test
    void readsSofaUrlsWithoutPathAndBracketedAddresses() {
        ProviderUrl sofa = ProviderUrl.parse("bolt://127.0.0.1:12200?version=1.0&uniqueId=&weight=abc");
        assertThat(sofa.path()).isEmpty();
        assertThat(sofa.intParameter("weight", 100)).isEqualTo(100);

        ProviderUrl v6 = ProviderUrl.parse("dubbo://[::1]:20880/x.Y");
        assertThat(v6.host()).isEqualTo("::1");
        assertThat(v6.port()).isEqualTo(20880);
    }

    @Test
    void refusesWhatIsNoProviderUrl() {
        assertThatThrownBy(() -> ProviderUrl.parse("10.0.0.7:20880")).hasMessageContaining("no protocol://");
        assertThatThrownBy(() -> ProviderUrl.parse("dubbo://10.0.0.7/x.Y")).hasMessageContaining("no host:port");
        assertThatThrownBy(() -> ProviderUrl.parse("dubbo://10.0.0.7:0/x.Y")).hasMessageContaining("out of range");
        assertThatThrownBy(() -> ProviderUrl.parse("dubbo://10.0.0.7:http/x.Y")).hasMessageContaining("bad port");
        assertThatThrownBy(() -> ProviderUrl.parseEncoded("dubbo%zz")).hasMessageContaining("not URL-encoded");
    }
}
