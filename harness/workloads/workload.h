/* Workloads: named, parameterized scenarios, each in its own
 * workload-<name>.c, registered in workload.c.  To add one: write
 * workloads/workload-<name>.c defining a
 * 'const struct workload workload_<name>', declare it below, add it to the
 * table in workload.c and the file to harness/meson.build. */
#ifndef HARNESS_WORKLOAD_H
#define HARNESS_WORKLOAD_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct phases;
struct ds;

/* Command-line options (main.c parses them).  Zero/NULL means "not given":
 * each workload fills in its own defaults in prepare(). */
struct workload_options {
    const char *workload;
    const char *dataset;        /* NULL if none given. */
    int repetitions;            /* Default 1. */
    uint64_t seed;              /* Default 1. */
    const char *results;        /* Results JSON file, or NULL. */
    const char *output;         /* dump/compact output file, or NULL. */
    const char *schema;         /* convert: the schema to convert to. */
    int iterations;             /* Inner iterations (dump). */
    int clients;
    int held;                   /* monitor-storm: monitors held. */
    int batches;
    int batch_rows;             /* Rows modified per monitor batch. */
    const char *mode;
    const char *table;
    const char *condition;
    const char *initial;        /* Monitor: "kept" or "per-monitor". */
    const char *send;           /* Monitor: "sockets" or "none". */
    int txns;
    int entries;
    int followers;
    int changes;                /* monitor-cond-change: rounds of changes. */
    int datapaths;              /* monitor-cond-change: per condition. */
    bool no_sha256;             /* Skip hashing the dataset (huge files). */
};

struct workload {
    const char *name;
    const char *summary;        /* One line for --help. */
    const char *help;           /* Options it uses and their defaults. */
    bool needs_dataset;         /* DATASET argument required. */
    /* Checks options and fills defaults.  Returns NULL or an error. */
    char *(*prepare)(struct workload_options *);
    /* Appends "key=value ..." of the options it uses, for the results. */
    void (*describe)(const struct workload_options *, struct ds *);
    /* Runs one repetition, recording phases in 'p'.  Must free
     * everything it allocated.  Returns NULL or an error. */
    char *(*run)(struct phases *p, const struct workload_options *);
};

extern const struct workload workload_load;
extern const struct workload workload_dump;
extern const struct workload workload_compact;
extern const struct workload workload_txn;
extern const struct workload workload_monitor;
extern const struct workload workload_raft;
extern const struct workload workload_monitor_storm;
extern const struct workload workload_convert;
extern const struct workload workload_monitor_cond_change;

extern const struct workload *const workloads[];
extern const size_t n_workloads;
const struct workload *workload_find(const char *name);

/* --send of the monitor workloads: fills in its default (sockets with the
 * full model, none with json-only, whose JSON share leaves the server's
 * sockets out unless asked) and checks it is sockets or none, or print
 * where 'allow_print' (a workload whose clients can print).  Returns NULL
 * or a malloc'd error. */
char *workload_check_send(struct workload_options *, bool allow_print);

struct db;
struct db_load_stats;

/* Where the "load" phase ends.  ovsdb-server's load CPU is read when it
 * first answers; between read_db() and then, its first allocations of a
 * KiB or more (OpenSSL's initialisation) make glibc consolidate the
 * snapshot's freed JSON tree.  FIRST_ANSWER (the default) ends the load
 * phase with one such allocation, so that this work is counted where the
 * server counts it; READ_DB ends it right after the last record, which
 * leaves that work to the next phase. */
enum load_boundary { LOAD_BOUNDARY_FIRST_ANSWER, LOAD_BOUNDARY_READ_DB };
extern enum load_boundary load_boundary;
/* Indexed by enum load_boundary. */
extern const char *const load_boundary_names[2];

/* The "load" phase every workload starts with: reads 'o->dataset' into
 * '*dbp' (with 'stats' if nonnull), counting its rows as the phase's items.
 * Returns NULL or a malloc'd error naming file, record and offset. */
/* True if the linked impl's features (json_impl_info()) list 'feature'. */
bool impl_has_feature(const char *feature);

char *workload_load_phase(struct phases *, const struct workload_options *o,
                          struct db **dbp, struct db_load_stats *stats);
/* The same, reading the dataset into 'schema' (taken) as ovsdb-tool
 * convert does (db_load_file_as()). */
struct db_schema;
char *workload_load_phase_as(struct phases *,
                             const struct workload_options *o,
                             struct db_schema *schema, struct db **dbp,
                             struct db_load_stats *stats);

#endif
