/* Generators for the micro-benchmark documents (see micro-docs.h). */
#include "micro-docs.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds.h"
#include "ovsdb/rng.h"
#include "util.h"

/* The project's generator (ovsdb/rng.h): the same sequence everywhere,
 * unlike rand().  Draws by remainder (rng_range()), as these documents
 * always were. */
static uint32_t
rng_u32(struct rng *rng, uint32_t n)
{
    return rng_range(rng, n);
}

/* Uniform in [lo, hi]. */
static uint32_t
rng_between(struct rng *rng, uint32_t lo, uint32_t hi)
{
    return lo + rng_u32(rng, hi - lo + 1);
}

static bool
rng_percent(struct rng *rng, uint32_t percent)
{
    return rng_u32(rng, 100) < percent;
}

static const char *
rng_pick(struct rng *rng, const char *const *choices, size_t n)
{
    return choices[rng_u32(rng, n)];
}
#define RNG_PICK(RNG, ARRAY) rng_pick(RNG, ARRAY, ARRAY_SIZE(ARRAY))

/* --- Small text pieces --- */

static void
put_hex(struct ds *ds, struct rng *rng, int n_digits)
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < n_digits; i++) {
        ds_put_char(ds, digits[rng_u32(rng, 16)]);
    }
}

static void
put_uuid(struct ds *ds, struct rng *rng)
{
    put_hex(ds, rng, 8);
    ds_put_char(ds, '-');
    put_hex(ds, rng, 4);
    ds_put_char(ds, '-');
    put_hex(ds, rng, 4);
    ds_put_char(ds, '-');
    put_hex(ds, rng, 4);
    ds_put_char(ds, '-');
    put_hex(ds, rng, 12);
}

static void
put_mac(struct ds *ds, struct rng *rng)
{
    ds_put_format(ds, "fa:16:3e:%02x:%02x:%02x", rng_u32(rng, 256),
                  rng_u32(rng, 256), rng_u32(rng, 256));
}

static void
put_ip4(struct ds *ds, struct rng *rng)
{
    ds_put_format(ds, "10.%u.%u.%u", rng_u32(rng, 256), rng_u32(rng, 256),
                  rng_between(rng, 1, 254));
}

/* ["uuid","<uuid>"] */
static void
put_uuid_atom(struct ds *ds, struct rng *rng)
{
    ds_put_cstr(ds, "[\"uuid\",\"");
    put_uuid(ds, rng);
    ds_put_cstr(ds, "\"]");
}

/* --- nb_rows --- */

static void
put_nb_external_ids(struct ds *ds, struct rng *rng, const char *ip,
                    const char *host)
{
    static const char *const owners[] = {
        "compute:nova", "compute:nova", "compute:nova", "network:dhcp",
        "network:router_interface", "network:floatingip_agent_gateway",
    };

    ds_put_format(ds, "[\"map\",[[\"neutron:cidrs\",\"%s/24\"]", ip);
    ds_put_cstr(ds, ",[\"neutron:device_id\",\"");
    put_uuid(ds, rng);
    ds_put_format(ds, "\"],[\"neutron:device_owner\",\"%s\"]",
                  RNG_PICK(rng, owners));
    ds_put_format(ds, ",[\"neutron:host_id\",\"%s\"]", host);
    ds_put_cstr(ds, ",[\"neutron:mtu\",\"\"]");
    ds_put_cstr(ds, ",[\"neutron:network_name\",\"neutron-");
    put_uuid(ds, rng);
    ds_put_cstr(ds, "\"],[\"neutron:port_capabilities\",\"\"]");
    ds_put_cstr(ds, ",[\"neutron:port_name\",\"\"]");
    ds_put_cstr(ds, ",[\"neutron:project_id\",\"");
    put_hex(ds, rng, 32);
    ds_put_format(ds, "\"],[\"neutron:revision_number\",\"%u\"]",
                  rng_between(rng, 1, 12));
    ds_put_cstr(ds, ",[\"neutron:security_group_ids\",\"");
    put_uuid(ds, rng);
    if (rng_percent(rng, 30)) {
        ds_put_char(ds, ' ');
        put_uuid(ds, rng);
    }
    ds_put_cstr(ds, "\"],[\"neutron:subnet_pool_addr_scope4\",\"\"]");
    ds_put_cstr(ds, ",[\"neutron:subnet_pool_addr_scope6\",\"\"]");
    ds_put_cstr(ds, ",[\"neutron:vnic_type\",\"normal\"]]]");
}

