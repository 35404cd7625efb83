/* jsontext.c - see jsontext.h. */
#define _GNU_SOURCE
#include "lib/jsontext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s[0..n), 0 when it is not one. */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned long cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates and code points past U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

json_t *json_text(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n, out = 0, k;
	char *buf;
	json_t *v;

	if (!s)
		return json_null();
	n = strlen(s);
	buf = malloc(4 * n + 1);
	if (!buf)
		return NULL;
	for (size_t i = 0; i < n;) {
		k = utf8_sequence(u + i, n - i);
		if (k) {
			memcpy(buf + out, s + i, k);
			out += k;
			i += k;
		} else {
			out += (size_t)snprintf(buf + out, 5, "\\x%02x", u[i]);
			i++;
		}
	}
	v = json_stringn(buf, out);
	free(buf);
	return v;
}
