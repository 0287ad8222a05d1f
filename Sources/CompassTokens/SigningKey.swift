import Foundation
import JWTKit

/// The asymmetric algorithms access tokens may be signed with, as Supabase's signing keys.
public enum SigningAlgorithm: String, Sendable {
    case es256 = "ES256"
    case rs256 = "RS256"
}

/// One key of a ``SigningKeySet``: its id, its algorithm, its public half and, for the key
/// that signs, its private half.
public struct SigningKey: Sendable {
    /// The `kid` tokens signed with it carry in their header.
    public let kid: String
    /// ES256 (P-256) or RS256.
    public let algorithm: SigningAlgorithm
    /// The public JWK, as published.
    let published: PublishedKey
    /// The public key alone: what verifies, so a token verifies only against what is published.
    let verifying: JWTKeyCollection
    /// The private key, nil for a retired key configured by its public half only.
    let signing: JWTKeyCollection?

    /// Builds key number `position` of the setting from its checked form.
    init(_ checked: ConfiguredKey.Checked, position: Int) async throws(SigningKeyError) {
        let (configured, kid, algorithm) = (checked.key, checked.kid, checked.algorithm)
        let name = "key \(position) (kid \"\(kid.prefix(40))\")"
        self.kid = kid
        self.algorithm = algorithm
        published = PublishedKey(configured, kid: kid, algorithm: algorithm)
        do {
            verifying = try await JWTKeyCollection().add(jwk: published.jwk)
            signing = configured.d == nil ? nil : try await JWTKeyCollection().add(jwk: configured.jwk(algorithm: algorithm, kid: kid))
        } catch {
            throw SigningKeyError("\(name) is not a usable \(algorithm.rawValue) key")
        }
        try await checkPair(name: name)
    }

    /// Signs a probe with the private half and verifies it with the public one, so a key whose
    /// `d` belongs to another key stops the worker instead of minting tokens nobody can verify.
    private func checkPair(name: String) async throws(SigningKeyError) {
        guard let signing else { return }
        do {
            let probe = try await signing.sign(Probe(), header: ["alg": .string(algorithm.rawValue), "kid": .string(kid)])
            _ = try await verifying.verify(probe, as: Probe.self)
        } catch {
            throw SigningKeyError("\(name): its private part does not match its public part")
        }
    }

    /// Signs `payload` with this key (`alg` and `kid` in the header); nil when it has no private half.
    func sign(_ payload: some JWTPayload) async throws -> String? {
        guard let signing else { return nil }
        return try await signing.sign(payload, header: ["alg": .string(algorithm.rawValue), "typ": "JWT", "kid": .string(kid)])
    }

    private struct Probe: JWTPayload {
        var probe = true
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
