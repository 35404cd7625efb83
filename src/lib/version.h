/*
 * version.h - the program's version, and the version of the result files'
 * shape (a reader refuses another schema).
 */
#ifndef IOSWEEP_VERSION_H
#define IOSWEEP_VERSION_H

#define IOSWEEP_VERSION "0.1.0"
#define IOSWEEP_SCHEMA 1

#endif
