/* ovsdb-gen: writes a realistic OVSDB database file (standalone, or a
 * one-server cluster) for a schema and a profile, at any scale,
 * deterministically.  See datasets/README.md. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds.h"
#include "gen.h"
#include "gen-raft.h"
#include "json.h"
#include "ovsdb/out-file.h"
#include "ovsdb/record.h"
#include "ovsdb/record-writer.h"
#include "ovsdb/schema.h"
#include "profile.h"
#include "util.h"

/* The output under its temporary name, removed on failure and on a fatal
 * signal. */
static struct out_file output_file;

static void
remove_tmp(void)
{
    if (output_file.stream) {
        unlink(output_file.tmp_name);
    }
}

static void
on_signal(int sig)
{
    remove_tmp();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void
usage(void)
{
    printf("\
usage: ovsdb-gen --schema FILE --profile FILE [options] -o OUTPUT\n\
Writes an OVSDB database file (standalone: schema record, then data records;\n\
or clustered) whose rows follow a profile; same inputs give the same bytes.\n\
\n\
  --schema FILE     OVSDB schema (.ovsschema), e.g.\n\
                    /usr/share/ovn/ovn-nb.ovsschema\n\
  --profile FILE    dataset profile, e.g. datasets/profiles/nb.profile\n\
  --scale S         multiply row counts by S (default 1: ~350 MB NB,\n\
                    ~615 MB SB)\n\
  --form F          snapshot (schema + one transaction with every row, as\n\
                    compaction writes it; default), log (initial\n\
                    transaction, then --txns small transactions) or\n\
                    cluster (a one-server raft cluster whose snapshot holds\n\
                    every row, as ovsdb-tool create-cluster writes it, then\n\
                    --txns log transactions as raft log entries)\n\
  --txns T          transactions after the initial one (log form: default\n\
                    1000; cluster form: default 0)\n\
  --log-shape NAME  which of the profile's \"log-shape\" groups of \"log\"\n\
                    lines the transactions draw from (default: the lines\n\
                    before any \"log-shape\"), e.g. sets\n\
  --cluster-address ADDR\n\
                    cluster form: the server's raft address (default\n\
                    tcp:127.0.0.1:6643; unix:PATH also works)\n\
  --seed N          random seed (default 1)\n\
  -o, --output FILE database to write (via FILE.<pid>.tmp + rename)\n\
  --report FILE     also write what was generated as JSON (rows and atoms\n\
                    per table, atoms by type, bytes, MB/s)\n\
  --progress        progress lines on stderr every 2 s (the default,\n\
                    unless --quiet)\n\
  -q, --quiet       no progress and no summary on stderr\n\
  -h, --help        this help\n");
}

static void OVS_PRINTF_FORMAT(1, 2) OVS_NO_RETURN
usage_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fprintf(stderr, "ovsdb-gen: ");
    vfprintf(stderr, format, args);
    va_end(args);
    fprintf(stderr, " (use --help for usage)\n");
    exit(2);
}

static void
put_json_key(struct ds *d, const char *name)
{
    json_string_escape(name, d);
    ds_put_char(d, ':');
}

