-- 0003 social graph and the activity (notification) system of seed 001
--
-- posts, likes, comments and follows as seed 001 specifies them, plus the
-- `activities` table with the seed's DDL, its three indexes and six triggers.
-- Activities are never inserted by clients (there is no INSERT policy, see
-- 0005): the triggers below create and remove them. The trigger functions are
-- SECURITY DEFINER so that they can write a row the acting user may not see,
-- with an empty search_path and schema-qualified names, and nobody but their
-- owner may call them directly (triggers fire regardless of EXECUTE rights).

CREATE TABLE public.posts (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    author     uuid        NOT NULL REFERENCES public.profiles (user_id) ON DELETE CASCADE,
    caption    text,
    created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE public.posts ENABLE ROW LEVEL SECURITY;

CREATE INDEX posts_author_created_at_idx ON public.posts (author, created_at DESC);

CREATE TABLE public.likes (
    post_id    uuid        NOT NULL REFERENCES public.posts (id) ON DELETE CASCADE,
    user_id    uuid        NOT NULL REFERENCES public.profiles (user_id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (post_id, user_id)
);
ALTER TABLE public.likes ENABLE ROW LEVEL SECURITY;

CREATE INDEX likes_user_id_idx ON public.likes (user_id);

CREATE TABLE public.comments (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    post_id    uuid        NOT NULL REFERENCES public.posts (id) ON DELETE CASCADE,
    user_id    uuid        NOT NULL REFERENCES public.profiles (user_id) ON DELETE CASCADE,
    body       text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE public.comments ENABLE ROW LEVEL SECURITY;

CREATE INDEX comments_post_id_created_at_idx ON public.comments (post_id, created_at);
CREATE INDEX comments_user_id_idx ON public.comments (user_id);

CREATE TABLE public.follows (
    follower   uuid        NOT NULL REFERENCES public.profiles (user_id) ON DELETE CASCADE,
    followee   uuid        NOT NULL REFERENCES public.profiles (user_id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (follower, followee)
);
ALTER TABLE public.follows ENABLE ROW LEVEL SECURITY;

CREATE INDEX follows_followee_idx ON public.follows (followee);

-- Seed 001's DDL. Two deliberate tightenings: is_read and created_at are
-- NOT NULL (the client model decodes both as non-optional).
CREATE TABLE public.activities (
    id            uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id       uuid        NOT NULL REFERENCES public.profiles (user_id) ON DELETE CASCADE, -- recipient
    actor_id      uuid        NOT NULL REFERENCES public.profiles (user_id) ON DELETE CASCADE, -- who did it
    activity_type text        NOT NULL CHECK (activity_type IN ('like', 'comment', 'follow')),
    post_id       uuid        REFERENCES public.posts (id) ON DELETE CASCADE,    -- likes and comments
    comment_id    uuid        REFERENCES public.comments (id) ON DELETE CASCADE, -- comments
    is_read       boolean     NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE public.activities ENABLE ROW LEVEL SECURITY;

-- The seed's three indexes. idx_activities_user_id also carries created_at so
-- that "the recipient's last 30 days, newest first" is one ordered range scan;
-- idx_activities_is_read covers only unread rows, which is what the badge
-- count reads.
CREATE INDEX idx_activities_user_id ON public.activities (user_id, created_at DESC);
CREATE INDEX idx_activities_created_at ON public.activities (created_at);
CREATE INDEX idx_activities_is_read ON public.activities (user_id) WHERE is_read = false;
-- Foreign keys.
CREATE INDEX activities_actor_id_idx ON public.activities (actor_id);
CREATE INDEX activities_post_id_idx ON public.activities (post_id);
CREATE INDEX activities_comment_id_idx ON public.activities (comment_id);

-- An activity takes the time of the action that caused it.

CREATE FUNCTION public.create_like_activity() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
    post_author uuid;
BEGIN
    SELECT p.author INTO post_author FROM public.posts AS p WHERE p.id = NEW.post_id;
    IF post_author IS NOT NULL AND post_author <> NEW.user_id THEN
        INSERT INTO public.activities (user_id, actor_id, activity_type, post_id, created_at)
        VALUES (post_author, NEW.user_id, 'like', NEW.post_id, coalesce(NEW.created_at, now()));
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION public.delete_like_activity() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
    DELETE FROM public.activities AS a
     WHERE a.activity_type = 'like'
       AND a.post_id = OLD.post_id
       AND a.actor_id = OLD.user_id;
    RETURN NULL;
END
$$;

CREATE FUNCTION public.create_comment_activity() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
    post_author uuid;
BEGIN
    SELECT p.author INTO post_author FROM public.posts AS p WHERE p.id = NEW.post_id;
    IF post_author IS NOT NULL AND post_author <> NEW.user_id THEN
        INSERT INTO public.activities (user_id, actor_id, activity_type, post_id, comment_id, created_at)
        VALUES (post_author, NEW.user_id, 'comment', NEW.post_id, NEW.id, coalesce(NEW.created_at, now()));
    END IF;
    RETURN NULL;
END
$$;

-- The foreign key already cascades; deleting explicitly keeps the rule
-- visible here and covers an activity whose comment_id was never set.
CREATE FUNCTION public.delete_comment_activity() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
    DELETE FROM public.activities AS a
     WHERE a.activity_type = 'comment'
       AND a.comment_id = OLD.id;
    RETURN NULL;
END
$$;

CREATE FUNCTION public.create_follow_activity() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
    IF NEW.followee <> NEW.follower THEN
        INSERT INTO public.activities (user_id, actor_id, activity_type, created_at)
        VALUES (NEW.followee, NEW.follower, 'follow', coalesce(NEW.created_at, now()));
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION public.delete_follow_activity() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
    DELETE FROM public.activities AS a
     WHERE a.activity_type = 'follow'
       AND a.user_id = OLD.followee
       AND a.actor_id = OLD.follower;
    RETURN NULL;
END
$$;

REVOKE EXECUTE ON FUNCTION
    public.create_like_activity(), public.delete_like_activity(),
    public.create_comment_activity(), public.delete_comment_activity(),
    public.create_follow_activity(), public.delete_follow_activity()
    FROM PUBLIC, anon, authenticated;

CREATE TRIGGER on_like_created
    AFTER INSERT ON public.likes
    FOR EACH ROW EXECUTE FUNCTION public.create_like_activity();

CREATE TRIGGER on_like_deleted
    AFTER DELETE ON public.likes
    FOR EACH ROW EXECUTE FUNCTION public.delete_like_activity();

CREATE TRIGGER on_comment_created
    AFTER INSERT ON public.comments
    FOR EACH ROW EXECUTE FUNCTION public.create_comment_activity();

CREATE TRIGGER on_comment_deleted
    AFTER DELETE ON public.comments
    FOR EACH ROW EXECUTE FUNCTION public.delete_comment_activity();

CREATE TRIGGER on_follow_created
    AFTER INSERT ON public.follows
    FOR EACH ROW EXECUTE FUNCTION public.create_follow_activity();

CREATE TRIGGER on_follow_deleted
    AFTER DELETE ON public.follows
    FOR EACH ROW EXECUTE FUNCTION public.delete_follow_activity();
