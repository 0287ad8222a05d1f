import Testing
import Foundation

@testable import CompassTokens

/// Throwaway signing keys (made for these tests, never used anywhere else) and the sets built from them.
enum SigningKeyFixtures {
    /// The ES256 key that signs (kid `ec-2026-11`).
    static let ecCurrent = #"{"kty":"EC","crv":"P-256","kid":"ec-2026-11","x":"fWkQNuA4S-TYY3pvgOHuTgYmvQllttf70HsFxPGron8","y":"uYSotrTSwjgTsFrvvSZWG1V9kWTHbgdjmbn9OH8h70Q","d":"ipZ2mCFg71xwnYxBEcN_qYnmmWNWz5A3dYaryeMoBPU"}"#
    /// The ES256 key it replaced (kid `ec-2026-05`).
    static let ecPrevious = #"{"kty":"EC","crv":"P-256","kid":"ec-2026-05","x":"a0YYFUqFu6w-JMLZlgqlrDpDUx4NCo0_OgT3H_3zcs8","y":"93lP4rCnnvoKBK7QmvlC_eceBYQcEYnWZ07aL6FhreI","d":"MUb4L-_iRlUYVtNEjC2egfg6pxUo7p08awjbuSY2Cf8"}"#
    /// An RS256 key (kid `rsa-2026-11`).
    static let rsa = #"{"kty":"RSA","kid":"rsa-2026-11","alg":"RS256","n":"y-RXygA2jP4XSN1f_4QE4wtPSbApGXe4iSWHA2VansjMy4zF0hZN0R_Lc-Uv9D_rTjUEYFh8RxFhakL86z5sQduggX1mALwTdmbJx2e-R2NEmmCWbmDViYdpVCOEr3PZEb2vFcayBlDzkYaiJV7RMljbIiRcj-8mFHFyBHizCzXntCqB-NWWwvbme1WkvwAjDpxgOYlyWsk5FwnHkILl5r-H2efo26h3X9LHF-p1SJrocJJRqGsuFpk-i7krviafLQrwCSMoFnJcioSI--7-ZYeexuoDtKQXIjcX58BCLeTFvW3e6bi-x9G4HROiO1hRy04ZK6J_HA5Ai_2-GoSJ5Q","e":"AQAB","d":"BqX-etbA8J4EclrNm45ZfnHK9xMoc-0kdkxj96dhahYQH38KoEwb43rO7ouFochHyvgNmXqpKsQVUhq3FpClhQw9UpudLN71H4JAiCEI4lkJTqNhpF3B-McSlyzFUddMN7jgsawV-ADBwHgMZ32NAsBE_PsEjaj1q-r7Fcw9wlrDuWLWFfLr3RtYNagVKRz-FRVf7SVj-JmAM6c9yc_Cu-YTvuacj2n1Md0g5jFdOfG9y-Z37l-m7wMmjmSh7uSHVmH3wxkMF_qFyLOdMGIYcDTcxedg6_B6Z9CTL8Xfon9X7qcsHamE8BPnWf900XmiUUaniBM89EuFM1MYuiKEoQ","p":"6P6rM8Gv_NeftC2OWzBvZxDVt4X8jyHNTqPghqPnfLlHbwgxAzWxSJCv0jATYx1CEHKhe00HwhsR1-KrbM76yDrMgdU4zyhcZ-q4wFYU5U81671EUABseSKbprk2fam9T7ksQXpfiLT-2cIWYya7vsZGsF5Mb8jqMhX36jS-dfk","q":"4AYNNHxEaSjjy__glfZJ6Z-u0ZvLC_Qqa3MbqfoypTw592Y3YYMpyGgTLBebPlYeDk02dTkOsMjYjaXqm2mLpbi0xQuv_BYkmVBx1N4AVW1fmRIDwuE2QhTQJr97V_A2Bj_IDTkBczd_62y95bjqOcin9N-xODsBYGs0qTke_k0"}"#

    /// `keys` as the setting's JWK set text.
    static func setText(_ keys: [String]) -> String {
        #"{"keys":["# + keys.joined(separator: ",") + "]}"
    }

    /// The set of `keys`, the first signing.
    static func set(_ keys: String...) async throws -> SigningKeySet {
        try await SigningKeySet(jwksJSON: setText(keys))
    }

    /// `key`'s JSON with `field` replaced or added (`"kid":"x"`), or removed when `value` is nil.
    static func edited(_ key: String, _ field: String, _ value: String?) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(key.utf8)) as? [String: Any])
        object[field] = value
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// A token signed by `set`'s first key.
    static func token(signedBy set: SigningKeySet, role: APIRole = .authenticated) async throws -> String {
        try await AccessTokenIssuer(secret: TokenFixtures.secret, signingKey: set.current)
            .token(role: role, subject: "a1000000-0000-4000-8000-000000000003", lifetime: 600, now: TokenFixtures.now)
    }

    /// The token's header, decoded.
    static func header(of token: String) throws -> [String: Any] {
        let part = try #require(token.split(separator: ".").first)
        let text = try #require(HS256Text.decodedText(part))
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}
