import CompassTokens
import Foundation
import Postgres

/// What the OpenAPI description of an exposed schema needs beyond the schema cache: comments,
/// the types as PostgREST's OpenAPI prints them, what each table allows, and which of the API
/// roles may use each table and function. Read from the catalog with the cache, once per reload.
public struct SchemaDocumentation: Sendable, Hashable {
    /// `COMMENT ON SCHEMA`: its first line is the document's title, the rest its description.
    public var comment: String?
    /// Tables and views by name.
    public var tables: [String: Table]
    /// Functions in catalog order (overloads share a name).
    public var functions: [Function]

    /// A table or view.
    public struct Table: Sendable, Hashable, Decodable {
        public var name: String
        public var comment: String?
        /// Columns in table order.
        public var columns: [Column]
        /// What each API role (`anon`, …) may do with it; a role it grants nothing is absent.
        public var access: [String: Access]
    }

    /// A role's privileges on a table (any column's privilege counts).
    public struct Access: Sendable, Hashable, Decodable {
        /// Any privilege at all: the table is listed for the role, as PostgREST lists it.
        public var any: Bool
        public var select: Bool
        public var insert: Bool
        public var update: Bool
        public var delete: Bool
    }

    /// A column as the document shows it.
    public struct Column: Sendable, Hashable, Decodable {
        public var name: String
        public var comment: String?
        /// The type without a length for built-in types (`character varying`), a domain's built-in
        /// base type, or the type as it is (`public.mood`), as PostgREST's schema cache has it.
        public var type: String
        /// NOT NULL (also through a domain).
        public var notNull: Bool
        /// A character type's length.
        public var maxLength: Int?
        /// An enum's labels, in order.
        public var enumLabels: [String]?
    }

    /// A function.
    public struct Function: Sendable, Hashable, Decodable {
        public var name: String
        public var comment: String?
        public var volatility: FunctionInfo.Volatility
        /// Input parameters, in order.
        public var parameters: [Parameter]
        /// Whether `/rpc` can call it: every parameter named, or one unnamed of a type a whole body is.
        public var callable: Bool
        /// The API roles that may execute it.
        public var roles: [String]
    }

    /// A function's input parameter.
    public struct Parameter: Sendable, Hashable, Decodable {
        public var name: String
        /// As `regtype` prints it under the schema's search path.
        public var type: String
        /// No default: a call must name it.
        public var required: Bool
        public var variadic: Bool
    }

    /// Makes a documentation from parts (the loader and tests build them).
    public init(comment: String?, tables: [String: Table], functions: [Function]) {
        self.comment = comment
        self.tables = tables
        self.functions = functions
    }
}

extension SchemaDocumentation {
    /// Reads `schema`'s documentation inside the cache's load transaction. The functions' types
    /// are printed under the schema's search path (as PostgREST prints them during a request), so
    /// this changes the transaction's search path and must come last.
    static func load(schema: String, on connection: PostgresConnection) async throws -> SchemaDocumentation {
        let roles = APIRole.allCases.map(\.rawValue)
        let relations: Relations = try await json(tablesQuery(schema, roles: roles), on: connection)
        try await connection.query("SELECT set_config('search_path', quote_ident(\(schema)), true)")
        let functions: [Function] = try await json(functionsQuery(schema, roles: roles), on: connection)
        return SchemaDocumentation(
            comment: relations.comment, tables: Dictionary(relations.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
            functions: functions)
    }

    /// The schema's comment and relations, as the tables query returns them.
    private struct Relations: Decodable {
        var comment: String?
        var tables: [Table]
    }

    private static func json<T: Decodable>(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> T {
        let text = try await connection.query(query)[0].decode(String.self, at: 0)
        return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }
}
