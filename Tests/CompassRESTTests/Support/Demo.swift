import Foundation

/// The demo fixture's ids (sql/fixtures/demo.sql).
enum Demo {
    static let maria = UUID(uuidString: "a1000000-0000-4000-8000-000000000001")!
    static let sofia = UUID(uuidString: "a1000000-0000-4000-8000-000000000003")!
    static let marcus = UUID(uuidString: "a1000000-0000-4000-8000-000000000005")!
    static let jordan = UUID(uuidString: "a1000000-0000-4000-8000-000000000007")!
    static let riveraFamily = UUID(uuidString: "f1000000-0000-4000-8000-000000000001")!
}
