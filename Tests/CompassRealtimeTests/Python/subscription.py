"""Shared by the client scripts: connect the official `realtime` client and subscribe to INSERTs."""
import asyncio

from realtime import AsyncRealtimeClient, RealtimeSubscribeStates


async def subscribe(url: str, token: str, channel_name: str, table: str, on_insert, row_filter=None):
    """The connected client once the join is confirmed, or (None, reason) if it was refused or timed out."""
    client = AsyncRealtimeClient(url, token, auto_reconnect=False)
    await client.connect()
    subscribed = asyncio.Event()
    failures: list = []

    def on_state(state, error):
        if state == RealtimeSubscribeStates.SUBSCRIBED:
            subscribed.set()
        elif state in (RealtimeSubscribeStates.CHANNEL_ERROR, RealtimeSubscribeStates.TIMED_OUT):
            failures.append(f"{state}: {error}")
            subscribed.set()

    channel = client.channel(channel_name)
    if row_filter:
        channel.on_postgres_changes("INSERT", on_insert, table=table, schema="public", filter=row_filter)
    else:
        channel.on_postgres_changes("INSERT", on_insert, table=table, schema="public")
    await channel.subscribe(on_state)
    await asyncio.wait_for(subscribed.wait(), 15)
    if failures:
        await client.close()
        return None, "; ".join(failures)
    return client, None
