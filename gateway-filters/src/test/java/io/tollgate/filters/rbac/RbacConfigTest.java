package io.tollgate.filters.rbac;

import static io.tollgate.filters.FilterYaml.ENTRY;
import static io.tollgate.filters.FilterYaml.assertRejected;
import static io.tollgate.filters.FilterYaml.settings;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The {@code rbac} entry as the loader reads it: what it keeps, and errors naming the field. */
class RbacConfigTest {

    @Test
    void readsPoliciesInOrderWithAllowAsTheDefaultAction() {
        RbacSettings settings = settings("""
                { name: rbac, policies: [
                  { name: office, permissions: [{ any: true }], principals: [{ source_ip: [10.0.0.0/8, "2001:db8::/32"] }] },
                  { name: admin, permissions: [{ path: { prefix: /admin }, method: { exact: GET } }],
                    principals: [{ authenticated: { suffix: "@example.com" } }, { header: { name: X-Role, exact: admin } }] } ] }
                """, RbacSettings.class);
        assertThat(settings.action()).isEqualTo(RbacSettings.Action.ALLOW);
        assertThat(settings.shadow()).isFalse();
        assertThat(settings.policies()).extracting(RbacPolicy::name).containsExactly("office", "admin");
    }

    @Test
    void badRangesAreNamedByTheirPath() {
        assertRejected("{ name: rbac, policies: [{ name: p, permissions: [{ any: true }],"
                        + " principals: [{ source_ip: [10.0.0.0/8, 10.0.0.300/8] }] }] }",
                ENTRY + ".policies[0].principals[0].source_ip[1]: '10.0.0.300/8' is not an IP address or range"
                        + " (expected e.g. 10.0.0.0/8, 192.168.1.7, 2001:db8::/32)");
        assertRejected("{ name: rbac, policies: [{ name: p, permissions: [{ any: true }],"
                        + " principals: [{ source_ip: [\"10.0.0.0/40\"] }] }] }",
                ENTRY + ".policies[0].principals[0].source_ip[0]: '10.0.0.0/40': prefix length '40' (expected: 0..32)");
        assertRejected("{ name: rbac, policies: [{ name: p, permissions: [{ any: true }],"
                        + " principals: [{ source_ip: [] }] }] }",
                ENTRY + ".policies[0].principals[0].source_ip: must list at least one address range");
    }

    @Test
    void badActionsAndMatchersAreNamedByTheirPath() {
        assertRejected("{ name: rbac, action: LOG, policies: [] }",
                ENTRY + ".action: 'LOG' (expected: ALLOW or DENY)");
        assertRejected("{ name: rbac, policies: [{ name: p, permissions: [{ path: { prefix: /a, exact: /b } }],"
                        + " principals: [{ any: true }] }] }",
                ENTRY + ".policies[0].permissions[0].path: must give exactly one of exact, prefix, suffix, contains");
        assertRejected("{ name: rbac, policies: [{ name: p, permissions: [{ header: { name: x } }],"
                        + " principals: [{ any: true }] }] }",
                ENTRY + ".policies[0].permissions[0].header: must give exactly one of exact, prefix, suffix,"
                        + " contains, present: true");
        assertRejected("{ name: rbac, policies: [{ name: p, permissions: [{ any: false }], principals: [{ any: true }] }] }",
                ENTRY + ".policies[0].permissions[0].any: must be true when given");
        assertRejected("{ name: rbac, policies: [{ name: p, permissions: [{ any: true }] }] }",
                ENTRY + ".policies[0].principals: required: at least one entry (write [{ any: true }] to match every"
                        + " request)");
    }

    @Test
    void principalsAndPermissionsKeepTheirOwnKeys() {
        assertRejected("{ name: rbac, policies: [{ name: p, permissions: [{ source_ip: [10.0.0.0/8] }],"
                        + " principals: [{ any: true }] }] }",
                ENTRY + ".policies[0].permissions[0].source_ip: unknown field (expected one of [any, header, method,"
                        + " path, service, sni])");
        assertRejected("{ name: rbac, policies: [{ name: p, permissions: [{ any: true }],"
                        + " principals: [{ sni: { exact: a } }] }] }",
                ENTRY + ".policies[0].principals[0].sni: unknown field (expected one of [any, authenticated, header,"
                        + " source_ip])");
    }

    @Test
    void policyNamesAreUnique() {
        assertRejected("{ name: rbac, policies: [{ name: p, permissions: [{ any: true }], principals: [{ any: true }] },"
                        + " { name: p, permissions: [{ any: true }], principals: [{ any: true }] }] }",
                ENTRY + ".policies[1].name: duplicate policy name 'p'");
    }
}
