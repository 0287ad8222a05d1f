import CompassTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to the test server, for requests no HTTP client would send.
///
/// Its socket calls block, so each runs on a thread of its own (not the cooperative pool, whose
/// few threads the in-process server needs, nor a shared dispatch pool), one at a time.
final class RawConnection: @unchecked Sendable {  // every socket call holds `lock`
    private var socket: Int32

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw HarnessError("could not connect to port \(port)") }
    }

    deinit { if socket >= 0 { close(socket) } }

    /// Closes the socket (the client goes away).
    func hangUp() {
        lock.lock()
        if socket >= 0 { close(socket) }
        socket = -1
        lock.unlock()
    }

    private let lock = NSLock()

    /// Runs `work` on a new thread, holding the connection's lock.
    private func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { done in
            Thread {
                self.lock.lock()
                let value = work()
                self.lock.unlock()
                done.resume(returning: value)
            }.start()
        }
    }

    /// Sends every byte (stops quietly if the server already closed).
    func send(_ bytes: [UInt8]) async {
        await onThread { self.sendBlocking(bytes) }
    }

    func send(_ text: String) async { await send(Array(text.utf8)) }

    /// What the server sends until it closes (`closed` true) or `timeout` passes with the socket still open.
    func readUntilClosed(timeout: Duration) async -> (text: String, closed: Bool) {
        await onThread { self.readBlocking(timeout: timeout) { _ in false } }
    }

    /// What the server sends until `enough` says so (a whole reply on a kept-alive connection), it closes, or `timeout` passes.
    func read(timeout: Duration, until enough: @escaping @Sendable (String) -> Bool) async -> String {
        await onThread { self.readBlocking(timeout: timeout, until: enough).text }
    }

    private func sendBlocking(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard result > 0 else { return }
            sent += result
        }
    }

    private func readBlocking(timeout: Duration, until enough: (String) -> Bool) -> (text: String, closed: Bool) {
        var timeval = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (String(decoding: received, as: UTF8.self), true) }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                return (String(decoding: received, as: UTF8.self), true)  // reset: closed too
            }
            received += buffer[0..<count]
            if enough(String(decoding: received, as: UTF8.self)) { break }
        }
        return (String(decoding: received, as: UTF8.self), false)
    }
}

extension RawConnection {
    /// Sends one `GET` with `Connection: close` and the given headers, and returns the reply's status code.
    static func get(_ target: String, port: Int, headers: [String: String], timeout: Duration = .seconds(15)) async throws -> Int? {
        let connection = try RawConnection(port: port)
        await connection.send(request(target, headers: headers))
        return status(of: await connection.readUntilClosed(timeout: timeout).text)
    }

    /// `GET target HTTP/1.1` with `Host`, `Connection: close` and `headers`.
    static func request(_ target: String, headers: [String: String]) -> String {
        var text = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return text + "\r\n"
    }

    /// The status code of a raw reply.
    static func status(of reply: String) -> Int? {
        let parts = reply.split(separator: " ", maxSplits: 2)
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}
