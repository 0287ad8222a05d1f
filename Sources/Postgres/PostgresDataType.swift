/// A Postgres type, identified by its OID, with the name errors and events show.
public struct PostgresDataType: Hashable, Sendable, CustomStringConvertible {
    /// The type's OID from `pg_type`.
    public var oid: UInt32

    /// Wraps an OID.
    public init(oid: UInt32) { self.oid = oid }

    /// The `pg_type.typname` for common built-in types, else `oid <n>`.
    public var name: String { Self.names[oid] ?? "oid \(oid)" }

    public var description: String { name }

    public static let bool = PostgresDataType(oid: 16)
    public static let bytea = PostgresDataType(oid: 17)
    public static let int8 = PostgresDataType(oid: 20)
    public static let int2 = PostgresDataType(oid: 21)
    public static let int4 = PostgresDataType(oid: 23)
    public static let text = PostgresDataType(oid: 25)
    public static let json = PostgresDataType(oid: 114)
    public static let float4 = PostgresDataType(oid: 700)
    public static let float8 = PostgresDataType(oid: 701)
    public static let varchar = PostgresDataType(oid: 1043)
    public static let date = PostgresDataType(oid: 1082)
    public static let timestamp = PostgresDataType(oid: 1114)
    public static let timestamptz = PostgresDataType(oid: 1184)
    public static let numeric = PostgresDataType(oid: 1700)
    public static let uuid = PostgresDataType(oid: 2950)
    public static let jsonb = PostgresDataType(oid: 3802)
    public static let textArray = PostgresDataType(oid: 1009)
    public static let uuidArray = PostgresDataType(oid: 2951)

    private static let names: [UInt32: String] = [
        16: "bool", 17: "bytea", 18: "char", 19: "name", 20: "int8", 21: "int2", 23: "int4", 25: "text",
        26: "oid", 114: "json", 700: "float4", 701: "float8", 1042: "bpchar", 1043: "varchar",
        1082: "date", 1083: "time", 1114: "timestamp", 1184: "timestamptz", 1186: "interval",
        1700: "numeric", 2950: "uuid", 3802: "jsonb", 5069: "xid8", 28: "xid",
        1000: "_bool", 1005: "_int2", 1007: "_int4", 1016: "_int8", 1009: "_text", 1015: "_varchar",
        1021: "_float4", 1022: "_float8", 1115: "_timestamp", 1185: "_timestamptz", 1231: "_numeric",
        2951: "_uuid", 3807: "_jsonb", 199: "_json", 2205: "regclass",
    ]
}
