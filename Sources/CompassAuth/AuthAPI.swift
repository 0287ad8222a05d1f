/// `/auth/v1`: Supabase Auth (GoTrue). Placeholder until issue 8 lands.
public enum AuthAPI {}
