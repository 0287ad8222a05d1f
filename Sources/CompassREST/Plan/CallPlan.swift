/// A call of a function in the exposed schema, with the overload the arguments pick and
/// the read that shapes rows it returns (when it returns rows of an exposed table).
struct CallPlan: Sendable {
    var function: FunctionInfo
    /// The arguments as one JSON object (the POST body, or the GET parameters).
    var argumentsJSON: String
    /// The parameters the arguments name, in the function's order.
    var passed: [FunctionInfo.Parameter]
    /// The function's one unnamed json/jsonb parameter takes the whole body (or the GET parameters as an object).
    var passesBodyWhole = false
    /// For functions returning rows of an exposed table: select, filters, order and range on them.
    var read: ReadPlan?
    /// Range for functions returning other rows.
    var range: RowRange
}

/// Finds the function and overload a call means (PGRST202 none, PGRST203 several).
enum CallPlanner {
    static func plan(
        name: String, argumentKeys: [String], argumentsJSON: String, cache: SchemaCache,
        parameters: QueryParameters, range: RowRange
    ) throws(RESTError) -> CallPlan {
        let keys = Set(argumentKeys)
        let overloads = cache.functions[name] ?? []
        var matches = overloads.filter { function in
            let names = Set(function.parameters.map(\.name))
            let required = Set(function.parameters.filter { !$0.hasDefault }.map(\.name))
            return keys.isSubset(of: names) && required.isSubset(of: keys)
        }
        // No overload names these keys: one taking a single unnamed json/jsonb parameter takes them all.
        let passesBodyWhole = matches.isEmpty && overloads.contains(where: \.takesBodyWhole)
        if passesBodyWhole { matches = overloads.filter(\.takesBodyWhole) }
        guard matches.count == 1, let function = matches.first else {
            if matches.isEmpty { throw notFound(name: name, keys: keys.sorted(), cache: cache, overloads: overloads) }
            throw .ambiguousFunction(schema: cache.schema, name: name, candidates: matches)
        }
        var read: ReadPlan?
        var plannedRange = range
        if let table = function.returnTable.flatMap({ cache.tables[$0] }) ?? function.outputTable {
            var planner = ReadPlanner(cache: cache)
            read = try planner.plan(table: table, parameters: parameters, range: range)
            plannedRange = .all
        } else if !parameters.filters.isEmpty || !parameters.logic.isEmpty {
            throw .notImplemented(.filtersOnFunctionWithoutTable)
        }
        return CallPlan(
            function: function, argumentsJSON: argumentsJSON,
            passed: passesBodyWhole ? [] : function.parameters.filter { keys.contains($0.name) }, passesBodyWhole: passesBodyWhole,
            read: read, range: plannedRange)
    }

    /// PGRST202, suggesting a function with a close name, or else the overload whose parameters come closest.
    private static func notFound(name: String, keys: [String], cache: SchemaCache, overloads: [FunctionInfo]) -> RESTError {
        let suggestion: String?
        if overloads.isEmpty {
            suggestion = FuzzyMatch.best(for: name, among: cache.functions.keys, minimumScore: 0.75)
        } else {
            let signatures = overloads.map { "(" + $0.parameters.map(\.name).sorted().joined(separator: ", ") + ")" }
            suggestion = FuzzyMatch.best(for: "(" + keys.joined(separator: ", ") + ")", among: signatures, minimumScore: 0.33)
                .map { name + $0 }
        }
        return .functionNotFound(schema: cache.schema, name: name, keys: keys, suggestion: suggestion)
    }
}
