/* ovsdb-gen: writes a realistic OVSDB standalone database file for a schema
 * and a profile, at any scale, deterministically.  See datasets/README.md. */
#include <errno.h>
#include <fcntl.h>
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
#include "json.h"
#include "out.h"
#include "profile.h"
#include "schema.h"
#include "util.h"

/* The temporary output, removed on failure and on a fatal signal. */
static char *tmp_name;

static void
remove_tmp(void)
{
    if (tmp_name) {
        unlink(tmp_name);
    }
}

static void
on_signal(int sig)
{
    if (tmp_name) {
        unlink(tmp_name);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void
usage(void)
{
    printf("\
usage: ovsdb-gen --schema FILE --profile FILE [options] -o OUTPUT\n\
Writes an OVSDB standalone database file (schema record, then data records)\n\
whose rows follow a profile; same inputs give the same bytes.\n\
\n\
  --schema FILE     OVSDB schema (.ovsschema), e.g.\n\
                    /usr/share/ovn/ovn-nb.ovsschema\n\
  --profile FILE    dataset profile, e.g. datasets/profiles/nb.profile\n\
  --scale S         multiply row counts by S (default 1: ~350 MB NB,\n\
                    ~615 MB SB)\n\
  --form F          snapshot (schema + one transaction with every row, as\n\
                    compaction writes it; default) or log (initial\n\
                    transaction, then --txns small transactions)\n\
  --txns T          log form: transactions after the initial one\n\
                    (default 1000)\n\
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
    fprintf(stderr, "\n(use --help for usage)\n");
    exit(2);
}

static char *
read_file(const char *name, size_t *lenp)
{
    FILE *f = fopen(name, "rb");
    if (!f) {
        ovs_fatal(errno, "%s: cannot open", name);
    }
    struct ds d = DS_EMPTY_INITIALIZER;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        ds_put_buffer(&d, buf, n);
    }
    if (ferror(f)) {
        ovs_fatal(0, "%s: read error", name);
    }
    fclose(f);
    *lenp = d.length;
    return d.string ? ds_steal_cstr(&d) : xstrdup("");
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
    const struct schema *s = g->s;
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
            put_json_key(&d, s->tables[t].name);
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
            put_json_key(&d, s->tables[t].name);
            ds_put_format(&d, " %"PRIu64, initial_atoms[t]);
            first = false;
        }
    }
    ds_put_format(&d, "\n  },\n  \"initial_atoms_total\": %"PRIu64",\n",
                  initial_total);
    ds_put_cstr(&d, "  \"initial_atoms_by_type\": {");
    for (int t = ATOM_INTEGER; t < N_ATOM_TYPES; t++) {
        ds_put_format(&d, "%s\"%s\": %"PRIu64, t == ATOM_INTEGER ? "" : ", ",
                      atom_type_name(t), initial_by_type[t]);
    }
    ds_put_cstr(&d, "}\n}\n");

    char *tmp = xasprintf("%s.%ld.tmp", file_name, (long) getpid());
    FILE *f = fopen(tmp, "w");
    if (!f || fwrite(d.string, 1, d.length, f) != d.length
        || fclose(f) != 0 || rename(tmp, file_name) < 0) {
        int err = errno;
        unlink(tmp);
        ovs_fatal(err, "%s: cannot write report", file_name);
    }
    free(tmp);
    ds_destroy(&d);
}

static char *
dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        return xstrdup(".");
    }
    if (slash == path) {
        return xstrdup("/");
    }
    return xmemdup0(path, slash - path);
}

