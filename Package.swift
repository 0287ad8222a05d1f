// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "compass-backend",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "compass", targets: ["CompassCLI"]),
        .executable(name: "compass-worker", targets: ["CompassWorker"]),
        .library(name: "CompassDomain", targets: ["CompassDomain"]),
        .library(name: "CompassData", targets: ["CompassData"]),
        .library(name: "Postgres", targets: ["Postgres"]),
        // The test harness (database, child processes), shared with the benchmark packages.
        .library(name: "CompassTestSupport", targets: ["CompassTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // C boundary: libpq headers and library, found through pkg-config.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        // Day arithmetic for the hand-written timestamp codecs; no dependencies.
        .target(name: "CivilCalendar", swiftSettings: swiftSettings),
        // The canonical UUID text read and written byte by byte (Foundation's goes through scanf/printf).
        .target(name: "UUIDText", swiftSettings: swiftSettings),
        // HS256 access tokens and API keys, as Supabase's auth server signs them.
        .target(
            name: "CompassTokens",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: swiftSettings
        ),
        // What every API of the server shares: its context (pool, verifier, metrics), the API
        // protocol, the gateway and error middleware, the WebSocket upgrade, the environment reader.
        .target(
            name: "CompassHTTP",
            dependencies: [
                "CompassTokens",
                "Postgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Postgres client over libpq: the only module that imports CLibPQ.
        .target(
            name: "Postgres",
            dependencies: [
                "CLibPQ",
                "CivilCalendar",
                "UUIDText",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The apps' models and client-side rules; Foundation only, so iOS can share it.
        .target(name: "CompassDomain", dependencies: ["CivilCalendar", "UUIDText"], swiftSettings: swiftSettings),
        // Repositories issuing the specs' exact queries, user scope, migration runner.
        .target(
            name: "CompassData",
            dependencies: [
                "Postgres",
                "CompassDomain",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Change feed, subscriptions, filters, authorization, Supabase Realtime protocol.
        .target(
            name: "CompassRealtime",
            dependencies: [
                "CivilCalendar",
                "Postgres",
                "CompassData",
                "CompassHTTP",
                "CompassTokens",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ],
            swiftSettings: swiftSettings
        ),
        // /auth/v1: Supabase Auth (GoTrue) over auth.users, auth.sessions, auth.refresh_tokens.
        .target(
            name: "CompassAuth",
            dependencies: [
                "CompassDomain",
                "Postgres",
                "CompassHTTP",
                "CompassTokens",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // /rest/v1: PostgREST's grammar over a catalog-checked schema cache, under the request's JWT and RLS.
        .target(
            name: "CompassREST",
            dependencies: [
                "Postgres",
                "CompassHTTP",
                "CompassTokens",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // /api: the apps' own endpoints (cascade-delete, one-call reads) over the data layer.
        .target(
            name: "CompassAppAPI",
            dependencies: [
                "CompassData",
                "CompassDomain",
                "CompassHTTP",
                "CompassTokens",
                "Postgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The composition root: one configuration, one context, every API's routes and services, one ServiceGroup.
        .target(
            name: "CompassServer",
            dependencies: [
                "CompassAppAPI",
                "CompassAuth",
                "CompassData",
                "CompassHTTP",
                "CompassREST",
                "CompassRealtime",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "CompassWorker",
            dependencies: [
                "CompassHTTP",
                "CompassServer",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "CompassCLI",
            dependencies: [
                "CompassAuth",
                "CompassData",
                "CompassDomain",
                "CompassRealtime",
                "CompassTokens",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Test harness: a real PostgreSQL from COMPASS_TEST_DATABASE_URL or a throwaway cluster.
        .target(
            name: "CompassTestSupport",
            dependencies: ["Postgres", "CompassData"],
            path: "Tests/Support",
            swiftSettings: swiftSettings
        ),
        // Token signing and verification; no database, no server.
        .testTarget(name: "CompassTokensTests", dependencies: ["CompassTokens"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PostgresTests",
            dependencies: ["Postgres", "CompassTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CompassDomainTests", dependencies: ["CompassDomain", "CivilCalendar", "UUIDText"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CompassDataTests",
            dependencies: ["CompassData", "CompassDomain", "CompassTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CompassRealtimeTests",
            dependencies: [
                "CompassDomain",
                "CompassRealtime",
                "CompassServer",
                "CompassTestSupport",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            // The end-to-end test runs this script with the official Python client.
            exclude: ["Python"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CompassHTTPTests",
            dependencies: [
                "CompassHTTP",
                "CompassTokens",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CompassAuthTests",
            dependencies: [
                "CompassAuth",
                "CompassServer",
                "CompassTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CompassRESTTests",
            dependencies: [
                "CompassREST",
                "CompassServer",
                "CompassTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CompassAppAPITests",
            dependencies: [
                "CompassAppAPI",
                "CompassServer",
                "CompassTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        // The official Python supabase package against a live compass-worker (scripts in Python/).
        .testTarget(
            name: "CompassServerTests",
            dependencies: ["CompassServer", "CompassAuth", "CompassData", "CompassTokens", "CompassTestSupport"],
            exclude: ["Python"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CompassCLITests",
            dependencies: ["CompassCLI", "CompassTestSupport"],
            swiftSettings: swiftSettings
        ),
    ]
)
