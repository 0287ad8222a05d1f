/// The release of compass and compass-worker (`--version`, the worker's first log line).
public enum CompassVersion {
    /// Semantic version of this checkout; raised with each release.
    public static let current = "0.9.0"
}