static void
put_nb_port_insert(struct ds *ds, struct rng *rng, unsigned int row)
{
    struct ds ip = DS_EMPTY_INITIALIZER;
    struct ds mac = DS_EMPTY_INITIALIZER;
    char host[32];

    put_ip4(&ip, rng);
    put_mac(&mac, rng);
    snprintf(host, sizeof host, "compute-%04u", rng_u32(rng, 2000));

    ds_put_format(ds, "{\"op\":\"insert\",\"table\":\"Logical_Switch_Port\","
                  "\"uuid-name\":\"lsp%u\",\"row\":{\"name\":\"", row);
    put_uuid(ds, rng);
    ds_put_format(ds, "\",\"type\":\"%s\"",
                  rng_percent(rng, 90) ? "" : "router");
    /* OVSDB lets a one-element set be written as the bare atom. */
    ds_put_format(ds, ",\"addresses\":\"%s %s\"", ds_cstr(&mac), ds_cstr(&ip));
    ds_put_format(ds, ",\"port_security\":[\"set\",[\"%s %s\"]]",
                  ds_cstr(&mac), ds_cstr(&ip));
    ds_put_format(ds, ",\"up\":%s,\"enabled\":true",
                  rng_percent(rng, 80) ? "true" : "false");
    ds_put_cstr(ds, ",\"tag_request\":[\"set\",[]]");
    ds_put_cstr(ds, ",\"dhcpv4_options\":");
    put_uuid_atom(ds, rng);
    ds_put_cstr(ds, ",\"ha_chassis_group\":[\"set\",[]]");
    ds_put_format(ds, ",\"options\":[\"map\",[[\"mcast_flood_reports\","
                  "\"true\"],[\"requested-chassis\",\"%s\"]]]", host);
    ds_put_cstr(ds, ",\"external_ids\":");
    put_nb_external_ids(ds, rng, ds_cstr(&ip), host);
    ds_put_cstr(ds, "}}");

    ds_destroy(&ip);
    ds_destroy(&mac);
}

/* Adds rows first..last-1 to one Logical_Switch's "ports" set. */
static void
put_nb_switch_mutate(struct ds *ds, struct rng *rng, unsigned int first,
                     unsigned int last)
{
    ds_put_cstr(ds, "{\"op\":\"mutate\",\"table\":\"Logical_Switch\","
                "\"where\":[[\"_uuid\",\"==\",");
    put_uuid_atom(ds, rng);
    ds_put_cstr(ds, "]],\"mutations\":[[\"ports\",\"insert\",[\"set\",[");
    for (unsigned int i = first; i < last; i++) {
        ds_put_format(ds, "%s[\"named-uuid\",\"lsp%u\"]",
                      i > first ? "," : "", i);
    }
    ds_put_cstr(ds, "]]]]}");
}

static void
generate_nb_rows(struct ds *ds, struct rng *rng, size_t target)
{
    unsigned int row = 0;

    ds_put_cstr(ds, "[\"OVN_Northbound\"");
    do {
        unsigned int first = row;
        unsigned int group = rng_between(rng, 1, 32);
        do {
            ds_put_char(ds, ',');
            put_nb_port_insert(ds, rng, row++);
        } while (row - first < group && ds->length < target);
        ds_put_char(ds, ',');
        put_nb_switch_mutate(ds, rng, first, row);
    } while (ds->length < target);
    ds_put_char(ds, ']');
}

/* --- sb_flows --- */

