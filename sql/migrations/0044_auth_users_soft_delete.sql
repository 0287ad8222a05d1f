-- 0044 auth soft delete: `auth.users.deleted_at`, as Supabase's auth server keeps it.
--
-- `DELETE /admin/users/{id}` with `{"should_soft_delete": true}` keeps the account's row, so
-- rows elsewhere that reference it (ON DELETE CASCADE) are kept too, and makes it unusable:
-- its email and phone are replaced by a hash of themselves and the id (the address is free for
-- a new account), its password, metadata, identities' data, factors, sessions and mailed
-- tokens are cleared, and `deleted_at` is set.

ALTER TABLE auth.users ADD COLUMN deleted_at timestamptz;
