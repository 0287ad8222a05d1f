"""Drives compass-worker's /rest/v1 with the official supabase client, exactly as the
seed apps write their queries, and prints what it got as one JSON document.

usage: rest_client.py URL ANON_KEY TOKENS_JSON USERS_JSON
Checks that need several steps (mark read, clear, the refused insert) are asserted here;
the Swift test compares the reads with the data layer's results for the same user.
"""

import json
import sys
from datetime import datetime, timedelta, timezone

from postgrest.exceptions import APIError
from supabase import create_client

url, anon_key = sys.argv[1], sys.argv[2]
tokens, users = json.loads(sys.argv[3]), json.loads(sys.argv[4])


def client(who):
    supabase = create_client(url, anon_key)
    supabase.postgrest.auth(tokens[who])
    return supabase


def ids(rows):
    return [row["id"] for row in rows]


out = {}
sofia, marcus, maria = client("sofia"), client("marcus"), client("maria")
S, M, family = users["sofia"], users["marcus"], users["family"]

# Seed 000, the Activity Feed: three selects, then the school names.
feed_interactions = (
    sofia.table("interactions").select("id, school_id, type, content, subject, occurred_at, created_at")
    .eq("logged_by", S).order("created_at", desc=True).limit(50).execute().data)
feed_status = (
    sofia.table("school_status_history").select("id, school_id, new_status, notes, changed_at")
    .eq("changed_by", S).order("changed_at", desc=True).limit(50).execute().data)
feed_documents = (
    sofia.table("documents").select("id, title, type, created_at")
    .eq("user_id", S).order("created_at", desc=True).limit(50).execute().data)
school_ids = sorted({row["school_id"] for row in feed_interactions + feed_status if row["school_id"]})
feed_schools = sofia.table("schools").select("id, name").in_("id", school_ids).execute().data
out["feed"] = {
    "interactions": ids(feed_interactions), "status": ids(feed_status), "documents": ids(feed_documents),
    "schools": sorted(ids(feed_schools)), "timestamps": [row["created_at"] for row in feed_interactions],
}

# Seed 002, the Timeline.
events = sofia.table("events").select("id, type, name, start_date, end_date, school_id").eq("user_id", S).execute().data
timeline_interactions = (
    sofia.table("interactions").select("id, type, subject, occurred_at, created_at, school_id").eq("user_id", S).execute().data)
offers = sofia.table("offers").select("id, offer_type, offer_date, created_at, school_id").eq("athlete_id", S).execute().data
my_schools = sofia.table("schools").select("id, name").eq("user_id", S).execute().data
history = (
    sofia.table("school_status_history").select("*").in_("school_id", ids(my_schools))
    .order("changed_at", desc=True).execute().data)
out["timeline"] = {
    "events": sorted(ids(events)), "interactions": sorted(ids(timeline_interactions)), "offers": sorted(ids(offers)),
    "schools": sorted(ids(my_schools)), "history": ids(history),
}

# Seed 004, the Interactions list: athlete, then parent.
athlete = sofia.table("interactions").select("*").eq("logged_by", S).order("occurred_at", desc=True).execute().data
parent = maria.table("interactions").select("*").eq("family_unit_id", family).order("occurred_at", desc=True).execute().data
family_schools = maria.table("schools").select("id, name").eq("family_unit_id", family).execute().data
coaches = (
    maria.table("coaches").select("id, first_name, last_name, school_id").in_("school_id", ids(family_schools)).execute().data)
out["interactions"] = {
    "athlete": ids(athlete), "parent": ids(parent), "schools": sorted(ids(family_schools)), "coaches": sorted(ids(coaches)),
    "marcus_sees_sofias": marcus.table("interactions").select("*").eq("logged_by", S).execute().data,
    "marcus_sees_rivera": marcus.table("interactions").select("id").eq("family_unit_id", family).execute().data,
}
# supabase-swift sends upper-case UUIDs and nullslast: the same rows come back.
upper = (
    sofia.table("interactions").select("id, occurred_at").eq("logged_by", S.upper())
    .order("occurred_at", desc=True, nullsfirst=False).execute().data)
