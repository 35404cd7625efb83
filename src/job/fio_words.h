/*
 * fio_words.h - fio's words in an iosweep job file, pointed at iosweep's.
 *
 * A fio user's first job file says `direct=1` and `ioengine=libaio`.  The
 * job parser asks these tables what to say about an unknown option or value
 * that is fio's spelling.
 */
#ifndef IOSWEEP_FIO_WORDS_H
#define IOSWEEP_FIO_WORDS_H

/* What to write instead of fio's option `name`, or NULL when it is not one. */
const char *fio_hint_option(const char *name);
/* What to write instead of fio's value `value` of iosweep option `option`,
 * or NULL. */
const char *fio_hint_value(const char *option, const char *value);

#endif
