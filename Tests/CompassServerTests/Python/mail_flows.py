"""Sign-up confirmation, password recovery, magic link and resend with the official client,
reading each mail from the SMTP server's directory. Prints one JSON object of outcomes.

usage: mail_flows.py URL ANON_KEY MAIL_DIRECTORY SITE_URL
"""
import base64
import email
import email.policy
import glob
import json
import os
import re
import sys
import time
import urllib.parse

import httpx
from supabase import ClientOptions
from supabase import create_client as create_pkce_client
from supabase_auth.errors import AuthApiError

url, anon, maildir, site = sys.argv[1:5]
out = {"codes": [], "links": []}
seen = set()


def next_mail(timeout=20):
    """The next message the SMTP server received: (to, subject, html)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        for path in sorted(glob.glob(os.path.join(maildir, "*.eml"))):
            if path not in seen:
                seen.add(path)
                with open(path, "rb") as file:
                    message = email.message_from_binary_file(file, policy=email.policy.default)
                html = message.get_body(("html",)).get_content()
                link = re.search(r'href="([^"]+)"', html).group(1).replace("&amp;", "&")
                code = re.search(r"<strong>(\d{6})</strong>", html).group(1)
                out["codes"].append(code)
                out["links"].append(link)
                return {"to": message["To"], "subject": message["Subject"], "from": message["From"],
                        "link": link, "code": code}
        time.sleep(0.1)
    return None


def no_mail(wait=1.5):
    time.sleep(wait)
    return not [p for p in glob.glob(os.path.join(maildir, "*.eml")) if p not in seen]


def open_link(link):
    """Follows the mailed link against the server under test (its host is the configured public URL)."""
    query = urllib.parse.urlsplit(link).query
    reply = httpx.get(f"{url}/auth/v1/verify?{query}", headers={"apikey": anon}, follow_redirects=False)
    location = reply.headers.get("location", "")
    base, _, fragment = location.partition("#")
    return reply.status_code, base, dict(urllib.parse.parse_qsl(fragment, keep_blank_values=True))


def create_client(url, key):
    """A client in the implicit flow: a link's session comes back in the redirect's fragment."""
    return create_pkce_client(url, key, options=ClientOptions(flow_type="implicit"))


def code_of(call):
    try:
        call()
        return None
    except AuthApiError as error:
        return error.code


client = create_client(url, anon)
address = "new.parent@example.com"

# Sign-up with confirmation: a user without a session, a mail with a link to the site.
signed_up = client.auth.sign_up({"email": address, "password": "first-password"})
out["sign_up_session"] = signed_up.session is not None
out["sign_up_identities"] = len(signed_up.user.identities or [])
mail = next_mail()
out["confirm_mail"] = {k: mail[k] for k in ("to", "subject", "from")}
out["confirm_link_base"] = mail["link"].split("?")[0]
out["signin_unconfirmed"] = code_of(lambda: client.auth.sign_in_with_password({"email": address, "password": "first-password"}))
status, base, fragment = open_link(mail["link"])
out["confirm"] = {"status": status, "base": base, "type": fragment.get("type"), "has_token": "access_token" in fragment}
confirmed = create_client(url, anon)
confirmed.auth.set_session(fragment["access_token"], fragment["refresh_token"])
me = confirmed.auth.get_user().user
out["confirmed_at"] = me.email_confirmed_at is not None
out["identity_verified"] = me.identities[0].identity_data.get("email_verified")
status, base, fragment = open_link(mail["link"])
out["confirm_again"] = {"status": status, "base": base, "error_code": fragment.get("error_code"), "error": fragment.get("error")}

# Recovery: the code from the mail signs in, then PUT /user sets the new password.
client.auth.reset_password_for_email(address, {"redirect_to": "https://evil.example/steal"})
mail = next_mail()
out["recovery_subject"] = mail["subject"]
out["recovery_redirect"] = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(mail["link"]).query)).get("redirect_to")
recovering = create_client(url, anon)
out["wrong_code"] = code_of(lambda: recovering.auth.verify_otp({"email": address, "token": "000000" if mail["code"] != "000000" else "111111", "type": "recovery"}))
session = recovering.auth.verify_otp({"email": address, "token": mail["code"], "type": "recovery"}).session
out["recovered"] = session is not None
recovering.auth.update_user({"password": "second-password"})
out["old_password"] = code_of(lambda: create_client(url, anon).auth.sign_in_with_password({"email": address, "password": "first-password"}))
out["new_password"] = create_client(url, anon).auth.sign_in_with_password(
    {"email": address, "password": "second-password"}).session is not None

# Recovery for an address without an account: the same reply, and no mail.
client.auth.reset_password_for_email("nobody@example.com")
out["unknown_recovery_no_mail"] = no_mail()

# Magic link and email OTP for the account; the link goes to an allowed redirect.
client.auth.sign_in_with_otp({"email": address, "options": {"email_redirect_to": "http://app.compass.test/welcome"}})
mail = next_mail()
out["magic_subject"] = mail["subject"]
status, base, fragment = open_link(mail["link"])
out["magic_link"] = {"status": status, "base": base, "type": fragment.get("type"), "has_token": "access_token" in fragment}
client.auth.sign_in_with_otp({"email": address})
mail = next_mail()
otp_session = create_client(url, anon).auth.verify_otp({"email": address, "token": mail["code"], "type": "email"}).session
out["email_otp"] = otp_session is not None and otp_session.user.email == address

# /otp for a new address makes the account and mails a confirmation; create_user false refuses.
out["otp_no_create"] = code_of(lambda: client.auth.sign_in_with_otp({"email": "stranger@example.com", "options": {"should_create_user": False}}))
client.auth.sign_in_with_otp({"email": "otp.new@example.com"})
mail = next_mail()
out["otp_new_subject"] = mail["subject"]
out["otp_new_verified"] = create_client(url, anon).auth.verify_otp(
    {"email": "otp.new@example.com", "token": mail["code"], "type": "email"}).session is not None

# Resend: a second confirmation mail for an unconfirmed account; the first code no longer works.
client.auth.sign_up({"email": "resend@example.com", "password": "resend-password"})
first = next_mail()
client.auth.resend({"type": "signup", "email": "resend@example.com"})
second = next_mail()
out["resend_subject"] = second["subject"]
out["resend_old_code"] = code_of(lambda: create_client(url, anon).auth.verify_otp({"email": "resend@example.com", "token": first["code"], "type": "signup"}))
out["resend_new_code"] = create_client(url, anon).auth.verify_otp(
    {"email": "resend@example.com", "token": second["code"], "type": "signup"}).session is not None
client.auth.resend({"type": "signup", "email": "resend@example.com"})
out["resend_confirmed_no_mail"] = no_mail()

# Email change: both addresses get a code; the address changes when both are confirmed.
changer = create_client(url, anon)
changer.auth.sign_in_with_password({"email": address, "password": "second-password"})
out["change_pending"] = changer.auth.update_user({"email": "changed.parent@example.com"}).user.new_email
mails = {m["to"]: m for m in (next_mail(), next_mail())}
old_mail, new_mail = mails.get(address), mails.get("changed.parent@example.com")
out["change_subjects"] = [old_mail and old_mail["subject"], new_mail and new_mail["subject"]]
first = changer.auth.verify_otp({"email": address, "token": old_mail["code"], "type": "email_change"})
out["change_after_first"] = first.session is not None
status, base, fragment = open_link(new_mail["link"])
out["change_second"] = {"status": status, "type": fragment.get("type"), "has_token": "access_token" in fragment}
out["changed_sign_in"] = create_client(url, anon).auth.sign_in_with_password(
    {"email": "changed.parent@example.com", "password": "second-password"}).session is not None
address = "changed.parent@example.com"

# Anonymous sign-in, then linking an address (one code, to the new address) and a password.
guest = create_client(url, anon)
anonymous = guest.auth.sign_in_anonymously()
payload = anonymous.session.access_token.split(".")[1]
claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
out["anonymous"] = {"user": anonymous.user.is_anonymous, "claim": claims.get("is_anonymous"),
                    "identities": len(anonymous.user.identities or [])}
guest.auth.update_user({"email": "was.guest@example.com"})
mail = next_mail()
linked = guest.auth.verify_otp({"email": "was.guest@example.com", "token": mail["code"], "type": "email_change"})
out["anonymous_linked"] = {"anonymous": linked.user.is_anonymous, "email": linked.user.email,
                           "identities": [i.provider for i in linked.user.identities or []]}
guest.auth.update_user({"password": "guest-password"})
out["anonymous_password"] = create_client(url, anon).auth.sign_in_with_password(
    {"email": "was.guest@example.com", "password": "guest-password"}).session is not None

# PKCE, the Python client's default flow: the link redirects with a code that only the client
# holding the verifier can exchange for a session.
pkce = create_pkce_client(url, anon)
pkce.auth.reset_password_for_email(address, {"redirect_to": "http://app.compass.test/reset"})
mail = next_mail()
token = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(mail["link"]).query))["token"]
status, base, fragment = open_link(mail["link"])
location = urllib.parse.urlsplit(base)
code = dict(urllib.parse.parse_qsl(location.query)).get("code")
out["pkce_link"] = {"status": status, "marked": token.startswith("pkce_"), "target": f"{location.scheme}://{location.netloc}{location.path}",
                    "code": code is not None, "session_in_url": "access_token" in fragment}
stranger = create_pkce_client(url, anon)
out["pkce_wrong_verifier"] = code_of(lambda: stranger.auth.exchange_code_for_session({"auth_code": code, "code_verifier": "x" * 43}))
pkce.auth.reset_password_for_email(address, {"redirect_to": "http://app.compass.test/reset"})
mail = next_mail()
status, base, fragment = open_link(mail["link"])
code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(base).query)).get("code")
exchanged = pkce.auth.exchange_code_for_session({"auth_code": code})
out["pkce_session"] = exchanged.session is not None and exchanged.user.email == address
out["pkce_replay"] = code_of(lambda: pkce.auth.exchange_code_for_session({"auth_code": code, "code_verifier": "y" * 43}))

print(json.dumps(out))
