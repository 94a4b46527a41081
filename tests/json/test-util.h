/* Tiny helpers shared by the tests/json programs. */
#ifndef JSONBENCH_TEST_UTIL_H
#define JSONBENCH_TEST_UTIL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

extern int test_failures;

#define CHECK(COND)                                                     \
    ((COND) ? (void) 0                                                  \
            : (void) (test_failures++,                                  \
                      fprintf(stderr, "%s:%d: CHECK failed: %s\n",      \
                              __FILE__, __LINE__, #COND)))

#define CHECK_STREQ(A, B)                                               \
    do {                                                                \
        const char *a_ = (A), *b_ = (B);                                \
        if (strcmp(a_, b_)) {                                           \
            test_failures++;                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s\n"           \
                    "  got:      \"%s\"\n  expected: \"%s\"\n",         \
                    __FILE__, __LINE__, #A, #B, a_, b_);                \
        }                                                               \
    } while (0)

#define CHECK_EQ(A, B)                                                  \
    do {                                                                \
        long long a_ = (long long) (A), b_ = (long long) (B);           \
        if (a_ != b_) {                                                 \
            test_failures++;                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld vs %lld)\n", \
                    __FILE__, __LINE__, #A, #B, a_, b_);                \
        }                                                               \
    } while (0)

/* Reads a whole file; exits on error.  The buffer is null-terminated. */
char *read_file(const char *name, size_t *lenp);

/* A program's checks come in named groups; its test() lines in meson.build
 * run one group each. */
struct test_group {
    const char *name;
    void (*run)(void);
};

/* The name of the group running. */
extern const char *test_group_name;

/* Runs the group of the 'n' 'groups' that argv[1] names, or every group
 * without argv[1].  Returns the exit status: 0, 1 if a check failed (said
 * on stderr with 'who'), 2 if argv[1] names no group. */
int run_test_groups(int argc, char *argv[], const struct test_group *groups,
                    size_t n, const char *who);

#endif
