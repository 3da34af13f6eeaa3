#pragma once

class PgConnection;

// The team store's schema in PostgreSQL (schema `sightline`), versioned like the workspace's: a table of the steps
// run, and forward steps only, each run once, all of one `team init` in one transaction under an advisory lock, so two
// admins running it at once never both create it and a failed step leaves the database as it was.
//
// It holds the review layer a team shares (TeamStore): rooms by their system and own id, annotations, and the journal,
// append-only and hash-chained. Reviewers never write a table: every change goes through a SECURITY DEFINER function
// that checks the caller's role, writes the change with its journal entry, and notifies the team, so nothing is
// changed without its entry. The group roles sightline_reviewer, sightline_auditor and sightline_admin are made here;
// an admin grants them to logins.
namespace TeamSchema {

struct Upgrade
{
    int from = 0; // the step the store was at (0: none)
    int to = 0;
};

int latestStep();
// The step the store is at: 0 when it has no team schema.
int step(PgConnection& db);
// Creates or upgrades the schema, the roles and the grants. Throws StoreError naming what the role lacks when it may
// not (it needs CREATEROLE and CREATE on the database, or to be a superuser), and for a store of a newer Sightline.
Upgrade init(PgConnection& db);

} // namespace TeamSchema
