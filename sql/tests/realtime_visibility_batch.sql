-- realtime.visible_rows evaluates qualifying policies once over every
-- subscriber's claims (migration 0030). This holds it equal, on random rows and
-- random checks, to the reference: each check's own RLS-scoped SELECT under its
-- role and claims. Each policy set also states which path it must take, so the
-- batch cannot pass by falling back everywhere.
--
-- Claims cover anon, service_role, authenticated owners and strangers, other
-- families, a missing `sub`, an empty `sub`, missing custom claims; sent as
-- strings or as JSON objects (what the worker sends since migration 0031).
--
-- Since 0031 the batch runs as a temporary function per (table, role, policy
-- version), or as a statement planned per call where none can be created.

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;

SELECT plan(58);

CREATE SCHEMA viz;
GRANT USAGE ON SCHEMA viz TO anon, authenticated, service_role;
CREATE TABLE viz.items (
    id     int PRIMARY KEY,
    owner  uuid,
    family text,
    level  int NOT NULL,
    label  text NOT NULL
);
CREATE TABLE viz.pairs (
    a int,
    b text,
    owner uuid,
    PRIMARY KEY (a, b)
);
CREATE TABLE viz.owners (owner uuid PRIMARY KEY);
GRANT SELECT ON viz.items, viz.pairs, viz.owners TO anon, authenticated, service_role;
ALTER TABLE viz.owners ENABLE ROW LEVEL SECURITY;
CREATE POLICY owners_self ON viz.owners FOR SELECT TO authenticated USING (owner = (SELECT auth.uid()));

SELECT setseed(0.25);
CREATE TEMP TABLE people (n int PRIMARY KEY, id uuid NOT NULL, family text NOT NULL);
INSERT INTO people SELECT n, gen_random_uuid(), 'family-' || (n % 3) FROM generate_series(1, 8) AS n;
INSERT INTO viz.items
SELECT i,
       CASE WHEN random() < 0.15 THEN NULL ELSE (SELECT array_agg(p.id ORDER BY p.n) FROM people p)[1 + (i * 7 + (random() * 3)::int) % 8] END,
       CASE WHEN random() < 0.1 THEN NULL ELSE 'family-' || (i % 3) END,
       (random() * 5)::int,
       CASE WHEN i % 5 = 0 THEN 'auth.uid()' ELSE 'label ' || i END
  FROM generate_series(1, 60) AS i;
INSERT INTO viz.pairs
SELECT i, CASE WHEN i % 2 = 0 THEN 'x' ELSE 'y''s' END, (SELECT p.id FROM people p WHERE p.n = 1 + i % 8)
  FROM generate_series(1, 30) AS i;
INSERT INTO viz.owners SELECT id FROM people WHERE n <= 4;

-- Random claims: one of the cast's shapes.
CREATE FUNCTION pg_temp.random_claims() RETURNS jsonb LANGUAGE sql VOLATILE AS $$
    WITH pick AS (SELECT (random() * 9)::int AS kind, (SELECT p FROM people p ORDER BY random() LIMIT 1) AS who)
    SELECT CASE kind
        WHEN 0 THEN jsonb_build_object('role', 'anon')
        WHEN 1 THEN jsonb_build_object('role', 'service_role')
        WHEN 2 THEN jsonb_build_object('role', 'authenticated')                       -- no sub
        WHEN 3 THEN jsonb_build_object('role', 'authenticated', 'sub', '')            -- empty sub
        WHEN 4 THEN jsonb_build_object('role', 'authenticated', 'sub', (who).id)      -- no family claim
        ELSE jsonb_build_object('role', 'authenticated', 'sub', (who).id,
                                'family', CASE WHEN kind = 8 THEN 'family-9' ELSE (who).family END,
                                'max_level', (random() * 5)::int,
                                'app_metadata', jsonb_build_object('level', (random() * 5)::int))
    END
    FROM pick
$$;

-- `count` random checks on `relation` with up to four keys each, some of rows that do not exist.
-- With `objects`, claims are JSON objects rather than strings.
CREATE FUNCTION pg_temp.random_checks(relation text, count int, objects boolean DEFAULT false) RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    checks jsonb := '[]';
    claims jsonb;
    keys   jsonb;
