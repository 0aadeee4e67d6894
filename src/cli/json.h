/* json.h — a small streaming JSON writer (after notmuch's sprinter): the
 * commands say begin/key/value/end and never format JSON by hand. */
#ifndef RL_JSON_H
#define RL_JSON_H

#include <stdbool.h>
#include <stdio.h>

enum { JSON_MAX_DEPTH = 32 };

struct json {
	FILE *f;
	bool pretty;              /* indented, one member per line */
	int depth;
	bool first[JSON_MAX_DEPTH];
	bool after_key;
};

void json_init(struct json *j, FILE *f, bool pretty);
void json_begin_map(struct json *j);
void json_end_map(struct json *j);
void json_begin_list(struct json *j);
void json_end_list(struct json *j);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);   /* NULL writes null */
void json_int(struct json *j, long long v);
void json_double(struct json *j, double v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* Ends a top-level value with a newline. */
void json_end(struct json *j);

#endif
