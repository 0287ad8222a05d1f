-- 0002 profiles, families and the Recruiting Compass tables
--
-- Tables of DESIGN §2 (seeds 000, 002, 004). Every timestamp is timestamptz,
-- every foreign key has an index, and each exact query of DESIGN §3 has a
-- composite index that serves its WHERE … ORDER BY … LIMIT without a sort.
-- RLS is switched on as each table is created; grants and policies are in
-- 0005_access_control.sql.
--
-- Who is who: `profiles.role` says whether a user is an athlete or a parent;
-- `family_members` links users to a family unit with their role in it. A
-- family's recruiting data (schools, interactions, documents) carries its
-- `family_unit_id`; the athlete a row belongs to is its `user_id`.

CREATE TABLE public.profiles (
    user_id    uuid        PRIMARY KEY REFERENCES auth.users (id) ON DELETE CASCADE,
    username   text        NOT NULL UNIQUE,
    full_name  text,
    avatar_url text,
    -- NULL for users of the social app who are neither athlete nor parent.
    role       text        CHECK (role IN ('athlete', 'parent')),
    created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE public.profiles ENABLE ROW LEVEL SECURITY;

CREATE TABLE public.family_units (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    name       text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE public.family_units ENABLE ROW LEVEL SECURITY;

CREATE TABLE public.family_members (
    family_unit_id uuid        NOT NULL REFERENCES public.family_units (id) ON DELETE CASCADE,
    user_id        uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    role           text        NOT NULL CHECK (role IN ('athlete', 'parent')),
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (family_unit_id, user_id)
);
ALTER TABLE public.family_members ENABLE ROW LEVEL SECURITY;

-- The primary key serves family_unit_id; this one serves "my families".
CREATE INDEX family_members_user_id_idx ON public.family_members (user_id);

CREATE TABLE public.schools (
    id             uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    family_unit_id uuid        NOT NULL REFERENCES public.family_units (id) ON DELETE CASCADE,
    user_id        uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    name           text        NOT NULL,
    status         text        NOT NULL DEFAULT 'researching',
    created_at     timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE public.schools ENABLE ROW LEVEL SECURITY;

-- Seed 004: schools WHERE family_unit_id = $1.
CREATE INDEX schools_family_unit_id_idx ON public.schools (family_unit_id);
CREATE INDEX schools_user_id_idx ON public.schools (user_id);

CREATE TABLE public.coaches (
    id                uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    school_id         uuid        NOT NULL REFERENCES public.schools (id) ON DELETE CASCADE,
    first_name        text        NOT NULL,
    last_name         text        NOT NULL,
    email             text,
    -- Kept current by the trigger on interactions below.
    last_contact_date timestamptz,
    created_at        timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE public.coaches ENABLE ROW LEVEL SECURITY;

-- Seed 004: coaches WHERE school_id = ANY($1).
CREATE INDEX coaches_school_id_idx ON public.coaches (school_id);

CREATE TABLE public.interactions (
    id             uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    family_unit_id uuid        NOT NULL REFERENCES public.family_units (id) ON DELETE CASCADE,
    -- The athlete the interaction belongs to.
    user_id        uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    -- Who logged it (only athletes may insert, see 0005).
    logged_by      uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    -- A deleted school or coach leaves the interaction ("Unknown School").
    school_id      uuid        REFERENCES public.schools (id) ON DELETE SET NULL,
    coach_id       uuid        REFERENCES public.coaches (id) ON DELETE SET NULL,
    type           text        NOT NULL CHECK (type IN (
                                   'email', 'phone_call', 'text', 'in_person_visit',
                                   'virtual_meeting', 'camp', 'showcase', 'tweet', 'dm')),
    direction      text        NOT NULL CHECK (direction IN ('outbound', 'inbound')),
    subject        text,
    content        text,
    sentiment      text        CHECK (sentiment IN ('very_positive', 'positive', 'neutral', 'negative')),
    occurred_at    timestamptz,
    attachments    text[]      NOT NULL DEFAULT '{}',
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE public.interactions ENABLE ROW LEVEL SECURITY;

-- Seed 000 feed: WHERE logged_by = $1 ORDER BY created_at DESC LIMIT 50.
CREATE INDEX interactions_logged_by_created_at_idx ON public.interactions (logged_by, created_at DESC);
-- Seed 004 athlete list: WHERE logged_by = $1 ORDER BY occurred_at DESC.
CREATE INDEX interactions_logged_by_occurred_at_idx ON public.interactions (logged_by, occurred_at DESC);
-- Seed 004 parent list: WHERE family_unit_id = $1 ORDER BY occurred_at DESC.
CREATE INDEX interactions_family_unit_id_occurred_at_idx ON public.interactions (family_unit_id, occurred_at DESC);
-- Seed 002 timeline: WHERE user_id = $1.
CREATE INDEX interactions_user_id_occurred_at_idx ON public.interactions (user_id, occurred_at DESC);
CREATE INDEX interactions_school_id_idx ON public.interactions (school_id);
CREATE INDEX interactions_coach_id_idx ON public.interactions (coach_id);

CREATE TABLE public.school_status_history (
    id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    school_id       uuid        NOT NULL REFERENCES public.schools (id) ON DELETE CASCADE,
    previous_status text,
    new_status      text        NOT NULL,
    notes           text,
    -- NULL once the user who made the change is deleted; the history stays.
    changed_by      uuid        REFERENCES auth.users (id) ON DELETE SET NULL,
    changed_at      timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE public.school_status_history ENABLE ROW LEVEL SECURITY;

-- Seed 000 feed: WHERE changed_by = $1 ORDER BY changed_at DESC LIMIT 50.
CREATE INDEX school_status_history_changed_by_changed_at_idx ON public.school_status_history (changed_by, changed_at DESC);
-- Seed 002 timeline: WHERE school_id = ANY($1) ORDER BY changed_at DESC.
CREATE INDEX school_status_history_school_id_changed_at_idx ON public.school_status_history (school_id, changed_at DESC);

CREATE TABLE public.documents (
    id             uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    -- The uploader and owner.
    user_id        uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    -- NULL for a personal document that no family shares.
    family_unit_id uuid        REFERENCES public.family_units (id) ON DELETE SET NULL,
    title          text        NOT NULL,
    type           text        NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE public.documents ENABLE ROW LEVEL SECURITY;

-- Seed 000 feed: WHERE user_id = $1 ORDER BY created_at DESC LIMIT 50.
CREATE INDEX documents_user_id_created_at_idx ON public.documents (user_id, created_at DESC);
CREATE INDEX documents_family_unit_id_idx ON public.documents (family_unit_id);

CREATE TABLE public.events (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    school_id  uuid        REFERENCES public.schools (id) ON DELETE SET NULL,
    type       text        NOT NULL,
    name       text        NOT NULL,
    start_date timestamptz NOT NULL,
    end_date   timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT events_end_after_start CHECK (end_date IS NULL OR end_date >= start_date)
);
ALTER TABLE public.events ENABLE ROW LEVEL SECURITY;

-- Seed 002 timeline: WHERE user_id = $1.
CREATE INDEX events_user_id_start_date_idx ON public.events (user_id, start_date DESC);
CREATE INDEX events_school_id_idx ON public.events (school_id);

CREATE TABLE public.offers (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    athlete_id uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    school_id  uuid        NOT NULL REFERENCES public.schools (id) ON DELETE CASCADE,
    offer_type text        NOT NULL,
    offer_date timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE public.offers ENABLE ROW LEVEL SECURITY;

-- Seed 002 timeline: WHERE athlete_id = $1.
CREATE INDEX offers_athlete_id_offer_date_idx ON public.offers (athlete_id, offer_date DESC);
CREATE INDEX offers_school_id_idx ON public.offers (school_id);

-- Keeps interactions.updated_at honest whatever the client sends.
CREATE FUNCTION public.set_updated_at() RETURNS trigger
LANGUAGE plpgsql
SET search_path = ''
AS $$
BEGIN
    NEW.updated_at := now();
    RETURN NEW;
END
$$;

CREATE TRIGGER interactions_set_updated_at
    BEFORE UPDATE ON public.interactions
    FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Seed 004: logging an interaction updates its coach's last_contact_date.
-- The date only moves forward, so logging an old call after a newer one
-- leaves the newer date. SECURITY INVOKER on purpose: the insert policy on
-- interactions only accepts a coach the athlete may see, and those are the
-- coaches of the athlete's own schools, which the athlete may update.
CREATE FUNCTION public.touch_coach_last_contact() RETURNS trigger
LANGUAGE plpgsql
SET search_path = ''
AS $$
BEGIN
    UPDATE public.coaches
       SET last_contact_date = GREATEST(last_contact_date, coalesce(NEW.occurred_at, NEW.created_at))
     WHERE id = NEW.coach_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER interactions_touch_coach_last_contact
    AFTER INSERT ON public.interactions
    FOR EACH ROW
    WHEN (NEW.coach_id IS NOT NULL)
    EXECUTE FUNCTION public.touch_coach_last_contact();
