/* jsonbench-<impl>: runs one workload on one dataset with the JSON impl this
 * program was linked with, and reports what it cost. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measure/build-info.h"
#include "server/db.h"
#include "ovsdb/datum.h"
#include "ovsdb/log-reader.h"
#include "ovsdb/out-file.h"
#include "ds.h"
#include "measure/file-hash.h"
#include "json.h"
#include "measure/metrics.h"
#include "measure/phases.h"
#include "measure/results-json.h"
#include "measure/results-table.h"
#include "server/raft-storage.h"
#include "server/row-version.h"
#include "server/txn.h"
#include "util.h"
#include "workloads/workload.h"

static const char *program_name = "jsonbench";

static void
usage(FILE *stream)
{
    const struct json_impl_info *info = json_impl_info();

    fprintf(stream,
"usage: %s WORKLOAD [OPTIONS] [DATASET]\n"
"Runs WORKLOAD on the OVSDB standalone file DATASET with the '%s' JSON\n"
"implementation (%s; node size %zu bytes) and the %s allocator, and reports\n"
"wall/CPU time, RSS, heap and allocation counts per phase.\n"
"\nWorkloads:\n", program_name, info->name, info->features, info->node_size,
            metrics_allocator());
    for (size_t i = 0; i < n_workloads; i++) {
        fprintf(stream, "  %-8s %s\n%s", workloads[i]->name,
                workloads[i]->summary, workloads[i]->help);
    }
    fprintf(stream,
"\nGeneral options:\n"
"  --repetitions N   run the workload N times (default 1); results hold\n"
"                    every repetition plus mean/median/stddev/min/max\n"
"  --seed N          seed for everything random (default 1), the rows'\n"
"                    _version UUIDs included\n"
"  --results FILE    write results (google-benchmark JSON) to FILE,\n"
"                    atomically; without it, print a short table\n"
"  --output FILE     dump/compact/convert: write the produced text to FILE;\n"
"                    monitor: every message sent, one a line (tests);\n"
"                    txn: the database after the inserts as dump's reply\n"
"  --no-sha256       do not hash DATASET for the results context\n"
"  --no-heap-stats   do not read heap figures (glibc's mallinfo2 is slow on\n"
"                    a large heap; they read as 0)\n"
"  --mem-breakdown   count live bytes and blocks per allocation category\n"
"                    (JSON nodes, strings, arrays, objects, intern, model,\n"
"                    indexes, other) after each phase and at its peak, and\n"
"                    malloc overhead (RSS - live bytes - the breakdown's own\n"
"                    table); costs CPU, see docs/memory-breakdown.md\n"
"  --string-atoms shared|copy\n"
"                    shared (default, as OVS >= 2.17): a string atom is the\n"
"                    parsed node itself, json_clone()d; copy: a fresh node,\n"
"                    which shows what keeping the parse tree's scattered\n"
"                    nodes costs a refcounted impl\n"
"  --model full|json-only\n"
"                    full (default): the database plus what ovsdb-server\n"
"                    keeps around it (row headers, datum reference counts,\n"
"                    weak references, indexes, a transaction per record\n"
"                    with its checks; docs/model.md); json-only: only the\n"
"                    database, so the JSON representation's share shows\n"
"  --txn-order hash|creation\n"
"                    full model: the order of the commit's passes over a\n"
"                    transaction's rows; hash (default): each table's hash\n"
"                    map in bucket order, as ovsdb-server; creation: the\n"
"                    order the rows joined (the model before; same result)\n"
"  --row-uuids datums|inline\n"
"                    full model: datums (default): each row's _uuid and\n"
"                    _version are atoms of their own, as in OVS, and UUID\n"
"                    lookups read them through that pointer; inline: the\n"
"                    row's inline UUID and its _version inside the row\n"
"                    (no blocks of their own).  Either way _version is\n"
"                    generated (AES-128 of a counter) per insert and\n"
"                    change and the outputs are the same\n"
"  --load-boundary first-answer|read-db\n"
"                    where the load phase ends; first-answer (default):\n"
"                    where ovsdb-server's load CPU is read, after its\n"
"                    first allocations past read_db() (docs/model.md);\n"
"                    read-db: right after the last record is applied\n"
"  --datum-copy lazy|deep\n"
"                    full model: lazy (default, OVS >= 3.0, 485ac63d1): a\n"
"                    copied datum shares its atoms and a reference count;\n"
"                    deep (OVS 2.17): a copy copies the atoms, and datums\n"
"                    have no reference count pointer\n"
"  --ref-columns refs|all\n"
"                    full model: the columns the commit checks for\n"
"                    references; refs (default, OVS >= 3.3, 6f11d9daa and\n"
"                    d51d4f42d, backported to 3.0.6, 3.1.4, 3.2.2): those\n"
"                    that can hold them; all (before): every column of a\n"
"                    changed row, _uuid and _version too, each copied and\n"
"                    unshared (with lazy copies, a count per datum stays)\n"
"  --string-lex runs|bytes\n"
"                    how the parser lexes a record's strings: runs (default,\n"
"                    OVS >= 3.0, 2f16123c1): plain bytes taken at once;\n"
"                    bytes (OVS 2.17): each byte alone through the lexer\n"
"  --sha1 openssl|builtin\n"
"                    the SHA-1 that checks each record: openssl (default,\n"
"                    OVS >= 3.0, e8f557df3) or one in plain C (OVS 2.17)\n"
"  --history-trim each|end\n"
"                    full model, clustered files: when the transaction\n"
"                    history is trimmed while loading; each (default):\n"
"                    after every transaction read, as OVS since bd2a80b1d\n"
"                    (3.3; 3.2.0, 3.1.3, 3.0.5, 2.17.8); end: once the\n"
"                    file is read (3.1.0)\n"
"  --help            this text\n"
"\nWorkload options (see each workload for which apply):\n"
"  --iterations N  --clients N  --held M  --batches K  --batch-rows R\n"
"  --mode tree|tree-cache|cache|direct|direct-each|serialized|all|one\n"
"  --table T[,T...]\n"
"  --condition JSON  --initial kept|per-monitor  --send sockets|print|none\n"
"  --txns M  --entries E  --followers F  --schema FILE\n"
"  --changes K  --datapaths W\n"
"\nExit status: 0 on success, 1 on bad input or a failed run (the message\n"
"names file, record and byte offset), 2 on bad usage (also an --output or\n"
"--results that cannot be written, checked before the run).\n");
}

static OVS_NO_RETURN void
usage_error(const char *format, ...) OVS_PRINTF_FORMAT(1, 2);

static void
usage_error(const char *format, ...)
{
    va_list args;

    fprintf(stderr, "%s: ", program_name);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fprintf(stderr, " (try --help)\n");
    exit(2);
}

static long long
parse_number(const char *option, const char *arg, long long min,
             long long max)
{
    char *end;
    errno = 0;
    long long v = strtoll(arg, &end, 10);
    if (errno || end == arg || *end || v < min || v > max) {
        usage_error("--%s: \"%s\" is not an integer in [%lld, %lld]", option,
                    arg, min, max);
    }
    return v;
}

/* Indexed by log_reader_builtin_sha1. */
static const char *const sha1_names[2] = { "openssl", "builtin" };

