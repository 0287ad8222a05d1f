// libFuzzer input function for the access token verifier (CompassTokens/).
//
// The first byte picks the mode (modulo 3); the rest is:
//   0 a raw token string, as it arrives in `Authorization: Bearer …` or `apikey`
//   1 payload bytes, signed with the test secret under the usual HS256 header, so the
//     claim handling after the signature check is what gets fuzzed (`"exp": -1e300` once trapped)
//   2 header bytes, a newline, payload bytes, both signed with the test secret as they are
import Crypto
import Dispatch
import Foundation

/// The secret every signed input uses.
private let secret = "fuzzing-secret-with-at-least-32-characters"
/// The clock the verifier checks against: 2026-02-02, so tokens from the seeds' era are live.
private let now = Date(timeIntervalSince1970: 1_770_000_000)
private let verifier = blocking { () async -> AccessTokenVerifier in
    do {
        return try await AccessTokenVerifier(secret: secret)
    } catch {
        fatalError("test secret refused: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let token: String
    switch data[0] % 3 {
    case 0:
        token = String(decoding: bytes, as: UTF8.self)
    case 1:
        token = HS256Text.token(claimsJSON: String(decoding: bytes, as: UTF8.self), secret: secret)
    default:
        let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        token = signed(header: bytes[..<newline], payload: bytes[newline...].dropFirst())
    }
    let verifier = verifier
    let outcome = blocking { () async -> Result<AccessClaims, AccessTokenError> in
        do throws(AccessTokenError) {
            return .success(try await verifier.verify(token, now: now))
        } catch {
            return .failure(error)
        }
    }
    switch outcome {
    case .success(let claims):
        precondition(claims.expiresAt.map { $0 > now } ?? true, "an expired token was accepted")
        _ = claims.authorizationKey
    case .failure(let error):
        // The refusal is logged and turned into a 401 body: rendering it must not trap.
        _ = error.description
    }
    return 0
}

/// `header.payload.signature` over the exact bytes given, HS256 with the test secret.
private func signed(header: Data, payload: Data) -> String {
    let signingInput = HS256Text.base64URL(header) + "." + HS256Text.base64URL(payload)
    let signature = HMAC<SHA256>.authenticationCode(
        for: Data(signingInput.utf8), using: SymmetricKey(data: Data(secret.utf8)))
    return signingInput + "." + HS256Text.base64URL(Data(signature))
}

/// Runs async work to completion from libFuzzer's synchronous callback.
private func blocking<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
    let result = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        result.value = await operation()
        done.signal()
    }
    done.wait()
    return result.value!
}

/// Carries the result out of the task; the semaphore orders the write before the read.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
