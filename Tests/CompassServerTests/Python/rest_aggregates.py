"""Drives compass-worker's /rest/v1 with the official supabase client through aggregate functions
(COMPASS_REST_AGGREGATES on): sums, counts and groups, on a table of its own and, under RLS, on
the demo schools and their offers (the client's own count of the rows it sees is the reference).

usage: rest_aggregates.py URL ANON_KEY TOKENS_JSON
Run by RESTClientTests after it created public.scores; every check is asserted here, the last line is a JSON summary.
"""

import json
import sys
from collections import Counter

from supabase import create_client

url, anon_key, tokens = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
sofia = create_client(url, anon_key)
sofia.postgrest.auth(tokens["sofia"])
checked = []

# Sums, averages and counts of a whole table, renamed and cast.
total = sofia.table("scores").select("points.sum()").execute().data
assert total == [{"sum": 60}], total
summary = sofia.table("scores").select("games:count(), best:points.max(), mean:points.avg()::int").execute().data
assert summary == [{"games": 4, "best": 25, "mean": 15}], summary
checked.append("aggregates")

# Grouped by the other columns, filtered first, ordered after.
grouped = sofia.table("scores").select("team, total:points.sum()").gt("points", 5).order("team").execute().data
assert grouped == [{"team": "blue", "total": 35}, {"team": "red", "total": 20}], grouped
checked.append("groups")

# Inside an embed, under RLS: each school's offers the user may see, counted by Postgres.
schools = sofia.table("schools").select("id, offers(count())").execute().data
offers = sofia.table("offers").select("school_id").execute().data
seen = Counter(row["school_id"] for row in offers)
assert schools and all(school["offers"] == [{"count": seen[school["id"]]}] for school in schools), schools
checked.append("embedded counts")

print(json.dumps({"checked": checked}))
