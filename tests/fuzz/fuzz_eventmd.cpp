// libFuzzer target for CraftBot's EVENT.md reader: any bytes as a log. It must not crash, must lose no byte
// (header and records together are the file), must count the records it gives, and every action pair must point at
// records.

#include "sources/craftbotassembler.h"
#include "sources/eventmdparser.h"

#include <QBuffer>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    const EventMdFile file = EventMdParser::parse(bytes);
    QByteArray joined;
    for (const EventMdRecord& r : file.records)
        joined += r.raw;
    if (file.header.isEmpty() && joined != bytes)
        std::abort();
    // The line scan that sizes an import counts what the parser hands over.
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    if (EventMdParser::countRecords(buffer) != file.records.size())
        std::abort();
    const CraftBotAssembly assembly = CraftBotAssembler::assemble(file.records);
    if (assembly.rows.size() != file.records.size())
        std::abort();
    for (const ToolCallRecord& c : assembly.calls) {
        for (const std::optional<qint64>& at : { c.startIndex, c.endIndex }) {
            if (at && (*at < 0 || *at >= file.records.size()))
                std::abort();
        }
    }
    return 0;
}
