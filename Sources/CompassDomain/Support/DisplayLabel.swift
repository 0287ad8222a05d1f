/// Turns stored snake_case codes into the labels the apps show.
public enum DisplayLabel {
    /// `"offer_received"` → `"Offer Received"`: underscores become spaces and each word starts upper case.
    ///
    /// Letters after the first of each word are kept as they are, so `"NCAA_visit"` reads `"NCAA Visit"`.
    public static func humanized(_ code: String) -> String {
        if let label = asciiHumanized(code) { return label }
        return code.split(separator: "_", omittingEmptySubsequences: true)
            .map { word in word.prefix(1).uppercased() + word.dropFirst() }
            .joined(separator: " ")
    }

    /// The same for ASCII codes (every stored status and type), byte by byte: one string built, not one per word.
    private static func asciiHumanized(_ code: String) -> String? {
        let bytes = code.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var label: [UInt8] = []
        label.reserveCapacity(bytes.count)
        var startsWord = true
        for byte in bytes {
            if byte == UInt8(ascii: "_") {
                startsWord = true
                continue
            }
            if startsWord {
                if !label.isEmpty { label.append(UInt8(ascii: " ")) }
                label.append(byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte)
                startsWord = false
            } else {
                label.append(byte)
            }
        }
        return String(decoding: label, as: UTF8.self)
    }
}