static void
put_match_clause(struct ds *ds, struct rng *rng)
{
    switch (rng_u32(rng, 10)) {
    case 0:
        ds_put_cstr(ds, "inport == \"");
        put_uuid(ds, rng);
        ds_put_char(ds, '"');
        break;
    case 1:
        ds_put_cstr(ds, "outport == \"");
        put_uuid(ds, rng);
        ds_put_char(ds, '"');
        break;
    case 2:
        ds_put_cstr(ds, "eth.src == ");
        put_mac(ds, rng);
        break;
    case 3:
        ds_put_cstr(ds, "ip4.dst == ");
        put_ip4(ds, rng);
        ds_put_cstr(ds, "/24");
        break;
    case 4:
        ds_put_cstr(ds, "ip4.src == {");
        put_ip4(ds, rng);
        ds_put_cstr(ds, ", ");
        put_ip4(ds, rng);
        ds_put_char(ds, '}');
        break;
    case 5:
        ds_put_format(ds, "tcp.dst == %u", rng_between(rng, 1, 65535));
        break;
    case 6:
        ds_put_cstr(ds, "ct.est && !ct.rel && !ct.new && !ct.inv && "
                    "ct_mark.blocked == 0");
        break;
    case 7:
        ds_put_format(ds, "reg0[%u] == 1", rng_u32(rng, 32));
        break;
    case 8:
        ds_put_cstr(ds, "ip4.src == $as_ip4_");
        put_hex(ds, rng, 16);
        break;
    default:
        ds_put_cstr(ds, "eth.dst == $svc_monitor_mac");
        break;
    }
}

static void
put_action(struct ds *ds, struct rng *rng)
{
    switch (rng_u32(rng, 8)) {
    case 0:
        ds_put_format(ds, "reg0[%u] = 1; ", rng_u32(rng, 32));
        break;
    case 1:
        ds_put_cstr(ds, "ct_commit { ct_mark.blocked = 0; "
                    "ct_label.label = 5; }; ");
        break;
    case 2:
        ds_put_cstr(ds, "outport = \"");
        put_uuid(ds, rng);
        ds_put_cstr(ds, "\"; output; ");
        break;
    case 3:
        ds_put_cstr(ds, "eth.dst = ");
        put_mac(ds, rng);
        ds_put_cstr(ds, "; ");
        break;
    case 4:
        ds_put_cstr(ds, "ct_lb_mark(backends=");
        put_ip4(ds, rng);
        ds_put_cstr(ds, ":80,");
        put_ip4(ds, rng);
        ds_put_cstr(ds, ":80); ");
        break;
    case 5:
        ds_put_cstr(ds, "arp { eth.dst = ff:ff:ff:ff:ff:ff; arp.op = 2; "
                    "output; }; ");
        break;
    case 6:
        ds_put_format(ds, "reg9[2] = lookup_arp(inport, arp.spa, arp.sha); "
                      "next(pipeline=egress, table=%u); ",
                      rng_u32(rng, 30));
        break;
    default:
        ds_put_cstr(ds, "next; ");
        break;
    }
}

/* Writes a JSON string of about 'len' bytes built from clauses. */
static void
put_clauses(struct ds *ds, struct rng *rng, size_t len, bool match)
{
    struct ds text = DS_EMPTY_INITIALIZER;

    while (text.length < len) {
        if (match) {
            if (text.length) {
                ds_put_cstr(&text, " && ");
            }
            put_match_clause(&text, rng);
        } else {
            put_action(&text, rng);
        }
    }
    ds_put_char(ds, '"');
    for (size_t i = 0; i < text.length; i++) {
        char c = text.string[i];
        if (c == '"' || c == '\\') {
            ds_put_char(ds, '\\');
        }
        ds_put_char(ds, c);
    }
    ds_put_char(ds, '"');
    ds_destroy(&text);
}

static void
put_sb_flow_insert(struct ds *ds, struct rng *rng, unsigned int row,
                   const char *datapath)
{
    static const char *const stages[] = {
        "ls_in_port_sec_l2", "ls_in_acl", "ls_in_lb", "ls_in_l2_lkup",
        "ls_out_acl", "lr_in_ip_routing", "lr_in_arp_resolve",
        "lr_out_snat",
    };
    bool ingress = rng_percent(rng, 70);

    ds_put_format(ds, "{\"op\":\"insert\",\"table\":\"Logical_Flow\","
                  "\"uuid-name\":\"lflow%u\",\"row\":{"
                  "\"logical_datapath\":[\"uuid\",\"%s\"]", row, datapath);
    ds_put_format(ds, ",\"pipeline\":\"%s\",\"table_id\":%u,\"priority\":%u",
                  ingress ? "ingress" : "egress", rng_u32(rng, 30),
                  rng_u32(rng, 65536));
    ds_put_cstr(ds, ",\"match\":");
    put_clauses(ds, rng, rng_between(rng, 30, 280), true);
    ds_put_cstr(ds, ",\"actions\":");
    put_clauses(ds, rng, rng_between(rng, 30, 280), false);
    ds_put_format(ds, ",\"external_ids\":[\"map\",[[\"source\","
                  "\"northd.c:%u\"],[\"stage-hint\",\"", rng_u32(rng, 20000));
    put_hex(ds, rng, 8);
    ds_put_format(ds, "\"],[\"stage-name\",\"%s\"]]]", RNG_PICK(rng, stages));
    ds_put_cstr(ds, ",\"controller_meter\":[\"set\",[]]"
                ",\"tags\":[\"map\",[]]}}");
}

