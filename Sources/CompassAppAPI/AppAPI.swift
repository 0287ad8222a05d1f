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
/// let api = AppAPI(context: context, configuration: settings.appAPI)
/// api.addRoutes(to: router)
/// ```
/// Every endpoint needs the `apikey` (Supabase's gateway 401 otherwise, from middleware) and a
/// user's access token in `Authorization: Bearer`; the data layer then runs under that user's
/// RLS scope on a connection leased from the server's shared pool, so Postgres decides what is visible.
public struct AppAPI: CompassAPI {
    let pool: PostgresPool
    let verifier: AccessTokenVerifier
    let configuration: AppAPIConfiguration
    let logger: Logger
    /// The clock relative times and date filters are computed against.
    let now: @Sendable () -> Date
    /// The server's budget for request bodies being read.
    let bodyBudget: ByteBudget
    /// One client address's share of the pool, shared with REST.
    let clientShare: ClientShare

    /// An API on the server's context.
    public init(context: ServerContext, configuration: AppAPIConfiguration = AppAPIConfiguration()) {
        self.pool = context.pool
        self.verifier = context.verifier
        self.configuration = configuration
        self.now = context.now
        self.logger = context.logger
        self.bodyBudget = context.bodyBudget
        self.clientShare = context.clientShare
    }

    /// Adds every `/api` route, behind the gateway and `/api`'s error replies.
    public func addRoutes(to router: Router<CompassRequestContext>) {
        let api = self
        let group = router.group()
            .add(middleware: ErrorReplyMiddleware(AppAPIError.translating))
            .add(middleware: APIKeyMiddleware(verifier: verifier))
            .add(middleware: ClientShareMiddleware(clientShare))
        for route in routes {
            group.on(RouterPath(route.path), method: route.method) { request, context in
                let user = route.needsUser ? try await api.user(of: request) : nil
                return try await route.handler(AppCall(request: request, context: context, user: user))
            }
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
