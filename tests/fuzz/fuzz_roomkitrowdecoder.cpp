// libFuzzer target for RoomKit's event JSON decoder: whatever the bytes, it must not crash, must keep the payload
// byte for byte, and must flag exactly the rows it could not read.

#include "eventflags.h"
#include "roomkitrowdecoder.h"

#include <cstdint>
#include <cstdlib>
#include <QByteArray>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    RoomKitColumns columns;
    columns.id = QStringLiteral("fuzz");
    columns.type = QStringLiteral("message");
    columns.index = 7;
    const DecodedRoomKitEvent decoded = RoomKitRowDecoder::decode(bytes, columns);
    const bool flagged
        = decoded.record.flags & (EventFlags::MalformedJson | EventFlags::InvalidUtf8 | EventFlags::OutOfRange);
    if (decoded.payload != bytes || decoded.problem.isEmpty() == flagged || decoded.record.index != 7
        || int(decoded.record.kind) > int(EventKind::Custom))
        std::abort();
    return 0;
}
