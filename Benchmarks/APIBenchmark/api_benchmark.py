#!/usr/bin/env python3
"""The Activity Feed over /rest/v1 (as supabase-swift loads it) versus GET /api/v1/feed.

Not a test: it prints a table. For each of --users users with 50+ rows in every feed
source it loads the feed --iterations times each way, over ONE keep-alive HTTP/1.1
connection per way, and reports requests per feed and p50/p99/mean latency.

REST way, exactly the requests an app using supabase-swift sends (DESIGN.md section 3):
  1. interactions?select=id,school_id,type,content,subject,occurred_at,created_at
        &logged_by=eq.<UPPER-CASE UUID>&order=created_at.desc.nullslast&limit=50
  2. school_status_history?select=id,school_id,new_status,notes,changed_at
        &changed_by=eq.<UUID>&order=changed_at.desc.nullslast&limit=50
  3. documents?select=id,title,type,created_at&user_id=eq.<UUID>&order=created_at.desc.nullslast&limit=50
  4. schools?select=id,name&id=in.(<distinct school ids of 1 and 2>)
  one after another on the one connection (4 requests, 4 database transactions).
API way: GET /api/v1/feed (1 request, the data layer's two pipelined round trips).

Both ways decode the JSON they receive (the app must, to build the hydration query).
Before timing, --verify-users users are checked once: the /api feed's first page must hold
the same 20 events (ids, order and school names) as the REST rows merged by the feed rules.
Stdlib only; tokens come from `compass token --user` (or are minted here with --mint --secret).
"""

import argparse
import base64
import hashlib
import hmac
import http.client
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.parse
from datetime import datetime

FEED_PAGE_SIZE = 20
PER_SOURCE_LIMIT = 50

HEAVY_USERS_SQL = """
SELECT i.logged_by
  FROM (SELECT logged_by FROM interactions GROUP BY logged_by HAVING count(*) >= 50) AS i
  JOIN (SELECT changed_by FROM school_status_history GROUP BY changed_by HAVING count(*) >= 50) AS s
    ON s.changed_by = i.logged_by
  JOIN (SELECT user_id FROM documents GROUP BY user_id HAVING count(*) >= 50) AS d ON d.user_id = i.logged_by
 ORDER BY i.logged_by
 LIMIT {limit}
"""


class BenchmarkError(Exception):
    """A failure that ends the run with a one-line message."""


# --- set-up: users, keys, tokens -------------------------------------------------------------

def find_compass(explicit):
    """The compass binary: --compass, else the release build in this checkout, else PATH."""
    if explicit:
        return explicit
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for scratch in (".build-bench", ".build"):
        candidate = os.path.join(root, scratch, "release", "compass")
        if os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("compass")


