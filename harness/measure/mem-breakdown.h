/* The memory breakdown (--mem-breakdown) as phase counters: live bytes and
 * blocks per allocation category after a phase and at its peak, and the
 * malloc overhead around them. */
#ifndef HARNESS_MEM_BREAKDOWN_H
#define HARNESS_MEM_BREAKDOWN_H 1

struct phases;
struct metrics_snapshot;

/* Adds the counters to the phase that just ended, whose end snapshot is
 * 'end'.  Does nothing when the breakdown is off. */
void mem_breakdown_counters(struct phases *, const struct metrics_snapshot *end);

#endif