static void
generate_sb_flows(struct ds *ds, struct rng *rng, size_t target)
{
    struct ds datapaths[8];

    for (size_t i = 0; i < ARRAY_SIZE(datapaths); i++) {
        ds_init(&datapaths[i]);
        put_uuid(&datapaths[i], rng);
    }

    ds_put_cstr(ds, "[\"OVN_Southbound\"");
    unsigned int row = 0;
    do {
        ds_put_char(ds, ',');
        put_sb_flow_insert(ds, rng, row++,
                           ds_cstr(&datapaths[rng_u32(rng, 8)]));
    } while (ds->length < target);
    ds_put_char(ds, ']');

    for (size_t i = 0; i < ARRAY_SIZE(datapaths); i++) {
        ds_destroy(&datapaths[i]);
    }
}

/* --- generic --- */

static void put_generic_value(struct ds *, struct rng *, int depth);

static void
put_generic_string(struct ds *ds, struct rng *rng)
{
    static const char *const words[] = {
        "alpha", "beta", "gamma", "delta", "lorem", "ipsum", "value",
        "a", "configuration", "tab\\there", "quote\\\"d", "back\\\\slash",
        "caf\\u00e9", "line\\nbreak", "\\u263a", "snowman \\u2603",
    };
    /* Lengths on both sides of OVS's 23-byte inline limit.  Fixed, not
     * json_impl_info()'s: every impl must get the same documents. */
    size_t len = rng_percent(rng, 60) ? rng_between(rng, 0, 23)
                                      : rng_between(rng, 24, 120);
    size_t start = ds->length;

    ds_put_char(ds, '"');
    while (ds->length - start < len) {
        if (ds->length - start > 1) {
            ds_put_char(ds, ' ');
        }
        ds_put_cstr(ds, RNG_PICK(rng, words));
    }
    ds_put_char(ds, '"');
}

static void
put_generic_number(struct ds *ds, struct rng *rng)
{
    switch (rng_u32(rng, 5)) {
    case 0:
        ds_put_format(ds, "%u", rng_u32(rng, 100));
        break;
    case 1:
        ds_put_format(ds, "-%"PRIu64, rng_next(rng) >> 20);
        break;
    case 2:
        ds_put_format(ds, "%u.%03u", rng_u32(rng, 10000),
                      rng_u32(rng, 1000));
        break;
    case 3:
        ds_put_format(ds, "%u.%ue-%u", rng_u32(rng, 10), rng_u32(rng, 1000),
                      rng_between(rng, 1, 30));
        break;
    default:
        /* Beyond int64: parsed as a real. */
        ds_put_format(ds, "%"PRIu64"0", rng_next(rng) | (UINT64_C(1) << 63));
        break;
    }
}

static void
put_generic_array(struct ds *ds, struct rng *rng, int depth)
{
    /* 0..8 elements: both sides of OVS's 3-element inline array limit
     * (fixed for the same reason). */
    unsigned int n = rng_u32(rng, 9);

    ds_put_char(ds, '[');
    for (unsigned int i = 0; i < n; i++) {
        if (i) {
            ds_put_char(ds, ',');
        }
        put_generic_value(ds, rng, depth + 1);
    }
    ds_put_char(ds, ']');
}

static void
put_generic_object(struct ds *ds, struct rng *rng, int depth)
{
    static const char *const keys[] = {
        "id", "name", "type", "enabled", "count", "ratio", "tags", "children",
        "metadata", "description", "created_at", "x", "y", "weight",
    };
    unsigned int n = rng_u32(rng, 7);

    ds_put_char(ds, '{');
    for (unsigned int i = 0; i < n; i++) {
        /* Distinct keys: a repeated one would be dropped by the parser and
         * make serialized output shorter than the input. */
        ds_put_format(ds, "%s\"%s%u\":", i ? "," : "", RNG_PICK(rng, keys), i);
        put_generic_value(ds, rng, depth + 1);
    }
    ds_put_char(ds, '}');
}