def run_compass(compass, args, secret):
    """Output of `compass ARGS` with COMPASS_JWT_SECRET set, stripped."""
    if not compass:
        raise BenchmarkError("no compass binary: pass --compass, or --secret and --anon-key")
    env = dict(os.environ)
    if secret:
        env["COMPASS_JWT_SECRET"] = secret
    done = subprocess.run([compass, *args], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchmarkError(f"compass {args[0]} failed: {done.stderr.strip()}")
    return done.stdout.strip()


def heavy_users(database_url, limit):
    """Users with 50+ rows in each feed source, read with psql."""
    if not database_url:
        raise BenchmarkError("pass --database-url (or DATABASE_URL) or --user-ids")
    done = subprocess.run(
        ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", database_url,
         "-c", HEAVY_USERS_SQL.format(limit=int(limit))],
        capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchmarkError(f"psql failed: {done.stderr.strip()}")
    users = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if not users:
        raise BenchmarkError("no user has 50+ rows in every feed source: run `compass seed scale --users 2000` first")
    return users


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def mint_token(secret, user, lifetime=3600):
    """The same HS256 access token `compass token --user USER` mints."""
    now = int(time.time())
    header = {"alg": "HS256", "typ": "JWT"}
    claims = {"aud": "authenticated", "exp": now + lifetime, "iat": now, "role": "authenticated", "sub": user.lower()}
    signing_input = b64url(json.dumps(header, separators=(",", ":")).encode()) + "." + \
        b64url(json.dumps(claims, separators=(",", ":")).encode())
    signature = hmac.new(secret.encode(), signing_input.encode(), hashlib.sha256).digest()
    return signing_input + "." + b64url(signature)


# --- the two ways of loading the feed -----------------------------------------------------------

class CountingConnection(http.client.HTTPConnection):
    """An HTTPConnection that counts its TCP connects, to prove keep-alive held."""

    connects = 0

    def connect(self):
        self.connects += 1
        super().connect()


class Client:
    """One persistent HTTP/1.1 connection; every response is read to the end so it is reused."""

    def __init__(self, url, anon_key):
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme != "http":
            raise BenchmarkError(f"--url must be http://host:port, got {url}")
        self.prefix = parsed.path.rstrip("/")
        self.connection = CountingConnection(parsed.hostname, parsed.port or 80, timeout=30)
        self.anon_key = anon_key
        self.requests = 0
        self.bytes = 0

    def get(self, path, token):
        # The headers supabase-swift sends on a select (it sends Content-Type even on GET).
        headers = {
            "apikey": self.anon_key, "Authorization": f"Bearer {token}",
            "Content-Type": "application/json", "Accept": "application/json",
            "X-Client-Info": "api-benchmark/1.0",
        }
        self.connection.request("GET", self.prefix + path, headers=headers)
        response = self.connection.getresponse()
        body = response.read()
        self.requests += 1
        self.bytes += len(body)
        if response.status != 200:
            raise BenchmarkError(f"GET {path} -> {response.status}: {body[:300].decode(errors='replace')}")
        if response.getheader("Connection", "").lower() == "close":
            raise BenchmarkError(f"GET {path}: the server closed the keep-alive connection")
        return json.loads(body)

    def close(self):
        self.connection.close()


def rest_feed(client, user, token):
    """The four /rest/v1 requests, as supabase-swift sends them; returns the rows and school names."""
    upper = user.upper()  # supabase-swift sends UUID.uuidString, upper-case
    interactions = client.get(
        "/rest/v1/interactions?select=id,school_id,type,content,subject,occurred_at,created_at"
        f"&logged_by=eq.{upper}&order=created_at.desc.nullslast&limit={PER_SOURCE_LIMIT}", token)
    statuses = client.get(
        "/rest/v1/school_status_history?select=id,school_id,new_status,notes,changed_at"
        f"&changed_by=eq.{upper}&order=changed_at.desc.nullslast&limit={PER_SOURCE_LIMIT}", token)
    documents = client.get(
        "/rest/v1/documents?select=id,title,type,created_at"
        f"&user_id=eq.{upper}&order=created_at.desc.nullslast&limit={PER_SOURCE_LIMIT}", token)
    school_ids = sorted({row["school_id"].upper() for row in interactions + statuses if row["school_id"]})
    schools = client.get(f"/rest/v1/schools?select=id,name&id=in.({','.join(school_ids)})", token) \
        if school_ids else []
    return interactions, statuses, documents, {row["id"].lower(): row["name"] for row in schools}


def api_feed(client, token):
    """The one /api request."""
    return client.get("/api/v1/feed", token)


# --- verification: same events both ways ----------------------------------------------------------

FRACTION = re.compile(r"\.(\d+)")


def parse_time(text):
    """A PostgREST/ISO 8601 timestamp, fraction padded to microseconds for fromisoformat."""
    text = FRACTION.sub(lambda m: "." + (m.group(1) + "000000")[:6], text.replace("Z", "+00:00"), count=1)
    return datetime.fromisoformat(text)


def merged_rest_events(interactions, statuses, documents, schools):
    """(id, time, entity name) of the REST rows merged as the feed rules do: newest first, ties by id."""
    events = [("interaction-" + r["id"], parse_time(r["occurred_at"] or r["created_at"]),
               schools.get((r["school_id"] or "").lower(), "Unknown School")) for r in interactions]
    events += [("status-" + r["id"], parse_time(r["changed_at"]),
                schools.get((r["school_id"] or "").lower(), "Unknown School")) for r in statuses]
    events += [("doc-" + r["id"], parse_time(r["created_at"]), r["title"]) for r in documents]
    events.sort(key=lambda e: (e[1], e[0]), reverse=True)
    return events


def verify(client_rest, client_api, users, tokens):
    """Checks that both ways give the same first page; returns a one-line summary or raises."""
    kinds = {}
    for user in users:
        rest = merged_rest_events(*rest_feed(client_rest, user, tokens[user]))[:FEED_PAGE_SIZE]
        api = api_feed(client_api, tokens[user])["events"][:FEED_PAGE_SIZE]
        rest_ids, api_ids = [e[0] for e in rest], [e["id"].lower() for e in api]
        if set(rest_ids) != set(api_ids):
            raise BenchmarkError(
                f"user {user}: top {FEED_PAGE_SIZE} differ: only REST {sorted(set(rest_ids) - set(api_ids))}, "
                f"only /api {sorted(set(api_ids) - set(rest_ids))}")
        if rest_ids != api_ids:
            raise BenchmarkError(f"user {user}: same top {FEED_PAGE_SIZE} events in a different order")
        names = [e[2] for e in rest]
        if names != [e["entityName"] for e in api]:
            raise BenchmarkError(f"user {user}: entity (school/document) names differ")
        if len(rest_ids) < FEED_PAGE_SIZE:
            raise BenchmarkError(f"user {user}: fewer than {FEED_PAGE_SIZE} events")
        for event_id in rest_ids:
            kind = event_id.split("-", 1)[0]
            kinds[kind] = kinds.get(kind, 0) + 1
    mix = ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))
    return (f"verified {len(users)} users: /api/v1/feed page 1 == the REST rows merged by the feed rules "
            f"(same {FEED_PAGE_SIZE} ids in the same order, same school/document names; events checked: {mix})")


