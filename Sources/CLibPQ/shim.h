#ifndef PERSIST_CLIBPQ_SHIM_H
#define PERSIST_CLIBPQ_SHIM_H

#include <libpq-fe.h>

/* Swift 6 cannot import character-literal and cast macros as typed constants, so the few the
   wrapper needs are wrapped here. */

/* The error field holding the five-character SQLSTATE (`PG_DIAG_SQLSTATE`, the character 'C'). */
static inline int persist_pq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }

/* The error field holding the server's primary message (`PG_DIAG_MESSAGE_PRIMARY`). */
static inline int persist_pq_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }

/* The error field holding the server's detail line (`PG_DIAG_MESSAGE_DETAIL`). */
static inline int persist_pq_diag_message_detail(void) { return PG_DIAG_MESSAGE_DETAIL; }

/* The error field holding the server's hint (`PG_DIAG_MESSAGE_HINT`). */
static inline int persist_pq_diag_message_hint(void) { return PG_DIAG_MESSAGE_HINT; }

/* The error field holding the severity, never localized (`PG_DIAG_SEVERITY_NONLOCALIZED`). */
static inline int persist_pq_diag_severity(void) { return PG_DIAG_SEVERITY_NONLOCALIZED; }

/* The error field naming the violated constraint (`PG_DIAG_CONSTRAINT_NAME`). */
static inline int persist_pq_diag_constraint_name(void) { return PG_DIAG_CONSTRAINT_NAME; }

/* The error fields naming the schema and the table of the failure (`PG_DIAG_SCHEMA_NAME`,
   `PG_DIAG_TABLE_NAME`). */
static inline int persist_pq_diag_schema_name(void) { return PG_DIAG_SCHEMA_NAME; }
static inline int persist_pq_diag_table_name(void) { return PG_DIAG_TABLE_NAME; }

#endif
