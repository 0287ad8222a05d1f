import CompassHTTP
import Hummingbird
import NIOCore

extension CompassServer {
    /// `/health` (liveness): 200 `{"status":"ok"}` once every API has started, else 503 with the
    /// first API's reason; it stays 200 while the process runs. `/ready` (readiness): the database
    /// answers, at the expected migration, realtime's LISTEN up (see ``ReadinessReport``).
    /// `/metrics`: every API's metrics as Prometheus text.
    func addProbes(to router: Router<CompassRequestContext>, apis: [any CompassAPI]) {
        let registry = context.metrics
        let readiness = self.readiness
        let poolMetrics = self.poolMetrics
        router.get("/health") { _, _ -> Response in
            guard let reason = apis.lazy.compactMap(\.unreadyReason).first else {
                return JSONReply.text(#"{"status":"ok"}"#, contentType: "application/json")
            }
            return JSONReply.object(status: .serviceUnavailable, ["status": "starting", "reason": reason])
        }
        router.get("/ready") { _, _ -> Response in
            var report = await readiness.check()
            report.set(.startup, apis.lazy.compactMap(\.unreadyReason).first)
            return report.response
        }
        router.get("/metrics") { _, _ -> Response in
            for api in apis { api.refreshMetrics() }
            await poolMetrics.refresh()
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: registry.emitToString())))
        }
    }
}
