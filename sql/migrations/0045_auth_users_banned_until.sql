-- 0045 auth bans: `auth.users.banned_until`, as Supabase's auth server keeps it.
--
-- An admin's `ban_duration` (`PUT /admin/users/{id}`, or at creation) sets it to now plus the
-- duration ("none" clears it). Until then no session starts for the account (password, link,
-- code or PKCE exchange: 400/403 `user_banned`); a ban also ends the sessions it has, so its
-- refresh tokens stop working at once and its access tokens with their expiry.

ALTER TABLE auth.users ADD COLUMN banned_until timestamptz;
