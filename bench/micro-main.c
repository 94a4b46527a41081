/* main() of jsonbench-micro-<impl>: describes the build in the report's
 * context, registers the benchmarks and hands over to google-benchmark. */
#include <stdio.h>

#include "gbench.h"
#include "json.h"
#include "micro-bench.h"
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

int
main(int argc, char *argv[])
{
    add_context();
    micro_register_all();
    int status = gb_main(argc, argv);
    micro_cleanup();
    return status;
}
