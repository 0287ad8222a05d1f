-- 0005 access control: grants, family-membership views, RLS policies
--
-- Grants follow Supabase: anon, authenticated and service_role get table
-- privileges and row level security does the limiting. Policies exist for
-- `authenticated` only, so anon sees and changes nothing; service_role
-- bypasses RLS. TRUNCATE is not granted (it would bypass RLS).
--
-- The rules, in one place:
--   * profiles, posts, comments, likes, follows: readable by every signed-in
--     user (the notification query joins actor profiles, comment bodies and
--     post captions); written only by their owner.
--   * Recruiting data (schools, coaches, interactions, school_status_history,
--     documents, events, offers): the owner reads and writes their rows; the
--     parents of the row's family read them; nobody else sees them. Athletes
--     see only their own rows. Parents observe, they do not edit the
--     athlete's rows. Coaches and status history are reached through their
--     school.
--   * interactions: only athletes insert (profile role 'athlete' and athlete
--     of that family), and only for themselves.
--   * activities: the recipient reads, marks read and deletes; there is no
--     INSERT policy, the triggers of 0003 create them.
--   * parent_activities: visible to the parents of that family only,
--     insertable by them as themselves; the log is append-only.
--   * family_units, family_members: members see their families and
--     co-members; parents may rename their family. Membership itself is
--     written by service_role only (an invitation flow), because joining a
--     family is what grants a parent sight of an athlete's data.
--
-- Family membership inside policies: a policy on family_members that queried
-- family_members would recurse, and SECURITY DEFINER helpers are off limits
-- (none may be executable by the API roles). So membership is read through
-- views in the `private` schema. A view runs with its owner's rights; the
-- owner is the migration owner (a superuser, or at least the owner of
-- family_members), to whom RLS does not apply, so the view reads
-- family_members without recursion. Each view filters itself by auth.uid(),
-- so a user can only ever see their own memberships through it, and is a
-- security_barrier view so no user-supplied predicate runs before that
-- filter. Never set FORCE ROW LEVEL SECURITY on family_members: a
-- non-superuser owner would then meet its policies inside these views, and
-- those policies read these views (infinite recursion).

-- Private schema and views ----------------------------------------------------

CREATE SCHEMA private;
REVOKE ALL ON SCHEMA private FROM PUBLIC;
GRANT USAGE ON SCHEMA private TO authenticated, service_role;

-- The families the requesting user belongs to, with their role in each.
CREATE VIEW private.my_family_units WITH (security_barrier) AS
SELECT fm.family_unit_id, fm.role
  FROM public.family_members AS fm
 WHERE fm.user_id = (SELECT auth.uid());

-- The athletes of every family in which the requesting user is a parent.
CREATE VIEW private.my_parented_users WITH (security_barrier) AS
SELECT athlete.family_unit_id, athlete.user_id
  FROM public.family_members AS parent
  JOIN public.family_members AS athlete
    ON athlete.family_unit_id = parent.family_unit_id
   AND athlete.role = 'athlete'
 WHERE parent.user_id = (SELECT auth.uid())
   AND parent.role = 'parent';

REVOKE ALL ON private.my_family_units, private.my_parented_users FROM PUBLIC;
GRANT SELECT ON private.my_family_units, private.my_parented_users TO authenticated, service_role;

-- Grants ------------------------------------------------------------------------

GRANT USAGE ON SCHEMA public TO anon, authenticated, service_role;

GRANT SELECT, INSERT, UPDATE, DELETE ON
    public.profiles, public.family_units, public.family_members,
    public.schools, public.coaches, public.interactions,
    public.school_status_history, public.documents, public.events, public.offers,
    public.posts, public.likes, public.comments, public.follows,
    public.activities, public.parent_activities
    TO anon, authenticated, service_role;

-- Two column-level narrowings: a user may not change their own role (it
-- decides who may log interactions), and a recipient may only flip is_read.
REVOKE UPDATE ON public.profiles, public.activities FROM anon, authenticated;
GRANT UPDATE (username, full_name, avatar_url) ON public.profiles TO authenticated;
GRANT UPDATE (is_read) ON public.activities TO authenticated;

-- profiles ----------------------------------------------------------------------

CREATE POLICY profiles_select_signed_in ON public.profiles
    FOR SELECT TO authenticated
    USING (true);

CREATE POLICY profiles_insert_self ON public.profiles
    FOR INSERT TO authenticated
    WITH CHECK (user_id = (SELECT auth.uid()));

