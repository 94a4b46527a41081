/* The micro-benchmarks, compiled once and linked with any JSON impl. */
#ifndef JSONBENCH_MICRO_BENCH_H
#define JSONBENCH_MICRO_BENCH_H 1

/* Registers every "<op>/<document>/<size>" benchmark with gbench.h. */
void micro_register_all(void);

/* Frees the generated documents and cached trees (so that ASan's leak check
 * sees a clean exit). */
void micro_cleanup(void);

#endif /* JSONBENCH_MICRO_BENCH_H */
