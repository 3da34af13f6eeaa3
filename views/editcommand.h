#pragma once

#include "editsteps.h"

#include <functional>
#include <memory>
#include <QUndoCommand>

class AnnotationStore;
class StoreClient;

// One change on the undo stack. Its first redo runs `work` on the store's edit connection, which writes the
// change and says what it wrote (EditSteps); undo and redo flip those rows. The steps live where the edit
// connection reads them, in the order edits are asked, so an undo asked before the first redo is back still
// undoes it. `done` runs on the GUI thread after each of them, with the request's id.
class EditCommand : public QUndoCommand
{
public:
    using Work = std::function<EditSteps(AnnotationStore&)>;
    using Done = std::function<void(quint64 request)>;

    EditCommand(const QString& text, StoreClient* client, Work work, Done done);

    void redo() override;
    void undo() override;
    // The request that writes the change the first time (0 before it is asked): when it fails, the command is
    // taken off the stack (Editor), so that undo and redo never replay a change that never happened.
    quint64 firstRequest() const { return m_firstRequest; }

private:
    StoreClient* m_client;
    Work m_work;
    Done m_done;
    bool m_written = false;
    quint64 m_firstRequest = 0;
    // Written and read on the edit connection's thread only.
    std::shared_ptr<EditSteps> m_steps = std::make_shared<EditSteps>();
};
