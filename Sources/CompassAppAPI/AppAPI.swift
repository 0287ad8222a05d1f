import CompassData
import CompassHTTP
import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Postgres

/// `/api`: the apps' own endpoints — seed 004's cascade-delete and one-call reads that return the CLI's JSON.
///
/// ```swift
/// let api = AppAPI(pool: server.pool, verifier: verifier, logger: logger)
/// api.addRoutes(to: router)
/// ```
/// Every endpoint needs the `apikey` (Supabase's gateway 401 otherwise) and a user's access
/// token in `Authorization: Bearer`; the data layer then runs under that user's RLS scope on a
/// connection leased from the server's shared pool, so Postgres decides what is visible.
public struct AppAPI: Sendable {
    let pool: PostgresPool
    let verifier: AccessTokenVerifier
    let gate: APIKeyGate
    let configuration: AppAPIConfiguration
    let logger: Logger
    /// The clock relative times and date filters are computed against.
    let now: @Sendable () -> Date

    /// An API over `pool`, checking keys and tokens with `verifier`.
    public init(
        pool: PostgresPool, verifier: AccessTokenVerifier, configuration: AppAPIConfiguration = AppAPIConfiguration(),
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger
    ) {
        self.pool = pool
        self.verifier = verifier
        self.gate = APIKeyGate(verifier: verifier)
        self.configuration = configuration
        self.now = now
        self.logger = logger
    }

    /// Adds every `/api` route to `router`.
    public func addRoutes(to router: Router<CompassRequestContext>) {
        for route in routes {
            router.on(RouterPath(route.path), method: route.method) { request, context in
                await respond(to: request, needsUser: route.needsUser) { user in
                    try await route.handler(AppCall(request: request, context: context, user: user))
                }
            }
        }
    }

    /// Checks the key and the session, runs `body` for the user, and turns every failure into its JSON reply.
    func respond(
        to request: Request, needsUser: Bool = true, _ body: (UUID?) async throws -> Response
    ) async -> Response {
        do {
            _ = try await gate.check(request)
            return try await body(needsUser ? try await user(of: request) : nil)
        } catch let error as APIKeyError {
            return error.response
        } catch let error as AppAPIError {
            return error.response
        } catch let error as DataAccessError {
            let reply = AppAPIError.from(error)
            if reply.status == .internalServerError { logger.error("data layer failed: \(error)") }
            return reply.response
        } catch let error as BodyTooLarge {
            return AppAPIError(status: .contentTooLarge, code: "body_too_large", message: error.description).response
        } catch {
            // PostgresError's description carries no bind values.
            logger.error("request failed: \(String(describing: error))", metadata: ["path": "\(request.uri.path)"])
            return AppAPIError.internalError.response
        }
    }

    /// The signed-in user of `request`: a valid bearer token with role `authenticated` and a UUID `sub`.
    func user(of request: Request) async throws(AppAPIError) -> UUID {
        guard let token = request.bearerToken else { throw .sessionRequired }
        let claims: AccessClaims
        do {
            claims = try await verifier.verify(token)
        } catch {
            throw .invalidToken(error)
        }
        guard claims.role == .authenticated, let subject = claims.subject, let id = UUID(uuidString: subject) else {
            throw .sessionRequired
        }
        return id
    }

    /// Runs `body` in `user`'s RLS scope on a pooled connection.
    func withScope<T>(of user: UUID?, _ body: (DatabaseScope) async throws -> T) async throws -> T {
        guard let user else { throw AppAPIError.sessionRequired }
        return try await pool.withConnection { connection in try await body(.user(user, on: connection)) }
    }
}
