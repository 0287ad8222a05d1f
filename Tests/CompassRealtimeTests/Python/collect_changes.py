"""Subscribes with the official `realtime` client and prints every change of a burst.

usage: collect_changes.py <base url> <token> <channel> <table> <count>
Prints SUBSCRIBED once the join is confirmed; after <count> INSERTs arrived (or 20 s), waits
2 s more for any extra (a duplicate would show there) and prints one JSON line: the list of
each change's `record.n`, in the order they arrived.
"""
import asyncio
import json
import sys

from subscription import subscribe


async def main(url: str, token: str, channel_name: str, table: str, count: str) -> int:
    numbers: list = []
    enough = asyncio.Event()

    def on_insert(payload):
        numbers.append(payload["data"]["record"]["n"])
        if len(numbers) >= int(count):
            enough.set()

    client, failure = await subscribe(url, token, channel_name, table, on_insert)
    if failure:
        print("FAILED " + failure, flush=True)
        return 1
    print("SUBSCRIBED", flush=True)
    try:
        await asyncio.wait_for(enough.wait(), 20)
    except asyncio.TimeoutError:
        pass
    await asyncio.sleep(2)
    print(json.dumps(numbers), flush=True)
    await client.close()
    return 0


sys.exit(asyncio.run(main(*sys.argv[1:6])))
