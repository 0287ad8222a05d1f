import Postgres

extension RealtimeCatalog {
    /// Resolves a requested binding to the tables it watches, with its filter typed per table.
    ///
    /// Fails with a readable message (sent as a `system` error) for unknown or disabled
    /// tables, tables without a primary key, unknown columns, unsupported operators and
    /// values that would not cast to the column's type. A binding for every table of a
    /// schema (`table` absent or `*`) covers the tables enabled when the channel joins. What the
    /// cache does not hold is read one join at a time (``takeJoinTurn()``).
    public func resolve(_ binding: PostgresChangesBinding) async -> Result<[TableBinding], BindingProblem> {
        if let problem = binding.shapeError { return .failure(BindingProblem(problem)) }
        var filter: RealtimeFilter?
        if let text = binding.filterText {
            do throws(RealtimeFilterError) {
                filter = try RealtimeFilter(parsing: text)
            } catch {
                return .failure(BindingProblem(error.message))
            }
        }
        let names: [RealtimeTableName]
        do {
            if let table = binding.table {
                names = [RealtimeTableName(schema: binding.schema, table: table)]
            } else {
                names = try await enabledTables(in: binding.schema, forJoin: true)
                if names.isEmpty {
                    return .failure(BindingProblem("no table of schema \(binding.schema) is enabled for realtime"))
                }
            }
        } catch {
            return .failure(BindingProblem("could not read the realtime tables: the database is unavailable"))
        }
        var bound: [TableBinding] = []
        for name in names {
            var table: RealtimeTableMetadata
            do {
                guard let found = try await metadata(for: name, forJoin: true) else {
                    return .failure(BindingProblem("table \(name) does not exist"))
                }
                table = found
                if !table.isEnabled {
                    // Read again before refusing: the cached entry may predate a `realtime.enable`
                    // (or `ALTER PUBLICATION supabase_realtime ADD TABLE`) made a moment ago.
                    invalidate(name)
                    table = try await metadata(for: name, forJoin: true) ?? table
                }
            } catch {
                return .failure(BindingProblem("could not read table \(name): the database is unavailable"))
            }
            guard table.isEnabled else {
                return .failure(BindingProblem("table \(name) is not enabled for realtime (SELECT realtime.enable('\(name)'))"))
            }
            guard !table.primaryKey.isEmpty else {
                return .failure(BindingProblem("table \(name) has no primary key, so its rows cannot be authorized"))
            }
            var compiled: CompiledRealtimeFilter?
            if let filter {
                guard let column = table.column(named: filter.column) else {
                    if binding.table == nil { continue }  // a schema-wide filter applies where the column exists
                    return .failure(BindingProblem("column \"\(filter.column)\" does not exist in table \(name)"))
                }
                switch await compile(filter, on: column) {
                case .success(let filter): compiled = filter
                case .failure(let problem): return .failure(problem)
                }
            }
            bound.append(TableBinding(id: binding.id, changeType: binding.changeType, table: name, filter: compiled))
        }
        if bound.isEmpty, let filter {
            return .failure(BindingProblem("no enabled table of schema \(binding.schema) has column \"\(filter.column)\""))
        }
        return .success(bound)
    }
}

extension RealtimeCatalog {
    /// Types the filter's values against the column.
    ///
    /// The values are read here when they are written as Postgres writes values (ISO dates,
    /// plain numbers): the common case, no round trip. Any other spelling is what Postgres
    /// itself makes of it (`now`, `Jan 1 2024`, `2024-01-01 00:00 America/New_York`, `+5`):
    /// the values are cast to the column's type there and its answer is read, or its refusal
    /// refuses the join, as Supabase Realtime casts filter values.
    func compile(_ filter: RealtimeFilter, on column: RealtimeColumn) async -> Result<CompiledRealtimeFilter, BindingProblem> {
        let refusal: RealtimeFilterError
        do throws(RealtimeFilterError) {
            return .success(try CompiledRealtimeFilter(filter, kind: column.kind))
        } catch {
            refusal = error
        }
        if case .unsupported = column.kind { return .failure(BindingProblem(refusal.message)) }
        let castType = column.castType ?? column.sqlType
        let written: [String]
        // A database read, as a table's: in the join's turn, bounded in time.
        await takeJoinTurn()
        defer { endJoinTurn() }
        do {
            // The type is the catalog's spelling of the column's type, never the request's.
            let cast: PostgresQuery =
                "SELECT v::\(unescaped: castType)::text FROM unnest(\(filter.values)::text[]) WITH ORDINALITY AS u(v, n) ORDER BY n"
            let result = try await database.asServiceRole([cast], timeout: Self.joinReadTimeout)[0]
            written = try result.map { try $0.decode(String.self, at: 0) }
        } catch let error as PostgresError where error.sqlState?.rawValue.hasPrefix("22") == true {
            return .failure(BindingProblem("filter on column \"\(filter.column)\" is not valid: \(error.message)"))
        } catch {
            return .failure(BindingProblem(refusal.message))
        }
        var rewritten = filter
        rewritten.values = written
        do throws(RealtimeFilterError) {
            return .success(try CompiledRealtimeFilter(rewritten, kind: column.kind))
        } catch {
            return .failure(BindingProblem(refusal.message))
        }
    }
}

/// Why a binding cannot be served; the message goes to the client.
public struct BindingProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
