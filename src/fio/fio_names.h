/*
 * fio_names.h - the names of every option fio 3.33 reads, so that the
 * import can tell an option fio itself refuses ("Bad option") from one it
 * does not know, and suggest what fio suggests.
 */
#ifndef IOSWEEP_FIO_NAMES_H
#define IOSWEEP_FIO_NAMES_H

#include <stdbool.h>

/* Whether fio 3.33 knows name as an option, alias, or an option of one of
 * its engines or profiles (as written: fio matches names case and all). */
bool fio_name_known(const char *name);
/* fio's "Did you mean" for an option it does not know: the first of its
 * options nearest to name, when within half of name's length; else NULL. */
const char *fio_name_nearest(const char *name);

#endif
