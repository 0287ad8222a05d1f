import CompassTestSupport
import Foundation

/// Games and their makers, with functions of their rows: computed fields (one overloaded for
/// both tables, one in a schema that is not exposed) and computed relationships.
extension RESTHarness {
    static let computedSQL = """
        CREATE TABLE public.rest_makers (id int PRIMARY KEY, name text NOT NULL);
        CREATE TABLE public.rest_games (
            id int PRIMARY KEY, name text NOT NULL, maker_id int REFERENCES public.rest_makers (id), price numeric);
        GRANT SELECT, INSERT, UPDATE, DELETE ON public.rest_makers, public.rest_games TO anon, authenticated, service_role;
        INSERT INTO public.rest_makers VALUES (1, 'Sid'), (2, 'Hiro');
        INSERT INTO public.rest_games VALUES (1, 'Civ', 1, 10), (2, 'Pirates', 1, 20), (3, 'Final Fantasy', 2, 30), (4, 'Orphan', NULL, 5);
        CREATE FUNCTION public.rest_shouted(public.rest_games) RETURNS text LANGUAGE sql IMMUTABLE AS 'SELECT upper($1.name)';
        CREATE FUNCTION public.rest_shouted(public.rest_makers) RETURNS text LANGUAGE sql IMMUTABLE AS 'SELECT upper($1.name) || ''!''';
        CREATE FUNCTION public.rest_negated(public.rest_games) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT -$1.id';
        CREATE FUNCTION public.rest_game_maker(public.rest_games) RETURNS SETOF public.rest_makers ROWS 1 LANGUAGE sql STABLE
            AS 'SELECT * FROM public.rest_makers WHERE id = $1.maker_id';
        CREATE FUNCTION public.rest_maker_games(public.rest_makers) RETURNS SETOF public.rest_games LANGUAGE sql STABLE
            AS 'SELECT * FROM public.rest_games WHERE maker_id = $1.id';
        CREATE FUNCTION public.rest_cheap_games(below numeric) RETURNS SETOF public.rest_games LANGUAGE sql STABLE
            AS 'SELECT * FROM public.rest_games WHERE price < below';
        CREATE SCHEMA rest_hidden;
        CREATE FUNCTION rest_hidden.rest_secret(public.rest_games) RETURNS text LANGUAGE sql IMMUTABLE AS 'SELECT ''secret''';
        """

    /// A domain shown, filtered and written as `#RRGGBB` through its implicit casts (PostgREST's
    /// data representations), on a table that another references.
    static let representationsSQL = HexColorDomain.sql(named: "rest_hex") + """
        CREATE TABLE public.rest_labels (id int PRIMARY KEY, name text, color public.rest_hex);
        CREATE TABLE public.rest_label_uses (id int PRIMARY KEY, label_id int REFERENCES public.rest_labels (id));
        GRANT SELECT, INSERT, UPDATE, DELETE ON public.rest_labels, public.rest_label_uses TO anon, authenticated, service_role;
        INSERT INTO public.rest_labels VALUES (1, 'red', 16711680), (2, 'green', 65280), (3, 'none', NULL);
        INSERT INTO public.rest_label_uses VALUES (10, 1);
        """
}

extension RESTResponse {
    /// Whether the body is the JSON `expected` spells, whatever the order of keys and spacing.
    func hasJSON(_ expected: String) -> Bool {
        guard let value = json, let wanted = try? JSONSerialization.jsonObject(with: Data(expected.utf8), options: [.fragmentsAllowed]) else {
            return false
        }
        return Self.canonical(value) == Self.canonical(wanted)
    }

    private static func canonical(_ value: Any) -> Data? {
        try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }
}
