#include "textpacker.h"

#include "payloadvocabulary.h"
#include "sqlitestatement.h"
#include "storeerror.h"

#include <sqlite3.h>
#include <zstd.h>

#include <cstring>

namespace {

// zstd's fastest level: an import packs every row once, and level 3 packed the same rows only 5 % smaller.
constexpr int Level = 1;

// The first 4 bytes of every zstd frame: a payload packed against the vocabulary is stored without them (at a
// million rows of 60 bytes, 4 MB of the same bytes) and gets them back to be read.
constexpr char FrameMagic[4] = { '\x28', '\xB5', '\x2F', '\xFD' };

// The vocabulary, made ready once for the whole process: zstd's dictionaries are read-only once made, and every
// packer on every thread may use them at once.
const ZSTD_CDict* vocabularyToPack()
{
    static const ZSTD_CDict* const dict = [] {
        const QByteArrayView v = payloadVocabulary();
        return ZSTD_createCDict(v.data(), size_t(v.size()), Level);
    }();
    return dict;
}

const ZSTD_DDict* vocabularyToUnpack()
{
    static const ZSTD_DDict* const dict = [] {
        const QByteArrayView v = payloadVocabulary();
        return ZSTD_createDDict(v.data(), size_t(v.size()));
    }();
    return dict;
}

QString fileOf(sqlite3* db)
{
    const char* name = db ? sqlite3_db_filename(db, "main") : nullptr;
    return QString::fromUtf8(name ? name : "");
}

// Runs `work`, which sets the function's result: nothing may unwind through SQLite's C frames, so every exception
// ends here as the statement's error.
template<typename Work> void guarded(sqlite3_context* context, const char* name, Work&& work)
{
    try {
        work();
    } catch (const StoreError& e) {
        const QByteArray message = e.message().toUtf8();
        sqlite3_result_error(context, message.constData(), int(message.size()));
    } catch (const std::bad_alloc&) {
        sqlite3_result_error_nomem(context);
    } catch (...) {
        sqlite3_result_error(context, name, -1);
    }
}

// The bytes as a text or a blob result.
void result(sqlite3_context* context, const QByteArray& out, bool text)
{
    if (text)
        sqlite3_result_text(context, out.constData(), int(out.size()), SQLITE_TRANSIENT);
    else
        sqlite3_result_blob(context, out.constData(), int(out.size()), SQLITE_TRANSIENT);
}

void unpackFunction(sqlite3_context* context, int, sqlite3_value** argv)
{
    sqlite3_value* value = argv[0];
    if (sqlite3_value_type(value) != SQLITE_BLOB) {
        sqlite3_result_value(context, value); // text as it is, and NULL
        return;
    }
    auto* packer = static_cast<TextPacker*>(sqlite3_user_data(context));
    const QByteArray blob = QByteArray::fromRawData(
        static_cast<const char*>(sqlite3_value_blob(value)), sqlite3_value_bytes(value));
    guarded(context, "unpack() failed", [&] {
        bool isText = true;
        const QByteArray out = packer->unpack(blob, &isText);
        result(context, out, isText);
    });
}

// pack(x): text that shrinks packed, bytes always; packpayload(x): a payload's text against the vocabulary, bytes
// as pack(). For migrations and compaction, which run in SQL.
void packValue(sqlite3_context* context, sqlite3_value* value, bool payload)
{
    auto* packer = static_cast<TextPacker*>(sqlite3_user_data(context));
    const int type = sqlite3_value_type(value);
    if (type != SQLITE_BLOB && type != SQLITE_TEXT) {
        sqlite3_result_value(context, value);
        return;
    }
    const QByteArray in = QByteArray::fromRawData(
        static_cast<const char*>(type == SQLITE_BLOB ? sqlite3_value_blob(value) : sqlite3_value_text(value)),
        sqlite3_value_bytes(value));
    guarded(context, "pack() failed", [&] {
        bool packed = true;
        const QByteArray out = type == SQLITE_BLOB ? packer->packBytes(in)
            : payload                              ? packer->packPayload(in, packed)
                                                   : packer->pack(in, packed);
        result(context, out, !packed);
    });
}

void packFunction(sqlite3_context* context, int, sqlite3_value** argv)
{
    packValue(context, argv[0], false);
}

void packPayloadFunction(sqlite3_context* context, int, sqlite3_value** argv)
{
    packValue(context, argv[0], true);
}

} // namespace

