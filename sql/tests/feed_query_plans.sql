-- The three Activity Feed queries (DESIGN §3, seed 000) at 1,000,000 rows
-- per table: each must be an ordered index scan on its composite index, with
-- no Sort node, both as the superuser and as the user under RLS.
--
-- Data: 2,000 users in 500 families, 500 rows per user per table, spread
-- over two years and interleaved the way real writes interleave. Triggers
-- (and foreign-key checks, which are triggers too) are skipped with
-- session_replication_role = replica. The three tables' secondary indexes
-- are dropped during the load and rebuilt from their own definitions
-- afterwards (a bulk build is several times faster than maintaining them row
-- by row), and each row is assembled from per-user and per-round pieces
-- computed once. Everything is rolled back at the end.
-- Does not depend on the demo data.

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;

SELECT plan(12);

SET LOCAL session_replication_role = replica;
SET LOCAL maintenance_work_mem = '256MB';

-- Users 0..1999; user n is in family n / 4 and owns school n. The user whose
-- feed is explained is number 1234 (hex 4d2).
CREATE TEMP TABLE generated_users AS
SELECT n,
       ('dd000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid  AS user_id,
       ('ddf00000-0000-4000-8000-' || lpad(to_hex(n / 4), 12, '0'))::uuid AS family_unit_id,
       ('dd500000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid  AS school_id,
       lpad(to_hex(n), 12, '0') AS id_suffix,
       n * interval '61 seconds' AS jitter
  FROM generate_series(0, 1999) AS n;

-- Rounds 0..499: every user gets one row per round, 35 hours apart, so each
-- user has 500 rows per table over two years (an active athlete's volume;
-- with only a handful of rows per user a bitmap scan plus a tiny sort is
-- just as good, and the planner knows it).
CREATE TEMP TABLE generated_rounds AS
SELECT r,
       lpad(to_hex(r), 7, '0') || '-0000-4000-8000-' AS id_prefix,
       now() - r * interval '35 hours' AS at,
       (ARRAY['email', 'phone_call', 'text', 'in_person_visit', 'virtual_meeting',
              'camp', 'showcase', 'tweet', 'dm'])[r % 9 + 1] AS type,
       CASE WHEN r % 2 = 0 THEN 'outbound' ELSE 'inbound' END AS direction,
       'Subject ' || r AS subject,
       'Content of round ' || r AS content
  FROM generate_series(0, 499) AS r;

ANALYZE generated_users, generated_rounds;

-- A real account for user 1234 (and the family and school its rows point
-- at), so that the RLS run sees a believable world.
INSERT INTO auth.users (id) SELECT user_id FROM generated_users WHERE n = 1234;
INSERT INTO public.profiles (user_id, username, role)
SELECT user_id, 'plan_user', 'athlete' FROM generated_users WHERE n = 1234;
INSERT INTO public.family_units (id, name)
SELECT family_unit_id, 'Plan family' FROM generated_users WHERE n = 1234;
INSERT INTO public.family_members (family_unit_id, user_id, role)
SELECT family_unit_id, user_id, 'athlete' FROM generated_users WHERE n = 1234;
INSERT INTO public.schools (id, family_unit_id, user_id, name)
SELECT school_id, family_unit_id, user_id, 'Plan U' FROM generated_users WHERE n = 1234;

-- Drop the secondary indexes of the three tables, remembering how to rebuild
-- them. The primary keys stay: the generated ids ascend in insertion order,
-- so each key lands at the right edge of its index, which costs little.
CREATE TEMP TABLE dropped_indexes AS
SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
  FROM pg_catalog.pg_index AS i
 WHERE i.indrelid IN ('public.interactions'::regclass, 'public.school_status_history'::regclass,
                      'public.documents'::regclass)
   AND NOT EXISTS (SELECT FROM pg_catalog.pg_constraint AS c WHERE c.conindid = i.indexrelid);

DO $$
DECLARE
    idx record;
BEGIN
    FOR idx IN SELECT name FROM dropped_indexes LOOP
        EXECUTE format('DROP INDEX %s', idx.name);
    END LOOP;
END
$$;

INSERT INTO public.interactions
    (id, family_unit_id, user_id, logged_by, school_id, type, direction, subject, content,
     occurred_at, created_at, updated_at)
SELECT ('1' || r.id_prefix || u.id_suffix)::uuid,
       u.family_unit_id, u.user_id, u.user_id,
       CASE WHEN r.r % 5 = 0 THEN NULL ELSE u.school_id END,
       r.type, r.direction, r.subject, r.content,
       CASE WHEN r.r % 7 = 0 THEN NULL ELSE r.at - u.jitter - interval '2 hours' END,
       r.at - u.jitter, r.at - u.jitter
  FROM generate_series(0, 999999) AS g
  JOIN generated_rounds AS r ON r.r = g / 2000
  JOIN generated_users AS u ON u.n = g % 2000;

INSERT INTO public.school_status_history (id, school_id, previous_status, new_status, notes, changed_by, changed_at)
SELECT ('2' || r.id_prefix || u.id_suffix)::uuid,
       u.school_id, 'contacted', 'interested', r.subject, u.user_id, r.at - u.jitter
  FROM generate_series(0, 999999) AS g
  JOIN generated_rounds AS r ON r.r = g / 2000
  JOIN generated_users AS u ON u.n = g % 2000;

INSERT INTO public.documents (id, user_id, family_unit_id, title, type, created_at)
SELECT ('3' || r.id_prefix || u.id_suffix)::uuid,
       u.user_id, u.family_unit_id, r.subject, 'transcript', r.at - u.jitter
  FROM generate_series(0, 999999) AS g
  JOIN generated_rounds AS r ON r.r = g / 2000
  JOIN generated_users AS u ON u.n = g % 2000;

DO $$
DECLARE
    idx record;
BEGIN
    FOR idx IN SELECT definition FROM dropped_indexes LOOP
        EXECUTE idx.definition;
    END LOOP;
END
$$;

ANALYZE public.interactions, public.school_status_history, public.documents;

-- The exact queries, verbatim.
PREPARE feed_interactions(uuid) AS
    SELECT id, school_id, type, content, subject, occurred_at, created_at FROM interactions WHERE logged_by = $1 ORDER BY created_at DESC LIMIT 50;
PREPARE feed_status_changes(uuid) AS
    SELECT id, school_id, new_status, notes, changed_at FROM school_status_history WHERE changed_by = $1 ORDER BY changed_at DESC LIMIT 50;
PREPARE feed_documents(uuid) AS
    SELECT id, title, type, created_at FROM documents WHERE user_id = $1 ORDER BY created_at DESC LIMIT 50;

-- The plan of `EXECUTE <statement>('<the user>')` as JSON.
CREATE FUNCTION pg_temp.plan_of(statement text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    EXECUTE format('EXPLAIN (FORMAT JSON) EXECUTE %I(%L)', statement, 'dd000000-0000-4000-8000-0000000004d2')
       INTO plan;
    RETURN plan;
END
$$;

-- The index names used by ordered index scans in a plan.
CREATE FUNCTION pg_temp.index_scans(plan jsonb) RETURNS text[]
LANGUAGE sql AS $$
    SELECT coalesce(array_agg(node ->> 'Index Name' ORDER BY node ->> 'Index Name'), '{}')
      FROM jsonb_path_query($1, 'strict $.**') AS node
     WHERE jsonb_typeof(node) = 'object'
       AND node ->> 'Node Type' IN ('Index Scan', 'Index Only Scan')
$$;

CREATE FUNCTION pg_temp.sort_nodes(plan jsonb) RETURNS int
LANGUAGE sql AS $$
    SELECT count(*)::int
      FROM jsonb_path_query($1, 'strict $.**') AS node
     WHERE jsonb_typeof(node) = 'object'
       AND node ->> 'Node Type' IN ('Sort', 'Incremental Sort')
$$;

CREATE TEMP TABLE plans (who text, statement text, expected_index text, plan jsonb);
GRANT ALL ON plans TO PUBLIC;

INSERT INTO plans
SELECT 'as superuser', s.statement, s.expected_index, pg_temp.plan_of(s.statement)
  FROM (VALUES ('feed_interactions',   'interactions_logged_by_created_at_idx'),
               ('feed_status_changes', 'school_status_history_changed_by_changed_at_idx'),
               ('feed_documents',      'documents_user_id_created_at_idx')) AS s (statement, expected_index);

-- The same, as the user under RLS (dd000000-…-0000000004d2 is user 1234).
SET LOCAL ROLE authenticated;
SET LOCAL request.jwt.claims TO '{"sub": "dd000000-0000-4000-8000-0000000004d2", "role": "authenticated"}';
INSERT INTO plans
SELECT 'as the user under RLS', s.statement, s.expected_index, pg_temp.plan_of(s.statement)
  FROM (VALUES ('feed_interactions',   'interactions_logged_by_created_at_idx'),
               ('feed_status_changes', 'school_status_history_changed_by_changed_at_idx'),
               ('feed_documents',      'documents_user_id_created_at_idx')) AS s (statement, expected_index);
RESET ROLE;

SELECT ok(p.expected_index = ANY (pg_temp.index_scans(p.plan)),
          format('%s %s: index scan on %s', p.statement, p.who, p.expected_index))
  FROM plans AS p ORDER BY p.who, p.statement;
SELECT is(pg_temp.sort_nodes(p.plan), 0, format('%s %s: no Sort node', p.statement, p.who))
  FROM plans AS p ORDER BY p.who, p.statement;

SELECT * FROM finish();
ROLLBACK;
