/*
 * fio_job.c - see fio_job.h: messages about a fio setting, its values read
 * as fio reads them, and the notes of a translation (a hash table, so that
 * a [global] setting every job has is said once, in time linear in the
 * notes).
 */
#define _GNU_SOURCE
#include "fio/fio_job.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/fio_words.h"
#include "lib/error.h"

#include <xxhash.h>

int setting_bad(const struct fio_setting *s, char *err, const char *fmt, ...)
{
	char why[ERR_MAX / 2], where[ERR_MAX / 4];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (s->line)
		snprintf(where, sizeof(where), "%s:%d", s->file, s->line);
	else
		snprintf(where, sizeof(where), "%s", s->file);
	return err_set(err, "%s: %s%s%.200s: %s", where, s->name, s->value ? "=" : "",
		       s->value ? s->value : "", why);
}

int value_bool(const struct fio_setting *s, bool *out, char *err)
{
	const struct fio_word *w = fio_word_find(s->name);
	char why[ERR_MAX];
	uint64_t v;

	if (fio_parse_bool(s->value, out, why) < 0)
		return setting_bad(s, err, "%s", why);
	if (w && w->takes == FT_BOOL && s->value && fio_parse_int(s->value, &v, why) == 0 && v > 1)
		return setting_bad(s, err, "fio 3.33 fails parsing it and drops the job: this "
				   "flag is 0 or 1");
	return 0;
}

int value_int(const struct fio_setting *s, uint64_t *out, char *err)
{
	char why[ERR_MAX];

	if (fio_parse_int(s->value, out, why) < 0)
		return setting_bad(s, err, "%s", why);
	return 0;
}

int value_bytes(const struct fio_state *st, const struct fio_setting *s, const char *text,
		       uint64_t *out, bool *pct, char *err)
{
	char why[ERR_MAX];

	if (s->unset && !*text)
		return setting_bad(s, err, "environment variable %s is not set (fio expands it to nothing)",
			   s->unset);
	if (fio_parse_bytes(text, st->kb_base, out, pct, why) < 0)
		return setting_bad(s, err, "%s", why);
	return 0;
}

bool needs_value(const struct fio_setting *s, char *err)
{
	if (s->value && *s->value)
		return true;
	if (s->unset)
		setting_bad(s, err, "environment variable %s is not set (fio expands it to nothing)",
		    s->unset);
	else
		setting_bad(s, err, "needs a value");
	return false;
}

/* ---- notes ---- */

static uint64_t note_hash(const char *where, const char *setting, const char *why)
{
	uint64_t h = XXH3_64bits(where, strlen(where));

	h = XXH3_64bits_withSeed(setting, strlen(setting), h);
	return XXH3_64bits_withSeed(why, strlen(why), h);
}

/* The slot of a note like this one, or the free slot where it goes. */
static size_t *note_slot(const struct import *im, const char *where, const char *setting,
			 const char *why)
{
	size_t mask = im->nslots - 1, i = note_hash(where, setting, why) & mask;

	for (;; i = (i + 1) & mask) {
		const struct import_note *n;

		if (!im->note_slots[i])
			return &im->note_slots[i];
		n = &im->notes[im->note_slots[i] - 1];
		if (strcmp(n->where, where) == 0 && strcmp(n->setting, setting) == 0 &&
		    strcmp(n->why, why) == 0)
			return &im->note_slots[i];
	}
}

/* Room for one more note: the array, and the table kept at most half full. */
static int note_room(struct import *im)
{
	struct import_note *n = fio_grow(im->notes, im->nnotes, sizeof(*n));
	size_t cap = im->nslots ? im->nslots : 64;

	if (!n)
		return -1;
	im->notes = n;
	if (2 * (im->nnotes + 1) <= im->nslots)
		return 0;
	while (2 * (im->nnotes + 1) > cap)
		cap *= 2;
	free(im->note_slots);
	im->note_slots = calloc(cap, sizeof(*im->note_slots));
	if (!im->note_slots)
		return -1;
	im->nslots = cap;
	for (size_t i = 0; i < im->nnotes; i++)
		*note_slot(im, im->notes[i].where, im->notes[i].setting, im->notes[i].why) = i + 1;
	return 0;
}

int setting_note(struct import *im, const struct fio_setting *s, const char *where_text,
		const char *why)
{
	char where[512], setting[512];
	struct import_note *n;
	size_t *slot;

	if (s && s->line)
		snprintf(where, sizeof(where), "%s:%d", s->file, s->line);
	else
		snprintf(where, sizeof(where), "%s", s ? s->file : where_text);
	if (s)
		snprintf(setting, sizeof(setting), "%s%s%s", s->name, s->raw ? "=" : "",
			 s->raw ? s->raw : "");
	else
		snprintf(setting, sizeof(setting), "%s", "");
	/* a note is one line (on stderr, and in a comment of the translation) */
	for (char *p = setting; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = ' ';
	if (note_room(im) < 0)
		return -1;
	/* [global] settings reach every job: say each once */
	slot = note_slot(im, where, setting, why);
	if (*slot)
		return 0;
	n = &im->notes[im->nnotes];
	n->where = strdup(where);
	n->setting = strdup(setting);
	n->why = strdup(why);
	if (!n->where || !n->setting || !n->why) {
		free(n->where);
		free(n->setting);
		free(n->why);
		return -1;
	}
	*slot = ++im->nnotes;
	return 0;
}
