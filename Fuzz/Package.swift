// swift-tools-version: 6.1
// libFuzzer targets for the server's text parsers; see README.md. Not part of the main
// package, so `make test` never builds it: `scripts/fuzz` (or `make fuzz`) does.
import PackageDescription

// Only the code under test (symlinked from ../Sources) and the entry points get coverage
// instrumentation and AddressSanitizer; JWTKit and swift-crypto are compiled as usual.
let instrumented: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .unsafeFlags(["-sanitize=fuzzer,address"]),
]
// Links libFuzzer and the ASan runtime; each main.swift hands its input function to libFuzzer's driver.
let fuzzerMain: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]

let package = Package(
    name: "compass-fuzz",
    dependencies: [
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // The real SQLState.swift, all the REST grammar needs from the Postgres client
        // (depending on the main package's `Postgres` would pull in libpq and its whole graph).
        .target(name: "Postgres", swiftSettings: [.swiftLanguageMode(.v6)]),
        // The real BodyErrors.swift, the one file of the HTTP layer the REST error catalog words from.
        .target(name: "CompassHTTP", swiftSettings: [.swiftLanguageMode(.v6)]),
        // libFuzzer's driver, called from each target's main.swift.
        .target(name: "FuzzDriver"),
        // The real timestamp reader and writer, instrumented: the timestamp and frame targets test it.
        .target(name: "CivilCalendar", swiftSettings: instrumented),
        // REST: select, filters, and=/or= trees, order, whole query strings, Prefer and Range.
        .executableTarget(
            name: "FuzzGrammar", dependencies: ["FuzzDriver", "Postgres", "CompassHTTP"], swiftSettings: instrumented, linkerSettings: fuzzerMain),
        // JSON: the realtime parser (raw bytes, members, write-back) and REST's JSONText quoting.
        .executableTarget(name: "FuzzJSON", dependencies: ["FuzzDriver"], swiftSettings: instrumented, linkerSettings: fuzzerMain),
        // Realtime frames (v1 objects, v2 arrays), postgres_changes bindings and their filters.
        .executableTarget(
            name: "FuzzRealtimeFrame", dependencies: ["FuzzDriver", "CivilCalendar"], swiftSettings: instrumented,
            linkerSettings: fuzzerMain),
        // Access tokens: raw strings, and any payload or header signed with the test secret.
        .executableTarget(
            name: "FuzzTokens",
            dependencies: [
                "FuzzDriver",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: instrumented, linkerSettings: fuzzerMain),
        // Timestamps: CivilTimestamp, the realtime and Postgres client policies, the writer.
        .executableTarget(
            name: "FuzzTimestamp", dependencies: ["FuzzDriver", "CivilCalendar"], swiftSettings: instrumented,
            linkerSettings: fuzzerMain),
    ]
)
