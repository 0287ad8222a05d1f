import Postgres

/// Who a request runs as and what PostgREST exposes to SQL about it: the role and JWT
/// claims, `request.method`, `request.path`, `request.headers`, `request.cookies`.
public struct RequestScope: Sendable {
    /// `anon`, `authenticated` or `service_role`, or another role a token names (see ``refusesSuperuser``).
    public var role: String
    /// Whether the scope fails when its role turns out a superuser: set for a role a token names
    /// that is not one of the three. The login role may be a superuser (`make run`'s is), and
    /// whoever holds the JWT secret should not get more than service_role by naming `postgres`.
    public var refusesSuperuser = false
    /// The token's payload, as `request.jwt.claims` shows it.
    public var claimsJSON: String
    public var method: String
    /// The path as PostgREST sees it behind the gateway (`/interactions`, `/rpc/fn`).
    public var path: String
    /// Header names lower-cased, as a JSON object.
    public var headersJSON: String
    /// Cookies, as a JSON object.
    public var cookiesJSON: String
    /// The exposed schema, first on the search path.
    public var schema: String
    /// Schemas searched after it (PostgREST's `db-extra-search-path`): where functions' bodies
    /// and arguments find extension types and functions they name without a schema.
    public var extraSearchPath: [String] = []
    /// `Prefer: timezone=…`, set as the transaction's `TimeZone`.
    public var timeZone: String?
    /// The role's `statement_timeout`, from the schema cache when it has it.
    public var roleTimeout = PostgresQuery.RoleTimeout.lookedUp
    /// The role's other settings (`ALTER ROLE … SET jit = off`), from the schema cache.
    public var roleSettings: [(name: String, value: String)] = []
    /// PostgREST's `app.settings.*`, set last.
    public var appSettings: [(name: String, value: String)] = []
    /// PostgREST's `db-pre-request`, called once the scope is open.
    public var preRequest: PreRequestFunction?

    /// Makes a scope.
    public init(
        role: String, claimsJSON: String, method: String, path: String, headersJSON: String = "{}",
        cookiesJSON: String = "{}", schema: String = "public", timeZone: String? = nil
    ) {
        self.role = role
        self.claimsJSON = claimsJSON
        self.method = method
        self.path = path
        self.headersJSON = headersJSON
        self.cookiesJSON = cookiesJSON
        self.schema = schema
        self.timeZone = timeZone
    }

    /// Whether the role is a signed-in one (42501 is then 403, not 401).
    var isAuthenticated: Bool { role != "anon" }

    /// Takes the role's settings as the schema cache read them: its `statement_timeout` (or
    /// none: the session's stays) and the rest, in PostgREST's order: after the exposed schema's
    /// `search_path` (a role's own `search_path` wins) and before `Prefer: timezone` (which wins).
    mutating func apply(roleSettings settings: [String: String]) {
        roleTimeout = .known(settings["statement_timeout"])
        roleSettings = settings.filter { $0.key != "statement_timeout" }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// What opens the scope, prepared: its statement, then the pre-request function's call.
    var openingStatements: [PostgresQuery] {
        [statement.prepared] + (refusesSuperuser ? [Self.superuserRefusal] : []) + (preRequest.map { [$0.call] } ?? [])
    }

    /// Fails with 42501 when the scope's role is a superuser (`SET ROLE` sets `is_superuser`),
    /// worded as Postgres words a role the login role may not become.
    static let superuserRefusal: PostgresQuery = """
        DO $$BEGIN IF pg_catalog.current_setting('is_superuser') = 'on' THEN
          RAISE EXCEPTION USING ERRCODE = '42501', MESSAGE = pg_catalog.format('permission denied to set role "%s"', current_user);
        END IF; END$$
        """


    /// The statement that opens the scope (the one shared `requestScope` writer).
    var statement: PostgresQuery {
        var settings: [(name: String, value: String)] = [
            ("search_path", ([schema] + extraSearchPath.filter { $0 != schema }).map(SQLBuilder.quoted).joined(separator: ", "))
        ]
        settings += roleSettings
        settings += [
            ("request.method", method),
            ("request.path", path),
            ("request.headers", headersJSON),
            ("request.cookies", cookiesJSON),
        ]
        if let timeZone { settings.append(("timezone", timeZone)) }
        settings += appSettings
        return PostgresQuery.requestScope(role: role, claimsJSON: claimsJSON, timeout: roleTimeout, settings: settings)
    }
}