TextPacker::TextPacker(sqlite3* db)
    : m_db(db)
    , m_cctx(ZSTD_createCCtx())
    , m_dctx(ZSTD_createDCtx())
{
}

TextPacker::~TextPacker()
{
    ZSTD_freeCCtx(m_cctx);
    ZSTD_freeDCtx(m_dctx);
}

void TextPacker::registerFunctions()
{
    // Deterministic: SQLite may then use them in an index or a constraint, and run them once per distinct value.
    // Innocuous: no side effect, so the schema's triggers may call them with trusted_schema off (Workspace).
    constexpr int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    sqlite3_create_function_v2(m_db, "unpack", 1, flags, this, unpackFunction, nullptr, nullptr, nullptr);
    sqlite3_create_function_v2(m_db, "pack", 1, flags, this, packFunction, nullptr, nullptr, nullptr);
    sqlite3_create_function_v2(m_db, "packpayload", 1, flags, this, packPayloadFunction, nullptr, nullptr, nullptr);
}

QByteArray TextPacker::compress(char tag, const QByteArray& data)
{
    QByteArray out(1 + qsizetype(ZSTD_compressBound(size_t(data.size()))), Qt::Uninitialized);
    out[0] = tag;
    const size_t n = ZSTD_compressCCtx(m_cctx, out.data() + 1, size_t(out.size() - 1), data.constData(), size_t(data.size()), Level);
    if (ZSTD_isError(n))
        throw StoreError(fileOf(m_db), {}, QStringLiteral("cannot pack a value: ") + QString::fromUtf8(ZSTD_getErrorName(n)));
    out.truncate(1 + qsizetype(n));
    return out;
}

QByteArray TextPacker::pack(const QByteArray& utf8, bool& packed)
{
    packed = false;
    if (utf8.size() < MinPacked)
        return utf8;
    return packOnce(utf8, false, packed);
}

QByteArray TextPacker::packOnce(const QByteArray& utf8, bool payload, bool& packed)
{
    // An import packs many values twice in a row's time: a message's text and its search text, a call's result and
    // the result row's search text; compaction's statement asks whether a value shrinks, then for it. The last few
    // are kept, and packed once.
    for (const Recent& r : m_recent) {
        if (r.payload == payload && r.value.size() == utf8.size() && r.value == utf8) {
            packed = r.packed;
            return r.packed ? r.stored : utf8;
        }
    }
    const QByteArray out = payload ? compressPayload(utf8) : compress(TextTag, utf8);
    packed = out.size() < utf8.size();
    // A copy: `utf8` may be raw data an SQL value lends (pack() in SQL), gone after the call.
    m_recent[m_nextRecent] = { QByteArray(utf8.constData(), utf8.size()), out, packed, payload };
    m_nextRecent = (m_nextRecent + 1) % int(m_recent.size());
    return packed ? out : utf8;
}

void TextPacker::bind(SqlBinder& st, int column, const QByteArray& utf8)
{
    PackedValue value;
    value.stored = pack(utf8, value.packed);
    bind(st, column, value);
}

void TextPacker::bind(SqlBinder& st, int column, const QString& text)
{
    if (text.isNull())
        st.bindNull(column);
    else
        bind(st, column, text.toUtf8());
}

void TextPacker::bindOrNull(SqlBinder& st, int column, const QString& text)
{
    if (text.isEmpty())
        st.bindNull(column);
    else
        bind(st, column, text.toUtf8());
}

QByteArray TextPacker::packPayload(const QByteArray& utf8, bool& packed)
{
    packed = false;
    // Shorter than the smallest frame with its tag (a byte of header, one of size, three of block): nothing to gain.
    if (utf8.size() < 8)
        return utf8;
    return packOnce(utf8, true, packed);
}

