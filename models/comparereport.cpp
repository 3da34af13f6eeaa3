#include "comparereport.h"

#include "comparemodel.h"
#include "markdownreport.h"
#include "reportmanifest.h"
#include "reportsignature.h"
#include "reporttext.h"
#include "sha256.h"
#include "storeerror.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace {

// A step in a cell: "6 lookup_order, 243 ms" or "4 user: I was charged…".
QString cell(const RunStep* s)
{
    return s ? CompareModel::described(*s) : QString();
}

// What differs between the two steps of a changed row, a line each (the key-by-key JSON diff of arguments and
// result, a message's two texts, the outcome).
QStringList whatDiffers(const CompareReport::Input& in, const StepPair& p, const RunStep* a, const RunStep* b)
{
    QStringList out;
    // A call in one run alone: what it was asked, so that two calls of one tool are told apart.
    if ((a == nullptr) != (b == nullptr) && in.textOf) {
        const RunStep& s = a ? *a : *b;
        if (s.kind == RunStep::Kind::ToolCall)
            out << QStringLiteral("arguments: %1").arg(in.textOf(s, b != nullptr).arguments);
        return out;
    }
    if (!a || !b || p.change != StepPair::Change::Changed)
        return out;
    const StepText x = in.textOf ? in.textOf(*a, false) : StepText();
    const StepText y = in.textOf ? in.textOf(*b, true) : StepText();
    if (a->kind == RunStep::Kind::Message) {
        if (in.textOf)
            out << QStringLiteral("text: “%1” → “%2”").arg(x.text, y.text);
        return out;
    }
    if (in.textOf) {
        for (const QString& l : CompareModel::jsonDiff(x.arguments, y.arguments))
            out << QStringLiteral("arguments %1").arg(l);
        for (const QString& l : CompareModel::jsonDiff(x.result, y.result))
            out << QStringLiteral("result %1").arg(l);
    }
    if (a->outcome != b->outcome)
        out << QStringLiteral("outcome: %1 → %2").arg(a->outcome, b->outcome);
    return out;
}

QString html(const QString& text)
{
    return ReportText::shown(text).toHtmlEscaped();
}

} // namespace

CompareReport::Result CompareReport::write(const Input& in, const QString& format, const QString& path, const QString& signingKey)
{
    if (!formats().contains(format))
        throw StoreError(path, {}, QStringLiteral("a comparison is written as md or html, not %1").arg(format));
    CompareModel model;
    model.setComparison(in.a, in.b, in.pairs);
    const QString generated = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    const bool md = format == QLatin1String("md");
    QString text;
    const auto e = [&](const QString& s) { return md ? MarkdownReport::escaped(s) : html(s); };
    if (md) {
        text += QStringLiteral("# Comparison of two runs\n\n- A: %1\n- B: %2\n- Filter: %3\n- Generated %4 by %5 with Sightline %6\n\n")
                    .arg(e(in.titleA), e(in.titleB), in.filter.isEmpty() ? QStringLiteral("none (every step)") : e(in.filter), generated,
                        e(in.author), in.version);
        QString perTool;
        for (const QString& line : model.perTool())
            perTool += QStringLiteral("- %1\n").arg(e(line));
        text += QStringLiteral("## Summary\n\n%1\n\n%2\n## Steps\n\n| # | change | A | B | what differs |\n|---:|---|---|---|---|\n")
                    .arg(e(model.summary()), perTool.isEmpty() ? QString() : QStringLiteral("Per tool:\n\n") + perTool);
    } else {
        text += QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Comparison of two runs</title><style>"
                               "body{font-family:sans-serif;margin:2em} table{border-collapse:collapse;width:100%} "
                               "td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top} "
                               ".changed{background:#fdf3cf} .only_a{background:#fbdcd9} .only_b{background:#dcf1e1} "
                               "code{white-space:pre-wrap}</style></head><body>\n");
        text += QStringLiteral("<h1>Comparison of two runs</h1><ul><li>A: %1</li><li>B: %2</li><li>Filter: %3</li><li>Generated %4 by "
                               "%5 with Sightline %6</li></ul>\n")
                    .arg(e(in.titleA), e(in.titleB), in.filter.isEmpty() ? QStringLiteral("none (every step)") : e(in.filter), generated,
                        e(in.author), in.version);
        QString perTool;
        for (const QString& line : model.perTool())
            perTool += QStringLiteral("<li>%1</li>").arg(e(line));
        text += QStringLiteral("<h2>Summary</h2><p>%1</p>%2<h2>Steps</h2><table><tr><th>#</th><th>change</th><th>A</th><th>B</th>"
                               "<th>what differs</th></tr>\n")
                    .arg(e(model.summary()), perTool.isEmpty() ? QString() : QStringLiteral("<p>Per tool:</p><ul>") + perTool + QStringLiteral("</ul>"));
    }
    // The steps as data too, digested for the manifest: what the report stands for, whatever its layout.
    Sha256 steps;
    for (int row = 0; row < in.pairs.size(); ++row) {
        const StepPair& p = in.pairs.at(row);
        const RunStep* a = model.stepA(row);
        const RunStep* b = model.stepB(row);
        const QStringList diff = whatDiffers(in, p, a, b);
        const QString change = StepPair::changeName(p.change);
        // The table's words are the summary's ("only in A"); the manifest's digest keeps the data's names.
        const QString said = p.change == StepPair::Change::OnlyA ? QStringLiteral("only in A")
            : p.change == StepPair::Change::OnlyB                ? QStringLiteral("only in B")
                                                                 : change;
        QByteArray line = QJsonDocument(QJsonObject { { QStringLiteral("a"), a ? QJsonValue(a->index) : QJsonValue() },
                                            { QStringLiteral("b"), b ? QJsonValue(b->index) : QJsonValue() },
                                            { QStringLiteral("change"), change },
                                            { QStringLiteral("fields"), QJsonArray::fromStringList(p.fields) } })
                              .toJson(QJsonDocument::Compact);
        line += '\n';
        steps.addData(line);
        if (md) {
            QStringList cells;
            for (const QString& d : diff)
                cells << MarkdownReport::escaped(d);
            text += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n")
                        .arg(row + 1)
                        .arg(said, e(cell(a)), e(cell(b)), cells.join(QStringLiteral("<br>")));
        } else {
            QStringList cells;
            for (const QString& d : diff)
                cells << QStringLiteral("<code>%1</code>").arg(html(d));
            text += QStringLiteral("<tr class=\"%1\"><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td></tr>\n")
                        .arg(change)
                        .arg(row + 1)
                        .arg(said, e(cell(a)), e(cell(b)), cells.join(QStringLiteral("<br>")));
        }
    }
    if (!md)
        text += QStringLiteral("</table></body></html>\n");

    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        throw StoreError(path, {}, QStringLiteral("cannot write the comparison: ") + out.errorString());
    out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner); // customers' words: the owner's alone
    out.write(text.toUtf8());
    if (!out.commit())
        throw StoreError(path, {}, QStringLiteral("cannot write the comparison: ") + out.errorString());
    ReportManifest::Content content;
    content.format = QStringLiteral("compare-") + format;
    content.rooms = { in.roomA, in.roomB };
    content.filter = in.filter;
    content.events = in.pairs.size();
    content.eventsSha256 = steps.result().toHex();
    content.author = in.author;
    content.version = in.version;
    content.keyId = signingKey.isEmpty() ? QString() : ReportSignature::keyId(signingKey);
    Result result;
    result.manifest = ReportManifest::write({ path }, content);
    if (!signingKey.isEmpty())
        result.signature = ReportSignature::sign(result.manifest, signingKey);
    return result;
}