int
main(int argc, char *argv[])
{
    enum { OPT_SCHEMA = 256, OPT_PROFILE, OPT_SCALE, OPT_FORM, OPT_TXNS,
           OPT_SEED, OPT_REPORT, OPT_PROGRESS };
    static const struct option options[] = {
        { "schema", required_argument, NULL, OPT_SCHEMA },
        { "profile", required_argument, NULL, OPT_PROFILE },
        { "scale", required_argument, NULL, OPT_SCALE },
        { "form", required_argument, NULL, OPT_FORM },
        { "txns", required_argument, NULL, OPT_TXNS },
        { "seed", required_argument, NULL, OPT_SEED },
        { "output", required_argument, NULL, 'o' },
        { "report", required_argument, NULL, OPT_REPORT },
        { "progress", no_argument, NULL, OPT_PROGRESS },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *schema_file = NULL, *profile_file = NULL, *output = NULL;
    const char *report = NULL, *form = "snapshot";
    double scale = 1.0;
    uint64_t seed = 1, txns = 1000;
    bool quiet = false, show_progress = false;

    for (;;) {
        int c = getopt_long(argc, argv, "o:qh", options, NULL);
        if (c == -1) {
            break;
        }
        char *end;
        switch (c) {
        case OPT_SCHEMA: schema_file = optarg; break;
        case OPT_PROFILE: profile_file = optarg; break;
        case OPT_SCALE:
            errno = 0;
            scale = strtod(optarg, &end);
            if (errno || *end || end == optarg || !(scale > 0)
                || !isfinite(scale) || scale > 1000) {
                usage_error("--scale: expected a number in (0, 1000], got "
                            "\"%s\"", optarg);
            }
            break;
        case OPT_FORM:
            if (strcmp(optarg, "snapshot") && strcmp(optarg, "log")) {
                usage_error("--form: expected snapshot or log, got \"%s\"",
                            optarg);
            }
            form = optarg;
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
            *(c == OPT_TXNS ? &txns : &seed) = v;
            break;
        }
        case 'o': output = optarg; break;
        case OPT_REPORT: report = optarg; break;
        case OPT_PROGRESS: show_progress = true; break;
        case 'q': quiet = true; break;
        case 'h': usage(); return 0;
        default: usage_error("invalid option");
        }
    }
    if (optind < argc) {
        usage_error("unexpected argument \"%s\"", argv[optind]);
    }
    if (!schema_file || !profile_file || !output) {
        usage_error("--schema, --profile and --output are required");
    }
    bool log_form = !strcmp(form, "log");

    /* The schema is read twice: once as text to copy into the first record
     * (compactly re-serialized), once into the model. */
    size_t schema_len;
    char *schema_text = read_file(schema_file, &schema_len);
    char *err = NULL;
    struct json *schema_json = json_parse_buffer(schema_text, schema_len,
                                                 &err);
    free(schema_text);
    if (!schema_json) {
        ovs_fatal(0, "%s: invalid JSON: %s", schema_file, err);
    }
    /* Bad input is freed before exiting, so that a sanitizer build reports
     * no leak for it (ovs_fatal() exits with these still held). */
    struct schema *schema = schema_from_json(schema_json, &err);
    if (!schema) {
        json_destroy(schema_json);
        ovs_fatal(0, "%s: invalid schema: %s", schema_file, err);
    }
    struct profile *profile = profile_read(profile_file, schema, &err);
    if (!profile) {
        schema_destroy(schema);
        json_destroy(schema_json);
        ovs_fatal(0, "%s", err);
    }
    if (!profile_resolve(profile, scale, seed, &err)) {
        profile_destroy(profile);
        schema_destroy(schema);
        json_destroy(schema_json);
        ovs_fatal(0, "%s", err);
    }

    tmp_name = xasprintf("%s.%ld.tmp", output, (long) getpid());
    int fd = open(tmp_name, O_RDWR | O_CREAT | O_EXCL | O_TRUNC, 0644);
    if (fd < 0) {
        ovs_fatal(errno, "%s: cannot create", tmp_name);
    }
    atexit(remove_tmp);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    signal(SIGPIPE, on_signal);

    char *dir = dir_of(output);
    struct out out;
    out_init(&out, fd, dir);
    struct gen g;
    gen_init(&g, profile, seed, &out);
    /* Progress lines appear only in runs longer than 2 s. */
    g.progress = show_progress || !quiet;
    g.start_time = g.last_progress = gen_now();

    /* Record 1: the schema. */
    out_record_begin(&out);
    struct ds text = DS_EMPTY_INITIALIZER;
    json_to_ds(schema_json, 0, &text);
    out_put(&out, text.string, text.length);
    ds_destroy(&text);
    json_destroy(schema_json);
    out_record_end(&out);

    gen_initial_record(&g, log_form);
    size_t nt = schema->n_tables;
    uint64_t *initial_atoms = xmemdup(g.atoms, nt * sizeof *g.atoms);
    uint64_t initial_by_type[N_ATOM_TYPES];
    memcpy(initial_by_type, g.atoms_by_type, sizeof initial_by_type);
    uint64_t initial_total = 0;
    for (size_t t = 0; t < nt; t++) {
        initial_total += initial_atoms[t];
    }
    if (log_form) {
        gen_log_records(&g, txns);
    }
    if (out.error) {
        ovs_fatal(out.error, "%s: write error", tmp_name);
    }
    if (close(fd) < 0) {
        ovs_fatal(errno, "%s: write error", tmp_name);
    }
    if (rename(tmp_name, output) < 0) {
        ovs_fatal(errno, "cannot rename %s to %s", tmp_name, output);
    }
    free(tmp_name);
    tmp_name = NULL;
    double seconds = gen_now() - g.start_time;
    uint64_t bytes = out.file_bytes;
    /* CPU time as well: on a shared machine wall time includes waiting. */
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double cpu_seconds = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6
                         + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;

    if (report) {
        write_report(report, &g, initial_atoms, initial_total,
                     initial_by_type, form, scale, seed,
                     log_form ? txns : 0, bytes, seconds, cpu_seconds);
    }
    if (!quiet) {
        uint64_t rows = 0;
        for (size_t t = 0; t < nt; t++) {
            rows += g.rows[t];
        }
        fprintf(stderr, "ovsdb-gen: wrote %s: %s form, %"PRIu64" records, "
                "%"PRIu64" bytes, %"PRIu64" rows, %"PRIu64" atoms%s, "
                "%.2f s (%.1f MB/s), %.2f CPU s (%.1f MB/CPU s)\n", output,
                form, out.n_records, bytes, rows, initial_total,
                log_form ? " (initial)" : "", seconds,
                seconds > 0 ? bytes / 1e6 / seconds : 0.0, cpu_seconds,
                cpu_seconds > 0 ? bytes / 1e6 / cpu_seconds : 0.0);
    }
    free(initial_atoms);
    gen_destroy(&g);
    out_destroy(&out);
    free(dir);
    profile_destroy(profile);
    schema_destroy(schema);
    return 0;
}
