#ifndef PERSIST_CSQLITE_SHIM_H
#define PERSIST_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import:
/// SQLite copies a value bound with this destructor before the bind call returns.
static inline sqlite3_destructor_type persist_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// Extended result codes are macros built from shifts, which Swift does not import.
static inline int persist_sqlite_constraint_primarykey(void) { return SQLITE_CONSTRAINT_PRIMARYKEY; }
static inline int persist_sqlite_constraint_rowid(void) { return SQLITE_CONSTRAINT_ROWID; }
static inline int persist_sqlite_constraint_datatype(void) { return SQLITE_CONSTRAINT_DATATYPE; }
static inline int persist_sqlite_constraint_unique(void) { return SQLITE_CONSTRAINT_UNIQUE; }

#endif