# --- measurement and report ---------------------------------------------------------------------

def percentile(sorted_values, fraction):
    """Nearest-rank percentile of an ascending list."""
    return sorted_values[max(1, math.ceil(fraction * len(sorted_values))) - 1]


def measure(args, users, tokens, client_rest, client_api):
    """Latencies in ns per way; warm-up loads are not recorded. The two ways alternate which goes first."""
    samples = {"rest": [], "api": []}
    ways = {"rest": lambda u: rest_feed(client_rest, u, tokens[u]), "api": lambda u: api_feed(client_api, tokens[u])}
    for user in users:
        for _ in range(args.warmup):
            ways["rest"](user)
            ways["api"](user)
    counted = {"rest": (client_rest.requests, client_rest.bytes), "api": (client_api.requests, client_api.bytes)}
    for iteration in range(args.iterations):
        order = ("rest", "api") if iteration % 2 == 0 else ("api", "rest")
        for user in users:
            for way in order:
                start = time.perf_counter_ns()
                ways[way](user)
                samples[way].append(time.perf_counter_ns() - start)
    loads = len(users) * args.iterations
    per_feed = {
        "rest": ((client_rest.requests - counted["rest"][0]) / loads, (client_rest.bytes - counted["rest"][1]) / loads),
        "api": ((client_api.requests - counted["api"][0]) / loads, (client_api.bytes - counted["api"][1]) / loads),
    }
    return samples, per_feed