/* Writes the report as JSON text, atomically. */
static void
write_report(const char *file_name, const struct gen *g,
             const uint64_t *initial_atoms, uint64_t initial_total,
             const uint64_t *initial_by_type, const char *form, double scale,
             uint64_t seed, uint64_t txns, uint64_t bytes, double seconds,
             double cpu_seconds)
{
    const struct db_schema *s = g->s;
    struct ds d = DS_EMPTY_INITIALIZER;
    ds_put_format(&d, "{\n  \"schema\": ");
    json_string_escape(s->name, &d);
    ds_put_format(&d, ",\n  \"schema_version\": ");
    json_string_escape(s->version, &d);
    ds_put_format(&d, ",\n  \"profile\": ");
    json_string_escape(g->p->name, &d);
    ds_put_format(&d, ",\n  \"form\": \"%s\",\n  \"scale\": %.15g,\n"
                  "  \"seed\": %"PRIu64",\n  \"transactions\": %"PRIu64",\n"
                  "  \"records\": %"PRIu64",\n  \"bytes\": %"PRIu64",\n"
                  "  \"seconds\": %.3f,\n  \"mb_per_s\": %.1f,\n"
                  "  \"cpu_seconds\": %.3f,\n  \"mb_per_cpu_s\": %.1f,\n",
                  form, scale, seed, txns, g->o->n_records, bytes, seconds,
                  seconds > 0 ? bytes / 1e6 / seconds : 0.0, cpu_seconds,
                  cpu_seconds > 0 ? bytes / 1e6 / cpu_seconds : 0.0);
    ds_put_format(&d, "  \"log_inserts\": %"PRIu64", \"log_deletes\": "
                  "%"PRIu64", \"log_modifies\": %"PRIu64",\n",
                  g->n_log_inserts, g->n_log_deletes, g->n_log_modifies);
    uint64_t total_rows = 0;
    ds_put_cstr(&d, "  \"rows\": {");
    bool first = true;
    for (size_t t = 0; t < s->n_tables; t++) {
        if (g->p->tables[t] && g->rows[t]) {
            ds_put_cstr(&d, first ? "\n    " : ",\n    ");
            put_json_key(&d, s->tables[t]->name);
            ds_put_format(&d, " %"PRIu64, g->rows[t]);
            total_rows += g->rows[t];
            first = false;
        }
    }
    ds_put_format(&d, "\n  },\n  \"rows_total\": %"PRIu64",\n", total_rows);
    /* Atoms are exact for the initial rows; a log's later transactions
     * change them in ways only a replay can tell. */
    ds_put_cstr(&d, "  \"initial_atoms\": {");
    first = true;
    for (size_t t = 0; t < s->n_tables; t++) {
        if (g->p->tables[t] && initial_atoms[t]) {
            ds_put_cstr(&d, first ? "\n    " : ",\n    ");
            put_json_key(&d, s->tables[t]->name);
            ds_put_format(&d, " %"PRIu64, initial_atoms[t]);
            first = false;
        }
    }
    ds_put_format(&d, "\n  },\n  \"initial_atoms_total\": %"PRIu64",\n",
                  initial_total);
    ds_put_cstr(&d, "  \"initial_atoms_by_type\": {");
    for (int t = ATOMIC_INTEGER; t < N_ATOMIC_TYPES; t++) {
        ds_put_format(&d, "%s\"%s\": %"PRIu64, t == ATOMIC_INTEGER ? "" : ", ",
                      atomic_type_to_string(t), initial_by_type[t]);
    }
    ds_put_cstr(&d, "}\n}\n");

    char *error = out_file_write_all(file_name, d.string, d.length);
    if (error) {
        ovs_fatal(0, "cannot write report: %s", error);
    }
    ds_destroy(&d);
}

/* An input file must be a regular file: reading a directory would only
 * say "read error". */
static void
check_input_file(const char *option, const char *file)
{
    struct stat st;

    if (stat(file, &st)) {
        ovs_fatal(errno, "%s: cannot open", file);
    }
    if (!S_ISREG(st.st_mode)) {
        ovs_fatal(0, "%s: %s given to --%s is not a regular file", file,
                  S_ISDIR(st.st_mode) ? "directory" : "special file",
                  option);
    }
}

/* Refuses (exit 2) an output 'file' given to --'option' that cannot be
 * written, before the generating rather than after it. */
static void
check_output_path(const char *option, const char *file)
{
    char *error = out_file_check_path(file);
    if (error) {
        usage_error("--%s: %s", option, error);
    }
}

struct options {
    const char *schema_file, *profile_file, *output, *report, *form;
    const char *log_shape, *cluster_address;
    double scale;
    uint64_t seed, txns;
    bool quiet, show_progress, log_form, cluster_form, txns_given;
};

