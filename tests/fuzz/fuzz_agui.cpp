// libFuzzer target for the AG-UI log reader: any bytes as a JSON Lines thread log. It must not crash, must keep
// one row per line with the line's bytes, and every tool call it makes must point at a row.

#include "sources/aguiassembler.h"
#include "sources/aguilogparser.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    const QVector<AguiLine> lines = AguiLogParser::parse(bytes);
    const AguiAssembly assembly = AguiAssembler::assemble(lines);
    if (assembly.rows.size() != lines.size())
        std::abort();
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (assembly.rows[i].payload != lines[i].raw || assembly.rows[i].record.index != i)
            std::abort();
    }
    for (const ToolCallRecord& c : assembly.calls) {
        for (const std::optional<qint64>& at : { c.startIndex, c.endIndex, c.resultIndex }) {
            if (at && (*at < 0 || *at >= lines.size()))
                std::abort();
        }
    }
    return 0;
}