/* Indexed by log_reader_byte_strings. */
static const char *const string_lex_names[2] = { "runs", "bytes" };

/* Indexed by enum string_atoms (ovsdb/datum.h). */
static const char *const string_atoms_names[2] = { "shared", "copy" };

/* The index in 'names' of an option's value among its two choices. */
static int
parse_choice(const char *option, const char *arg, const char *const names[2])
{
    for (int i = 0; i < 2; i++) {
        if (!strcmp(arg, names[i])) {
            return i;
        }
    }
    usage_error("--%s: \"%s\" is not %s or %s", option, arg, names[0],
                names[1]);
}

enum {
    OPT_REPETITIONS = UCHAR_MAX + 1, OPT_SEED, OPT_RESULTS, OPT_OUTPUT,
    OPT_ITERATIONS, OPT_CLIENTS, OPT_HELD, OPT_BATCHES, OPT_BATCH_ROWS, OPT_MODE,
    OPT_TABLE, OPT_CONDITION, OPT_INITIAL, OPT_SEND, OPT_TXNS, OPT_ENTRIES, OPT_FOLLOWERS,
    OPT_NO_SHA256, OPT_NO_HEAP_STATS, OPT_STRING_ATOMS, OPT_MODEL,
    OPT_MEM_BREAKDOWN, OPT_TXN_ORDER, OPT_ROW_UUIDS, OPT_LOAD_BOUNDARY, OPT_HELP,
    OPT_HISTORY_TRIM, OPT_DATUM_COPY, OPT_REF_COLUMNS,
    OPT_STRING_LEX, OPT_SHA1, OPT_SCHEMA, OPT_CHANGES, OPT_DATAPATHS,
};