CREATE POLICY profiles_update_self ON public.profiles
    FOR UPDATE TO authenticated
    USING (user_id = (SELECT auth.uid()))
    WITH CHECK (user_id = (SELECT auth.uid()));

CREATE POLICY profiles_delete_self ON public.profiles
    FOR DELETE TO authenticated
    USING (user_id = (SELECT auth.uid()));

-- family_units and family_members -------------------------------------------------

CREATE POLICY family_units_select_member ON public.family_units
    FOR SELECT TO authenticated
    USING (id IN (SELECT f.family_unit_id FROM private.my_family_units AS f));

CREATE POLICY family_units_update_parent ON public.family_units
    FOR UPDATE TO authenticated
    USING (id IN (SELECT f.family_unit_id FROM private.my_family_units AS f WHERE f.role = 'parent'))
    WITH CHECK (id IN (SELECT f.family_unit_id FROM private.my_family_units AS f WHERE f.role = 'parent'));

CREATE POLICY family_members_select_same_family ON public.family_members
    FOR SELECT TO authenticated
    USING (family_unit_id IN (SELECT f.family_unit_id FROM private.my_family_units AS f));

-- schools -----------------------------------------------------------------------

CREATE POLICY schools_select_owner_or_parent ON public.schools
    FOR SELECT TO authenticated
    USING (
        user_id = (SELECT auth.uid())
        OR family_unit_id IN (SELECT f.family_unit_id FROM private.my_family_units AS f WHERE f.role = 'parent')
    );

CREATE POLICY schools_insert_owner ON public.schools
    FOR INSERT TO authenticated
    WITH CHECK (
        user_id = (SELECT auth.uid())
        AND family_unit_id IN (SELECT f.family_unit_id FROM private.my_family_units AS f)
    );

CREATE POLICY schools_update_owner ON public.schools
    FOR UPDATE TO authenticated
    USING (user_id = (SELECT auth.uid()))
    WITH CHECK (
        user_id = (SELECT auth.uid())
        AND family_unit_id IN (SELECT f.family_unit_id FROM private.my_family_units AS f)
    );

CREATE POLICY schools_delete_owner ON public.schools
    FOR DELETE TO authenticated
    USING (user_id = (SELECT auth.uid()));

-- coaches: through their school ----------------------------------------------------

CREATE POLICY coaches_select_via_school ON public.coaches
    FOR SELECT TO authenticated
    USING (school_id IN (SELECT s.id FROM public.schools AS s));

CREATE POLICY coaches_insert_school_owner ON public.coaches
    FOR INSERT TO authenticated
    WITH CHECK (school_id IN (SELECT s.id FROM public.schools AS s WHERE s.user_id = (SELECT auth.uid())));

CREATE POLICY coaches_update_school_owner ON public.coaches
    FOR UPDATE TO authenticated
    USING (school_id IN (SELECT s.id FROM public.schools AS s WHERE s.user_id = (SELECT auth.uid())))
    WITH CHECK (school_id IN (SELECT s.id FROM public.schools AS s WHERE s.user_id = (SELECT auth.uid())));

CREATE POLICY coaches_delete_school_owner ON public.coaches
    FOR DELETE TO authenticated
    USING (school_id IN (SELECT s.id FROM public.schools AS s WHERE s.user_id = (SELECT auth.uid())));

-- interactions ------------------------------------------------------------------

CREATE POLICY interactions_select_owner_or_parent ON public.interactions
    FOR SELECT TO authenticated
    USING (
        logged_by = (SELECT auth.uid())
        OR user_id = (SELECT auth.uid())
        OR family_unit_id IN (SELECT f.family_unit_id FROM private.my_family_units AS f WHERE f.role = 'parent')
    );

-- Seed 004: only athletes create interactions, for themselves, in a family
-- where they are an athlete, about a school and coach they can see.
CREATE POLICY interactions_insert_athlete ON public.interactions
    FOR INSERT TO authenticated
    WITH CHECK (
        logged_by = (SELECT auth.uid())
        AND user_id = (SELECT auth.uid())
        AND EXISTS (
            SELECT FROM public.profiles AS p
             WHERE p.user_id = (SELECT auth.uid())
               AND p.role = 'athlete'
        )
        AND family_unit_id IN (SELECT f.family_unit_id FROM private.my_family_units AS f WHERE f.role = 'athlete')
        AND (school_id IS NULL OR school_id IN (SELECT s.id FROM public.schools AS s))
        AND (coach_id IS NULL OR coach_id IN (SELECT c.id FROM public.coaches AS c))
    );

