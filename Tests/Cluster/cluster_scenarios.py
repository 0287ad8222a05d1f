"""The multi-worker scenarios, against a topology started by `scripts/cluster start DIR`.

usage: cluster_scenarios.py DIR ANON_KEY SERVICE_ROLE_KEY

Each scenario prints PASS or FAIL with what it saw; the exit code is the number of failures.
HTTP goes through urllib (one connection per request); realtime through the official
`realtime` client, which reconnects and rejoins by itself as apps' clients do.
"""
import asyncio
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid

from realtime import AsyncRealtimeClient, RealtimeSubscribeStates

DIR, ANON, SERVICE = sys.argv[1:4]
ENV = dict(re.findall(r"^(\w+)='(.*)'$", open(os.path.join(DIR, "env")).read(), re.M))
LB = ENV["COMPASS_URL"]
WORKERS = [f"http://127.0.0.1:{port}" for port in ENV["WORKER_PORTS"].split()]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOFIA = "a1000000-0000-4000-8000-000000000003"
JORDAN = "a1000000-0000-4000-8000-000000000007"
PASSWORD = "compass-demo-password"
failures = []


def http(method, url, body=None, key=ANON, token=None, headers=None):
    """(status, parsed JSON or text) of one request."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("apikey", key)
    request.add_header("Authorization", f"Bearer {token or key}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            status, text = reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, text


def sign_in(base, email, password=PASSWORD):
    return http("POST", f"{base}/auth/v1/token?grant_type=password", {"email": email, "password": password})


def cluster(*args):
    subprocess.run([os.path.join(ROOT, "scripts/cluster"), *args], check=True, cwd=ROOT)


def check(name, ok, detail):
    print(("PASS " if ok else "FAIL ") + name + ": " + detail, flush=True)
    if not ok:
        failures.append(name)


def realtime_clients(worker):
    """The worker's realtime_clients gauge."""
    with urllib.request.urlopen(f"{worker}/metrics", timeout=10) as reply:
        match = re.search(r"^realtime_clients (\S+)$", reply.read().decode(), re.M)
    return int(float(match.group(1))) if match else -1


def insert_activity(recipient, base=LB):
    """A follow notification for `recipient`, inserted as service_role; its id."""
    row_id = str(uuid.uuid4())
    status, body = http(
        "POST", f"{base}/rest/v1/activities", {"id": row_id, "user_id": recipient, "actor_id": JORDAN, "activity_type": "follow"},
        key=SERVICE, headers={"Prefer": "return=minimal"})
    assert status == 201, f"insert answered {status}: {body}"
    return row_id


class Subscriber:
    """One realtime client subscribed to inserts on activities; collects the new rows' ids."""

    def __init__(self, base, token, auto_reconnect=True):
        self.client = AsyncRealtimeClient(base.replace("http", "ws", 1) + "/realtime/v1", token, auto_reconnect=auto_reconnect,
                                          initial_backoff=0.5, max_retries=20)
        self.ids = []
        self.joins = 0
        self.joined = asyncio.Event()

    async def start(self):
        await self.client.connect()
        channel = self.client.channel(f"cluster-{uuid.uuid4()}")
        channel.on_postgres_changes("INSERT", self._received, table="activities", schema="public")

        def on_state(state, _error):
            if state == RealtimeSubscribeStates.SUBSCRIBED:
                self.joins += 1
                self.joined.set()

        await channel.subscribe(on_state)
        await asyncio.wait_for(self.joined.wait(), 20)
        return self

    def _received(self, payload):
        self.ids.append(payload["data"]["record"]["id"])

    async def wait_for(self, row_id, seconds):
        deadline = time.monotonic() + seconds
        while row_id not in self.ids and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return row_id in self.ids

    async def close(self):
        await self.client.close()


async def realtime_reaches_every_worker(sofia_token, jordan_token):
    """A row inserted through one worker reaches its subscribers on every worker, and RLS holds on each."""
    sofias = [await Subscriber(worker, sofia_token).start() for worker in WORKERS]
    jordan = await Subscriber(WORKERS[0], jordan_token).start()
    row_id = insert_activity(SOFIA, base=WORKERS[-1])
    received = [await subscriber.wait_for(row_id, 10) for subscriber in sofias]
    await asyncio.sleep(1)
    check("realtime on every worker", all(received) and all(s.ids.count(row_id) == 1 for s in sofias),
          f"Sofia's subscribers on {len(WORKERS)} workers got the row: {received}")
    check("realtime RLS on every worker", row_id not in jordan.ids, "Jordan (not the recipient) did not get Sofia's row")
    for subscriber in sofias + [jordan]:
        await subscriber.close()


def sign_in_budget_is_shared():
    """Wrong passwords spread over every worker share one budget (10 per email), kept in Postgres."""
    email = f"cluster-{uuid.uuid4().hex[:8]}@example.com"
    status, body = http("POST", f"{LB}/auth/v1/admin/users", {"email": email, "password": PASSWORD, "email_confirm": True}, key=SERVICE)
    assert status == 200, f"admin create answered {status}: {body}"
    codes = [sign_in(WORKERS[i % len(WORKERS)], email, "wrong-password")[1].get("error_code") for i in range(14)]
    check("sign-in budget across workers", codes == ["invalid_credentials"] * 10 + ["over_request_rate_limit"] * 4,
          f"14 wrong passwords over {len(WORKERS)} workers: {codes.count('invalid_credentials')} checked, "
          f"{codes.count('over_request_rate_limit')} refused")


