#pragma once

#include <QByteArrayView>

// The words every source event is written with, and nothing any event said: the keys, type names and fixed phrases
// of the three source formats (docs/sources, design notes), in the order their writers emit them. TextPacker packs
// each payload against them (a zstd raw-content dictionary), so that a short AG-UI line, whose keys are most of its
// bytes, packs to half its size where alone it would not pack at all, and a RoomKit row's 600 bytes of keys cost a
// few bytes. A dictionary trained on the rows would pack better, but it would be made of what the rows said: a
// redacted secret would live on inside it. These are the formats' words alone.
//
// Never edit: every payload packed against it (TextPacker::VocabularyTag) needs these exact bytes to be read. A
// better list is a new function and a new tag, and the old ones stay.
QByteArrayView payloadVocabulary();
