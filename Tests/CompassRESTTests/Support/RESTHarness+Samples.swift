import Foundation
import Postgres

/// A small table of the shapes the demo schema lacks (an array, a composite, a tsvector),
/// for reads and writes on them; created only in the tests that ask for it.
extension RESTHarness {
    static let samplesSQL = """
        CREATE TYPE public.rest_pair AS (r numeric, i numeric);
        CREATE TABLE public.rest_samples (
            id      int PRIMARY KEY,
            numbers int[] NOT NULL DEFAULT '{}',
            pair    public.rest_pair,
            words   tsvector,
            note    text
        );
        GRANT SELECT, INSERT, UPDATE, DELETE ON public.rest_samples TO anon, authenticated, service_role;
        INSERT INTO public.rest_samples VALUES
            (1, '{1,2,3}', ROW(0.5, 0.5), to_tsvector('french', 'Les universités de Paris'), NULL),
            (2, '{11,12,13}', ROW(0.6, 0.6), to_tsvector('english', 'The universities of Boston'), 'second');
        CREATE FUNCTION public.rest_sample_notes() RETURNS TABLE (id int, note text) LANGUAGE sql STABLE
            AS 'SELECT id, note FROM public.rest_samples ORDER BY id';
        CREATE FUNCTION public.rest_sample_count(OUT total bigint) LANGUAGE sql STABLE
            AS 'SELECT count(*) FROM public.rest_samples';
        CREATE FUNCTION public.rest_sample_codes(code char(4), flags bit(3)) RETURNS text LANGUAGE sql IMMUTABLE
            AS 'SELECT code || '':'' || flags::text';
        CREATE FUNCTION public.rest_sample_refuse(shape text) RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            IF shape = 'teapot' THEN
                RAISE SQLSTATE 'PT418' USING MESSAGE = 'short and stout';
            ELSIF shape = 'reply' THEN
                RAISE SQLSTATE 'PGRST' USING
                    MESSAGE = '{"code":"CMP01","message":"Payment required","details":"Top up","hint":"Visit billing"}',
                    DETAIL = '{"status":402,"headers":{"X-Compass":"billing"}}';
            ELSE
                RAISE SQLSTATE 'PGRST' USING MESSAGE = 'not json', DETAIL = '{}';
            END IF;
        END $$;
        CREATE FUNCTION public.rest_sample_reply(headers text, status text) RETURNS int LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM set_config('response.headers', headers, true);
            PERFORM set_config('response.status', status, true);
            UPDATE public.rest_samples SET note = 'touched' WHERE id = 1;
            RETURN 1;
        END $$;
        CREATE FUNCTION public.rest_sample_echo(jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS 'SELECT $1';
        CREATE FUNCTION public.rest_sample_rows() RETURNS SETOF record LANGUAGE sql STABLE
            AS 'SELECT id, note FROM public.rest_samples ORDER BY id';
        GRANT EXECUTE ON FUNCTION public.rest_sample_rows() TO anon;
        GRANT EXECUTE ON FUNCTION public.rest_sample_notes(), public.rest_sample_count(), public.rest_sample_codes(char, bit),
            public.rest_sample_refuse(text), public.rest_sample_reply(text, text), public.rest_sample_echo(jsonb)
            TO anon, authenticated, service_role;
        CREATE TABLE public.rest_sample_parts (id int, at date NOT NULL) PARTITION BY RANGE (at);
        CREATE TABLE public.rest_sample_parts_2026 PARTITION OF public.rest_sample_parts
            FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
        GRANT SELECT ON public.rest_sample_parts, public.rest_sample_parts_2026 TO anon;
        CREATE VIEW public.rest_school_names WITH (security_invoker = true) AS
            SELECT s.id AS school_id, upper(s.name) AS shouted, s.name FROM public.schools AS s;
        GRANT SELECT ON public.rest_school_names TO anon, authenticated, service_role;
        """

    /// Creates `public.rest_samples` and reloads the schema cache so that it is served.
    func addSamples() async throws {
        try await addFixtures(Self.samplesSQL)
    }

    /// Runs a fixture script as the superuser, then reloads the schema cache so that what it made is served.
    func addFixtures(_ script: String) async throws {
        try await database.run(script: script)
        _ = try await api.store.reload()
    }

    /// A service-role bearer: the requests see every row, as the checks beside them do.
    var serviceToken: String { keys.serviceRole }
}
