/* Phase counters of the memory breakdown (util.h's xalloc_breakdown):
 *
 *   mem_<category>_bytes, mem_<category>_blocks   live after the phase
 *   mem_peak_<category>_bytes                     at the phase's highest
 *                                                 total of live bytes
 *   mem_live_bytes, mem_live_blocks, mem_peak_live_bytes   the totals
 *   mem_table_bytes          the breakdown's own side table (in RSS)
 *   malloc_overhead_bytes    RSS - table - live bytes: chunk headers, free
 *                            chunks, fragmentation, code, stacks
 *   peak_malloc_overhead_bytes   peak RSS - table - peak live bytes (the
 *                            two peaks need not be at the same moment)
 *   mem_stale_blocks, mem_untracked_frees   health: blocks freed without
 *                            xfree(), frees of blocks never tracked */
#include "measure/mem-breakdown.h"

#include <stdio.h>

#include "measure/metrics.h"
#include "measure/phases.h"
#include "util.h"

void
mem_breakdown_counters(struct phases *p, const struct metrics_snapshot *end)
{
    if (!xalloc_breakdown_enabled()) {
        return;
    }

    struct xalloc_breakdown live, peak;
    struct xalloc_breakdown_health health;
    xalloc_breakdown_get(&live, &peak);
    xalloc_breakdown_health(&health);

    for (int c = 0; c < N_XALLOC_CATEGORIES; c++) {
        const char *name = xalloc_category_name(c);
        char key[64];

        snprintf(key, sizeof key, "mem_%s_bytes", name);
        phases_counter(p, key, live.bytes[c]);
        snprintf(key, sizeof key, "mem_%s_blocks", name);
        phases_counter(p, key, live.blocks[c]);
        snprintf(key, sizeof key, "mem_peak_%s_bytes", name);
        phases_counter(p, key, peak.bytes[c]);
    }
    phases_counter(p, "mem_live_bytes", live.total_bytes);
    phases_counter(p, "mem_live_blocks", live.total_blocks);
    phases_counter(p, "mem_peak_live_bytes", peak.total_bytes);
    phases_counter(p, "mem_table_bytes", health.table_bytes);
    phases_counter(p, "malloc_overhead_bytes",
                   (double) end->rss_bytes - health.table_bytes
                   - live.total_bytes);
    phases_counter(p, "peak_malloc_overhead_bytes",
                   (double) end->peak_rss_bytes - health.table_bytes
                   - peak.total_bytes);
    phases_counter(p, "mem_stale_blocks", health.stale);
    phases_counter(p, "mem_untracked_frees", health.untracked_frees);
}
