"""Subscribes with the official `realtime` client and prints the first change it gets.

usage: subscribe_once.py <base url> <token> <channel> <table> <filter>
Prints SUBSCRIBED once the join is confirmed, then one JSON line with the change payload.
"""
import asyncio
import json
import sys

from realtime import AsyncRealtimeClient, RealtimeSubscribeStates


async def main(url: str, token: str, channel_name: str, table: str, row_filter: str) -> int:
    client = AsyncRealtimeClient(url, token, auto_reconnect=False)
    await client.connect()
    received: asyncio.Queue = asyncio.Queue()
    subscribed = asyncio.Event()
    failures: list = []

    def on_state(state, error):
        if state == RealtimeSubscribeStates.SUBSCRIBED:
            subscribed.set()
        elif state in (RealtimeSubscribeStates.CHANNEL_ERROR, RealtimeSubscribeStates.TIMED_OUT):
            failures.append(f"{state}: {error}")
            subscribed.set()

    channel = client.channel(channel_name)
    channel.on_postgres_changes("INSERT", received.put_nowait, table=table, schema="public", filter=row_filter)
    await channel.subscribe(on_state)
    await asyncio.wait_for(subscribed.wait(), 15)
    if failures:
        print("FAILED " + "; ".join(failures), flush=True)
        return 1
    print("SUBSCRIBED", flush=True)
    payload = await asyncio.wait_for(received.get(), 20)
    print(json.dumps(payload), flush=True)
    await client.close()
    return 0


sys.exit(asyncio.run(main(*sys.argv[1:6])))
