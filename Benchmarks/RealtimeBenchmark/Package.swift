// swift-tools-version: 6.1
// The realtime benchmark: a separate package so `swift test` never builds it.
//
//   cd Benchmarks/RealtimeBenchmark && swift run -c release RealtimeBenchmark [--clients 100,1000,5000]
//
// It starts a private PostgreSQL cluster (or uses BENCH_DATABASE_URL), runs the
// release `compass-worker` as a child process, and drives it with WebSocket clients.
import PackageDescription

let package = Package(
    name: "RealtimeBenchmark",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "compass-backend", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
    ],
    targets: [
        .executableTarget(
            name: "RealtimeBenchmark",
            dependencies: [
                .product(name: "Postgres", package: "compass-backend"),
                .product(name: "CompassData", package: "compass-backend"),
                .product(name: "CompassTestSupport", package: "compass-backend"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
