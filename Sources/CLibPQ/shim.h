#ifndef COMPASS_CLIBPQ_SHIM_H
#define COMPASS_CLIBPQ_SHIM_H

#include <libpq-fe.h>
// The socket poller that waits on every connection at once (Sources/Postgres/SocketPoller.swift).
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif

// PG_DIAG_* are character-literal macros, which Swift cannot import.
static const int CLibPQ_DIAG_SEVERITY = 'S';
static const int CLibPQ_DIAG_SQLSTATE = 'C';
static const int CLibPQ_DIAG_MESSAGE_PRIMARY = 'M';
static const int CLibPQ_DIAG_MESSAGE_DETAIL = 'D';
static const int CLibPQ_DIAG_MESSAGE_HINT = 'H';
static const int CLibPQ_DIAG_STATEMENT_POSITION = 'P';
static const int CLibPQ_DIAG_SCHEMA_NAME = 's';
static const int CLibPQ_DIAG_TABLE_NAME = 't';
static const int CLibPQ_DIAG_COLUMN_NAME = 'c';
static const int CLibPQ_DIAG_DATATYPE_NAME = 'd';
static const int CLibPQ_DIAG_CONSTRAINT_NAME = 'n';
static const int CLibPQ_DIAG_SOURCE_FUNCTION = 'R';

#endif