QByteArray TextPacker::compressPayload(const QByteArray& utf8)
{
    QByteArray out(1 + qsizetype(ZSTD_compressBound(size_t(utf8.size()))), Qt::Uninitialized);
    out[0] = VocabularyTag;
    const size_t n = ZSTD_compress_usingCDict(m_cctx, out.data() + 1, size_t(out.size() - 1), utf8.constData(),
        size_t(utf8.size()), vocabularyToPack());
    if (ZSTD_isError(n))
        throw StoreError(fileOf(m_db), {}, QStringLiteral("cannot pack a value: ") + QString::fromUtf8(ZSTD_getErrorName(n)));
    if (n < sizeof(FrameMagic) || memcmp(out.constData() + 1, FrameMagic, sizeof(FrameMagic)) != 0)
        throw StoreError(fileOf(m_db), {}, QStringLiteral("cannot pack a value: zstd wrote no frame"));
    out.remove(1, sizeof(FrameMagic));
    out.truncate(1 + qsizetype(n - sizeof(FrameMagic)));
    return out;
}

void TextPacker::bindPayload(SqlBinder& st, int column, const QByteArray& utf8)
{
    PackedValue value;
    value.stored = packPayload(utf8, value.packed);
    bind(st, column, value);
}

QByteArray TextPacker::packBytes(const QByteArray& bytes)
{
    return compress(BytesTag, bytes);
}

PackedValue TextPacker::prepare(const QByteArray& value, bool bytes)
{
    PackedValue out;
    out.of = value;
    out.bytes = bytes;
    if (bytes) {
        out.stored = packBytes(value);
        out.packed = true;
    } else {
        out.stored = packPayload(value, out.packed);
    }
    return out;
}

void TextPacker::bind(SqlBinder& st, int column, const PackedValue& value)
{
    if (value.packed)
        st.bindBlob(column, value.stored);
    else
        st.bindText(column, value.stored);
}

QByteArray TextPacker::unpack(const QByteArray& blob, bool* isText)
{
    const auto damaged = [&](const QString& why) {
        return StoreError(fileOf(m_db), {}, QStringLiteral("a packed value cannot be read: ") + why);
    };
    if (blob.size() < 2 || (blob[0] != TextTag && blob[0] != BytesTag && blob[0] != VocabularyTag))
        throw damaged(QStringLiteral("it is not one Sightline packed"));
    if (isText)
        *isText = blob[0] != BytesTag;
    const bool vocabulary = blob[0] == VocabularyTag;
    QByteArray whole; // the frame with its magic again, for a payload packed against the vocabulary: one copy
    if (vocabulary) {
        whole.reserve(qsizetype(sizeof(FrameMagic)) + blob.size() - 1);
        whole.append(FrameMagic, sizeof(FrameMagic)).append(blob.constData() + 1, blob.size() - 1);
    }
    const char* frame = vocabulary ? whole.constData() : blob.constData() + 1;
    const size_t frameSize = vocabulary ? size_t(whole.size()) : size_t(blob.size() - 1);
    const unsigned long long size = ZSTD_getFrameContentSize(frame, frameSize);
    // A frame unpacks to at most 32,768 times its size (a 4-byte block of one repeated byte is 128 KB), with a
    // dictionary or without: a size it claims past that, or past 2 GB, is damage, and is not allocated.
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > (1ull << 31)
        || size > frameSize * 32768ull)
        throw damaged(QStringLiteral("its frame is damaged"));
    if (ZSTD_getDictID_fromFrame(frame, frameSize) != 0)
        throw damaged(QStringLiteral("its frame names a dictionary"));
    QByteArray out(qsizetype(size), Qt::Uninitialized);
    const size_t n = vocabulary
        ? ZSTD_decompress_usingDDict(m_dctx, out.data(), size_t(out.size()), frame, frameSize, vocabularyToUnpack())
        : ZSTD_decompressDCtx(m_dctx, out.data(), size_t(out.size()), frame, frameSize);
    if (ZSTD_isError(n) || n != size)
        throw damaged(QString::fromUtf8(ZSTD_isError(n) ? ZSTD_getErrorName(n) : "it is shorter than it says"));
    return out;
}