CREATE POLICY interactions_update_owner ON public.interactions
    FOR UPDATE TO authenticated
    USING (logged_by = (SELECT auth.uid()))
    WITH CHECK (
        logged_by = (SELECT auth.uid())
        AND user_id = (SELECT auth.uid())
        AND family_unit_id IN (SELECT f.family_unit_id FROM private.my_family_units AS f WHERE f.role = 'athlete')
        AND (school_id IS NULL OR school_id IN (SELECT s.id FROM public.schools AS s))
        AND (coach_id IS NULL OR coach_id IN (SELECT c.id FROM public.coaches AS c))
    );

CREATE POLICY interactions_delete_owner ON public.interactions
    FOR DELETE TO authenticated
    USING (logged_by = (SELECT auth.uid()));

-- school_status_history: through its school ------------------------------------------

CREATE POLICY school_status_history_select_via_school ON public.school_status_history
    FOR SELECT TO authenticated
    USING (
        changed_by = (SELECT auth.uid())
        OR school_id IN (SELECT s.id FROM public.schools AS s)
    );

CREATE POLICY school_status_history_insert_school_owner ON public.school_status_history
    FOR INSERT TO authenticated
    WITH CHECK (
        changed_by = (SELECT auth.uid())
        AND school_id IN (SELECT s.id FROM public.schools AS s WHERE s.user_id = (SELECT auth.uid()))
    );

CREATE POLICY school_status_history_update_owner ON public.school_status_history
    FOR UPDATE TO authenticated
    USING (changed_by = (SELECT auth.uid()))
    WITH CHECK (
        changed_by = (SELECT auth.uid())
        AND school_id IN (SELECT s.id FROM public.schools AS s WHERE s.user_id = (SELECT auth.uid()))
    );

CREATE POLICY school_status_history_delete_owner ON public.school_status_history
    FOR DELETE TO authenticated
    USING (changed_by = (SELECT auth.uid()));

-- documents ---------------------------------------------------------------------

CREATE POLICY documents_select_owner_or_parent ON public.documents
    FOR SELECT TO authenticated
    USING (
        user_id = (SELECT auth.uid())
        OR family_unit_id IN (SELECT f.family_unit_id FROM private.my_family_units AS f WHERE f.role = 'parent')
    );

CREATE POLICY documents_insert_owner ON public.documents
    FOR INSERT TO authenticated
    WITH CHECK (
        user_id = (SELECT auth.uid())
        AND (family_unit_id IS NULL
             OR family_unit_id IN (SELECT f.family_unit_id FROM private.my_family_units AS f))
    );

CREATE POLICY documents_update_owner ON public.documents
    FOR UPDATE TO authenticated
    USING (user_id = (SELECT auth.uid()))
    WITH CHECK (
        user_id = (SELECT auth.uid())
        AND (family_unit_id IS NULL
             OR family_unit_id IN (SELECT f.family_unit_id FROM private.my_family_units AS f))
    );

CREATE POLICY documents_delete_owner ON public.documents
    FOR DELETE TO authenticated
    USING (user_id = (SELECT auth.uid()));

-- events ------------------------------------------------------------------------

CREATE POLICY events_select_owner_or_parent ON public.events
    FOR SELECT TO authenticated
    USING (
        user_id = (SELECT auth.uid())
        OR user_id IN (SELECT a.user_id FROM private.my_parented_users AS a)
    );

CREATE POLICY events_insert_owner ON public.events
    FOR INSERT TO authenticated
    WITH CHECK (
        user_id = (SELECT auth.uid())
        AND (school_id IS NULL OR school_id IN (SELECT s.id FROM public.schools AS s))
    );

CREATE POLICY events_update_owner ON public.events
    FOR UPDATE TO authenticated
    USING (user_id = (SELECT auth.uid()))
    WITH CHECK (
        user_id = (SELECT auth.uid())
        AND (school_id IS NULL OR school_id IN (SELECT s.id FROM public.schools AS s))
    );

CREATE POLICY events_delete_owner ON public.events
    FOR DELETE TO authenticated
    USING (user_id = (SELECT auth.uid()));

-- offers ------------------------------------------------------------------------

CREATE POLICY offers_select_owner_or_parent ON public.offers
    FOR SELECT TO authenticated
    USING (
        athlete_id = (SELECT auth.uid())
        OR athlete_id IN (SELECT a.user_id FROM private.my_parented_users AS a)
    );

