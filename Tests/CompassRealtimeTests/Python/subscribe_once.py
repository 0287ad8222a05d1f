"""Subscribes with the official `realtime` client and prints the first change it gets.

usage: subscribe_once.py <base url> <token> <channel> <table> <filter>
Prints SUBSCRIBED once the join is confirmed, then one JSON line with the change payload.
"""
import asyncio
import json
import sys

from subscription import subscribe


async def main(url: str, token: str, channel_name: str, table: str, row_filter: str) -> int:
    received: asyncio.Queue = asyncio.Queue()
    client, failure = await subscribe(url, token, channel_name, table, received.put_nowait, row_filter)
    if failure:
        print("FAILED " + failure, flush=True)
        return 1
    print("SUBSCRIBED", flush=True)
    payload = await asyncio.wait_for(received.get(), 20)
    print(json.dumps(payload), flush=True)
    await client.close()
    return 0


sys.exit(asyncio.run(main(*sys.argv[1:6])))
