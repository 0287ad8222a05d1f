-- 0006 realtime plumbing
--
-- The contract the worker (compass-worker) is built against:
--
--   realtime.changes        one row per changed row of an enabled table, in
--                           the writer's transaction; `id` orders them,
--                           `xid` (the writer's transaction) lets a reader
--                           tell which ids are settled: rows whose xid is
--                           below the xmin of its snapshot can no longer
--                           appear behind ids it has already read.
--   realtime.enabled_tables the tables that publish changes.
--   realtime.enable(t)      installs the `realtime_changes` trigger on t and
--                           registers it (idempotent);
--   realtime.disable(t)     reverses it.
--   NOTIFY compass_realtime payload '<schema>.<table>': a wake-up only. The
--                           payload is constant per table so Postgres folds
--                           a transaction's notifications into one per table;
--                           the stored row is the data, so a row of any size
--                           never breaks the writer (NOTIFY caps payloads at
--                           8000 bytes) and a listener that was away can catch
--                           up from the table.
--
-- The worker reads realtime.changes as service_role (SET LOCAL ROLE
-- service_role from authenticator); anon and authenticated have no access.

CREATE SCHEMA realtime;
REVOKE ALL ON SCHEMA realtime FROM PUBLIC;
GRANT USAGE ON SCHEMA realtime TO service_role;

CREATE TABLE realtime.changes (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    xid         xid8        NOT NULL DEFAULT pg_current_xact_id(),
    schema_name text        NOT NULL,
    table_name  text        NOT NULL,
    type        text        NOT NULL CHECK (type IN ('INSERT', 'UPDATE', 'DELETE')),
    record      jsonb,
    old_record  jsonb,
    created_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
ALTER TABLE realtime.changes ENABLE ROW LEVEL SECURITY;

CREATE INDEX changes_xid_idx ON realtime.changes (xid);
CREATE INDEX changes_created_at_idx ON realtime.changes (created_at);

CREATE TABLE realtime.enabled_tables (
    relid      regclass    PRIMARY KEY,
    enabled_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE realtime.enabled_tables ENABLE ROW LEVEL SECURITY;

-- service_role reads changes and may prune old ones; no policies are needed
-- because service_role bypasses RLS.
GRANT SELECT, DELETE ON realtime.changes TO service_role;
GRANT SELECT ON realtime.enabled_tables TO service_role;

-- The change trigger. SECURITY DEFINER because the writer (say an athlete
-- logging an interaction) may not touch realtime.changes itself.
CREATE FUNCTION realtime.record_change() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
    INSERT INTO realtime.changes (schema_name, table_name, type, record, old_record)
    VALUES (
        TG_TABLE_SCHEMA,
        TG_TABLE_NAME,
        TG_OP,
        CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN to_jsonb(NEW) END,
        CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) END
    );
    PERFORM pg_notify('compass_realtime', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME);
    RETURN NULL;
END
$$;

REVOKE EXECUTE ON FUNCTION realtime.record_change() FROM PUBLIC, anon, authenticated;

-- Publishes a table's changes: `SELECT realtime.enable('public.interactions')`.
CREATE FUNCTION realtime.enable(target regclass) RETURNS void
LANGUAGE plpgsql
SET search_path = ''
AS $$
DECLARE
    target_kind "char";
    target_schema name;
BEGIN
    SELECT c.relkind, n.nspname
      INTO target_kind, target_schema
      FROM pg_catalog.pg_class AS c
      JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
     WHERE c.oid = target;

    IF target_kind IS NULL OR target_kind NOT IN ('r', 'p') THEN
        RAISE EXCEPTION 'realtime.enable: % is not a table', target
            USING ERRCODE = 'wrong_object_type';
    END IF;
    IF target_schema = 'realtime' THEN
        RAISE EXCEPTION 'realtime.enable: % is part of the realtime plumbing itself', target
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    IF NOT EXISTS (
        SELECT FROM pg_catalog.pg_trigger AS t
         WHERE t.tgrelid = target
           AND t.tgname = 'realtime_changes'
    ) THEN
        EXECUTE pg_catalog.format(
            'CREATE TRIGGER realtime_changes AFTER INSERT OR UPDATE OR DELETE ON %s '
            'FOR EACH ROW EXECUTE FUNCTION realtime.record_change()',
            target);
    END IF;

    INSERT INTO realtime.enabled_tables (relid)
    VALUES (target)
    ON CONFLICT (relid) DO NOTHING;
END
$$;

-- Stops publishing a table's changes; already recorded changes stay.
CREATE FUNCTION realtime.disable(target regclass) RETURNS void
LANGUAGE plpgsql
SET search_path = ''
AS $$
BEGIN
    EXECUTE pg_catalog.format('DROP TRIGGER IF EXISTS realtime_changes ON %s', target);
    DELETE FROM realtime.enabled_tables AS e WHERE e.relid = target;
END
$$;

-- Enabling a table is an administrator's act (it needs the table's owner).
REVOKE EXECUTE ON FUNCTION realtime.enable(regclass), realtime.disable(regclass)
    FROM PUBLIC, anon, authenticated;

SELECT realtime.enable('public.interactions');
SELECT realtime.enable('public.school_status_history');
SELECT realtime.enable('public.documents');
SELECT realtime.enable('public.activities');
SELECT realtime.enable('public.parent_activities');
