-- Database time per visibility check: one row of a table to N subscribers
-- (distinct claims, role authenticated), realtime.visible_rows as the worker
-- calls it (as service_role) beside the per-group path it replaces for
-- qualifying policies (realtime.visible_rows_one_by_one), in one run. Claims are
-- sent as JSON objects, as the worker sends them. The fixed cost of a batched call
-- is the intercept of its time per call between 100 and 1,000 subscribers; calls of
-- fewer than 8 checks take the per-group path, and a call of one check is shown too.
-- Run by scripts/visibility-benchmark; needs the demo data.

CREATE FUNCTION pg_temp.microseconds_per_call(relation text, subscribers int, batched boolean) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
    checks  jsonb;
    started timestamptz;
    calls   CONSTANT int := greatest(5, 4000 / subscribers);
    key     text;
BEGIN
    EXECUTE format('SELECT id::text FROM %s ORDER BY id LIMIT 1', relation) INTO key;
    SELECT jsonb_agg(jsonb_build_object(
               'role', 'authenticated',
               'claims', jsonb_build_object('sub', gen_random_uuid(), 'role', 'authenticated', 'aud', 'authenticated',
                                            'email', 'someone@example.com', 'exp', 1900000000,
                                            'session_id', gen_random_uuid()),
               'relation', relation, 'keys', jsonb_build_array(jsonb_build_array(key))))
      INTO checks FROM generate_series(1, subscribers);
    FOR round IN 0 .. calls LOOP
        IF round = 1 THEN started := clock_timestamp(); END IF;  -- round 0 warms the caches
        PERFORM set_config('role', 'service_role', true);
        IF batched THEN
            PERFORM count(*) FROM realtime.visible_rows(checks);
        ELSE
            PERFORM count(*) FROM realtime.visible_rows_one_by_one(checks);
        END IF;
    END LOOP;
    PERFORM set_config('role', 'none', true);
    RETURN extract(epoch FROM clock_timestamp() - started) * 1e6 / calls;
END
$$;

\pset footer off
CREATE TEMP TABLE measured AS
SELECT relation, subscribers, m.one_by_one, m.batch
  FROM unnest(ARRAY['public.activities (user_id = auth.uid())', 'public.posts (true)']) AS relation,
       unnest(ARRAY[1, 10, 100, 1000]) AS subscribers,
       LATERAL (SELECT pg_temp.microseconds_per_call(split_part(relation, ' ', 1), subscribers, false) AS one_by_one,
                       pg_temp.microseconds_per_call(split_part(relation, ' ', 1), subscribers, true) AS batch) AS m;
SELECT relation AS "table (policy)",
       subscribers,
       round((one_by_one / subscribers)::numeric, 1) AS "per group µs/check",
       round((batch / subscribers)::numeric, 1) AS "visible_rows µs/check",
       round(batch::numeric, 0) AS "visible_rows µs/call",
       round((one_by_one / batch)::numeric, 1) AS "speed-up"
  FROM measured;
SELECT a.relation AS "table (policy)",
       round(one.batch::numeric, 0) AS "call of one check µs (per group)",
       round((a.batch - 100 * (b.batch - a.batch) / 900)::numeric, 0) AS "batched call: fixed µs",
       round(((b.batch - a.batch) / 900)::numeric, 1) AS "µs per extra check"
  FROM measured AS a
  JOIN measured AS b ON b.relation = a.relation AND b.subscribers = 1000
  JOIN measured AS one ON one.relation = a.relation AND one.subscribers = 1
 WHERE a.subscribers = 100;
