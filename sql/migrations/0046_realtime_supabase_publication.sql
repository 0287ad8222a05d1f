-- 0046 realtime: Supabase's opt-in, `ALTER PUBLICATION supabase_realtime ADD TABLE todos`
--
-- On Supabase a table's changes reach Realtime once it is in the `supabase_realtime`
-- publication, and migrations written for Supabase say so that way. Here a table opts in
-- with `realtime.enable` (its change trigger and its row in realtime.enabled_tables), and
-- the publication did not exist: such a migration failed, and with the publication made
-- by hand nothing was delivered.
--
-- Now the publication exists (empty, as on Supabase, plus the tables realtime already
-- publishes, so it lists what is enabled; the tables an existing one named are enabled
-- now), and two event triggers follow the tables it names one by one:
--   * a table a statement adds to it (CREATE PUBLICATION supabase_realtime FOR TABLE …,
--     ALTER PUBLICATION … ADD TABLE or SET TABLE) is enabled;
--   * a table a statement takes out of it (ALTER PUBLICATION … DROP TABLE or SET TABLE) is
--     disabled, when it still exists, is not listed again, and the session's user may act
--     as its owner (the publication's owner alone may not: a warning says so).
-- DROP PUBLICATION disables nothing: Supabase's recipe for starting the publication over
-- (drop it, create it, add one's own tables) would otherwise silently end the app's own feeds.
-- Only the tables a statement names are looked at, never the whole publication, so no
-- other table's state (a lock, a trigger) can make a user's DDL wait or fail, and ordinary
-- DDL (CREATE TABLE, migrations) does not fire them. Publications of whole schemas or of
-- all tables are not followed: opt those tables in with realtime.enable. Neither is a
-- publication's `publish` list, column list or row filter: realtime records every change of
-- an enabled table, and each subscriber sees what its role and row-level security allow.
-- `realtime.enable`/`realtime.disable` keep working beside it and do not touch the
-- publication. Tables of compass's own schemas (realtime, auth, compass, extensions) are
-- never enabled this way.
--
-- The publication carries no data by itself: changes are read from realtime.changes,
-- never through logical decoding, so wal_level may stay as it is. Event triggers need a
-- superuser; run by anyone else this migration makes only the publication.

SET LOCAL client_min_messages = error;  -- no "wal_level is insufficient" warning for the publication

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_publication WHERE pubname = 'supabase_realtime') THEN
        CREATE PUBLICATION supabase_realtime;
    END IF;
END
$$;

-- What realtime publishes today, where the publication can hold it: a plain table whose
-- UPDATE/DELETE Postgres can identify (a table without one would refuse those statements
-- once in a publication), not listed yet. A publication of all tables lists them already;
-- one that refuses a table (another owner's publication) is left as it is.
DO $$
DECLARE
    published regclass;
BEGIN
    IF (SELECT p.puballtables FROM pg_catalog.pg_publication AS p WHERE p.pubname = 'supabase_realtime') THEN
        RETURN;
    END IF;
    FOR published IN
        SELECT c.oid::regclass
          FROM realtime.enabled_tables AS e
          JOIN pg_catalog.pg_class AS c ON c.oid = e.relid
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
         WHERE c.relkind = 'r'
           AND (c.relreplident IN ('f', 'i')
                OR (c.relreplident = 'd' AND EXISTS (
                    SELECT FROM pg_catalog.pg_index AS i WHERE i.indrelid = c.oid AND i.indisprimary)))
           AND NOT EXISTS (
               SELECT FROM pg_catalog.pg_publication_tables AS t
                WHERE t.pubname = 'supabase_realtime' AND t.schemaname = n.nspname AND t.tablename = c.relname)
    LOOP
        BEGIN
            EXECUTE pg_catalog.format('ALTER PUBLICATION supabase_realtime ADD TABLE %s', published);
        EXCEPTION WHEN OTHERS THEN
            NULL;  -- realtime still publishes it; the publication just does not list it
        END;
    END LOOP;
END
$$;

-- Enables the tables the statement added to supabase_realtime. SECURITY DEFINER: adding a
-- table to a publication already proved its author owns the table, and realtime.enable is
-- not theirs to call.
CREATE FUNCTION realtime.follow_supabase_publication() RETURNS event_trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
    added regclass;
BEGIN
    FOR added IN
        SELECT DISTINCT r.prrelid::regclass
          FROM pg_catalog.pg_event_trigger_ddl_commands() AS command
          JOIN pg_catalog.pg_publication_rel AS r
            ON (command.classid = 'pg_catalog.pg_publication_rel'::regclass AND r.oid = command.objid)
            OR (command.classid = 'pg_catalog.pg_publication'::regclass AND r.prpubid = command.objid)
          JOIN pg_catalog.pg_publication AS p ON p.oid = r.prpubid
          JOIN pg_catalog.pg_class AS c ON c.oid = r.prrelid
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
         WHERE p.pubname = 'supabase_realtime'
           -- The publication itself is reported by CREATE only; by SET (…), OWNER TO or RENAME
           -- it names no table, and nothing is enabled.
           AND (command.classid = 'pg_catalog.pg_publication_rel'::regclass OR command.command_tag = 'CREATE PUBLICATION')
           AND n.nspname NOT IN ('realtime', 'auth', 'compass', 'extensions')
           AND NOT EXISTS (SELECT FROM realtime.enabled_tables AS e WHERE e.relid = r.prrelid)
    LOOP
        PERFORM realtime.enable(added);
    END LOOP;
END
$$;

-- Disables the tables the statement took out of supabase_realtime (see above for when).
CREATE FUNCTION realtime.follow_supabase_publication_drops() RETURNS event_trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
    departed regclass;
BEGIN
    FOR departed IN
        SELECT DISTINCT pg_catalog.to_regclass(pg_catalog.format('%I.%I', d.address_names[1], d.address_names[2]))
          FROM pg_catalog.pg_event_trigger_dropped_objects() AS d
         WHERE d.object_type = 'publication relation'
           AND d.address_args = ARRAY['supabase_realtime']
    LOOP
        CONTINUE WHEN departed IS NULL;
        CONTINUE WHEN EXISTS (
            SELECT FROM pg_catalog.pg_publication_rel AS r
              JOIN pg_catalog.pg_publication AS p ON p.oid = r.prpubid
             WHERE p.pubname = 'supabase_realtime' AND r.prrelid = departed);
        IF NOT pg_catalog.pg_has_role(
            session_user, (SELECT c.relowner FROM pg_catalog.pg_class AS c WHERE c.oid = departed), 'MEMBER')
        THEN
            RAISE WARNING 'realtime: % left supabase_realtime but stays enabled: only its owner may opt it out', departed;
            CONTINUE;
        END IF;
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
        RETURN;  -- event triggers need a superuser: tables opt in with realtime.enable only
    END IF;
    CREATE EVENT TRIGGER realtime_follow_supabase_publication ON ddl_command_end
        WHEN TAG IN ('CREATE PUBLICATION', 'ALTER PUBLICATION')
        EXECUTE FUNCTION realtime.follow_supabase_publication();
    CREATE EVENT TRIGGER realtime_follow_supabase_publication_drops ON sql_drop
        WHEN TAG IN ('ALTER PUBLICATION')
        EXECUTE FUNCTION realtime.follow_supabase_publication_drops();
END
$$;

-- The tables a publication made before this migration names (CREATE PUBLICATION
-- supabase_realtime FOR TABLE …) are enabled now, as if just added; one that cannot be
-- (a lock, a partition's own trigger) is left for `realtime.enable`, without failing the migration.
DO $$
DECLARE
    listed regclass;
BEGIN
    FOR listed IN
        SELECT r.prrelid::regclass
          FROM pg_catalog.pg_publication_rel AS r
          JOIN pg_catalog.pg_publication AS p ON p.oid = r.prpubid
          JOIN pg_catalog.pg_class AS c ON c.oid = r.prrelid
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
         WHERE p.pubname = 'supabase_realtime'
           AND n.nspname NOT IN ('realtime', 'auth', 'compass', 'extensions')
           AND NOT EXISTS (SELECT FROM realtime.enabled_tables AS e WHERE e.relid = r.prrelid)
    LOOP
        BEGIN
            PERFORM realtime.enable(listed);
        EXCEPTION WHEN OTHERS THEN
            NULL;
        END;
    END LOOP;
END
$$;
