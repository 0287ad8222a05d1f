import CompassHTTP
import Hummingbird

/// `/ready`'s answer: each part `ok` or what is wrong with it; 503 names the first failing part.
///
/// ```json
/// {"status":"ready","database":"ok","migrations":"ok","listen":"ok"}
/// {"status":"unready","failing":"database","database":"unreachable (connectionFailed)",…}
/// ```
struct ReadinessReport: Sendable {
    /// The checked parts, in the order a failure is named.
    enum Part: String, CaseIterable, Sendable {
        case database, migrations, listen, startup
    }

    private var problems: [Part: String] = [:]

    /// Records a part's problem (nil: the part is ok).
    mutating func set(_ part: Part, _ problem: String?) {
        problems[part] = problem
    }

    /// The first part that is not ok.
    var failing: Part? { Part.allCases.first { problems[$0] != nil } }

    /// 200 with every part `ok`, or 503 naming the failing part (with `Retry-After`, as the other 503s).
    var response: Response {
        var fields: [String: String] = [:]
        for part in Part.allCases where part != .startup || problems[part] != nil {
            fields[part.rawValue] = problems[part] ?? "ok"
        }
        guard let failing else {
            fields["status"] = "ready"
            return JSONReply.object(status: .ok, fields)
        }
        fields["status"] = "unready"
        fields["failing"] = failing.rawValue
        return JSONReply.object(status: .serviceUnavailable, fields, headers: [.retryAfter: "1"])
    }
}
