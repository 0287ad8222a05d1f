/// A fixture domain for PostgREST's data representations: an integer colour answered as
/// `"#RRGGBB"`, read from a filter's `RRGGBB` (or `#RRGGBB`) text and from a body's JSON string,
/// through implicit casts.
public enum HexColorDomain {
    /// The SQL that makes `public.<name>` and its three casts (functions `<name>_from_text`, `_from_json`, `_to_json`).
    public static func sql(named name: String) -> String {
        """
        CREATE DOMAIN public.\(name) AS integer CHECK (VALUE >= 0);
        CREATE FUNCTION public.\(name)_from_text(text) RETURNS public.\(name) LANGUAGE sql IMMUTABLE
            AS $$ SELECT ('x' || lpad(ltrim($1, '#'), 8, '0'))::bit(32)::int::public.\(name) $$;
        CREATE FUNCTION public.\(name)_from_json(json) RETURNS public.\(name) LANGUAGE sql IMMUTABLE
            AS $$ SELECT public.\(name)_from_text($1 #>> '{}') $$;
        CREATE FUNCTION public.\(name)_to_json(public.\(name)) RETURNS json LANGUAGE sql IMMUTABLE
            AS $$ SELECT to_json('#' || lpad(upper(to_hex($1)), 6, '0')) $$;
        CREATE CAST (public.\(name) AS json) WITH FUNCTION public.\(name)_to_json(public.\(name)) AS IMPLICIT;
        CREATE CAST (text AS public.\(name)) WITH FUNCTION public.\(name)_from_text(text) AS IMPLICIT;
        CREATE CAST (json AS public.\(name)) WITH FUNCTION public.\(name)_from_json(json) AS IMPLICIT;

        """
    }
}
