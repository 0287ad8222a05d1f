"""What an auth call through the official client came to: "accepted" or GoTrue's error code."""
from supabase_auth.errors import AuthApiError


async def code_of(step):
    try:
        await step()
        return "accepted"
    except AuthApiError as error:
        return error.code