static void
put_generic_value(struct ds *ds, struct rng *rng, int depth)
{
    /* Containers get rarer with depth so documents stay bounded. */
    unsigned int r = rng_u32(rng, 100);
    unsigned int containers = depth < 2 ? 50 : depth < 5 ? 25 : 0;

    if (r < containers / 2) {
        put_generic_object(ds, rng, depth);
    } else if (r < containers) {
        put_generic_array(ds, rng, depth);
    } else if (r < containers + 35) {
        put_generic_string(ds, rng);
    } else if (r < containers + 65) {
        put_generic_number(ds, rng);
    } else if (r < containers + 75) {
        ds_put_cstr(ds, "true");
    } else if (r < containers + 85) {
        ds_put_cstr(ds, "false");
    } else {
        ds_put_cstr(ds, "null");
    }
}

static void
generate_generic(struct ds *ds, struct rng *rng, size_t target)
{
    unsigned int n = 0;

    ds_put_cstr(ds, "{\"generator\":\"jsonbench-micro\",\"version\":1,"
                "\"items\":[");
    do {
        ds_put_format(ds, "%s{\"id\":%u,\"name\":\"item-%u\",\"value\":",
                      n ? "," : "", n, n);
        put_generic_value(ds, rng, 0);
        ds_put_cstr(ds, ",\"attributes\":");
        put_generic_object(ds, rng, 1);
        ds_put_char(ds, '}');
        n++;
    } while (ds->length < target);
    ds_put_format(ds, "],\"count\":%u}", n);
}

/* --- public --- */

const char *
micro_doc_kind_name(enum micro_doc_kind kind)
{
    switch (kind) {
    case MICRO_DOC_NB_ROWS: return "nb_rows";
    case MICRO_DOC_SB_FLOWS: return "sb_flows";
    case MICRO_DOC_GENERIC: return "generic";
    case MICRO_N_DOC_KINDS: break;
    }
    return "?";
}

const char *
micro_doc_size_name(enum micro_doc_size size)
{
    switch (size) {
    case MICRO_DOC_SMALL: return "small";
    case MICRO_DOC_MEDIUM: return "medium";
    case MICRO_DOC_LARGE: return "large";
    case MICRO_N_DOC_SIZES: break;
    }
    return "?";
}

size_t
micro_doc_size_target(enum micro_doc_size size)
{
    switch (size) {
    case MICRO_DOC_SMALL: return 1000;
    case MICRO_DOC_MEDIUM: return 100 * 1000;
    case MICRO_DOC_LARGE: return 10 * 1000 * 1000;
    case MICRO_N_DOC_SIZES: break;
    }
    return 0;
}

bool
micro_doc_from_name(const char *name, enum micro_doc_kind *kindp,
                    enum micro_doc_size *sizep)
{
    for (int kind = 0; kind < MICRO_N_DOC_KINDS; kind++) {
        for (int size = 0; size < MICRO_N_DOC_SIZES; size++) {
            char *s = xasprintf("%s/%s", micro_doc_kind_name(kind),
                                micro_doc_size_name(size));
            bool match = !strcmp(s, name);
            free(s);
            if (match) {
                *kindp = kind;
                *sizep = size;
                return true;
            }
        }
    }
    return false;
}

char *
micro_doc_generate(enum micro_doc_kind kind, size_t target, size_t *lenp)
{
    /* One fixed seed per kind: the text depends only on (kind, target). */
    struct rng rng = { UINT64_C(0x6a736f6e62656e63) + kind };
    struct ds ds = DS_EMPTY_INITIALIZER;

    ds_reserve(&ds, target + target / 8 + 4096);
    switch (kind) {
    case MICRO_DOC_NB_ROWS:
        generate_nb_rows(&ds, &rng, target);
        break;
    case MICRO_DOC_SB_FLOWS:
        generate_sb_flows(&ds, &rng, target);
        break;
    case MICRO_DOC_GENERIC:
    case MICRO_N_DOC_KINDS:
    default:
        generate_generic(&ds, &rng, target);
        break;
    }
    *lenp = ds.length;
    return ds_steal_cstr(&ds);
}