static void
parse_options(int argc, char *argv[], struct workload_options *o)
{
    static const struct option long_options[] = {
        { "repetitions", required_argument, NULL, OPT_REPETITIONS },
        { "seed", required_argument, NULL, OPT_SEED },
        { "results", required_argument, NULL, OPT_RESULTS },
        { "output", required_argument, NULL, OPT_OUTPUT },
        { "schema", required_argument, NULL, OPT_SCHEMA },
        { "iterations", required_argument, NULL, OPT_ITERATIONS },
        { "clients", required_argument, NULL, OPT_CLIENTS },
        { "held", required_argument, NULL, OPT_HELD },
        { "batches", required_argument, NULL, OPT_BATCHES },
        { "batch-rows", required_argument, NULL, OPT_BATCH_ROWS },
        { "mode", required_argument, NULL, OPT_MODE },
        { "table", required_argument, NULL, OPT_TABLE },
        { "condition", required_argument, NULL, OPT_CONDITION },
        { "initial", required_argument, NULL, OPT_INITIAL },
        { "send", required_argument, NULL, OPT_SEND },
        { "txns", required_argument, NULL, OPT_TXNS },
        { "entries", required_argument, NULL, OPT_ENTRIES },
        { "followers", required_argument, NULL, OPT_FOLLOWERS },
        { "changes", required_argument, NULL, OPT_CHANGES },
        { "datapaths", required_argument, NULL, OPT_DATAPATHS },
        { "no-sha256", no_argument, NULL, OPT_NO_SHA256 },
        { "no-heap-stats", no_argument, NULL, OPT_NO_HEAP_STATS },
        { "string-atoms", required_argument, NULL, OPT_STRING_ATOMS },
        { "model", required_argument, NULL, OPT_MODEL },
        { "txn-order", required_argument, NULL, OPT_TXN_ORDER },
        { "row-uuids", required_argument, NULL, OPT_ROW_UUIDS },
        { "load-boundary", required_argument, NULL, OPT_LOAD_BOUNDARY },
        { "history-trim", required_argument, NULL, OPT_HISTORY_TRIM },
        { "datum-copy", required_argument, NULL, OPT_DATUM_COPY },
        { "ref-columns", required_argument, NULL, OPT_REF_COLUMNS },
        { "string-lex", required_argument, NULL, OPT_STRING_LEX },
        { "sha1", required_argument, NULL, OPT_SHA1 },
        { "mem-breakdown", no_argument, NULL, OPT_MEM_BREAKDOWN },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    const int MAX = 100000000;

    memset(o, 0, sizeof *o);
    o->repetitions = 1;
    o->seed = 1;
    opterr = 0;                 /* One message of our own, naming it. */
    for (;;) {
        int c = getopt_long(argc, argv, ":h", long_options, NULL);
        if (c == -1) {
            break;
        }
        switch (c) {
        case OPT_REPETITIONS:
            o->repetitions = parse_number("repetitions", optarg, 1, 1000);
            break;
        case OPT_SEED:
            o->seed = parse_number("seed", optarg, 0, LLONG_MAX);
            break;
        case OPT_RESULTS:
            o->results = optarg;
            break;
        case OPT_SCHEMA:
            o->schema = optarg;
            break;
        case OPT_OUTPUT:
            o->output = optarg;
            break;
        case OPT_ITERATIONS:
            o->iterations = parse_number("iterations", optarg, 1, MAX);
            break;
        case OPT_CLIENTS:
            o->clients = parse_number("clients", optarg, 1, MAX);
            break;
        case OPT_HELD:
            o->held = parse_number("held", optarg, 1, MAX);
            break;
        case OPT_BATCHES:
            o->batches = parse_number("batches", optarg, 1, MAX);
            break;
        case OPT_BATCH_ROWS:
            o->batch_rows = parse_number("batch-rows", optarg, 1, MAX);
            break;
        case OPT_MODE:
            o->mode = optarg;
            break;
        case OPT_TABLE:
            o->table = optarg;
            break;
        case OPT_CONDITION:
            o->condition = optarg;
            break;
        case OPT_INITIAL:
            o->initial = optarg;
            break;
        case OPT_SEND:
            o->send = optarg;
            break;
        case OPT_TXNS:
            o->txns = parse_number("txns", optarg, 1, MAX);
            break;
        case OPT_ENTRIES:
            o->entries = parse_number("entries", optarg, 1, MAX);
            break;
        case OPT_FOLLOWERS:
            o->followers = parse_number("followers", optarg, 1, MAX);
            break;
        case OPT_CHANGES:
            o->changes = parse_number("changes", optarg, 1, MAX);
            break;
        case OPT_DATAPATHS:
            o->datapaths = parse_number("datapaths", optarg, 1, MAX);
            break;
        case OPT_NO_SHA256:
            o->no_sha256 = true;
            break;
        case OPT_NO_HEAP_STATS:
            metrics_heap_stats = false;
            break;
        case OPT_MEM_BREAKDOWN:
            /* Now, before the dataset is read, so that every block of the
             * database is tracked. */
            xalloc_breakdown_enable();
            break;
        case OPT_STRING_ATOMS:
            string_atoms = parse_choice("string-atoms", optarg,
                                        string_atoms_names);
            break;
        case OPT_MODEL:
            db_model = parse_choice("model", optarg, db_model_names);
            break;
        case OPT_TXN_ORDER:
            txn_order = parse_choice("txn-order", optarg, txn_order_names);
            break;
        case OPT_ROW_UUIDS:
            row_uuid_datums = !parse_choice("row-uuids", optarg,
                                            (const char *const[]) {
                                                "datums", "inline" });
            break;
        case OPT_HISTORY_TRIM:
            history_trim = parse_choice("history-trim", optarg,
                                        history_trim_names);
            break;
        case OPT_DATUM_COPY:
            datum_copy = parse_choice("datum-copy", optarg, datum_copy_names);
            break;
        case OPT_REF_COLUMNS:
            ref_columns = parse_choice("ref-columns", optarg,
                                       ref_columns_names);
            break;
        case OPT_STRING_LEX:
            log_reader_byte_strings = parse_choice("string-lex", optarg,
                                                   string_lex_names);
            break;
        case OPT_SHA1:
            log_reader_builtin_sha1 = parse_choice("sha1", optarg,
                                                   sha1_names);
            break;
        case OPT_LOAD_BOUNDARY:
            load_boundary = parse_choice("load-boundary", optarg,
                                         load_boundary_names);
            break;
        case 'h':
        case OPT_HELP:
            usage(stdout);
            exit(0);
        case ':':
            usage_error("option %s needs an argument", argv[optind - 1]);
        default:
            if (optopt) {
                usage_error("unknown option -%c", optopt);
            }
            usage_error("unknown option %s", argv[optind - 1]);
        }
    }

    /* WORKLOAD and DATASET may come anywhere among the options. */
    int n_args = argc - optind;
    if (n_args < 1) {
        usage_error("missing WORKLOAD");
    }
    if (n_args > 2) {
        usage_error("too many arguments");
    }
    o->workload = argv[optind];
    o->dataset = n_args == 2 ? argv[optind + 1] : NULL;
}

/* Refuses (exit 2) an output 'file' given to --'option' that cannot be
 * written, before the run rather than after it. */
static void
check_output_path(const char *option, const char *file)
{
    char *error = out_file_check_path(file);
    if (error) {
        usage_error("--%s: %s", option, error);
    }
}

int
main(int argc, char *argv[])
{
    struct workload_options o;
    const char *slash = strrchr(argv[0], '/');

    program_name = slash ? slash + 1 : argv[0];
    parse_options(argc, argv, &o);
    /* What the impl asks of the server model (impls/ovs-intern,
     * impls/ovs-slimref): set before anything is read. */
    string_pool = impl_has_feature("string-pool");
    weak_refs_slim = impl_has_feature("slim-weak-refs");

    const struct workload *w = workload_find(o.workload);
    if (!w) {
        usage_error("unknown workload \"%s\"", o.workload);
    }
    if (w->needs_dataset && !o.dataset) {
        usage_error("workload %s needs a DATASET file", w->name);
    }
    if (o.output && strcmp(w->name, "dump") && strcmp(w->name, "compact")
        && strcmp(w->name, "monitor") && strcmp(w->name, "txn")
        && strcmp(w->name, "convert")) {
        usage_error("--output: workload %s writes no output (only dump, "
                    "compact, convert, monitor and txn do)", w->name);
    }
    if (o.output) {
        check_output_path("output", o.output);
    }
    if (o.results) {
        check_output_path("results", o.results);
    }
    char *error = w->prepare(&o);
    if (error) {
        fprintf(stderr, "%s: %s: %s (try --help)\n", program_name, w->name,
                error);
        xfree(error);
        return 2;
    }

    /* Hashing reads the whole file first: /dev/zero would never end, and
     * a pipe would be consumed before the workload reads it. */
    struct stat st;
    if (o.dataset && !stat(o.dataset, &st) && !S_ISREG(st.st_mode)
        && (S_ISDIR(st.st_mode) || !o.no_sha256)) {
        fprintf(stderr, "%s: %s: %s, not an OVSDB file%s\n", program_name,
                o.dataset, S_ISDIR(st.st_mode) ? "a directory"
                                               : "not a regular file",
                S_ISDIR(st.st_mode) ? "" : " (--no-sha256 reads a pipe)");
        return 1;
    }

    char sha256[65] = "";
    if (o.dataset && !o.no_sha256) {
        error = file_sha256(o.dataset, sha256);
        if (error) {
            fprintf(stderr, "%s: %s\n", program_name, error);
            xfree(error);
            return 1;
        }
    }

    struct phases phases;
    phases_init(&phases, w->name, o.repetitions);
    for (int rep = 0; rep < o.repetitions && !error; rep++) {
        phases.repetition = rep;
        /* Every repetition hands out the same _version sequence. */
        row_version_start(o.seed);
        error = w->run(&phases, &o);
    }
    if (error) {
        fprintf(stderr, "%s: %s\n", program_name, error);
        xfree(error);
        phases_destroy(&phases);
        return 1;
    }

    struct ds params = DS_EMPTY_INITIALIZER;
    ds_put_format(&params, "repetitions=%d seed=%llu", o.repetitions,
                  (unsigned long long) o.seed);
    w->describe(&o, &params);
    if (string_atoms == STRING_ATOMS_COPY) {
        /* Only when not the default, so that earlier results still match. */
        ds_put_cstr(&params, " string_atoms=copy");
    }
    if (db_model != DB_MODEL_FULL) {
        ds_put_format(&params, " model=%s", db_model_names[db_model]);
    }
    if (txn_order != TXN_ORDER_HASH) {
        ds_put_format(&params, " txn_order=%s", txn_order_names[txn_order]);
    }
    if (!row_uuid_datums) {
        ds_put_cstr(&params, " row_uuids=inline");
    }
    if (history_trim != HISTORY_TRIM_EACH) {
        ds_put_format(&params, " history_trim=%s",
                      history_trim_names[history_trim]);
    }
    if (datum_copy != DATUM_COPY_LAZY) {
        ds_put_format(&params, " datum_copy=%s", datum_copy_names[datum_copy]);
    }
    if (log_reader_byte_strings) {
        ds_put_cstr(&params, " string_lex=bytes");
    }
    if (log_reader_builtin_sha1) {
        ds_put_cstr(&params, " sha1=builtin");
    }
    if (ref_columns != REF_COLUMNS_REFS) {
        ds_put_format(&params, " ref_columns=%s",
                      ref_columns_names[ref_columns]);
    }
    if (load_boundary != LOAD_BOUNDARY_FIRST_ANSWER) {
        ds_put_format(&params, " load_boundary=%s",
                      load_boundary_names[load_boundary]);
    }
    if (xalloc_breakdown_enabled()) {
        ds_put_cstr(&params, " mem_breakdown=1");
    }

    const struct json_impl_info *info = json_impl_info();
    struct results_context ctx = {
        .executable = argv[0],
        .impl = info->name,
        .allocator = metrics_allocator(),
        .workload = w->name,
        .params = ds_cstr(&params),
        .dataset = o.dataset,
        .dataset_sha256 = sha256,
        .build_type = harness_build_type,
        .compiler = harness_compiler,
        .cflags = harness_cflags,
        .git_commit = harness_git_commit,
        .node_size = info->node_size,
        .model = db_model_names[db_model],
    };
    int status = 0;
    if (o.results) {
        error = results_write(&phases, &ctx, o.results);
        if (error) {
            fprintf(stderr, "%s: %s\n", program_name, error);
            xfree(error);
            status = 1;
        }
    } else {
        printf("%s %s on %s (impl %s, %s): %s\n", program_name, w->name,
               o.dataset ? o.dataset : "built-in data", info->name,
               metrics_allocator(), ds_cstr(&params));
        results_print_table(&phases, stdout);
        if (fflush(stdout) || ferror(stdout)) {
            fprintf(stderr, "%s: standard output: write error: %s\n",
                    program_name, strerror(errno));
            status = 1;
        }
    }
    ds_destroy(&params);
    phases_destroy(&phases);
    return status;
}
