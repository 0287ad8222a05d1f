-- 0018 auth email change: a new address waits here until it is confirmed.
--
-- As in GoTrue: `PUT /user {email}` records the new address in `email_change` and
-- mails a confirmation to it and (secure email change, the default) to the current
-- address; `email_change_confirm_status` counts the confirmations received, and the
-- address changes when both are in. An anonymous account linking its first address
-- needs only the new one, and stops being anonymous then.

ALTER TABLE auth.users
    ADD COLUMN email_change                text,
    ADD COLUMN email_change_sent_at        timestamptz,
    ADD COLUMN email_change_confirm_status smallint NOT NULL DEFAULT 0
        CHECK (email_change_confirm_status BETWEEN 0 AND 2);

-- When the last reauthentication code (`GET /reauthenticate`) was mailed.
ALTER TABLE auth.users
    ADD COLUMN reauthentication_sent_at timestamptz;
