/* sha256.h — SHA-256 (FIPS 180-4), for document checksums. */
#ifndef RL_SHA256_H
#define RL_SHA256_H

#include <stddef.h>

/* Writes the lowercase hex digest of data (64 characters and a NUL). */
void rl_sha256_hex(const void *data, size_t len, char out[65]);

#endif