def report(samples, per_feed):
    stats = {}
    for way, values in samples.items():
        values = sorted(values)
        stats[way] = (percentile(values, 0.50) / 1e6, percentile(values, 0.99) / 1e6, statistics.fmean(values) / 1e6)
    rows = [
        ("/rest/v1 (supabase-swift: 3 selects + schools)", f"{per_feed['rest'][0]:.0f}",
         *(f"{v:.2f} ms" for v in stats["rest"]), f"{per_feed['rest'][1] / 1024:.1f} KiB"),
        ("GET /api/v1/feed", f"{per_feed['api'][0]:.0f}", *(f"{v:.2f} ms" for v in stats["api"]),
         f"{per_feed['api'][1] / 1024:.1f} KiB"),
        ("ratio /rest/v1 ÷ /api", f"{per_feed['rest'][0] / per_feed['api'][0]:.0f}×",
         *(f"{r / a:.2f}×" for r, a in zip(stats["rest"], stats["api"])), ""),
    ]
    header = ("way of loading", "requests/feed", "p50", "p99", "mean", "bytes/feed")
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    line = lambda cells: "| " + " | ".join(
        str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(cells, widths))) + " |"
    print(line(header))
    print("|" + "|".join(("-" * (w + 1) + ":") if i else ("-" * (w + 2)) for i, w in enumerate(widths)) + "|")
    for row in rows:
        print(line(row))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:4100", help="the compass-worker base URL")
    parser.add_argument("--anon-key", help="the anon key (default: `compass keys --anon`)")
    parser.add_argument("--secret", default=os.environ.get("COMPASS_JWT_SECRET"),
                        help="the worker's COMPASS_JWT_SECRET (default: $COMPASS_JWT_SECRET); "
                             "`compass token --user` and `compass keys --anon` sign with it")
    parser.add_argument("--mint", action="store_true",
                        help="mint the HS256 tokens here with --secret instead of calling `compass token`")
    parser.add_argument("--compass", help="the compass binary (default: .build-bench/release/compass, then PATH)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"),
                        help="to pick users with 50+ rows per source with psql (default: $DATABASE_URL)")
    parser.add_argument("--user-ids", help="comma-separated user ids instead of --database-url")
    parser.add_argument("--users", type=int, default=30, help="how many users (default 30)")
    parser.add_argument("--iterations", type=int, default=20, help="timed loads per user and way (default 20)")
    parser.add_argument("--warmup", type=int, default=2, help="untimed loads per user and way first (default 2)")
    parser.add_argument("--verify-users", type=int, default=None,
                        help="users checked for the same events both ways (default: all)")
    args = parser.parse_args()
    if args.users < 1 or args.iterations < 1 or args.warmup < 0:
        parser.error("--users and --iterations must be 1 or more, --warmup 0 or more")

    try:
        compass = find_compass(args.compass)
        users = [u.strip() for u in args.user_ids.split(",") if u.strip()][: args.users] if args.user_ids \
            else heavy_users(args.database_url, args.users)
        anon_key = args.anon_key or run_compass(compass, ["keys", "--anon"], args.secret)
        if args.mint and not args.secret:
            raise BenchmarkError("--mint needs --secret (or COMPASS_JWT_SECRET)")
        tokens = {u: mint_token(args.secret, u) if args.mint else run_compass(compass, ["token", "--user", u], args.secret)
                  for u in users}
        client_rest, client_api = Client(args.url, anon_key), Client(args.url, anon_key)
        print(f"API benchmark: {len(users)} users, {args.iterations} timed loads "
              f"each per way ({args.warmup} warm-up), one keep-alive HTTP/1.1 connection per way, {args.url}")
        print(verify(client_rest, client_api, users[: args.verify_users], tokens))
        samples, per_feed = measure(args, users, tokens, client_rest, client_api)
        connects = (client_rest.connection.connects, client_api.connection.connects)
        client_rest.close()
        client_api.close()
        if connects != (1, 1):
            raise BenchmarkError(f"keep-alive did not hold: {connects[0]} REST and {connects[1]} /api TCP connections")
    except (BenchmarkError, OSError, http.client.HTTPException) as error:
        print(f"api_benchmark: {error}", file=sys.stderr)
        return 1
    print(f"{len(samples['rest'])} timed loads per way, each way on 1 TCP connection throughout")
    report(samples, per_feed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