CREATE POLICY offers_insert_owner ON public.offers
    FOR INSERT TO authenticated
    WITH CHECK (
        athlete_id = (SELECT auth.uid())
        AND school_id IN (SELECT s.id FROM public.schools AS s)
    );

CREATE POLICY offers_update_owner ON public.offers
    FOR UPDATE TO authenticated
    USING (athlete_id = (SELECT auth.uid()))
    WITH CHECK (
        athlete_id = (SELECT auth.uid())
        AND school_id IN (SELECT s.id FROM public.schools AS s)
    );

CREATE POLICY offers_delete_owner ON public.offers
    FOR DELETE TO authenticated
    USING (athlete_id = (SELECT auth.uid()));

-- posts, likes, comments, follows ---------------------------------------------------

CREATE POLICY posts_select_signed_in ON public.posts
    FOR SELECT TO authenticated
    USING (true);

CREATE POLICY posts_insert_author ON public.posts
    FOR INSERT TO authenticated
    WITH CHECK (author = (SELECT auth.uid()));

CREATE POLICY posts_update_author ON public.posts
    FOR UPDATE TO authenticated
    USING (author = (SELECT auth.uid()))
    WITH CHECK (author = (SELECT auth.uid()));

CREATE POLICY posts_delete_author ON public.posts
    FOR DELETE TO authenticated
    USING (author = (SELECT auth.uid()));

CREATE POLICY likes_select_signed_in ON public.likes
    FOR SELECT TO authenticated
    USING (true);

CREATE POLICY likes_insert_self ON public.likes
    FOR INSERT TO authenticated
    WITH CHECK (user_id = (SELECT auth.uid()));

CREATE POLICY likes_update_self ON public.likes
    FOR UPDATE TO authenticated
    USING (user_id = (SELECT auth.uid()))
    WITH CHECK (user_id = (SELECT auth.uid()));

CREATE POLICY likes_delete_self ON public.likes
    FOR DELETE TO authenticated
    USING (user_id = (SELECT auth.uid()));

CREATE POLICY comments_select_signed_in ON public.comments
    FOR SELECT TO authenticated
    USING (true);

CREATE POLICY comments_insert_self ON public.comments
    FOR INSERT TO authenticated
    WITH CHECK (user_id = (SELECT auth.uid()));

CREATE POLICY comments_update_self ON public.comments
    FOR UPDATE TO authenticated
    USING (user_id = (SELECT auth.uid()))
    WITH CHECK (user_id = (SELECT auth.uid()));

CREATE POLICY comments_delete_self ON public.comments
    FOR DELETE TO authenticated
    USING (user_id = (SELECT auth.uid()));

CREATE POLICY follows_select_signed_in ON public.follows
    FOR SELECT TO authenticated
    USING (true);

CREATE POLICY follows_insert_self ON public.follows
    FOR INSERT TO authenticated
    WITH CHECK (follower = (SELECT auth.uid()));

CREATE POLICY follows_update_self ON public.follows
    FOR UPDATE TO authenticated
    USING (follower = (SELECT auth.uid()))
    WITH CHECK (follower = (SELECT auth.uid()));

CREATE POLICY follows_delete_self ON public.follows
    FOR DELETE TO authenticated
    USING (follower = (SELECT auth.uid()));

-- activities: the recipient only, and no INSERT policy ----------------------------------

CREATE POLICY activities_select_recipient ON public.activities
    FOR SELECT TO authenticated
    USING (user_id = (SELECT auth.uid()));

CREATE POLICY activities_update_recipient ON public.activities
    FOR UPDATE TO authenticated
    USING (user_id = (SELECT auth.uid()))
    WITH CHECK (user_id = (SELECT auth.uid()));

CREATE POLICY activities_delete_recipient ON public.activities
    FOR DELETE TO authenticated
    USING (user_id = (SELECT auth.uid()));

-- parent_activities: the family's parents only, append-only ---------------------------

CREATE POLICY parent_activities_select_family_parent ON public.parent_activities
    FOR SELECT TO authenticated
    USING (family_unit_id IN (SELECT f.family_unit_id FROM private.my_family_units AS f WHERE f.role = 'parent'));

CREATE POLICY parent_activities_insert_family_parent ON public.parent_activities
    FOR INSERT TO authenticated
    WITH CHECK (
        triggering_user_id = (SELECT auth.uid())
        AND family_unit_id IN (SELECT f.family_unit_id FROM private.my_family_units AS f WHERE f.role = 'parent')
    );
