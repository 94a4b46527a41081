/* main() of jsonbench-micro-<impl>: describes the build in the report's
 * context, registers the benchmarks and hands over to google-benchmark.
 *
 * One option of its own, before google-benchmark's:
 *   --micro_dump_document=<kind>/<size>   print that generated document
 *                                          (e.g. nb_rows/small) and exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbench.h"
#include "json.h"
#include "micro-bench.h"
#include "micro-docs.h"
#include "micro-version.h"

#ifdef JSONBENCH_JEMALLOC
#define MICRO_ALLOCATOR "jemalloc"
#else
#define MICRO_ALLOCATOR "glibc"
#endif

static void
add_context(void)
{
    const struct json_impl_info *info = json_impl_info();
    char buf[32];

    gb_add_context("impl", info->name);
    gb_add_context("features", info->features);
    snprintf(buf, sizeof buf, "%zu", info->node_size);
    gb_add_context("node_size", buf);
    snprintf(buf, sizeof buf, "%zu", info->string_inline_max);
    gb_add_context("string_inline_max", buf);
    snprintf(buf, sizeof buf, "%zu", info->array_inline_max);
    gb_add_context("array_inline_max", buf);
    gb_add_context("workload", "micro");
    gb_add_context("allocator", MICRO_ALLOCATOR);
    gb_add_context("build_type", MICRO_BUILD_TYPE);
    gb_add_context("sanitize", MICRO_SANITIZE);
    gb_add_context("compiler", MICRO_COMPILER);
    gb_add_context("git_commit", MICRO_GIT_COMMIT);
}

static int
dump_document(const char *name)
{
    enum micro_doc_kind kind;
    enum micro_doc_size size;

    if (!micro_doc_from_name(name, &kind, &size)) {
        fprintf(stderr, "unknown document \"%s\" (expected e.g. "
                "nb_rows/small, sb_flows/medium, generic/large)\n", name);
        return 1;
    }
    size_t len;
    char *text = micro_doc_generate(kind, micro_doc_size_target(size), &len);
    bool ok = fwrite(text, 1, len, stdout) == len && putchar('\n') != EOF
              && fflush(stdout) == 0;
    free(text);
    return ok ? 0 : 1;
}

int
main(int argc, char *argv[])
{
    static const char dump_option[] = "--micro_dump_document=";
    if (argc == 2 && !strncmp(argv[1], dump_option, strlen(dump_option))) {
        return dump_document(argv[1] + strlen(dump_option));
    }

    add_context();
    micro_register_all();
    int status = gb_main(argc, argv);
    micro_cleanup();
    return status;
}
