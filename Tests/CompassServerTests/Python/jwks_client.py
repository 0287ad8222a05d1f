"""Signs in against a worker with an ES256 signing key and uses the session, with the official
async `supabase` client, unchanged.

usage: jwks_client.py <base url> <anon key> <demo email> <demo password> <family id> <previous token> <retired token>
Prints one JSON line: the published keys, the session token's header, what /rest/v1 showed,
the realtime join, the client's own signature check against the published keys, that a token of the previous
(rotated-out) key still reads, and how a token of a key no longer in the set is refused.
"""
import asyncio
import base64
import json
import sys
import urllib.error
import urllib.request

from supabase import acreate_client
from supabase_auth.errors import AuthApiError
from postgrest.exceptions import APIError


def api_get(url, anon_key, path, token):
    """GET an /api endpoint as `token`: (status, body)."""
    request = urllib.request.Request(f"{url}{path}", headers={"apikey": anon_key, "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def header_of(token):
    part = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


async def main(url, anon_key, email, password, family, previous, retired):
    out = {}
    # Published keys are fetched without the API key, as a verifier elsewhere would.
    with urllib.request.urlopen(f"{url}/auth/v1/.well-known/jwks.json") as reply:
        out["jwks"] = json.loads(reply.read())
        out["jwks_cache_control"] = reply.headers.get("Cache-Control")

    client = await acreate_client(url, anon_key)
    signed_in = await client.auth.sign_in_with_password({"email": email, "password": password})
    out["header"] = header_of(signed_in.session.access_token)

    # /auth/v1 and /rest/v1 accept the ES256 session.
    user = await client.auth.get_user()
    out["user"] = user.user.id
    rows = await client.table("parent_activities").select("id").eq("family_unit_id", family).execute()
    out["rows"] = len(rows.data)
    status, _ = api_get(url, anon_key, "/api/v1/notifications", signed_in.session.access_token)
    out["api"] = status

    # The client verifies the signature itself against the published key of the token's kid.
    claims = await client.auth.get_claims()
    out["claims"] = {"sub": claims["claims"]["sub"], "role": claims["claims"]["role"]}

    # Realtime joins with the ES256 session (the join carries the access token).
    states = []
    subscribed = asyncio.Event()

    def on_state(state, error):
        states.append(str(state))
        if str(state).endswith("SUBSCRIBED"):
            subscribed.set()

    channel = client.channel("e2e-jwks")
    channel.on_postgres_changes("INSERT", lambda change: None, table="parent_activities", schema="public")
    await channel.subscribe(on_state)
    try:
        await asyncio.wait_for(subscribed.wait(), 15)
        out["realtime"] = "subscribed"
    except asyncio.TimeoutError:
        out["realtime"] = states
    await client.remove_channel(channel)

    refreshed = await client.auth.refresh_session()
    out["refreshed_header"] = header_of(refreshed.session.access_token)

    # The previous key, still in the set after rotation, still verifies.
    earlier = await acreate_client(url, anon_key)
    earlier.postgrest.auth(previous)
    rows = await earlier.table("parent_activities").select("id").eq("family_unit_id", family).execute()
    out["previous_rows"] = len(rows.data)

    # A token signed by a key no longer in the set: refused by /auth/v1 and /rest/v1.
    try:
        await client.auth.get_user(retired)
        out["retired_auth"] = "accepted"
    except AuthApiError as error:
        out["retired_auth"] = {"status": error.status, "code": error.code, "message": error.message}
    stranger = await acreate_client(url, anon_key)
    stranger.postgrest.auth(retired)
    try:
        await stranger.table("parent_activities").select("id").limit(1).execute()
        out["retired_rest"] = "accepted"
    except APIError as error:
        out["retired_rest"] = {"code": error.code, "message": error.message}

    # ... and by a realtime join, with Realtime's reason.
    await stranger.realtime.set_auth(retired)
    replies = asyncio.Queue()
    refused = stranger.channel("e2e-jwks-retired")
    refused.on_postgres_changes("INSERT", lambda change: None, table="parent_activities", schema="public")
    await refused.subscribe(lambda state, error: replies.put_nowait([str(state), str(error) if error else None]))
    out["retired_realtime"] = await asyncio.wait_for(replies.get(), 15)

    status, body = api_get(url, anon_key, "/api/v1/notifications", retired)
    out["retired_api"] = {"status": status, "code": body.get("code"), "message": body.get("message")}

    await client.auth.sign_out()
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:8]))
