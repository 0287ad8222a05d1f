// swift-tools-version: 6.1
// Feed latency on the scale data set: pipelined versus one query at a time, beside the libpq
// floor and PostgresNIO sending the same statements.
//
//   cd Benchmarks/FeedBenchmark && swift run -c release FeedBenchmark --database-url "$DATABASE_URL"
import PackageDescription

let package = Package(
    name: "FeedBenchmark",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "compass-backend", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .executableTarget(
            name: "FeedBenchmark",
            dependencies: [
                .product(name: "Postgres", package: "compass-backend"),
                .product(name: "CompassDomain", package: "compass-backend"),
                .product(name: "CompassData", package: "compass-backend"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
