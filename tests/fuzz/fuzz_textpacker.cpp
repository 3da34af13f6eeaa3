// libFuzzer target for TextPacker: any bytes as a stored BLOB must unpack or be refused with a StoreError, never
// crash or read out of bounds; and any bytes packed (as text, as a payload against the vocabulary, or as bytes)
// must come back as they were.

#include "storeerror.h"
#include "textpacker.h"

#include <cstdint>
#include <cstdlib>
#include <sqlite3.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static sqlite3* db = [] {
        sqlite3* opened = nullptr;
        sqlite3_open(":memory:", &opened);
        return opened;
    }();
    static TextPacker packer(db);
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    try {
        bool isText = false;
        const QByteArray out = packer.unpack(bytes, &isText);
        if (isText != (bytes.at(0) != TextPacker::BytesTag))
            std::abort();
        (void)out;
    } catch (const StoreError&) {
        // refused: what a damaged value must be
    }
    bool packed = false;
    const QByteArray stored = packer.pack(bytes, packed);
    if ((packed ? packer.unpack(stored) : stored) != bytes)
        std::abort();
    if (packer.unpack(packer.packBytes(bytes)) != bytes)
        std::abort();
    const QByteArray payload = packer.packPayload(bytes, packed);
    if ((packed ? packer.unpack(payload) : payload) != bytes)
        std::abort();
    return 0;
}