BEGIN
    FOR i IN 1 .. count LOOP
        claims := pg_temp.random_claims();
        IF relation = 'viz.items' THEN
            SELECT jsonb_agg(jsonb_build_array((1 + (random() * 64)::int)::text)) INTO keys
              FROM generate_series(0, (random() * 3)::int);
        ELSE
            SELECT jsonb_agg(jsonb_build_array((1 + (random() * 32)::int)::text, CASE WHEN random() < 0.5 THEN 'x' ELSE 'y''s' END))
              INTO keys FROM generate_series(0, (random() * 3)::int);
        END IF;
        checks := checks || jsonb_build_array(jsonb_build_object(
            'role', claims->>'role', 'claims', CASE WHEN objects THEN claims ELSE to_jsonb(claims::text) END,
            'relation', relation, 'keys', keys));
    END LOOP;
    RETURN checks;
END
$$;

-- What realtime.visible_rows answers, called as the worker calls it (as service_role).
CREATE FUNCTION pg_temp.answered(checks jsonb) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
    result text[];
BEGIN
    PERFORM set_config('role', 'service_role', true);
    SELECT coalesce(array_agg(v.check_index || ':' || v.row_index ORDER BY v.check_index, v.row_index), '{}')
      INTO result FROM realtime.visible_rows(checks) AS v;
    PERFORM set_config('role', 'none', true), set_config('request.jwt.claims', '', true);
    RETURN result;
END
$$;

-- The reference: each check's own SELECT under its role and claims.
CREATE FUNCTION pg_temp.expected(checks jsonb) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
    item   record;
    key    record;
    found_ boolean;
    result text[] := '{}';
BEGIN
    FOR item IN SELECT e.value AS v, (e.i - 1)::int AS i FROM jsonb_array_elements(checks) WITH ORDINALITY AS e(value, i) LOOP
        PERFORM set_config('role', item.v->>'role', true), set_config('request.jwt.claims', item.v->>'claims', true);
        FOR key IN SELECT k.v, (k.i - 1)::int AS i FROM jsonb_array_elements(item.v->'keys') WITH ORDINALITY AS k(v, i) LOOP
            IF NOT has_column_privilege(item.v->>'relation', CASE WHEN item.v->>'relation' = 'viz.items' THEN 'id' ELSE 'a' END, 'SELECT')
               OR (item.v->>'relation' = 'viz.pairs' AND NOT has_column_privilege('viz.pairs', 'b', 'SELECT')) THEN
                found_ := false;  -- the SELECT of the key would be refused
            ELSIF item.v->>'relation' = 'viz.items' THEN
                found_ := EXISTS (SELECT FROM viz.items t WHERE t.id = (key.v->>0)::int);
            ELSE
                found_ := EXISTS (SELECT FROM viz.pairs t WHERE t.a = (key.v->>0)::int AND t.b = key.v->>1);
            END IF;
            IF found_ THEN
                result := result || (item.i || ':' || key.i);
            END IF;
        END LOOP;
        PERFORM set_config('role', 'none', true), set_config('request.jwt.claims', '', true);
    END LOOP;
    RETURN (SELECT coalesce(array_agg(x ORDER BY split_part(x, ':', 1)::int, split_part(x, ':', 2)::int), '{}') FROM unnest(result) AS x);
END
$$;

