/*
 * resultfile_fio.h - a fio JSON result (fio 3.x --output-format=json) read
 * as an iosweep result, so that `iosweep compare` can put fio and iosweep
 * side by side.
 */
#ifndef IOSWEEP_RESULTFILE_FIO_H
#define IOSWEEP_RESULTFILE_FIO_H

#include <jansson.h>
#include <stdbool.h>

/* Whether doc is fio's JSON output (it has "fio version"). */
bool resultfile_is_fio(json_t *doc);
/* Replaces *doc, a fio result read from path, by the iosweep-shaped
 * document of it: one run per fio job (the clones of numjobs summed), with
 * one repeat (fio's loops averaged), "from_fio": true, and as params the
 * parameters iosweep would record for the job `iosweep import` makes of the
 * job's options.  A fio job whose parameters cannot be known that way is
 * no run: "fio_unknown" lists it, {"job": NAME, "why": WHY}.  -1 with "PATH: why" in err (ERR_MAX bytes). */
int resultfile_from_fio(json_t **doc, const char *path, char *err);

#endif
