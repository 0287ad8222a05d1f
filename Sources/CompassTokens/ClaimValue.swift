/// One claim's JSON value as the verifier needs it: a finite number, a string, an array of
/// strings (an `aud`), or anything else.
///
/// Decoding never fails, so an odd value in one claim is that claim's problem rather than a
/// malformed token, and no value (huge, fractional, nested, boolean) reaches an integer
/// conversion: numbers stay `Double` and non-finite ones count as `other`.
enum ClaimValue: Decodable, Hashable {
    case number(Double)
    case string(String)
    case strings([String])
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self), number.isFinite {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let texts = try? container.decode([String].self) {
            self = .strings(texts)
        } else {
            self = .other
        }
    }

    /// The string, if the claim is one.
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
