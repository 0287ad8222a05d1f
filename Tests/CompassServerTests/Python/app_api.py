"""The README's /api example, run against a live compass-worker.

usage: app_api.py BASE_URL ANON_KEY SOFIA_TOKEN MARCUS_TOKEN
Prints one JSON object summarising what each call returned.
"""
import json
import sys
import urllib.error
import urllib.request

base, anon, sofia, marcus = sys.argv[1:5]


def call(method, path, token, body=None):
    request = urllib.request.Request(
        base + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"apikey": anon, "Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


summary = {}
status, feed = call("GET", "/api/v1/feed?range=all&search=visit", sofia)
summary["feed"] = [status, feed["total"], len(feed["events"])]
status, interactions = call("GET", "/api/v1/interactions", sofia)
first = interactions["interactions"][0]["id"]
summary["interactions"] = [status, interactions["analytics"]["totalCount"]]
status, notifications = call("GET", "/api/v1/notifications", sofia)
summary["notifications"] = [status, notifications["unreadCount"]]
status, marcus_view = call("GET", "/api/v1/interactions", marcus)
summary["marcus_sees_sofias"] = any(item["id"] == first for item in marcus_view["interactions"])
summary["marcus_delete"] = call("POST", f"/api/interactions/{first}/cascade-delete", marcus, {"confirmDelete": True})
summary["unconfirmed"] = call("POST", f"/api/interactions/{first}/cascade-delete", sofia, {})
summary["delete"] = call("POST", f"/api/interactions/{first}/cascade-delete", sofia, {"confirmDelete": True})
status, after = call("GET", "/api/v1/interactions", sofia)
summary["after"] = [status, after["analytics"]["totalCount"]]
print(json.dumps(summary))
