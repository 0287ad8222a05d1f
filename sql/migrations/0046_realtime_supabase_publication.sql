-- 0046 realtime: Supabase's opt-in, `ALTER PUBLICATION supabase_realtime ADD TABLE todos`
--
-- On Supabase a table's changes reach Realtime once it is in the `supabase_realtime`
-- publication, and migrations written for Supabase say so that way. Here a table opts in
-- with `realtime.enable` (its change trigger and its row in realtime.enabled_tables), and
-- the publication did not exist: such a migration failed, and with the publication made
-- by hand nothing was delivered.
--
-- Now the publication exists (empty, as on Supabase, plus the tables realtime already
-- publishes, so it lists what is enabled), and two event triggers follow it:
--   * after CREATE/ALTER PUBLICATION (and CREATE TABLE, for a publication of whole
--     schemas), every table in supabase_realtime is enabled;
--   * a table leaving it (ALTER PUBLICATION … DROP TABLE or SET TABLE, or DROP
--     PUBLICATION) is disabled, as long as the table still exists.
-- `realtime.enable`/`realtime.disable` keep working beside it and do not touch the
-- publication. Tables of compass's own schemas (realtime, auth, compass, extensions) are
-- never enabled this way, so a publication FOR ALL TABLES does not record auth's rows.
--
-- The publication carries no data by itself: changes are read from realtime.changes,
-- never through logical decoding, so wal_level may stay as it is. Event triggers need a
-- superuser; run by anyone else this migration makes only the publication (and says so).

SET LOCAL client_min_messages = error;  -- no "wal_level is insufficient" warning for the publication

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_publication WHERE pubname = 'supabase_realtime') THEN
        CREATE PUBLICATION supabase_realtime;
    END IF;
END
$$;

-- What realtime publishes today, where the publication can hold it: a table whose
-- UPDATE/DELETE Postgres could not identify (no primary key, replica identity default)
-- would refuse those statements once in a publication, so it is left out.
DO $$
DECLARE
    published regclass;
BEGIN
    FOR published IN
        SELECT c.oid::regclass
          FROM realtime.enabled_tables AS e
          JOIN pg_catalog.pg_class AS c ON c.oid = e.relid
         WHERE c.relkind = 'r'
           AND (c.relreplident IN ('f', 'i')
                OR (c.relreplident = 'd' AND EXISTS (
                    SELECT FROM pg_catalog.pg_index AS i WHERE i.indrelid = c.oid AND i.indisprimary)))
           AND NOT EXISTS (
               SELECT FROM pg_catalog.pg_publication_rel AS r
                 JOIN pg_catalog.pg_publication AS p ON p.oid = r.prpubid
                WHERE p.pubname = 'supabase_realtime' AND r.prrelid = c.oid)
    LOOP
        EXECUTE pg_catalog.format('ALTER PUBLICATION supabase_realtime ADD TABLE %s', published);
    END LOOP;
END
$$;

-- Enables every table of supabase_realtime not enabled yet. SECURITY DEFINER: the DDL that
-- fires it already proved its author owns the tables it added, and realtime.enable is not
-- theirs to call.
CREATE FUNCTION realtime.follow_supabase_publication() RETURNS event_trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
    member regclass;
BEGIN
    FOR member IN
        SELECT c.oid::regclass
          FROM pg_catalog.pg_publication_tables AS p
          JOIN pg_catalog.pg_namespace AS n ON n.nspname = p.schemaname
          JOIN pg_catalog.pg_class AS c ON c.relnamespace = n.oid AND c.relname = p.tablename
         WHERE p.pubname = 'supabase_realtime'
           AND p.schemaname NOT IN ('realtime', 'auth', 'compass', 'extensions')
           AND c.relkind IN ('r', 'p')
           AND NOT EXISTS (SELECT FROM realtime.enabled_tables AS e WHERE e.relid = c.oid)
    LOOP
        PERFORM realtime.enable(member);
    END LOOP;
END
$$;

-- Disables the tables that left supabase_realtime, when they still exist (a dropped table
-- takes its trigger with it) and are not in it any more (SET TABLE re-lists some).
CREATE FUNCTION realtime.follow_supabase_publication_drops() RETURNS event_trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
    departed regclass;
BEGIN
    FOR departed IN
        SELECT pg_catalog.to_regclass(pg_catalog.format('%I.%I', d.address_names[1], d.address_names[2]))
          FROM pg_catalog.pg_event_trigger_dropped_objects() AS d
         WHERE d.object_type = 'publication relation'
           AND d.address_args = ARRAY['supabase_realtime']
    LOOP
        CONTINUE WHEN departed IS NULL;
        CONTINUE WHEN EXISTS (
            SELECT FROM pg_catalog.pg_publication_tables AS p
             WHERE p.pubname = 'supabase_realtime'
               AND pg_catalog.format('%I.%I', p.schemaname, p.tablename)::regclass = departed);
        IF EXISTS (SELECT FROM realtime.enabled_tables AS e WHERE e.relid = departed) THEN
            PERFORM realtime.disable(departed);
        END IF;
    END LOOP;
END
$$;

REVOKE EXECUTE ON FUNCTION realtime.follow_supabase_publication(), realtime.follow_supabase_publication_drops()
    FROM PUBLIC, anon, authenticated;

DO $$
BEGIN
    IF NOT (SELECT r.rolsuper FROM pg_catalog.pg_roles AS r WHERE r.rolname = current_user) THEN
        RAISE WARNING 'realtime: not a superuser, so ALTER PUBLICATION supabase_realtime is not followed; '
            'opt tables in with SELECT realtime.enable(''schema.table'')';
        RETURN;
    END IF;
    CREATE EVENT TRIGGER realtime_follow_supabase_publication ON ddl_command_end
        WHEN TAG IN ('CREATE PUBLICATION', 'ALTER PUBLICATION', 'CREATE TABLE')
        EXECUTE FUNCTION realtime.follow_supabase_publication();
    CREATE EVENT TRIGGER realtime_follow_supabase_publication_drops ON sql_drop
        WHEN TAG IN ('ALTER PUBLICATION', 'DROP PUBLICATION')
        EXECUTE FUNCTION realtime.follow_supabase_publication_drops();
END
$$;
