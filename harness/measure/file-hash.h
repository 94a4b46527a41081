/* SHA-256 of a whole file (the dataset identity in the results). */
#ifndef HARNESS_FILE_HASH_H
#define HARNESS_FILE_HASH_H 1

/* Computes the SHA-256 of a file as 64 hex digits.  Returns NULL or a
 * malloc'd error. */
char *file_sha256(const char *file_name, char hex[65]);

#endif
