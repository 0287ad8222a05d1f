import CompassHTTP
import Hummingbird
import NIOCore

extension CompassServer {
    /// `/health`: 200 `{"status":"ok"}` once every API can serve, else 503 with the first
    /// API's reason; `/metrics`: every API's metrics as Prometheus text.
    func addProbes(to router: Router<CompassRequestContext>, apis: [any CompassAPI]) {
        let registry = context.metrics
        router.get("/health") { _, _ -> Response in
            guard let reason = apis.lazy.compactMap(\.unreadyReason).first else {
                return JSONReply.text(#"{"status":"ok"}"#, contentType: "application/json")
            }
            return JSONReply.object(status: .serviceUnavailable, ["status": "starting", "reason": reason])
        }
        router.get("/metrics") { _, _ -> Response in
            for api in apis { api.refreshMetrics() }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: registry.emitToString())))
        }
    }
}
