import CompassDomain
import Foundation
import Postgres

/// Every statement `/auth/v1` and `compass users` run, against auth.users, auth.sessions
/// and auth.refresh_tokens, each transaction as `supabase_auth_admin`.
///
/// ```swift
/// let store = AuthStore(pool: pool)
/// let user = try await store.transaction { tx in try await store.insertUser(email: e, password: p, on: tx) }
/// ```
/// Passwords are hashed and checked by pgcrypto inside Postgres (bound parameters, never logged);
/// refresh tokens arrive here only as SHA-256 hashes.
public struct AuthStore: Sendable {
    let pool: PostgresPool
    /// Where the rate counters run (``countSignInAttempt(keys:now:window:)``): a mail is counted
    /// from inside its request's transaction, so counting on the same pool could leave every
    /// connection held by a request waiting for one more (each timing out after 10 s).
    let counterPool: PostgresPool

    /// A store over `pool`, its counters on `counterPool` (the same pool by default, for callers
    /// that never count inside a transaction of their own).
    public init(pool: PostgresPool, counterPool: PostgresPool? = nil) {
        self.pool = pool
        self.counterPool = counterPool ?? pool
    }

    /// Runs `body` in one transaction as `supabase_auth_admin`.
    ///
    /// A transaction Postgres ended to break a deadlock is run again (twice at most): the paths
    /// that take their locks in opposite orders (a `/verify` or PKCE exchange locks its token
    /// before the account, a soft delete the account before its tokens) meet only in races, and
    /// one of them then runs alone. A mail the first run sent may go out twice.
    public func transaction<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await transaction(on: pool, body)
            } catch SQLState.deadlockDetected where attempt < 3 {
                attempt += 1
            }
        }
    }

    /// The same on `pool`.
    func transaction<T>(on pool: PostgresPool, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await pool.withConnection { connection in
            try await connection.withTransaction { tx in
                try await tx.query(.requestScope(role: "supabase_auth_admin", claimsJSON: #"{"role":"supabase_auth_admin"}"#))
                return try await body(tx)
            }
        }
    }

    /// The user JSON GoTrue returns, built from `auth.users AS u`, with its `auth.identities`.
    ///
    /// Identities are kept by triggers (migration 0015) that fire after the statement's rows,
    /// so a statement that writes `u` must read the user again (``user(id:on:)``) to show them.
    static let userJSON = """
        jsonb_build_object(
            'id', u.id, 'aud', u.aud, 'role', u.role, 'email', u.email,
            'email_confirmed_at', \(iso("u.email_confirmed_at")), 'confirmed_at', \(iso("u.email_confirmed_at")),
            'phone', coalesce(u.phone, ''), 'last_sign_in_at', \(iso("u.last_sign_in_at")),
            'confirmation_sent_at', \(iso("u.confirmation_sent_at")), 'recovery_sent_at', \(iso("u.recovery_sent_at")),
            'invited_at', \(iso("u.invited_at")), 'new_email', u.email_change,
            'email_change_sent_at', \(iso("u.email_change_sent_at")),
            'app_metadata', u.raw_app_meta_data, 'user_metadata', u.raw_user_meta_data, 'identities', \(identitiesJSON),
            'created_at', \(iso("u.created_at")), 'updated_at', \(iso("u.updated_at")), 'is_anonymous', u.is_anonymous,
            'factors', \(factorsJSON), 'deleted_at', \(iso("u.deleted_at")), 'banned_until', \(iso("u.banned_until"))
        )::text
        """

    /// `u`'s identities as GoTrue returns them (`identity_id` is the row, `id` the provider's id).
    private static let identitiesJSON = """
        coalesce((SELECT jsonb_agg(jsonb_build_object(
                      'identity_id', i.id, 'id', i.provider_id, 'user_id', i.user_id, 'identity_data', i.identity_data,
                      'provider', i.provider, 'last_sign_in_at', \(iso("i.last_sign_in_at")),
                      'created_at', \(iso("i.created_at")), 'updated_at', \(iso("i.updated_at")), 'email', i.email)
                      ORDER BY i.created_at, i.id)
                    FROM auth.identities AS i WHERE i.user_id = u.id), '[]'::jsonb)
        """

    /// `u`'s MFA factors as GoTrue returns them (never their secrets); NULL when there are none.
    private static let factorsJSON = """
        (SELECT jsonb_agg(jsonb_build_object(
                    'id', f.id, 'friendly_name', f.friendly_name, 'factor_type', f.factor_type, 'status', f.status,
                    'created_at', \(iso("f.created_at")), 'updated_at', \(iso("f.updated_at")),
                    'last_challenged_at', \(iso("f.last_challenged_at")))
                    ORDER BY f.created_at, f.id)
           FROM auth.mfa_factors AS f WHERE f.user_id = u.id)
        """

    static func iso(_ column: String) -> String {
        #"to_char(\#(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"#
    }

    /// The first row's user JSON, decoded.
    static func decodeUser(_ result: PostgresResult) throws -> AuthUser? {
        guard let row = result.first else { return nil }
        let text = try row.decode(String.self, at: 0)
        return try JSONDecoder().decode(AuthUser.self, from: Data(text.utf8))
    }

    // MARK: Users

    /// Creates an account; nil when the email is taken.
    public func insertUser(
        id chosenID: UUID? = nil, email: String, password: String?, passwordHash: String? = nil, userMetadata: JSONValue = .object([:]),
        appMetadata: JSONValue? = nil, confirmed: Bool, on tx: PostgresConnection
    ) async throws -> AuthUser? {
        let app = AuthStore.appMetadata(merging: appMetadata)
        let id: UUID
        do {
            id = try await tx.withSavepoint { tx in
                try await tx.query("""
                    INSERT INTO auth.users AS u (id, email, encrypted_password, email_confirmed_at, raw_user_meta_data, raw_app_meta_data)
                    VALUES (coalesce(\(chosenID)::uuid, gen_random_uuid()), \(email),
                            CASE WHEN \(password)::text IS NULL THEN \(passwordHash)::text
                                 ELSE extensions.crypt(\(password), extensions.gen_salt('bf', 10)) END,
                            CASE WHEN \(confirmed)::boolean THEN now() END, \(userMetadata.jsonText)::jsonb, \(app.jsonText)::jsonb)
                    RETURNING u.id
                    """)[0].decode(UUID.self, at: 0)
            }
        } catch let error as PostgresError where error.sqlState == .uniqueViolation {
            // A chosen id that is taken: the primary key, not the email, refused it.
            if error.constraint == "users_pkey" { throw AuthError.userIDTaken }
            return nil
        }
        return try await user(id: id, on: tx)
    }

    /// An account that does not exist, shaped as a new unconfirmed sign-up for `email` (a fresh
    /// random id, the request's metadata, timestamps of now); nothing is stored.
    ///
    /// GoTrue's reply to a sign-up for a taken email while confirmation is on, so that sign-up
    /// does not tell who has an account (its `role` is empty there; here it is the one a real
    /// sign-up has, so the two replies cannot be told apart).
    public func obfuscatedUser(email: String, userMetadata: JSONValue, on tx: PostgresConnection) async throws -> AuthUser? {
        try AuthStore.decodeUser(try await tx.query("""
            SELECT \(unescaped: AuthStore.userJSON) FROM (
                SELECT gen_random_uuid() AS id, 'authenticated'::text AS aud, 'authenticated'::text AS role,
                       \(email)::text AS email, NULL::timestamptz AS email_confirmed_at, NULL::text AS phone,
                       NULL::timestamptz AS last_sign_in_at, now() AS confirmation_sent_at, NULL::timestamptz AS recovery_sent_at,
                       NULL::timestamptz AS invited_at, NULL::text AS email_change, NULL::timestamptz AS email_change_sent_at,
                       \(AuthStore.appMetadata(merging: nil).jsonText)::jsonb AS raw_app_meta_data,
                       \(userMetadata.jsonText)::jsonb AS raw_user_meta_data, now() AS created_at, now() AS updated_at,
                       false AS is_anonymous, NULL::timestamptz AS deleted_at, NULL::timestamptz AS banned_until
            ) AS u
            """))
    }

    /// GoTrue's provider entries, then whatever the admin adds.
    static func appMetadata(merging extra: JSONValue?) -> JSONValue {
        var fields: [String: JSONValue] = ["provider": .string("email"), "providers": .array([.string("email")])]
        if case .object(let more)? = extra { fields.merge(more) { _, new in new } }
        return .object(fields)
    }

    /// The user with `id`, if any.
    public func user(id: UUID, on tx: PostgresConnection) async throws -> AuthUser? {
        try AuthStore.decodeUser(try await tx.query("SELECT \(unescaped: AuthStore.userJSON) FROM auth.users AS u WHERE u.id = \(id)"))
    }

    /// The outcome of checking a password.
    public enum Authentication: Sendable {
        case valid(AuthUser)
        case unconfirmed
        case invalid
    }

    /// Checks `password` for `email` (bcrypt in Postgres); a match records the sign-in time.
    ///
    /// bcrypt runs whether or not the account exists (against ``absentAccountHash`` when it
    /// does not), so the reply's timing does not tell who has an account.
    public func authenticate(email: String, password: String, on tx: PostgresConnection) async throws -> Authentication {
        let rows = try await tx.query("""
            SELECT u.id, u.email_confirmed_at IS NOT NULL,
                   extensions.crypt(\(password), coalesce(u.encrypted_password, \(AuthStore.absentAccountHash))) = u.encrypted_password
              FROM (SELECT) AS one LEFT JOIN auth.users AS u ON u.email = \(email)
            """)
        guard let row = rows.first, case let (id?, confirmed?, true?) = try row.decode((UUID?, Bool?, Bool?).self) else {
            return .invalid
        }
        guard confirmed else { return .unconfirmed }
        try await tx.query("UPDATE auth.users SET last_sign_in_at = now() WHERE id = \(id)")
        return try await user(id: id, on: tx).map(Authentication.valid) ?? .invalid
    }

    /// A bcrypt hash (cost 10, like real ones) of a text no one signs in with, checked when the
    /// email has no account (or no password) so that sign-in costs the same either way.
    static let absentAccountHash = "$2a$10$VpA3PCutG0MO1/.kOTYKGuh0Stgj10NGNIEvJ.0A124gR09hw5bzO"

    /// Changes what is given (password re-hashed, metadata merged key by key); nil when there is no such user.
    ///
    /// A new password ends every session of the user but `keepingSession` (the one that changed
    /// it, for `PUT /user`), as GoTrue does: whoever held the old password may hold a session.
    public func updateUser(
        id: UUID, email: String? = nil, password: String? = nil, keepingSession: UUID? = nil, userMetadata: JSONValue? = nil,
        appMetadata: JSONValue? = nil, confirmEmail: Bool? = nil, on tx: PostgresConnection
    ) async throws -> AuthUser? {
        // The account's row first, then the sessions to end, then the write: a refresh holds its
        // session and then takes a key-share lock on the account, so ending sessions while
        // holding the stronger lock a new email takes would have each wait for the other.
        let account = try await tx.query("SELECT 1 FROM auth.users WHERE id = \(id) AND deleted_at IS NULL FOR NO KEY UPDATE")
        guard !account.isEmpty else { return nil }
        if password != nil { try await deleteSessions(userID: id, keeping: keepingSession, on: tx) }
        let updated = try await tx.query("""
            UPDATE auth.users AS u SET
                email = coalesce(\(email), u.email),
                encrypted_password = CASE WHEN \(password)::text IS NULL THEN u.encrypted_password
                                          ELSE extensions.crypt(\(password), extensions.gen_salt('bf', 10)) END,
                raw_user_meta_data = \(Self.merged("u.raw_user_meta_data", userMetadata)),
                raw_app_meta_data = \(Self.merged("u.raw_app_meta_data", appMetadata)),
                email_confirmed_at = CASE WHEN \(confirmEmail)::boolean IS TRUE THEN coalesce(u.email_confirmed_at, now())
                                          ELSE u.email_confirmed_at END,
                updated_at = now()
             WHERE u.id = \(id) AND u.deleted_at IS NULL
            """)
        guard updated.affectedRows == 1 else { return nil }
        return try await user(id: id, on: tx)
    }

    /// `column` with `updates`' keys merged in, as GoTrue merges metadata: a key whose new value is
    /// `null` is removed (`updateUser({data: {key: null}})` is how clients drop a key), nested
    /// values are replaced whole.
    private static func merged(_ column: StaticString, _ updates: JSONValue?) -> PostgresQuery {
        let text = updates?.jsonText
        return """
            (\(unescaped: "\(column)") || coalesce(\(text)::jsonb, '{}'))
              - ARRAY(SELECT e.key FROM pg_catalog.jsonb_each(coalesce(\(text)::jsonb, '{}')) AS e WHERE e.value = 'null'::jsonb)
            """
    }

    /// Bans the account for `seconds` from now (ending its sessions), or lifts its ban (nil, zero
    /// or negative: as GoTrue, a ban that would already be over is none).
    public func ban(id: UUID, forSeconds seconds: Double?, on tx: PostgresConnection) async throws {
        let banned = (seconds ?? 0) > 0
        _ = try await tx.query("""
            UPDATE auth.users
               SET banned_until = CASE WHEN \(banned) THEN now() + make_interval(secs => \(seconds ?? 0)) END, updated_at = now()
             WHERE id = \(id) AND deleted_at IS NULL
            """)
        if banned { try await deleteSessions(userID: id, keeping: nil, on: tx) }
    }

    /// Deletes an account (its sessions, tokens and app rows cascade); false when there was none.
    public func deleteUser(id: UUID, on tx: PostgresConnection) async throws -> Bool {
        (try await tx.query("DELETE FROM auth.users WHERE id = \(id)").affectedRows ?? 0) > 0
    }

    /// GoTrue's soft delete (migration 0044): the row stays, so what references it stays too;
    /// email and phone become a hash of themselves and the id, and the password, metadata,
    /// identities' data, factors, sessions, mailed tokens and PKCE flows go. False when there is
    /// no such account; an account deleted before is left as it is (as GoTrue leaves it).
    public func softDeleteUser(id: UUID, on tx: PostgresConnection) async throws -> Bool {
        // Lock, clear, then rewrite the email last (see ``updateUser``: its unique key takes the
        // lock a refresh's key-share lock waits for).
        let account = try await tx.query("SELECT deleted_at IS NOT NULL FROM auth.users WHERE id = \(id) FOR NO KEY UPDATE")
        guard let row = account.first else { return false }
        if try row.decode(Bool.self, at: 0) { return true }
        _ = try await tx.query("DELETE FROM auth.mfa_factors WHERE user_id = \(id)")
        _ = try await tx.query("DELETE FROM auth.sessions WHERE user_id = \(id)")
        _ = try await tx.query("DELETE FROM auth.one_time_tokens WHERE user_id = \(id)")
        _ = try await tx.query("DELETE FROM auth.flow_state WHERE user_id = \(id)")
        _ = try await tx.query("""
            UPDATE auth.users AS u SET
                   email = \(unescaped: Self.obfuscated("u.email")), phone = left(\(unescaped: Self.obfuscated("u.phone")), 15),
                   email_change = \(unescaped: Self.obfuscated("u.email_change")),
                   encrypted_password = NULL, raw_user_meta_data = '{}', raw_app_meta_data = '{}',
                   deleted_at = now(), updated_at = now()
             WHERE u.id = \(id)
            """)
        // After the update: its identity trigger rewrote the email identity from the new address.
        _ = try await tx.query("""
            UPDATE auth.identities AS i
               SET identity_data = '{}', provider_id = \(unescaped: Self.obfuscated("i.provider || ':' || i.provider_id", id: "i.user_id")),
                   updated_at = now()
             WHERE i.user_id = \(id) AND i.identity_data <> '{}'
            """)
        return true
    }

    /// `value`, when not NULL, as GoTrue obfuscates it: base64url of SHA-256 of the user id and the value.
    private static func obfuscated(_ value: String, id: String = "u.id") -> String {
        """
        rtrim(translate(encode(sha256(convert_to(\(id)::text || \(value), 'UTF8')), 'base64'), '+/', '-_'), '=')
        """
    }

    /// One page of accounts, newest first (GoTrue's order) or oldest first (`compass users list`),
    /// and the total count.
    public func listUsers(
        limit: Int, offset: Int = 0, newestFirst: Bool = true, filter: String? = nil, on tx: PostgresConnection
    ) async throws -> (users: [AuthUser], total: Int) {
        let direction = newestFirst ? "DESC" : "ASC"
        // GoTrue's `filter`: a substring of the email (case as written) or of `full_name` (any case),
        // `%` and `_` matching as LIKE's wildcards, as there.
        let matches: PostgresQuery = """
            (\(filter)::text IS NULL OR u.email LIKE '%' || \(filter) || '%'
             OR u.raw_user_meta_data->>'full_name' ILIKE '%' || \(filter) || '%')
            """
        let rows = try await tx.query("""
            SELECT \(unescaped: AuthStore.userJSON) FROM auth.users AS u WHERE \(matches)
             ORDER BY u.created_at \(unescaped: direction), u.id \(unescaped: direction) LIMIT \(limit) OFFSET \(offset)
            """)
        let decoder = JSONDecoder()
        let users = try rows.map { try decoder.decode(AuthUser.self, from: Data(try $0.decode(String.self, at: 0).utf8)) }
        let total = try await tx.query("SELECT count(*)::int FROM auth.users AS u WHERE \(matches)").first?.decode(Int.self, at: 0) ?? 0
        return (users, total)
    }
}
