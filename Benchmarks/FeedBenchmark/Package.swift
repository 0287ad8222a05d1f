// swift-tools-version: 6.1
// Feed latency on the scale data set: pipelined versus one query at a time.
//
//   cd Benchmarks/FeedBenchmark && swift run -c release FeedBenchmark --database-url "$DATABASE_URL"
import PackageDescription

let package = Package(
    name: "FeedBenchmark",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "compass-backend", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "FeedBenchmark",
            dependencies: [
                .product(name: "Postgres", package: "compass-backend"),
                .product(name: "CompassDomain", package: "compass-backend"),
                .product(name: "CompassData", package: "compass-backend"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
