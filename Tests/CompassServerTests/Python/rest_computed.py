"""Drives compass-worker's /rest/v1 with the official supabase client through computed fields
and computed relationships (functions of a row that select, filter, order and embed) and data
representations (a domain shown, filtered and written through its casts).

usage: rest_computed.py URL ANON_KEY TOKENS_JSON
Run by RESTClientTests after it created public.shouted_name(schools),
public.school_coaches(schools) and public.labels; every check is asserted here, the last line is a JSON summary.
"""

import json
import sys

from supabase import create_client

url, anon_key, tokens = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
sofia = create_client(url, anon_key)
sofia.postgrest.auth(tokens["sofia"])
checked = []

# A computed field reads, filters and orders like a column.
shouted = sofia.table("schools").select("name, shouted_name").eq("shouted_name", "UCLA").execute().data
assert shouted == [{"name": "UCLA", "shouted_name": "UCLA"}], shouted
ordered = sofia.table("schools").select("shouted_name").order("shouted_name", desc=True).execute().data
names = [row["shouted_name"] for row in ordered]
assert names == sorted(names, reverse=True) and "STANFORD UNIVERSITY" in names, names
checked.append("computed fields")

# A computed relationship embeds the rows the function returns, under RLS, ordered per embed.
staff = (
    sofia.table("schools").select("name, staff:school_coaches(first_name)").eq("name", "Stanford University")
    .order("first_name", foreign_table="staff").single().execute().data)
assert staff == {"name": "Stanford University", "staff": [{"first_name": "Erin"}, {"first_name": "Tomas"}]}, staff
inner = (
    sofia.table("schools").select("name, school_coaches!inner(first_name)").eq("school_coaches.first_name", "Dana")
    .execute().data)
assert inner == [{"name": "UCLA", "school_coaches": [{"first_name": "Dana"}]}], inner
checked.append("computed relationships")

# A domain with implicit casts to and from json and text is written, shown and filtered through them.
written = sofia.table("labels").insert({"id": 1, "color": "#00FF00"}).execute().data
assert written == [{"id": 1, "color": "#00FF00"}], written
found = sofia.table("labels").select("id, color").eq("color", "00FF00").execute().data
assert found == [{"id": 1, "color": "#00FF00"}], found
checked.append("data representations")

print(json.dumps({"checked": checked}))
