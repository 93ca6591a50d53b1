/**
 * The lifecycle's `deleted` event: the row goes (its history and keys with it, by cascade) only
 * while it is still at the revision read ($2), in one of the statuses read ($3) and, when $4 is
 * set, due after it (the lock window).
 */
export const DELETE_ACTION_SQL = `DELETE FROM actions a
  WHERE a.id = $1 AND a.revision = $2 AND a.status = ANY($3::varchar[])
    AND ($4::timestamptz IS NULL OR a.execution_time > $4)`;
