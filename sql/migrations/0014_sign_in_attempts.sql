-- 0014 sign-in attempts: the password sign-in rate limit, shared by every worker.
--
-- One row per key: 'email:<address>' or 'address:<client address>'. Each
-- password sign-in counts itself on both keys with one
--
--     INSERT … ON CONFLICT (key) DO UPDATE … RETURNING count
--
-- before bcrypt runs, in its own short transaction. The row lock of ON CONFLICT
-- makes the increments atomic, so N concurrent attempts see the counts 1…N
-- and exactly the budget of them reaches bcrypt, whichever worker serves them.
-- A key's window starts with its first attempt and ends `window` later; the
-- next attempt after that starts a new window at count 1. A sign-in whose
-- password matched gives its count back, so the limit is on failures.
--
-- Rows of ended windows are dead weight only: an attempt that starts a new
-- window deletes them (window_start is indexed for that).
--
-- Access: as the other auth tables, owned by supabase_auth_admin with RLS on
-- and no policies; the API roles get nothing.

CREATE TABLE auth.sign_in_attempts (
    key          text        PRIMARY KEY,
    window_start timestamptz NOT NULL,
    count        integer     NOT NULL CHECK (count >= 0)
);
CREATE INDEX sign_in_attempts_window_start_idx ON auth.sign_in_attempts (window_start);

ALTER TABLE auth.sign_in_attempts ENABLE ROW LEVEL SECURITY;
ALTER TABLE auth.sign_in_attempts OWNER TO supabase_auth_admin;
REVOKE ALL ON auth.sign_in_attempts FROM PUBLIC, anon, authenticated, service_role;
