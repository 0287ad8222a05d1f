import Foundation

/// A call of a function in the exposed schema, with the overload the arguments pick and
/// the read that shapes rows it returns (when it returns rows of an exposed table).
struct CallPlan: Sendable {
    var function: FunctionInfo
    /// The arguments as one JSON object (or an array whose first object they are).
    var argumentsJSON: String
    /// Whether ``argumentsJSON`` is an array: its first object is the arguments.
    var argumentsAreArray = false
    /// The parameters the arguments name, in the function's order.
    var passed: [FunctionInfo.Parameter]
    /// The function's one unnamed parameter takes the whole body (json/jsonb, text, xml or bytea).
    var wholeBody: WholeBody?
    /// For functions returning rows of an exposed table: select, filters, order and range on them.
    var read: ReadPlan?
    /// Range for functions returning other rows.
    var range: RowRange

    /// A body passed whole to a single unnamed parameter: its text, and the cast to the parameter's type.
    struct WholeBody: Sendable {
        var value: String
        var cast: StaticString
    }
}

/// Finds the function and overload a call means (PGRST202 none, PGRST203 several), as
/// PostgREST's `findProc`: an overload whose parameters the argument names fit, else (for a
/// POST) one whose single unnamed parameter takes the body's media type whole.
enum CallPlanner {
    static func plan(
        name: String, arguments: CallArguments, isPost: Bool, cache: SchemaCache, parameters: QueryParameters, range: RowRange,
        allowsAggregates: Bool = false
    ) throws(RESTError) -> CallPlan {
        let keys = Set(arguments.keys)
        let overloads = cache.functions[name] ?? []
        let rawType: String? = if case .raw(let media, _) = arguments { media.rawParameterType } else { nil }
        let matching = overloads.filter { function in
            if function.parameters.isEmpty { return keys.isEmpty && !(isPost && rawType != nil) }
            let names = Set(function.parameters.map(\.name))
            let required = Set(function.parameters.filter { !$0.hasDefault }.map(\.name))
            return keys.isSubset(of: names) && required.isSubset(of: keys)
        }
        let fallbacks = isPost ? overloads.filter { takesWhole($0, arguments: arguments) } : []
        let candidates = matching.isEmpty ? fallbacks : matching
        guard candidates.count == 1, let function = candidates.first else {
            if candidates.isEmpty {
                throw notFound(name: name, keys: keys.sorted(), cache: cache, overloads: overloads, arguments: arguments, isPost: isPost)
            }
            throw .ambiguousFunction(schema: cache.schema, name: name, candidates: candidates)
        }
        var read: ReadPlan?
        var plannedRange = range
        if let table = function.returnTable.flatMap({ cache.tables[$0] }) ?? function.outputTable {
            var planner = ReadPlanner(cache: cache, allowsAggregates: allowsAggregates)
            read = try planner.plan(table: table, parameters: parameters, range: range)
            plannedRange = .all
        } else if !parameters.filters.isEmpty || !parameters.logic.isEmpty {
            throw .notImplemented(.filtersOnFunctionWithoutTable)
        }
        var plan = CallPlan(function: function, argumentsJSON: "{}", passed: [], read: read, range: plannedRange)
        if matching.isEmpty {
            plan.wholeBody = wholeBody(arguments, type: function.parameters[0].type)
            return plan
        }
        plan.passed = function.parameters.filter { keys.contains($0.name) }
        switch arguments {
        case .json(let text, _, let isArray, _):
            plan.argumentsJSON = text
            plan.argumentsAreArray = isArray
        case .pairs: plan.argumentsJSON = arguments.object(for: function)
        case .raw: break
        }
        return plan
    }

    /// Whether `function`'s one parameter is unnamed and of the type the body's media type is passed as.
    private static func takesWhole(_ function: FunctionInfo, arguments: CallArguments) -> Bool {
        guard function.parameters.count == 1, function.parameters[0].name.isEmpty else { return false }
        let type = function.parameters[0].type
        switch arguments {
        case .json(_, _, _, let fromCSV): return !fromCSV && (type == "json" || type == "jsonb")
        case .raw(let media, _): return media.rawParameterType == type
        case .pairs: return false
        }
    }

    private static func wholeBody(_ arguments: CallArguments, type: String) -> CallPlan.WholeBody? {
        switch arguments {
        case .json(let text, _, _, _): return .init(value: text, cast: type == "jsonb" ? "::jsonb" : "::json")
        case .raw(.bytes, let bytes): return .init(value: "\\x" + bytes.map { String(format: "%02x", $0) }.joined(), cast: "::bytea")
        case .raw(.xml, let bytes): return .init(value: String(decoding: bytes, as: UTF8.self), cast: "::xml")
        case .raw(_, let bytes): return .init(value: String(decoding: bytes, as: UTF8.self), cast: "::text")
        case .pairs: return nil
        }
    }

    /// PGRST202, suggesting a function with a close name, or else the overload whose parameters come closest.
    private static func notFound(
        name: String, keys: [String], cache: SchemaCache, overloads: [FunctionInfo], arguments: CallArguments, isPost: Bool
    ) -> RESTError {
        let searched: RESTError.SearchedCall
        switch (isPost, arguments) {
        case (true, .raw(let media, _)): searched = .unnamedParameter(media.rawParameterType ?? "text")
        case (true, .json(_, _, _, false)): searched = .parametersOrJSON
        default: searched = .parameters
        }
        var suggestion: String?
        if case .unnamedParameter = searched {
            suggestion = nil
        } else if overloads.isEmpty {
            suggestion = FuzzyMatch.best(for: name, among: cache.functions.keys, minimumScore: 0.75)
        } else {
            let signatures = overloads.map { "(" + $0.parameters.map(\.name).sorted().joined(separator: ", ") + ")" }
            suggestion = FuzzyMatch.best(for: "(" + keys.joined(separator: ", ") + ")", among: signatures, minimumScore: 0.33)
                .map { name + $0 }
        }
        return .functionNotFound(schema: cache.schema, name: name, keys: keys, searched: searched, suggestion: suggestion)
    }
}
