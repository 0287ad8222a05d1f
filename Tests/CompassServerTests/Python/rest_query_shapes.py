"""Drives compass-worker's /rest/v1 with the official supabase client through the PostgREST
features beyond the seeds' queries: casts on JSON paths, full-text search configurations,
embed filters, many-to-many and spread embeds, stripped nulls, CSV, max-affected, missing=default
and planned counts.

usage: rest_query_shapes.py URL ANON_KEY SERVICE_KEY TOKENS_JSON USERS_JSON
Every check is asserted here; the last line printed is a JSON summary of what was checked.
Run after rest_client.py on the same server (RESTClientTests), so it reads only what that leaves.
"""

import json
import sys

from postgrest.exceptions import APIError
from supabase import create_client

url, anon_key, service_key = sys.argv[1], sys.argv[2], sys.argv[3]
tokens, users = json.loads(sys.argv[4]), json.loads(sys.argv[5])


def client(who):
    supabase = create_client(url, anon_key)
    supabase.postgrest.auth(tokens[who])
    return supabase


sofia, maria = client("sofia"), client("maria")
service = create_client(url, service_key)
S = users["sofia"]
checked = []

# Casts apply to the value a JSON path reads, not to its last key.
points = (
    maria.table("parent_activities").select("after:changes->points->>after::int")
    .eq("changes->points->>after", "150").execute().data)
assert points == [{"after": 150}], points
attachments = (
    sofia.table("interactions").select("first:attachments->>0").eq("attachments->>0", "transcript-fall.pdf").execute().data)
assert attachments == [{"first": "transcript-fall.pdf"}], attachments
checked.append("json paths")

# Full-text search reads the column in the query's configuration; jsonb columns are searchable.
french = sofia.table("interactions").select("id").text_search("content", "the", options={"config": "french", "type": "plain"}).execute().data
assert len(french) > 0, french
learning = (
    maria.table("parent_activities").select("activity_type")
    .text_search("changes", "learning", options={"config": "english", "type": "web_search"}).execute().data)
assert sorted(row["activity_type"] for row in learning) == ["app_categorization_added", "app_categorization_modified"], learning
checked.append("full-text search")

# Filters on an embed's presence, and empty embeds that only filter.
unassigned = sofia.table("interactions").select("id, schools()").is_("schools", "null").execute().data
assert unassigned and all(list(row) == ["id"] for row in unassigned), unassigned
assigned = sofia.table("interactions").select("id, schools(name)").not_.is_("schools", "null").execute().data
assert all(row["schools"]["name"] for row in assigned), assigned
stanford = sofia.table("interactions").select("id, schools!inner()").eq("schools.name", "Stanford University").execute().data
assert stanford and all(list(row) == ["id"] for row in stanford), stanford
checked.append("embed filters")

# Many-to-many through likes; spread embeds.
liked = service.table("profiles").select("username, posts!likes(caption)").eq("user_id", S).single().execute().data
assert sorted(post["caption"] for post in liked["posts"]) == [
    "Four strikeouts at the Phoenix showcase.", "Sunday pickup game, all welcome."], liked
spread = sofia.table("schools").select("name, ...coaches(first_name)").eq("name", "UCLA").single().execute().data
assert spread == {"name": "UCLA", "first_name": ["Dana"]}, spread
checked.append("many-to-many and spread")

# Stripped nulls and CSV.
stripped = (
    sofia.table("interactions").select("id, subject").eq("id", "1a000000-0000-4000-8000-000000000010")
    .strip_nulls().execute().data)
assert stripped == [{"id": "1a000000-0000-4000-8000-000000000010"}], stripped
csv = sofia.table("schools").select("name").eq("name", "UCLA").csv().execute().data
assert csv == "name\nUCLA", csv
checked.append("stripped nulls and csv")

# max-affected under handling=strict refuses a wider write and leaves the rows alone.
try:
    sofia.table("interactions").update({"sentiment": "negative"}).eq("logged_by", S).max_affected(1).execute()
    raise AssertionError("max-affected was not enforced")
except APIError as error:
    assert error.code == "PGRST124", error
negative = sofia.table("interactions").select("id", count="exact").eq("logged_by", S).eq("sentiment", "negative").execute().count
assert negative == 0, negative
checked.append("max-affected")

# default_to_null=False sends columns= and Prefer: missing=default: a key a row lacks takes its default.
base = maria.table("parent_activities").select("family_unit_id, triggering_user_id").limit(1).execute().data[0]
base.update({"activity_type": "child_added", "target_entity": "child", "target_entity_id": S})
rows = maria.table("parent_activities").insert([{**base, "changes": {"note": 1}}, base], default_to_null=False).execute().data
assert [row["changes"] for row in rows] == [{"note": 1}, {}], rows
checked.append("missing=default")

# count="planned" is the planner's estimate: a number, whatever the rows.
planned = sofia.table("schools").select("id", count="planned").limit(1).execute()
assert isinstance(planned.count, int) and planned.count >= 0, planned.count
checked.append("planned count")

print(json.dumps({"checked": checked}))
