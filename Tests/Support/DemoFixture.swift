import Foundation

/// The demo fixture's ids (sql/fixtures/demo.sql).
public enum DemoFixture {
    public static let maria = UUID(uuidString: "a1000000-0000-4000-8000-000000000001")!
    public static let daniel = UUID(uuidString: "a1000000-0000-4000-8000-000000000002")!
    public static let sofia = UUID(uuidString: "a1000000-0000-4000-8000-000000000003")!
    public static let grace = UUID(uuidString: "a1000000-0000-4000-8000-000000000004")!
    public static let marcus = UUID(uuidString: "a1000000-0000-4000-8000-000000000005")!
    public static let lily = UUID(uuidString: "a1000000-0000-4000-8000-000000000006")!
    public static let jordan = UUID(uuidString: "a1000000-0000-4000-8000-000000000007")!
    public static let riveraFamily = UUID(uuidString: "f1000000-0000-4000-8000-000000000001")!
    public static let chenFamily = UUID(uuidString: "f1000000-0000-4000-8000-000000000002")!
    public static let stanford = UUID(uuidString: "5c000000-0000-4000-8000-000000000001")!
    public static let ucla = UUID(uuidString: "5c000000-0000-4000-8000-000000000002")!
    public static let unc = UUID(uuidString: "5c000000-0000-4000-8000-000000000003")!
    public static let sofiaPreseasonPost = UUID(uuidString: "b0000000-0000-4000-8000-000000000001")!
}
