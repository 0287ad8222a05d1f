/// Turns stored snake_case codes into the labels the apps show.
public enum DisplayLabel {
    /// `"offer_received"` → `"Offer Received"`: underscores become spaces and each word starts upper case.
    ///
    /// Letters after the first of each word are kept as they are, so `"NCAA_visit"` reads `"NCAA Visit"`.
    public static func humanized(_ code: String) -> String {
        code.split(separator: "_", omittingEmptySubsequences: true)
            .map { word in word.prefix(1).uppercased() + word.dropFirst() }
            .joined(separator: " ")
    }
}