static void
parse_options(int argc, char *argv[], struct options *o)
{
    enum { OPT_SCHEMA = 256, OPT_PROFILE, OPT_SCALE, OPT_FORM, OPT_TXNS,
           OPT_SEED, OPT_REPORT, OPT_PROGRESS, OPT_LOG_SHAPE,
           OPT_CLUSTER_ADDRESS };
    static const struct option options[] = {
        { "schema", required_argument, NULL, OPT_SCHEMA },
        { "profile", required_argument, NULL, OPT_PROFILE },
        { "scale", required_argument, NULL, OPT_SCALE },
        { "form", required_argument, NULL, OPT_FORM },
        { "txns", required_argument, NULL, OPT_TXNS },
        { "log-shape", required_argument, NULL, OPT_LOG_SHAPE },
        { "cluster-address", required_argument, NULL, OPT_CLUSTER_ADDRESS },
        { "seed", required_argument, NULL, OPT_SEED },
        { "output", required_argument, NULL, 'o' },
        { "report", required_argument, NULL, OPT_REPORT },
        { "progress", no_argument, NULL, OPT_PROGRESS },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };

    *o = (struct options) { .form = "snapshot", .scale = 1.0, .seed = 1,
                            .txns = 1000,
                            .cluster_address = "tcp:127.0.0.1:6643" };
    opterr = 0;                 /* One message of our own, naming it. */
    for (;;) {
        int c = getopt_long(argc, argv, ":o:qh", options, NULL);
        if (c == -1) {
            break;
        }
        char *end;
        switch (c) {
        case OPT_SCHEMA: o->schema_file = optarg; break;
        case OPT_PROFILE: o->profile_file = optarg; break;
        case OPT_SCALE:
            errno = 0;
            o->scale = strtod(optarg, &end);
            if (errno || *end || end == optarg || !(o->scale > 0)
                || !isfinite(o->scale) || o->scale > 1000) {
                usage_error("--scale: expected a number in (0, 1000], got "
                            "\"%s\"", optarg);
            }
            break;
        case OPT_FORM:
            if (strcmp(optarg, "snapshot") && strcmp(optarg, "log")
                && strcmp(optarg, "cluster")) {
                usage_error("--form: expected snapshot, log or cluster, got "
                            "\"%s\"", optarg);
            }
            o->form = optarg;
            break;
        case OPT_TXNS:
        case OPT_SEED: {
            errno = 0;
            unsigned long long v = strtoull(optarg, &end, 10);
            if (errno || *end || end == optarg || optarg[0] == '-'
                || (c == OPT_TXNS && v > 100000000)) {
                usage_error("--%s: expected a non-negative integer%s, got "
                            "\"%s\"", c == OPT_TXNS ? "txns" : "seed",
                            c == OPT_TXNS ? " up to 100000000" : "", optarg);
            }
            *(c == OPT_TXNS ? &o->txns : &o->seed) = v;
            o->txns_given |= c == OPT_TXNS;
            break;
        }
        case OPT_LOG_SHAPE: o->log_shape = optarg; break;
        case OPT_CLUSTER_ADDRESS:
            if (strncmp(optarg, "tcp:", 4) && strncmp(optarg, "ssl:", 4)
                && strncmp(optarg, "unix:", 5)) {
                usage_error("--cluster-address: expected tcp:IP:PORT, "
                            "ssl:IP:PORT or unix:PATH, got \"%s\"", optarg);
            }
            o->cluster_address = optarg;
            break;
        case 'o': o->output = optarg; break;
        case OPT_REPORT: o->report = optarg; break;
        case OPT_PROGRESS: o->show_progress = true; break;
        case 'q': o->quiet = true; break;
        case 'h': usage(); exit(0);
        case ':':
            usage_error("option %s needs an argument", argv[optind - 1]);
        default:
            if (optopt) {
                usage_error("unknown option -%c", optopt);
            }
            usage_error("unknown option %s", argv[optind - 1]);
        }
    }
    if (optind < argc) {
        usage_error("unexpected argument \"%s\"", argv[optind]);
    }
    if (!o->schema_file || !o->profile_file || !o->output) {
        usage_error("--schema, --profile and --output are required");
    }
    o->log_form = !strcmp(o->form, "log");
    o->cluster_form = !strcmp(o->form, "cluster");
    if (o->cluster_form && !o->txns_given) {
        o->txns = 0;
    }
    check_output_path("output", o->output);
    if (o->report) {
        check_output_path("report", o->report);
    }
    check_input_file("schema", o->schema_file);
    check_input_file("profile", o->profile_file);
}

/* Creates the temporary output, to be renamed into place when complete. */
static int
open_output(const char *output)
{
    char *error = out_file_open(&output_file, output);
    if (error) {
        ovs_fatal(0, "%s", error);
    }
    atexit(remove_tmp);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    signal(SIGPIPE, on_signal);
    return out_file_fd(&output_file);
}

/* What the initial record holds, for the report and the summary. */
struct initial_counts {
    uint64_t *atoms;            /* Per table. */
    uint64_t by_type[N_ATOMIC_TYPES];
    uint64_t total;
};

/* Writes the schema record, the initial record and (log form) the log; or
 * (cluster form) the raft header holding schema and rows, and the log as
 * raft entries. */
