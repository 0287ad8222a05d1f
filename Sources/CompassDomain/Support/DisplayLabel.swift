/// Turns stored snake_case codes into the labels the apps show.
public enum DisplayLabel {
    /// `"offer_received"` → `"Offer Received"`: underscores become spaces and each word starts upper case.
    ///
    /// Letters after the first of each word are kept as they are, so `"NCAA_visit"` reads `"NCAA Visit"`.
    /// Words are what underscores or spaces separate (`"not interested"` reads `"Not Interested"`),
    /// one space between two words however many separators there were.
    public static func humanized(_ code: String) -> String {
        if let label = asciiHumanized(code) { return label }
        return code.split(omittingEmptySubsequences: true) { $0 == "_" || $0 == " " }
            .map { word in word.prefix(1).uppercased() + word.dropFirst() }
            .joined(separator: " ")
    }

    /// The same for ASCII codes (every stored status and type), byte by byte into the string
    /// itself (a label of up to 15 bytes is a small string: nothing is allocated).
    private static func asciiHumanized(_ code: String) -> String? {
        let bytes = code.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return String(unsafeUninitializedCapacity: bytes.count) { label in
            var count = 0
            var startsWord = true
            for byte in bytes {
                if byte == UInt8(ascii: "_") || byte == UInt8(ascii: " ") {
                    startsWord = true
                    continue
                }
                if startsWord {
                    // A space only between words: never more bytes than the code has.
                    if count > 0 {
                        label[count] = UInt8(ascii: " ")
                        count += 1
                    }
                    label[count] = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
                    startsWord = false
                } else {
                    label[count] = byte
                }
                count += 1
            }
            return count
        }
    }
}