-- Replaces the table's policies with `policies` (RLS on).
CREATE FUNCTION pg_temp.replace_policies(relation text, policies text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    policy record;
    statement text;
BEGIN
    FOR policy IN SELECT polname FROM pg_policy WHERE polrelid = relation::regclass LOOP
        EXECUTE format('DROP POLICY %I ON %s', policy.polname, relation);
    END LOOP;
    EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', relation);
    FOREACH statement IN ARRAY policies LOOP
        EXECUTE statement;
    END LOOP;
END
$$;

-- The path each role's group takes on the table: batch or per-group.
CREATE FUNCTION pg_temp.paths(relation text) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
    path text[];
BEGIN
    PERFORM set_config('role', 'service_role', true);
    SELECT array_agg(r || '=' || CASE WHEN realtime.batch_query(relation::regclass, r) IS NULL THEN 'per-group' ELSE 'batch' END ORDER BY r)
      INTO path FROM unnest(ARRAY['anon', 'authenticated', 'service_role']) AS r;
    PERFORM set_config('role', 'none', true);
    RETURN path;
END
$$;

-- Replaces the table's policies, then checks both the path the (table, role)
-- groups take and the answers on random checks.
CREATE FUNCTION pg_temp.case_(description text, relation text, policies text[], batched text[], checks int DEFAULT 150)
RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    sample jsonb;
BEGIN
    PERFORM pg_temp.replace_policies(relation, policies);
    RETURN NEXT is(pg_temp.paths(relation), batched, description || ': path per role');
    sample := pg_temp.random_checks(relation, checks);
    RETURN NEXT is(pg_temp.answered(sample), pg_temp.expected(sample), description || ': same rows as each subscriber''s own SELECT');
END
$$;

SELECT * FROM pg_temp.case_('owner = auth.uid()', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (owner = auth.uid())'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch']);
SELECT * FROM pg_temp.case_('owner = (SELECT auth.uid())', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (owner = (SELECT auth.uid()))'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch']);
SELECT * FROM pg_temp.case_('family from the token', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (family = auth.jwt() ->> ''family'')'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch']);
SELECT * FROM pg_temp.case_('a restrictive level cap beside two permissive policies', 'viz.items',
    ARRAY['CREATE POLICY own ON viz.items FOR SELECT TO authenticated USING (owner = auth.uid())',
          'CREATE POLICY fam ON viz.items FOR ALL TO authenticated USING (family = (auth.jwt() ->> ''family''))',
          'CREATE POLICY cap ON viz.items AS RESTRICTIVE FOR SELECT TO authenticated USING (level <= coalesce((auth.jwt() ->> ''max_level'')::int, 2))'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch']);
SELECT * FROM pg_temp.case_('policies for PUBLIC that read the role', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT USING (auth.role() = ''anon'' AND level < 3 OR auth.role() = ''authenticated'' AND level >= 2)'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch']);
SELECT * FROM pg_temp.case_('nested claims and casts', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (coalesce(auth.jwt() -> ''app_metadata'' ->> ''level'', ''0'')::int >= level)'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch']);
SELECT * FROM pg_temp.case_('no sub, or an owner', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT TO anon, authenticated USING (auth.uid() IS NULL AND level = 0 OR owner IS NOT DISTINCT FROM auth.uid())'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch']);
SELECT * FROM pg_temp.case_('the accessor''s name inside a string is a string', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (label = ''auth.uid()'' OR owner = auth.uid())'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch']);
SELECT * FROM pg_temp.case_('everyone signed in; anon has no policy', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (true)'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch']);
SELECT * FROM pg_temp.case_('only a restrictive policy: nothing', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items AS RESTRICTIVE FOR SELECT TO authenticated USING (true)'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch']);
SELECT * FROM pg_temp.case_('an UPDATE policy does not let anyone read', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR UPDATE TO authenticated USING (true)',
          'CREATE POLICY q ON viz.items FOR SELECT TO authenticated USING (level = 1)'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch']);
SELECT * FROM pg_temp.case_('current_user reads who runs it: per group', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT USING (current_user = ''authenticated'' AND level < 3)'],
    ARRAY['anon=per-group', 'authenticated=per-group', 'service_role=batch']);
SELECT * FROM pg_temp.case_('a subquery over a table with its own RLS: per group', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (owner IN (SELECT o.owner FROM viz.owners o))'],
    ARRAY['anon=batch', 'authenticated=per-group', 'service_role=batch']);
SELECT pg_temp.replace_policies('viz.items', ARRAY[
    'CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (EXISTS (SELECT FROM viz.items i WHERE i.owner = auth.uid() AND i.level = items.level))']);
SELECT is(pg_temp.paths('viz.items'), ARRAY['anon=batch', 'authenticated=per-group', 'service_role=batch'],
          'a subquery over its own table: per group');
SELECT throws_ok($$SELECT pg_temp.answered(pg_temp.random_checks('viz.items', 30))$$, '42P17', NULL,
                 'a subquery over its own table: refused, as RLS refuses it');
SELECT * FROM pg_temp.case_('a function of the project''s: per group', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (owner = auth.claim(''sub'')::uuid)'],
    ARRAY['anon=batch', 'authenticated=per-group', 'service_role=batch']);
SELECT * FROM pg_temp.case_('a composite key with a quote in it', 'viz.pairs',
    ARRAY['CREATE POLICY p ON viz.pairs FOR SELECT TO authenticated USING (owner = auth.uid() OR b = ''y''''s'' AND auth.uid() IS NULL)'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch']);

-- RLS off: every role with SELECT sees every row.
ALTER TABLE viz.items DISABLE ROW LEVEL SECURITY;
SELECT is(pg_temp.answered(s.c), pg_temp.expected(s.c), 'RLS off: same rows as each subscriber''s own SELECT')
  FROM (SELECT pg_temp.random_checks('viz.items', 100) AS c) AS s;
ALTER TABLE viz.items ENABLE ROW LEVEL SECURITY;

-- A role without SELECT on the table sees nothing, on both paths.
REVOKE SELECT ON viz.items FROM anon;
SELECT is(pg_temp.answered(s.c), pg_temp.expected(s.c), 'no SELECT grant: anon sees nothing, on either path')
  FROM (SELECT pg_temp.random_checks('viz.items', 100) AS c) AS s;
GRANT SELECT ON viz.items TO anon;

-- A policy changed in the same session is seen by the next call (the cached query is per policy version).
SELECT * FROM pg_temp.case_('before ALTER POLICY', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (level = 1)'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch'], 60);
ALTER POLICY p ON viz.items USING (level = 2);
SELECT is(pg_temp.answered(s.c), pg_temp.expected(s.c), 'after ALTER POLICY: the new expression decides')
  FROM (SELECT pg_temp.random_checks('viz.items', 100) AS c) AS s;

-- Many subscribers of one row (the batch's reason to be), and mixed tables and roles in one call.
SELECT * FROM pg_temp.case_('one table, 600 checks', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (owner = auth.uid() OR family = auth.jwt() ->> ''family'')'],
    ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch'], 600);
SELECT is(pg_temp.answered(s.c), pg_temp.expected(s.c), 'two tables, every role, batch and per-group groups in one call')
  FROM (SELECT pg_temp.random_checks('viz.items', 80) || pg_temp.random_checks('viz.pairs', 80)
               || pg_temp.random_checks('viz.items', 40) AS c) AS s;
SELECT throws_ok(
    $$SELECT * FROM realtime.visible_rows('[{"role": "postgres", "claims": "{}", "relation": "viz.items", "keys": [["1"]]}]')$$,
    '22023', 'realtime.visible_rows: postgres is not a client role', 'a role that is not a client role is refused');


-- Claims as JSON objects (the worker's format), alone and mixed with strings in one call.
SELECT is(pg_temp.answered(s.c), pg_temp.expected(s.c), 'claims as JSON objects: same rows as each subscriber''s own SELECT')
  FROM (SELECT pg_temp.random_checks('viz.items', 300, true) AS c) AS s;
SELECT is(pg_temp.answered(s.c), pg_temp.expected(s.c), 'claims as objects and as strings in one call')
  FROM (SELECT pg_temp.random_checks('viz.items', 60, true) || pg_temp.random_checks('viz.items', 60)
               || pg_temp.random_checks('viz.pairs', 40, true) AS c) AS s;

-- A subscriber whose token is refreshed with other claims: the next call decides by the new ones.
CREATE TEMP TABLE refresh AS
WITH item AS (SELECT i.id, i.owner FROM viz.items AS i WHERE i.owner IS NOT NULL AND i.family IS NULL ORDER BY i.id LIMIT 1),
     checks AS (
         SELECT jsonb_agg(jsonb_build_object('role', 'authenticated', 'claims', jsonb_build_object('role', 'authenticated', 'sub', item.owner),
                                             'relation', 'viz.items', 'keys', jsonb_build_array(jsonb_build_array(item.id::text)))) AS c
           FROM item, generate_series(1, 20))
SELECT checks.c AS before,
       replace(checks.c::text, (SELECT owner::text FROM item), gen_random_uuid()::text)::jsonb AS after
  FROM checks;
SELECT is(pg_temp.answered(before), pg_temp.expected(before), 'before a token refresh: the owner sees the row') FROM refresh;
SELECT is(pg_temp.answered(after), pg_temp.expected(after), 'after a token refresh to another user: the new claims decide') FROM refresh;
SELECT isnt(pg_temp.answered(before), pg_temp.answered(after), 'the refresh changed the answer') FROM refresh;

-- The batch runs as a temporary function; dropped behind the cache's back, it is made again.
CREATE FUNCTION pg_temp.runner(relation text, role text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    runner text;
BEGIN
    PERFORM set_config('role', 'service_role', true);
    runner := realtime.batch_query(relation::regclass, role);
    PERFORM set_config('role', 'none', true);
    RETURN runner;
END
$$;
SELECT matches(pg_temp.runner('viz.items', 'authenticated'), '^pg_temp\.realtime_batch_[0-9a-f]{32}$', 'the batch is a temporary function');
DO $$ BEGIN EXECUTE 'DROP FUNCTION ' || pg_temp.runner('viz.items', 'authenticated') || '(jsonb, text, text)'; END $$;
SELECT is(pg_temp.answered(s.c), pg_temp.expected(s.c), 'its function dropped: the next call makes it again and answers the same')
  FROM (SELECT pg_temp.random_checks('viz.items', 100, true) AS c) AS s;
SELECT ok(to_regprocedure(pg_temp.runner('viz.items', 'authenticated') || '(jsonb, text, text)') IS NOT NULL, 'the function exists again');

-- A whole-row reference reads the row as a whole, which the batch's row is not: per group.
SELECT * FROM pg_temp.case_('a whole-row reference: per group', 'viz.items',
    ARRAY['CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (owner = auth.uid() AND items IS NOT NULL)'],
    ARRAY['anon=batch', 'authenticated=per-group', 'service_role=batch']);

-- Column-level security (0042): a role that may SELECT the key columns sees its rows; one
-- that may not sees nothing. Both paths, each against the reference.
REVOKE SELECT ON viz.items FROM authenticated, anon;
GRANT SELECT (id, owner, level) ON viz.items TO authenticated;
GRANT SELECT (label) ON viz.items TO anon;
SELECT pg_temp.replace_policies('viz.items', ARRAY[
    'CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (owner = auth.uid() OR level < 2)']);
SELECT is(pg_temp.answered(s.c), pg_temp.expected(s.c), 'column grants, batch: same rows as each subscriber''s own SELECT')
  FROM (SELECT pg_temp.random_checks('viz.items', 150, true) AS c) AS s;
SELECT is(cardinality(pg_temp.answered(jsonb_build_array(jsonb_build_object(
              'role', 'authenticated', 'claims', jsonb_build_object('role', 'authenticated', 'sub', gen_random_uuid()),
              'relation', 'viz.items', 'keys', (SELECT jsonb_agg(jsonb_build_array(id::text)) FROM viz.items WHERE level < 2))))),
          (SELECT count(*)::int FROM viz.items WHERE level < 2), 'a role granted the key columns only sees the rows its policy allows');
SELECT pg_temp.replace_policies('viz.items', ARRAY[
    'CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (owner = auth.uid() AND items IS NOT NULL)']);
SELECT is(pg_temp.answered(s.c), pg_temp.expected(s.c), 'column grants, per group: same rows as each subscriber''s own SELECT')
  FROM (SELECT pg_temp.random_checks('viz.items', 150, true) AS c) AS s;

SELECT is(pg_temp.answered(jsonb_build_array(jsonb_build_object('role', 'anon', 'claims', jsonb_build_object('role', 'anon'),
                                                               'relation', 'viz.items', 'keys', (SELECT jsonb_agg(jsonb_build_array(id::text)) FROM viz.items)))),
          '{}'::text[], 'a role granted other columns than the key sees nothing');
GRANT SELECT ON viz.items TO authenticated, anon;

-- Where no temporary function can be made (here: a read-only transaction), the statement runs planned per call.
SELECT pg_temp.replace_policies('viz.items', ARRAY[
    'CREATE POLICY p ON viz.items FOR SELECT TO authenticated USING (owner = auth.uid() AND level < 4)']);
SET LOCAL transaction_read_only = on;
SELECT is(pg_temp.paths('viz.items'), ARRAY['anon=batch', 'authenticated=batch', 'service_role=batch'],
          'read-only: still batched');
SELECT matches(pg_temp.runner('viz.items', 'authenticated'), '^WITH realtime_subscriber ', 'read-only: a statement, not a function');
SELECT is(pg_temp.answered(s.c), pg_temp.expected(s.c), 'read-only: same rows as each subscriber''s own SELECT')
  FROM (SELECT pg_temp.random_checks('viz.items', 150, true) AS c) AS s;

SELECT * FROM finish();
ROLLBACK;
