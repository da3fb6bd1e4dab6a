#ifndef PERSIST_CGDBM_SHIM_H
#define PERSIST_CGDBM_SHIM_H

#include <gdbm.h>

/* Swift 6 treats C globals and function-like macros as unsafe shared state or cannot import them,
   so the few the wrapper needs are wrapped here. */

/* The thread's last GDBM error code (`gdbm_errno` is a macro over a thread-local). */
static inline int persist_gdbm_errno(void) { return gdbm_errno; }

/* Resets the thread's last GDBM error code. */
static inline void persist_gdbm_clear_errno(void) { gdbm_errno = GDBM_NO_ERROR; }

/* The library's version string, such as "GDBM version 1.23. 04/02/2022". */
static inline const char *persist_gdbm_version(void) { return gdbm_version; }

#endif
