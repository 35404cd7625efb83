/*
 * jsontext.h - text of any bytes as a JSON string.
 *
 * Job files, values, --set and file names may hold any bytes; JSON strings
 * are UTF-8.  Valid UTF-8 goes in as it is; each byte that is not part of a
 * valid sequence (Latin-1, overlong forms, surrogates, truncated sequences)
 * becomes the four characters \xHH, as Python's "backslashreplace" writes
 * it, so that nothing is lost and the original bytes can be recovered.
 */
#ifndef IOSWEEP_JSONTEXT_H
#define IOSWEEP_JSONTEXT_H

#include <jansson.h>
#include <stddef.h>

/* The JSON string for s (json_null() for NULL); NULL when out of memory. */
json_t *json_text(const char *s);

#endif
