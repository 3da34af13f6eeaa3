#pragma once

#include <QByteArray>
#include <array>
#include <QString>

struct sqlite3;
class SqlBinder;
struct ZSTD_CCtx_s;
struct ZSTD_DCtx_s;

// The workspace's big text, packed: payloads and a row's text, a call's arguments and result, and the text the
// full-text index holds (search_text). An EVENT.md's tool result was kept three times over, as it came (the payload), as the call's
// result and as the words the index must be told again to forget them; a workspace took four times its log's size.
//
// A packed value is a BLOB: one byte saying what it was (text, or bytes that are not UTF-8), then a zstd frame of
// it alone; or, for a payload's text, a frame of it against the formats' own words (payloadVocabulary(): keys and
// type names, nothing a row said), with the 4 bytes every zstd frame starts with left off. Not against a
// dictionary trained on the source's rows, though that packs a short row about twice as well: a dictionary is
// made of the rows' own words, so a redacted secret would stay in the file inside it. A value
// that would not shrink is stored as it is, as TEXT; what reviewers write (edits, redactions) is too. So the rule
// for readers is one: TEXT is the text, a BLOB is packed, and `unpack(x)` (a SQL function on every connection a
// Workspace opens) gives the text back for both.
// A value packed ahead of its write, on another thread (an import's reading thread): the writer's thread is an
// import's critical path, and packing the payloads was a quarter of its work. It keeps the value it was made from
// (shared, not copied), so that the writer uses it only for that value (isFor), whatever happened on the way.
struct PackedValue
{
    QByteArray of;
    bool bytes = false; // made as bytes that are not UTF-8 (packBytes), else as text (pack)
    QByteArray stored; // what to store: a packed BLOB when `packed`, else the text
    bool packed = false;

    bool isFor(const QByteArray& value, bool asBytes) const
    {
        return !of.isNull() && of.constData() == value.constData() && of.size() == value.size() && bytes == asBytes;
    }
};

class TextPacker
{
public:
    explicit TextPacker(sqlite3* db);
    ~TextPacker();
    TextPacker(const TextPacker&) = delete;
    TextPacker& operator=(const TextPacker&) = delete;

    // unpack(x), pack(x) and packpayload(x) on the connection, bound to this packer (which must outlive it).
    void registerFunctions();

    // What to store for `utf8`: a packed BLOB when that is smaller, else the text itself (`packed` says which).
    QByteArray pack(const QByteArray& utf8, bool& packed);
    // Binds a value to a statement's parameter as it is to be stored: a packed BLOB when that is smaller, else the
    // text; NULL for a null string (bind) or an empty one (bindOrNull, as the workspace keeps a row's absent text).
    void bind(SqlBinder& statement, int column, const QByteArray& utf8);
    void bind(SqlBinder& statement, int column, const QString& text);
    void bindOrNull(SqlBinder& statement, int column, const QString& text);
    // A payload's text, packed against the formats' words whatever its length: an AG-UI line of 120 bytes, mostly
    // keys, packs to half; a RoomKit row's 600 bytes of keys to a few.
    QByteArray packPayload(const QByteArray& utf8, bool& packed);
    void bindPayload(SqlBinder& statement, int column, const QByteArray& utf8);
    // Bytes that are not UTF-8 (a payload kept byte for byte): always packed, so that a BLOB is always packed.
    QByteArray packBytes(const QByteArray& bytes);
    // What packPayload() or packBytes() (`bytes`) makes of `value`, to be bound later by bind(PackedValue).
    PackedValue prepare(const QByteArray& value, bool bytes);
    // Binds a value prepared before as it is to be stored.
    static void bind(SqlBinder& statement, int column, const PackedValue& value);
    // The value back from a packed BLOB (`isText` says whether it was text); throws StoreError, naming the
    // workspace, when it is damaged.
    QByteArray unpack(const QByteArray& blob, bool* isText = nullptr);

    // Shorter values are stored as they are, not tried: alone (no dictionary), a value under 256 bytes packs by a few
    // bytes if at all. At 100,000 rows they saved 0.1 MB of an AG-UI log's 57 MB workspace and 1.6 MB of an
    // EVENT.md's 123 MB, and trying them was a fifth of the AG-UI import.
    static constexpr int MinPacked = 256;
    static constexpr char TextTag = 1;
    static constexpr char BytesTag = 2;
    static constexpr char VocabularyTag = 3; // text against payloadVocabulary(), the frame's magic left off

private:
    QByteArray compress(char tag, const QByteArray& data);
    // A payload's frame against the vocabulary, its magic left off (the tag first).
    QByteArray compressPayload(const QByteArray& utf8);
    // What pack() (alone) or packPayload() stores for `utf8`, packed once for the last few values asked.
    QByteArray packOnce(const QByteArray& utf8, bool payload, bool& packed);

    struct Recent
    {
        QByteArray value, stored;
        bool packed = false;
        bool payload = false; // by packPayload(), against the vocabulary
    };
    std::array<Recent, 4> m_recent; // the last values packed (pack()), oldest replaced first
    int m_nextRecent = 0;
    sqlite3* m_db;
    ZSTD_CCtx_s* m_cctx = nullptr;
    ZSTD_DCtx_s* m_dctx = nullptr;
};
