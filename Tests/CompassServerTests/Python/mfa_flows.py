"""MFA with TOTP through the official async `supabase` client, unchanged.

usage: mfa_flows.py <base url> <anon key> <service role key>
Signs up, enrolls a TOTP factor, computes codes (RFC 6238, a few lines below), challenges,
verifies, reads the assurance level, lists factors, unenrolls; an admin lists and deletes
factors. Prints one JSON line with what
each step saw; expected refusals are recorded as GoTrue error codes.
"""
import asyncio
import base64
import hashlib
import hmac
import json
import struct
import sys
import time
import uuid

from supabase import acreate_client

from auth_codes import code_of


def totp(secret, step):
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    mac = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 1000000)


def claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


async def main(url, anon_key, service_key):
    out = {"codes": []}
    client = await acreate_client(url, anon_key)
    email = f"mfa-{uuid.uuid4().hex[:8]}@example.com"
    password = "mfa-password-1"
    await client.auth.sign_up({"email": email, "password": password})

    level = await client.auth.mfa.get_authenticator_assurance_level()
    out["before"] = {"current": level.current_level, "next": level.next_level}

    enrolled = await client.auth.mfa.enroll({"factor_type": "totp", "friendly_name": "phone", "issuer": "Compass"})
    factor = enrolled.id
    secret = enrolled.totp.secret
    out["enrolled"] = {"type": enrolled.type, "friendly_name": enrolled.friendly_name, "uri": enrolled.totp.uri,
                       "secret_length": len(secret), "qr_code": enrolled.totp.qr_code}
    out["secret"] = secret
    out["name_conflict"] = await code_of(
        lambda: client.auth.mfa.enroll({"factor_type": "totp", "friendly_name": "phone"}))
    out["phone_factor"] = await code_of(
        lambda: client.auth.mfa.enroll({"factor_type": "phone", "friendly_name": "sms", "phone": "+15555550100"}))
    listed = await client.auth.mfa.list_factors()
    out["listed_unverified"] = {"all": [f.status for f in listed.all], "totp": len(listed.totp)}

    challenge = await client.auth.mfa.challenge({"factor_id": factor})
    out["challenge"] = {"has_id": bool(challenge.id), "expires_in": challenge.expires_at - int(time.time())}
    step = int(time.time()) // 30
    window = {totp(secret, s) for s in range(step - 2, step + 3)}
    wrong = next(c for c in ("000000", "111111", "222222", "333333", "444444", "555555") if c not in window)
    out["wrong_code"] = await code_of(
        lambda: client.auth.mfa.verify({"factor_id": factor, "challenge_id": challenge.id, "code": wrong}))
    out["unknown_challenge"] = await code_of(
        lambda: client.auth.mfa.verify({"factor_id": factor, "challenge_id": str(uuid.uuid4()), "code": wrong}))

    code = totp(secret, int(time.time()) // 30)
    out["codes"].append(code)
    verified = await client.auth.mfa.verify({"factor_id": factor, "challenge_id": challenge.id, "code": code})
    token = claims(verified.access_token)
    out["verified"] = {"aal": token["aal"], "amr": [entry["method"] for entry in token["amr"]],
                       "user_factors": [f.status for f in verified.user.factors or []]}
    level = await client.auth.mfa.get_authenticator_assurance_level()
    out["after"] = {"current": level.current_level, "next": level.next_level,
                    "methods": [m.method for m in level.current_authentication_methods]}
    # The same code again, on a fresh challenge: a code works once.
    again = await client.auth.mfa.challenge({"factor_id": factor})
    out["code_reused"] = await code_of(
        lambda: client.auth.mfa.verify({"factor_id": factor, "challenge_id": again.id, "code": code}))
    out["challenge_reused"] = await code_of(
        lambda: client.auth.mfa.verify({"factor_id": factor, "challenge_id": challenge.id, "code": code}))

    listed = await client.auth.mfa.list_factors()
    out["listed"] = {"totp": [f.id for f in listed.totp], "all": len(listed.all)}
    refreshed = await client.auth.refresh_session()
    out["refreshed_aal"] = claims(refreshed.session.access_token)["aal"]

    # A second device signing in with the password alone is aal1 and must step up: it can't unenroll.
    other = await acreate_client(url, anon_key)
    await other.auth.sign_in_with_password({"email": email, "password": password})
    level = await other.auth.mfa.get_authenticator_assurance_level()
    out["second_device"] = {"current": level.current_level, "next": level.next_level}
    out["unenroll_at_aal1"] = await code_of(lambda: other.auth.mfa.unenroll({"factor_id": factor}))

    # The admin API sees the verified factor, and the user id must match.
    admin = await acreate_client(url, service_key)
    user_id = (await client.auth.get_user()).user.id
    listed_by_admin = await admin.auth.admin.mfa.list_factors({"user_id": user_id})
    # The client answers the list itself (GoTrue's reply is a JSON array of factors).
    out["admin_listed"] = [f.status if f.id == factor else "another" for f in listed_by_admin]
    out["admin_other_user"] = await code_of(
        lambda: admin.auth.admin.mfa.delete_factor({"id": factor, "user_id": str(uuid.uuid4())}))
    out["admin_as_user"] = await code_of(lambda: client.auth.admin.mfa.list_factors({"user_id": user_id}))

    unenrolled = await client.auth.mfa.unenroll({"factor_id": factor})
    out["unenrolled"] = unenrolled.id == factor
    listed = await client.auth.mfa.list_factors()
    out["listed_after_unenroll"] = len(listed.all)
    refreshed = await client.auth.refresh_session()
    out["aal_after_unenroll"] = claims(refreshed.session.access_token)["aal"]

    # An admin removes a factor the user could not (no aal2 needed), and the list empties.
    spare = await client.auth.mfa.enroll({"factor_type": "totp", "friendly_name": "spare"})
    deleted = await admin.auth.admin.mfa.delete_factor({"id": spare.id, "user_id": user_id})
    out["admin_deleted"] = deleted.id == spare.id
    out["admin_listed_after_delete"] = len(await admin.auth.admin.mfa.list_factors({"user_id": user_id}))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
