/* How this harness was built, for the results context.  Defined in the
 * build-info.c that meson generates (harness/meson.build). */
#ifndef HARNESS_BUILD_INFO_H
#define HARNESS_BUILD_INFO_H 1

extern const char harness_build_type[];
extern const char harness_compiler[];
extern const char harness_cflags[];
extern const char harness_git_commit[];

#endif
