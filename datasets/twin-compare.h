/* Fidelity of a dataset twin: a source database and its twin side by side,
 * per table and overall, with the tolerances marked pass or fail. */
#ifndef DATASETS_TWIN_COMPARE_H
#define DATASETS_TWIN_COMPARE_H 1

#include <stdbool.h>

/* Loads both files (one after the other), prints the comparison (text or
 * JSON) and returns 0 if every tolerance holds, 3 if not (1 is a fatal
 * error, 2 a usage error). */
int twin_compare(const char *source, const char *twin, bool as_json);

#endif /* DATASETS_TWIN_COMPARE_H */
