import CompassHTTP
import CompassServer
import Foundation
import Testing

/// Browsers call the worker across origins as they call Supabase: preflights are answered before
/// any API key is asked for, and replies (errors too) say which origin may read them.
@Suite("CORS and OPTIONS on the live server")
struct CORSTests {
    static let origin = "https://app.example.org"

    @Test func aPreflightIsAnsweredForEveryAPIWithoutAKey() async throws {
        try await ServerHarness.with { harness in
            for path in ["/rest/v1/interactions", "/auth/v1/token?grant_type=password", "/api/v1/feed"] {
                let preflight = try await RESTHostileInputTests.send(
                    harness, "OPTIONS", path, key: false,
                    headers: [
                        "Origin": Self.origin, "Access-Control-Request-Method": "POST",
                        "Access-Control-Request-Headers": "apikey, content-type,prefer",
                    ])
                #expect(preflight.status == 200, "\(path): \(preflight.headers)")
                #expect(preflight.header("Access-Control-Allow-Origin") == "*")
                #expect(preflight.header("Access-Control-Allow-Methods") == "GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD")
                #expect(
                    preflight.header("Access-Control-Allow-Headers")
                        == "Authorization, apikey, content-type, prefer, Accept, Accept-Language, Content-Language")
                #expect(preflight.header("Access-Control-Max-Age") == "86400")
                #expect(preflight.body.isEmpty)
            }
        }
    }

    @Test func repliesToAnOriginNameWhoMayReadThemErrorsIncluded() async throws {
        try await ServerHarness.with { harness in
            let read = try await RESTHostileInputTests.send(harness, "GET", "/rest/v1/schools?select=id&limit=1", headers: ["Origin": Self.origin])
            #expect(read.status == 200)
            #expect(read.header("Access-Control-Allow-Origin") == "*")
            #expect(read.header("Access-Control-Expose-Headers")?.contains("Content-Range") == true)
            let refused = try await RESTHostileInputTests.send(harness, "GET", "/rest/v1/schools", key: false, headers: ["Origin": Self.origin])
            #expect(refused.status == 401)
            #expect(refused.header("Access-Control-Allow-Origin") == "*")
            let auth = try await RESTHostileInputTests.send(harness, "GET", "/auth/v1/health", headers: ["Origin": Self.origin])
            #expect(auth.header("Access-Control-Allow-Origin") == "*")
            #expect(auth.header("Access-Control-Expose-Headers") == "X-Total-Count, Link, X-Supabase-Api-Version")
            // Without an Origin nothing changes.
            let plain = try await RESTHostileInputTests.send(harness, "GET", "/rest/v1/schools?select=id&limit=1")
            #expect(plain.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func listedOriginsAloneMayReadAndSendCredentials() async throws {
        let policy = try CORSPolicy("\(Self.origin), https://admin.example.org")
        try await ServerHarness.with(adjust: { $0.cors = policy }) { harness in
            let listed = try await RESTHostileInputTests.send(harness, "GET", "/rest/v1/schools?select=id&limit=1", headers: ["Origin": Self.origin])
            #expect(listed.header("Access-Control-Allow-Origin") == Self.origin)
            #expect(listed.header("Access-Control-Allow-Credentials") == "true")
            #expect(listed.header("Vary") == "Accept, Prefer, Range, Origin")
            let other = try await RESTHostileInputTests.send(
                harness, "GET", "/rest/v1/schools?select=id&limit=1", headers: ["Origin": "https://evil.example.net"])
            #expect(other.status == 200)
            #expect(other.header("Access-Control-Allow-Origin") == nil)
            // A preflight from another origin gets no CORS answer: it is an ordinary OPTIONS, which needs a key.
            let preflight = try await RESTHostileInputTests.send(
                harness, "OPTIONS", "/rest/v1/schools", key: false,
                headers: ["Origin": "https://evil.example.net", "Access-Control-Request-Method": "DELETE"])
            #expect(preflight.status == 401)
            #expect(preflight.header("Access-Control-Allow-Origin") == nil)
        }
        #expect(throws: ConfigurationError.self) { try CORSPolicy("app.example.org") }
        #expect(try CORSPolicy(" * ") == .anyOrigin)
    }

    @Test func optionsNamesTheMethodsAResourceTakes() async throws {
        try await ServerHarness.with { harness in
            try await harness.database.run(script: """
                CREATE VIEW public.cors_school_keys AS SELECT id, name FROM public.schools;
                CREATE VIEW public.cors_school_names AS SELECT name FROM public.schools;
                CREATE VIEW public.cors_school_count AS SELECT count(*) AS n FROM public.schools;
                GRANT SELECT ON public.cors_school_keys, public.cors_school_names, public.cors_school_count TO anon;
                NOTIFY pgrst, 'reload schema';
                """)
            // The reload is asynchronous: wait until REST knows the views.
            let deadline = ContinuousClock.now + .seconds(30)
            while try await RESTHostileInputTests.send(harness, "OPTIONS", "/rest/v1/cors_school_count").status != 200 {
                guard ContinuousClock.now < deadline else { Issue.record("the views never reached the schema cache"); return }
                try await Task.sleep(for: .milliseconds(100))
            }
            let cases: [(String, String?)] = [
                ("/rest/v1/interactions", "OPTIONS,GET,HEAD,POST,PUT,PATCH,DELETE"),
                // An updatable view takes every write; PUT needs the key it shows.
                ("/rest/v1/cors_school_keys", "OPTIONS,GET,HEAD,POST,PUT,PATCH,DELETE"),
                ("/rest/v1/cors_school_names", "OPTIONS,GET,HEAD,POST,PATCH,DELETE"),
                ("/rest/v1/cors_school_count", "OPTIONS,GET,HEAD"),
                ("/rest/v1/", "OPTIONS,GET,HEAD"),
            ]
            for (path, allow) in cases {
                let reply = try await RESTHostileInputTests.send(harness, "OPTIONS", path)
                #expect(reply.status == 200, "\(path): \(reply.body)")
                #expect(reply.header("Allow") == allow, "\(path)")
                #expect(reply.header("Content-Length") == "0")
                #expect(reply.header("Access-Control-Allow-Origin") == "*")
            }
            let unknown = try await RESTHostileInputTests.send(harness, "OPTIONS", "/rest/v1/no_such_table")
            #expect(unknown.isError("PGRST205", status: 404))
            let noKey = try await RESTHostileInputTests.send(harness, "OPTIONS", "/rest/v1/interactions", key: false)
            #expect(noKey.status == 401)
            // Elsewhere OPTIONS without a preflight is still not served.
            let auth = try await RESTHostileInputTests.send(harness, "OPTIONS", "/auth/v1/health")
            #expect(auth.status == 405)
        }
    }

    /// A HEAD builds no body, so it names no length (as PostgREST's): not `Content-Length: 0`.
    @Test func aHeadNamesNoLength() async throws {
        try await ServerHarness.with { harness in
            let head = try await RESTHostileInputTests.send(harness, "HEAD", "/rest/v1/schools?select=id&limit=1")
            #expect(head.status == 200, "\(head.headers)")
            #expect(head.header("Content-Length") == nil)
            #expect(head.header("Content-Range") != nil)
            #expect(head.header("Content-Type") == "application/json; charset=utf-8")
            let get = try await RESTHostileInputTests.send(harness, "GET", "/rest/v1/schools?select=id&limit=1")
            #expect(get.header("Content-Length") != nil)
        }
    }
}
