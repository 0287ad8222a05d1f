/// The `paths` of the document: the root, one per table and view, one per function.
extension OpenAPIDocument {
    func paths(tables: [SchemaDocumentation.Table]) -> OpenAPIJSON {
        var members: [(String, OpenAPIJSON?)] = [("/", Self.rootPath)]
        members += tables.map { ("/" + $0.name, path(of: $0)) }
        members += visibleFunctions.map { ("/rpc/" + $0.name, path(of: $0)) }
        return .object(members)
    }

    /// `GET /`: this document.
    static let rootPath: OpenAPIJSON = .object([("get", .object([
        ("tags", ["Introspection"]),
        ("summary", "OpenAPI description (this document)"),
        ("produces", ["application/openapi+json", "application/json"]),
        ("responses", .object([("200", .object([("description", "OK")]))])),
    ]))])

    /// A table's operations: the methods the role may use, each with its parameters by reference.
    func path(of table: SchemaDocumentation.Table) -> OpenAPIJSON {
        let (summary, description) = Self.summary(table.comment)
        func operation(_ parameters: [String], _ responses: [(String, OpenAPIJSON?)]) -> OpenAPIJSON {
            .object([
                ("tags", .array([.string(table.name)])),
                ("summary", summary.map(OpenAPIJSON.string)),
                ("description", description.map(OpenAPIJSON.string)),
                ("parameters", .array(parameters.map { .reference("#/parameters/" + $0) })),
                ("responses", .object(responses)),
            ])
        }
        let rowFilters = table.columns.map { "rowFilter.\(table.name).\($0.name)" }
        let body = "body." + table.name
        let allowed = methods(of: table)
        let rows: OpenAPIJSON = .object([("type", "array"), ("items", .reference("#/definitions/" + table.name))])
        return .object([
            ("get", allowed.get ? operation(
                rowFilters + ["select", "order", "range", "rangeUnit", "offset", "limit", "preferCount"],
                [("200", .object([("description", "OK"), ("schema", rows)])), ("206", .object([("description", "Partial Content")]))])
                : nil),
            ("post", allowed.post ? operation([body, "select", "preferPost"], [("201", .object([("description", "Created")]))]) : nil),
            ("patch", allowed.patch ? operation(rowFilters + [body, "preferReturn"], [("204", .object([("description", "No Content")]))]) : nil),
            ("delete", allowed.delete ? operation(rowFilters + ["preferReturn"], [("204", .object([("description", "No Content")]))]) : nil),
        ])
    }

    /// A function's operations: POST with its arguments as a body, and GET with them as query
    /// parameters unless it is volatile (GET runs read-only).
    func path(of function: SchemaDocumentation.Function) -> OpenAPIJSON {
        let (summary, description) = Self.summary(function.comment)
        func operation(_ parameters: [OpenAPIJSON]) -> OpenAPIJSON {
            .object([
                ("tags", .array([.string("(rpc) " + function.name)])),
                ("summary", summary.map(OpenAPIJSON.string)),
                ("description", description.map(OpenAPIJSON.string)),
                ("produces", .array(Array(Self.mediaTypes.prefix(3)))),
                ("parameters", .array(parameters)),
                ("responses", .object([("200", .object([("description", "OK")]))])),
            ])
        }
        let required = function.parameters.filter(\.required).map { OpenAPIJSON.string($0.name) }
        let arguments: OpenAPIJSON = .object([
            ("description", function.comment.map(OpenAPIJSON.string)),
            ("type", "object"),
            ("properties", function.parameters.isEmpty ? nil : .object(function.parameters.map { ($0.name, Self.property(type: $0.type)) })),
            ("required", required.isEmpty ? nil : .array(required)),
        ])
        let post = operation([
            .object([("name", "args"), ("required", true), ("in", "body"), ("schema", arguments)]),
            .reference("#/parameters/preferParams"),
        ])
        let get = operation(function.parameters.map(Self.queryParameter))
        return .object([("get", function.volatility == .volatile ? nil : get), ("post", post)])
    }

    /// A GET argument: its type as a query parameter carries it (arrays and JSON are text there);
    /// a `VARIADIC` one repeats (`collectionFormat: multi`).
    static func queryParameter(_ parameter: SchemaDocumentation.Parameter) -> OpenAPIJSON {
        let type = OpenAPITypes.swaggerType(parameter.type)
        if parameter.variadic {
            let element = OpenAPITypes.elementType(parameter.type)
            return .object([
                ("name", .string(parameter.name)), ("required", .bool(parameter.required)), ("in", "query"),
                ("type", .string(type ?? "string")), ("collectionFormat", "multi"),
                ("items", .object([
                    ("type", OpenAPITypes.swaggerType(element).map(OpenAPIJSON.string)),
                    ("format", .string(OpenAPITypes.format(element))),
                ])),
            ])
        }
        return .object([
            ("name", .string(parameter.name)), ("required", .bool(parameter.required)), ("in", "query"),
            ("type", .string(type == nil || type == "array" ? "string" : type!)), ("format", .string(OpenAPITypes.format(parameter.type))),
        ])
    }
}
