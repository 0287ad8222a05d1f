-- 0008 realtime.changes: an index that serves the worker's poll
--
-- The worker reads the changes committed since its last snapshot in pages of
-- (xid, id) order: WHERE xid >= <xmin of that snapshot> AND <not visible in it>
-- ORDER BY xid, id LIMIT n, continuing after the last (xid, id) read. Ordered by
-- this index the read touches only the recent rows, whatever the table's size
-- and however stale its statistics; the plain xid index it replaces could make
-- the planner scan the table when statistics said it was small.

CREATE INDEX changes_xid_id_idx ON realtime.changes (xid, id);
DROP INDEX realtime.changes_xid_idx;
