import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware of every route: gives the request its id (`X-Request-Id` on the
/// reply; ``RequestID/current`` while it is served, so the worker's log handler puts it in every
/// line the request causes, whichever logger writes it), and counts it in ``HTTPMetrics`` by API
/// and route template once answered.
///
/// ```swift
/// router.add(middleware: RequestObservationMiddleware(metrics: HTTPMetrics(registry: context.metrics)))
/// ```
/// Errors still thrown at this point (an unknown path) are turned into their replies here, so
/// they get the header and are counted too.
public struct RequestObservationMiddleware: RouterMiddleware {
    public typealias Context = CompassRequestContext

    /// The metadata key the request id is logged under (Hummingbird's own key, replaced by ours).
    public static let logKey = "hb.request.id"

    let metrics: HTTPMetrics

    public init(metrics: HTTPMetrics) {
        self.metrics = metrics
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let id = RequestID(incoming: request.headers[.xRequestID])
        var context = context
        context.logger[metadataKey: Self.logKey] = .string(id.text)
        var response: Response
        do {
            response = try await RequestID.$current.withValue(id.text) { try await next(request, context) }
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            // What no API turned into a reply: a bug, answered as Hummingbird would, with a bare 500.
            RequestID.$current.withValue(id.text) {
                context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            }
            response = Response(status: .internalServerError)
        }
        response.headers[.xRequestID] = id.text
        let api = Self.api(of: request.uri.path)
        let route = context.endpointPath ?? "NotFound"
        metrics.record(
            api: api, route: route, method: request.method.rawValue, status: response.status.code,
            duration: ContinuousClock.now - started)
        if api == "auth", request.method == .post, route.hasSuffix("/token"),
           request.uri.queryParameters["grant_type"] == "password" {
            metrics.recordSignIn(Self.signInOutcome(status: response.status.code))
        }
        return response
    }

    /// The API a path belongs to (the label bounded to five values).
    static func api(of path: String) -> String {
        if path.hasPrefix("/rest/v1") { return "rest" }
        if path.hasPrefix("/auth/v1") { return "auth" }
        if path == "/api" || path.hasPrefix("/api/") { return "api" }
        if path.hasPrefix("/realtime/v1") { return "realtime" }
        return "server"
    }

    static func signInOutcome(status: Int) -> HTTPMetrics.SignInOutcome {
        switch status {
        case 200..<300: .succeeded
        case 429: .rateLimited
        default: .failed
        }
    }
}

extension HTTPField.Name {
    /// `X-Request-Id`: the id of one request, echoed in the reply and logged.
    public static let xRequestID = HTTPField.Name("X-Request-Id")!
}
