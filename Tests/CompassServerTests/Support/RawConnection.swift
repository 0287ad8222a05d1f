import CompassTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to the test server, for requests no HTTP client would send.
final class RawConnection {
    private let socket: Int32

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

    deinit { close(socket) }

    /// Sends every byte (stops quietly if the server already closed).
    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard result > 0 else { return }
            sent += result
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// What the server sends until it closes (`closed` true) or `timeout` passes with the socket still open.
    func readUntilClosed(timeout: Duration) -> (text: String, closed: Bool) {
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
        }
        return (String(decoding: received, as: UTF8.self), false)
    }
}
