#include "editcommand.h"

#include "annotationstore.h"
#include "storeclient.h"

EditCommand::EditCommand(const QString& text, StoreClient* client, Work work, Done done)
    : QUndoCommand(text)
    , m_client(client)
    , m_work(std::move(work))
    , m_done(std::move(done))
{
}

void EditCommand::redo()
{
    std::shared_ptr<EditSteps> steps = m_steps;
    quint64 request = 0;
    if (!m_written) {
        m_written = true;
        request = m_client->edit([steps, work = m_work](AnnotationStore& store) {
            *steps = work(store);
            return *steps;
        });
        m_firstRequest = request;
    } else {
        request = m_client->edit([steps](AnnotationStore& store) {
            store.apply(*steps, true);
            return *steps;
        });
    }
    m_done(request);
}

void EditCommand::undo()
{
    std::shared_ptr<EditSteps> steps = m_steps;
    m_done(m_client->edit([steps](AnnotationStore& store) {
        store.apply(*steps, false);
        return *steps;
    }));
}