def refresh_reuse_is_detected_across_workers():
    """A refresh token replayed on another worker, after two rotations elsewhere, ends the session everywhere."""
    _, session = sign_in(WORKERS[0], "maria.rivera@example.com")
    tokens = [session["refresh_token"]]
    for worker in WORKERS[1:3] if len(WORKERS) >= 3 else WORKERS[:2]:
        status, rotated = http("POST", f"{worker}/auth/v1/token?grant_type=refresh_token", {"refresh_token": tokens[-1]})
        assert status == 200, f"refresh answered {status}: {rotated}"
        tokens.append(rotated["refresh_token"])
    time.sleep(float(os.environ.get("COMPASS_AUTH_REFRESH_REUSE_INTERVAL", "10")) + 1)
    replay, _ = http("POST", f"{WORKERS[-1]}/auth/v1/token?grant_type=refresh_token", {"refresh_token": tokens[0]})
    current, _ = http("POST", f"{WORKERS[0]}/auth/v1/token?grant_type=refresh_token", {"refresh_token": tokens[-1]})
    check("refresh reuse across workers", replay == 400 and current == 400,
          f"the first token replayed on another worker: {replay}; the session's current token afterwards: {current}")


def schema_reload_reaches_every_worker():
    """`NOTIFY pgrst, 'reload schema'` reaches every worker's schema cache."""
    table = f"cluster_probe_{uuid.uuid4().hex[:8]}"
    psql = ["psql", ENV["DIRECT_DATABASE_URL"], "-q", "-v", "ON_ERROR_STOP=1", "-c"]
    subprocess.run(psql + [f"CREATE TABLE public.{table} (id int PRIMARY KEY); ALTER TABLE public.{table} ENABLE ROW LEVEL SECURITY; "
                           f"GRANT SELECT ON public.{table} TO service_role; INSERT INTO public.{table} VALUES (7)"], check=True)
    subprocess.run(psql + ["NOTIFY pgrst, 'reload schema'"], check=True)
    deadline, statuses = time.monotonic() + 10, []
    while time.monotonic() < deadline:
        statuses = [http("GET", f"{worker}/rest/v1/{table}?select=id", key=SERVICE)[0] for worker in WORKERS]
        if statuses == [200] * len(WORKERS):
            break
        time.sleep(0.2)
    check("schema reload on every worker", statuses == [200] * len(WORKERS), f"each worker's answer for the new table: {statuses}")


async def sigkill_mid_stream(sofia_token):
    """The worker holding a subscriber is killed: the client reconnects through haproxy, rejoins, and gets new rows."""
    subscriber = await Subscriber(LB, sofia_token).start()
    holders = [n for n, worker in enumerate(WORKERS, 1) if realtime_clients(worker) == 1]
    if len(holders) != 1:
        check("SIGKILL mid-stream", False, f"expected one worker holding the client, saw {holders}")
        return
    first = insert_activity(SOFIA)
    got_first = await subscriber.wait_for(first, 10)
    cluster("worker", DIR, str(holders[0]), "kill")
    deadline = time.monotonic() + 30
    while subscriber.joins < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    after = insert_activity(SOFIA)
    got_after = await subscriber.wait_for(after, 15)
    await subscriber.close()
    cluster("worker", DIR, str(holders[0]), "start")
    check("SIGKILL mid-stream", got_first and subscriber.joins >= 2 and got_after,
          f"worker {holders[0]} killed; the client rejoined ({subscriber.joins} joins) and got the next row: {got_after}")


async def rolling_restart(sofia_token):
    """Every worker restarted in turn under steady traffic: no request fails; realtime clients come back."""
    subscriber = await Subscriber(LB, sofia_token).start()
    stop = threading.Event()
    outcomes = []

    def traffic(kind):
        while not stop.is_set():
            try:
                if kind == "read":
                    status, _ = http("GET", f"{LB}/rest/v1/schools?select=id,name&limit=5", token=sofia_token)
                else:
                    status, _ = sign_in(LB, "daniel.rivera@example.com")
            except Exception as error:  # a refused or dropped connection is a failed request
                status = repr(error)
            outcomes.append((kind, status))

    threads = [threading.Thread(target=traffic, args=(kind,)) for kind in ("read", "read", "sign-in")]
    for thread in threads:
        thread.start()
    time.sleep(1)
    for n in range(1, len(WORKERS) + 1):
        await asyncio.to_thread(cluster, "worker", DIR, str(n), "restart")
    time.sleep(1)
    stop.set()
    for thread in threads:
        thread.join()
    failed = [outcome for outcome in outcomes if outcome[1] != 200]
    row_id = insert_activity(SOFIA)
    got = await subscriber.wait_for(row_id, 15)
    await subscriber.close()
    check("rolling restart", not failed and len(outcomes) > 50,
          f"{len(outcomes)} requests while {len(WORKERS)} workers restarted, {len(failed)} failed {failed[:5]}")
    check("rolling restart: realtime", got, f"the subscriber rejoined after {subscriber.joins} joins and got the next row: {got}")


async def main():
    status, sofia = sign_in(LB, "sofia.rivera@example.com")
    assert status == 200, f"sign-in answered {status}: {sofia}"
    _, jordan = sign_in(LB, "jordan.blake@example.com")
    await realtime_reaches_every_worker(sofia["access_token"], jordan["access_token"])
    sign_in_budget_is_shared()
    refresh_reuse_is_detected_across_workers()
    schema_reload_reaches_every_worker()
    await sigkill_mid_stream(sofia["access_token"])
    await rolling_restart(sofia["access_token"])
    print(f"{len(failures)} of the cluster scenarios failed" if failures else "every cluster scenario passed", flush=True)
    return len(failures)


sys.exit(asyncio.run(main()))
