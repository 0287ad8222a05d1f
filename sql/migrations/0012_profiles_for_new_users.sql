-- 0012 a profile for each new account that says who it is
--
-- Supabase projects give a new auth.users row its app profile with a trigger on
-- auth.users that reads the sign-up metadata (`signUp(…, data: {…})`). Here an account
-- whose user metadata names a `role` (athlete or parent) or a `username` gets a row in
-- public.profiles; accounts without either (the demo fixture inserts its profiles itself)
-- are left alone. A taken username falls back to the email's local part plus a piece
-- of the id, so a sign-up never fails because of its profile.

CREATE FUNCTION public.create_profile_for_new_user() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
    metadata jsonb := coalesce(NEW.raw_user_meta_data, '{}'::jsonb);
    app_role text := CASE WHEN metadata ->> 'role' IN ('athlete', 'parent') THEN metadata ->> 'role' END;
    fallback text := pg_catalog.split_part(coalesce(NEW.email, 'user'), '@', 1)
                     || '_' || pg_catalog.left(pg_catalog.replace(NEW.id::text, '-', ''), 8);
BEGIN
    IF app_role IS NULL AND NOT metadata ? 'username' THEN
        RETURN NEW;
    END IF;
    INSERT INTO public.profiles (user_id, username, full_name, avatar_url, role)
    VALUES (NEW.id, coalesce(nullif(metadata ->> 'username', ''), fallback), metadata ->> 'full_name',
            metadata ->> 'avatar_url', app_role)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        INSERT INTO public.profiles (user_id, username, full_name, avatar_url, role)
        VALUES (NEW.id, fallback, metadata ->> 'full_name', metadata ->> 'avatar_url', app_role)
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NEW;
END
$$;

REVOKE ALL ON FUNCTION public.create_profile_for_new_user() FROM PUBLIC;

CREATE TRIGGER on_auth_user_created
    AFTER INSERT ON auth.users
    FOR EACH ROW EXECUTE FUNCTION public.create_profile_for_new_user();
