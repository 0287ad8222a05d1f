"""Signs up, out, in, refreshes and reads with the official async `supabase` client, unchanged.

usage: auth_client.py <base url> <anon key> <demo email> <demo password> <family id>
Prints one JSON line with what each step saw; expected failures are recorded as GoTrue codes.
"""
import asyncio
import json
import sys
import time
import uuid

from supabase import acreate_client

from auth_codes import code_of


async def main(url, anon_key, email, password, family):
    out = {}
    client = await acreate_client(url, anon_key)

    new_email = f"e2e-{uuid.uuid4().hex[:8]}@example.com"
    signed_up = await client.auth.sign_up({"email": new_email, "password": "e2e-password-1"})
    out["sign_up"] = {"email": signed_up.user.email, "has_session": signed_up.session is not None}
    await client.auth.sign_out()
    out["after_sign_out"] = await client.auth.get_session() is None

    signed_in = await client.auth.sign_in_with_password({"email": email, "password": password})
    first_refresh = signed_in.session.refresh_token
    user = await client.auth.get_user()
    out["user"] = {"id": user.user.id, "email": user.user.email}
    refreshed = await client.auth.refresh_session()
    out["refreshed"] = refreshed.session.refresh_token != first_refresh

    # With the session, /rest/v1 runs as the user: RLS shows the family's activity log.
    rows = await client.table("parent_activities").select("id").eq("family_unit_id", family).execute()
    out["rows"] = len(rows.data)

    # Realtime with the session's token: subscribe, insert as the user, receive the INSERT.
    received = asyncio.Queue()
    subscribed = asyncio.Event()
    channel = client.channel("e2e-auth")
    channel.on_postgres_changes(
        "INSERT", received.put_nowait, table="parent_activities", schema="public",
        filter=f"family_unit_id=eq.{family}")
    await channel.subscribe(lambda state, error: subscribed.set() if str(state).endswith("SUBSCRIBED") else None)
    await asyncio.wait_for(subscribed.wait(), 15)
    inserted = await client.table("parent_activities").insert({
        "family_unit_id": family, "triggering_user_id": user.user.id, "activity_type": "points_adjusted",
        "target_entity": "child", "target_entity_id": user.user.id, "changes": {}, "device_id": "auth-e2e"}).execute()
    change = await asyncio.wait_for(received.get(), 20)
    out["realtime"] = {"inserted": inserted.data[0]["id"], "received": change["data"]["record"]["id"]}
    await client.remove_all_channels()

    await asyncio.sleep(2)
    # The active token's direct parent gets the active token back however late (a lost refresh reply).
    again = await client.auth.refresh_session(first_refresh)
    out["parent_replay"] = again.session.refresh_token == refreshed.session.refresh_token
    third = await client.auth.refresh_session()
    # Replaying an older token after the reuse interval ends the session.
    out["reuse"] = await code_of(lambda: client.auth.refresh_session(first_refresh))
    out["after_reuse"] = await code_of(lambda: client.auth.refresh_session(third.session.refresh_token))

    out["wrong_password"] = await code_of(
        lambda: client.auth.sign_in_with_password({"email": email, "password": "not-the-password"}))
    out["unknown_email"] = await code_of(
        lambda: client.auth.sign_in_with_password({"email": "nobody@example.com", "password": "whatever-1"}))
    expired_token = sys.argv[6]
    out["expired"] = await code_of(lambda: client.auth.get_user(expired_token))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:6]))