static void
generate(struct gen *g, struct out *out, const struct db_schema *schema,
         const struct options *o, struct initial_counts *initial)
{
    struct gen_raft raft;
    struct gen_frame frame;
    if (o->cluster_form) {
        gen_raft_init(&raft, schema, o->cluster_address, o->seed);
        gen_raft_frame(&raft, &frame);
        g->frame = &frame;
        out->magic = OVSDB_CLUSTER_MAGIC;
    } else {
        out_record_begin(out);
        struct ds text = DS_EMPTY_INITIALIZER;
        json_to_ds(schema->json, 0, &text);
        out_put(out, text.string, text.length);
        ds_destroy(&text);
        out_record_end(out);
    }

    gen_initial_record(g, o->log_form || o->cluster_form);
    size_t nt = schema->n_tables;
    initial->atoms = xmemdup(g->atoms, nt * sizeof *g->atoms);
    memcpy(initial->by_type, g->atoms_by_type, sizeof initial->by_type);
    initial->total = 0;
    for (size_t t = 0; t < nt; t++) {
        initial->total += initial->atoms[t];
    }
    if (o->log_form || (o->cluster_form && o->txns)) {
        gen_log_records(g, o->txns);
    }
    if (o->cluster_form) {
        g->frame = NULL;
        gen_raft_destroy(&raft);
    }
    if (out->error) {
        ovs_fatal(out->error, "%s: write error", output_file.name);
    }
}

static void
print_summary(const struct gen *g, const struct out *out,
              const struct options *o, uint64_t initial_total,
              double seconds, double cpu_seconds)
{
    uint64_t rows = 0;
    for (size_t t = 0; t < g->s->n_tables; t++) {
        rows += g->rows[t];
    }
    uint64_t bytes = out->file_bytes;
    fprintf(stderr, "ovsdb-gen: wrote %s: %s form, %"PRIu64" records, "
            "%"PRIu64" bytes, %"PRIu64" rows, %"PRIu64" atoms%s, "
            "%.2f s (%.1f MB/s), %.2f CPU s (%.1f MB/CPU s)\n", o->output,
            o->form, out->n_records, bytes, rows, initial_total,
            o->log_form || (o->cluster_form && o->txns) ? " (initial)" : "",
            seconds,
            seconds > 0 ? bytes / 1e6 / seconds : 0.0, cpu_seconds,
            cpu_seconds > 0 ? bytes / 1e6 / cpu_seconds : 0.0);
}

int
main(int argc, char *argv[])
{
    struct options o;
    parse_options(argc, argv, &o);

    struct db_schema *schema;
    char *err = db_schema_read_file(o.schema_file, &schema);
    if (err) {
        ovs_fatal(0, "%s", err);
    }
    /* Bad input is freed before exiting, so that a sanitizer build reports
     * no leak for it (ovs_fatal() exits with these still held). */
    struct profile *profile = profile_read(o.profile_file, schema, &err);
    if (!profile) {
        db_schema_destroy(schema);
        ovs_fatal(0, "%s", err);
    }
    if (!profile_select_log_shape(profile, o.log_shape, &err)
        || !profile_resolve(profile, o.scale, o.seed, &err)) {
        profile_destroy(profile);
        db_schema_destroy(schema);
        ovs_fatal(0, "%s", err);
    }
    bool any_table = false;
    for (size_t t = 0; t < schema->n_tables; t++) {
        any_table = any_table || profile->tables[t];
    }
    if (!any_table) {
        ovs_fatal(0, "%s: no table statements: nothing to generate",
                  o.profile_file);
    }

    int fd = open_output(o.output);
    char *dir = out_file_dir(o.output);
    struct out out;
    out_init(&out, fd, dir);
    out.name = o.output;
    struct gen g;
    gen_init(&g, profile, o.seed, &out);
    /* Progress lines appear only in runs longer than 2 s. */
    g.progress = o.show_progress || !o.quiet;
    g.start_time = g.last_progress = gen_now();

    struct initial_counts initial;
    generate(&g, &out, schema, &o, &initial);
    double seconds = gen_now() - g.start_time;
    /* CPU time as well: on a shared machine wall time includes waiting. */
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double cpu_seconds = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6
                         + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;

    if (o.report) {
        write_report(o.report, &g, initial.atoms, initial.total,
                     initial.by_type, o.form, o.scale, o.seed,
                     o.log_form || o.cluster_form ? o.txns : 0,
                     out.file_bytes, seconds,
                     cpu_seconds);
    }
    /* The database goes into place last, so a report that cannot be
     * written leaves neither file behind. */
    err = out_file_commit(&output_file);
    if (err) {
        ovs_fatal(0, "%s", err);
    }
    if (!o.quiet) {
        print_summary(&g, &out, &o, initial.total, seconds, cpu_seconds);
    }
    free(initial.atoms);
    gen_destroy(&g);
    out_destroy(&out);
    free(dir);
    profile_destroy(profile);
    db_schema_destroy(schema);
    return 0;
}
