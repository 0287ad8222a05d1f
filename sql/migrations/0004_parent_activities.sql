-- 0004 parent activity log (seed 003) on the family model
--
-- An append-only log of what a parent changed, shown to the other parents of
-- the same family: newest first, the last 30 days, keyset-paginated on
-- (created_at, id). `changes` holds the before/after values, e.g.
-- {"points": {"before": 120, "after": 150}}.

CREATE TABLE public.parent_activities (
    id                 uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    family_unit_id     uuid        NOT NULL REFERENCES public.family_units (id) ON DELETE CASCADE,
    triggering_user_id uuid        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
    -- Seed 003's ParentActivityType cases, in snake_case.
    activity_type      text        NOT NULL CHECK (activity_type IN (
                                       'app_categorization_added',
                                       'app_categorization_modified',
                                       'app_categorization_removed',
                                       'points_adjusted',
                                       'reward_redeemed',
                                       'child_profile_modified',
                                       'settings_updated',
                                       'child_added')),
    target_entity      text        NOT NULL,
    target_entity_id   uuid        NOT NULL,
    changes            jsonb       NOT NULL DEFAULT '{}',
    device_id          text,
    created_at         timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE public.parent_activities ENABLE ROW LEVEL SECURITY;

-- The feed page:
--   WHERE family_unit_id = $1 AND created_at >= now() - interval '30 days'
--     AND (created_at, id) < ($2, $3)
--   ORDER BY created_at DESC, id DESC LIMIT $4
CREATE INDEX parent_activities_family_unit_id_created_at_id_idx
    ON public.parent_activities (family_unit_id, created_at DESC, id DESC);
CREATE INDEX parent_activities_triggering_user_id_idx ON public.parent_activities (triggering_user_id);