assert sorted(ids(upper)) == sorted(ids(athlete)), (ids(upper), ids(athlete))
dated = [row["occurred_at"] for row in upper]
assert dated == sorted([d for d in dated if d], reverse=True) + [None] * dated.count(None), dated

# Seed 001, notifications: the 30-day list with actor profiles, the unread badge, paging, one row.
since = (datetime.now(timezone.utc) - timedelta(days=30)).isoformat()
listed = (
    sofia.table("activities").select("*, actor:profiles!actor_id(username, full_name, avatar_url)")
    .eq("user_id", S).gte("created_at", since).order("created_at", desc=True).execute().data)
unread = sofia.table("activities").select("id", count="exact").eq("user_id", S).eq("is_read", False).execute()
page = sofia.table("activities").select("id", count="exact").eq("user_id", S).order("created_at", desc=True).range(0, 1).execute()
one = sofia.table("activities").select("*").eq("id", listed[0]["id"]).single().execute()
out["notifications"] = {
    "ids": ids(listed), "actors": [row["actor"] for row in listed], "unread": unread.count,
    "page": ids(page.data), "page_count": page.count, "single": one.data["id"],
    "jordan_sees_sofias": client("jordan").table("activities").select("id").eq("user_id", S).execute().data,
}

# Mark one, a group, then all read; delete one; clear.
unread_ids = [row["id"] for row in listed if not row["is_read"]]
assert len(unread_ids) >= 2, unread_ids
marked = sofia.table("activities").update({"is_read": True}).eq("id", unread_ids[0]).execute().data
assert [row["is_read"] for row in marked] == [True], marked
group = sofia.table("activities").update({"is_read": True}).in_("id", unread_ids[1:]).execute().data
assert sorted(ids(group)) == sorted(unread_ids[1:]), group
left = sofia.table("activities").select("id", count="exact").eq("user_id", S).eq("is_read", False).execute().count
assert left == unread.count - len(unread_ids), (left, unread.count)
untouched = marcus.table("activities").update({"is_read": True}).eq("user_id", S).execute().data
assert untouched == [], untouched
sofia.table("activities").update({"is_read": True}).eq("user_id", S).eq("is_read", False).execute()
after_all = sofia.table("activities").select("id", count="exact").eq("user_id", S).eq("is_read", False).execute().count
assert after_all == 0, after_all
deleted = sofia.table("activities").delete().eq("id", listed[0]["id"]).execute().data
assert ids(deleted) == [listed[0]["id"]], deleted
cleared = sofia.table("activities").delete().eq("user_id", S).execute().data
assert len(cleared) >= len(listed) - 1, (len(cleared), len(listed))
assert sofia.table("activities").select("id").eq("user_id", S).execute().data == []

# Activities are made by triggers only: a user's insert is refused with PostgREST's error.
try:
    sofia.table("activities").insert({"user_id": S, "actor_id": users["jordan"], "activity_type": "like"}).execute()
    out["activities_insert"] = "accepted"
except APIError as error:
    out["activities_insert"] = {"code": error.code, "message": error.message}

# Seed 003, the parent activity log: record one, read the family's last 30 days, newest first.
recorded = (
    maria.table("parent_activities").insert({
        "family_unit_id": family, "triggering_user_id": users["maria"], "activity_type": "points_adjusted",
        "target_entity": "child", "target_entity_id": S, "changes": {"points": {"before": 10, "after": 15}},
        "device_id": "e2e"}).execute().data)
feed = (
    maria.table("parent_activities").select("*").eq("family_unit_id", family).gte("created_at", since)
    .order("created_at", desc=True).order("id", desc=True).limit(20).execute().data)
second_page = (
    maria.table("parent_activities").select("id").eq("family_unit_id", family).gte("created_at", since)
    .order("created_at", desc=True).order("id", desc=True).range(2, 3).execute().data)
out["family"] = {
    "recorded": recorded[0]["id"], "feed": ids(feed), "second_page": ids(second_page), "changes": feed[0]["changes"],
    "sofia_sees": sofia.table("parent_activities").select("id").eq("family_unit_id", family).execute().data,
}

print(json.dumps(out))
