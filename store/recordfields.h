#pragma once

#include "eventrecord.h"
#include "fieldtable.h"
#include "runrecord.h"
#include "toolcallrecord.h"

// Each record's one table of fields: member, workspace column and JSON Lines key (FieldTable makes the SQL, the
// binds, the reads and the JSON from them). An event's payload and its search text are not fields of the record: they
// are read on demand and written beside it.
namespace RecordFields {
const Fields<EventRecord>& events();
const Fields<ToolCallRecord>& calls();
const Fields<RunRecord>& runs();
} // namespace RecordFields
