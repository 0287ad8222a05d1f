import CompassHTTP
import Testing

@testable import CompassREST

/// PostgREST's query grammar, parsed with no database.
@Suite("PostgREST grammar")
struct GrammarTests {
    @Test func textIsQuotedByteByByteAsJSONAndAsIdentifiers() {
        #expect(JSONText.quoted("plain text") == #""plain text""#)
        #expect(JSONText.quoted("a\"b\\c\n\r\t\u{1}\u{1F}é 🙂") == #""a\"b\\c\n\r\t\u0001\u001fé 🙂""#)
        #expect(JSONText.unquoted(JSONText.quoted("x\"\n\u{2}é")) == "x\"\n\u{2}é")
        #expect(RESTRequest.object(["b": "2", "a": "\"1\""]) == #"{"a":"\"1\"","b":"2"}"#)
        #expect(SQLBuilder.quoted("schools") == #""schools""#)
        #expect(SQLBuilder.quoted(#"we"ird "é""#) == #""we""ird ""é""""#)
    }

    @Test func selectWithRenamesCastsAndNestedEmbeds() throws {
        let items = try SelectParser.parse("*,actor:profiles!actor_id(username,full_name,avatar_url),total::text, n:id")
        #expect(items.count == 4)
        guard case .embed(let actor) = items[1] else { Issue.record("no embed"); return }
        #expect(actor.relation == "profiles")
        #expect(actor.alias == "actor")
        #expect(actor.hint == "actor_id")
        #expect(actor.isInner == false)
        #expect(actor.items.count == 3)
        #expect(items[2] == .column(SelectColumn(field: FieldReference(name: "total"), alias: nil, cast: "text")))
        #expect(items[3] == .column(SelectColumn(field: FieldReference(name: "id"), alias: "n", cast: nil)))
    }

    @Test func aStrayClosingParenthesisEndsTheSelectAsInPostgREST() throws {
        // PostgREST's select parser stops at a `)` it has no use for and ignores what follows.
        #expect(try SelectParser.parse("name,procs(p:name,...costs(cost)))") == SelectParser.parse("name,procs(p:name,...costs(cost))"))
        #expect(try SelectParser.parse("id)anything at all") == SelectParser.parse("id"))
        #expect(try SelectParser.parse(")") == [])
        #expect(throws: RESTError.self) { try SelectParser.parse("id(") }
        #expect(throws: RESTError.self) { try SelectParser.parse("id::)") }
    }

    @Test func embedParametersInEitherOrderAndNesting() throws {
        let items = try SelectParser.parse("id,schools!inner!schools_family_unit_id_fkey(name,coaches(first_name,last_name))")
        guard case .embed(let schools) = items[1] else { Issue.record("no embed"); return }
        #expect(schools.isInner)
        #expect(schools.hint == "schools_family_unit_id_fkey")
        guard case .embed(let coaches) = schools.items[1] else { Issue.record("no nested embed"); return }
        #expect(coaches.relation == "coaches")
        #expect(coaches.items.count == 2)
        let left = try SelectParser.parse("p:profiles!left!user_id(*)")
        guard case .embed(let profiles) = left[0] else { Issue.record("no embed"); return }
        #expect(profiles.hint == "user_id")
        #expect(!profiles.isInner)
    }

    @Test func logicGroupsMayHaveSpacesBeforeTheirParenthesis() throws {
        let (_, spaced) = try LogicParser.parse(key: "and", value: "( and ( id.in.( 1, 2, 3 ) , id.eq.3 ) , or ( id.eq.2 , id.eq.3 ) )")
        let (_, tight) = try LogicParser.parse(key: "and", value: "(and(id.in.( 1, 2, 3 ),id.eq.3 ),or(id.eq.2 ,id.eq.3 ))")
        #expect(spaced == tight)
    }

    @Test func jsonKeysMayHoldDashesAndIndexesOnlyDigits() throws {
        let items = try SelectParser.parse("data->0->0xy1->23-xy-45->>-1")
        guard case .column(let column) = items.first else { Issue.record("not a column"); return }
        #expect(column.field.jsonPath.map(\.key) == ["0", "0xy1", "23-xy-45", "-1"])
        #expect(column.field.jsonPath.map(\.isIndex) == [true, false, false, true])
        #expect(throws: RESTError.parse("select parameter", input: "data->>--34", column: 9, details: "unexpected \"-\" expecting digit")) {
            try SelectParser.parse("data->>--34")
        }
    }

    @Test func quotedNamesAndJSONPaths() throws {
        let items = try SelectParser.parse(#""odd,name",changes->before->>status,first:changes->0"#)
        #expect(items[0] == .column(SelectColumn(field: FieldReference(name: "odd,name"), alias: nil, cast: nil)))
        guard case .column(let path) = items[1] else { Issue.record("no column"); return }
        #expect(path.field.jsonPath == [
            JSONPathStep(asText: false, key: "before", isIndex: false), JSONPathStep(asText: true, key: "status", isIndex: false),
        ])
        guard case .column(let index) = items[2] else { Issue.record("no column"); return }
        #expect(index.alias == "first")
        #expect(index.field.jsonPath == [JSONPathStep(asText: false, key: "0", isIndex: true)])
    }

    @Test(arguments: [
        ("eq.5", FilterOperation.compare(.eq, quantifier: nil, value: "5")),
        ("neq.a", .compare(.neq, quantifier: nil, value: "a")),
        ("gt.2024-01-01T00:00:00", .compare(.gt, quantifier: nil, value: "2024-01-01T00:00:00")),
        ("gte.1", .compare(.gte, quantifier: nil, value: "1")),
        ("lt.1", .compare(.lt, quantifier: nil, value: "1")),
        ("lte.1", .compare(.lte, quantifier: nil, value: "1")),
        ("like.*Ohio*", .compare(.like, quantifier: nil, value: "*Ohio*")),
        ("ilike.*ohio*", .compare(.ilike, quantifier: nil, value: "*ohio*")),
        ("match.^O", .compare(.match, quantifier: nil, value: "^O")),
        ("imatch.^o", .compare(.imatch, quantifier: nil, value: "^o")),
        ("like(any).{a*,b*}", .compare(.like, quantifier: .any, value: "{a*,b*}")),
        ("eq(all).{1,2}", .compare(.eq, quantifier: .all, value: "{1,2}")),
        ("cs.{a,b}", .compare(.cs, quantifier: nil, value: "{a,b}")),
        ("cd.{a}", .compare(.cd, quantifier: nil, value: "{a}")),
        ("ov.{a}", .compare(.ov, quantifier: nil, value: "{a}")),
        ("is.null", .is(.null)),
        ("is.NULL", .is(.null)),
        ("is.True", .is(.true)),
        ("is.false", .is(.false)),
        ("is.not_null", .is(.notNull)),
        ("is.unknown", .is(.unknown)),
        ("isdistinct.x", .isDistinct("x")),
        ("fts(english).cat & dog", .fullText(.fts, language: "english", value: "cat & dog")),
        ("wfts.cat", .fullText(.wfts, language: nil, value: "cat")),
        ("eq.a.b,c)", .compare(.eq, quantifier: nil, value: "a.b,c)")),
        ("eq.", .compare(.eq, quantifier: nil, value: "")),
    ])
    func everyOperator(value: String, expected: FilterOperation) throws {
        let (path, filter) = try FilterParser.filter(key: "col", value: value)
        #expect(path.isEmpty)
        #expect(filter.field.name == "col")
        #expect(!filter.negated)
        #expect(filter.operation == expected)
    }

    @Test func negationAndEmbeddedColumns() throws {
        let (path, filter) = try FilterParser.filter(key: "actor.username", value: "not.in.(a,b)")
        #expect(path == ["actor"])
        #expect(filter.field.name == "username")
        #expect(filter.negated)
        #expect(filter.operation == .in(["a", "b"]))
    }

    @Test func inListsWithCommasQuotesAndEscapes() throws {
        let (_, filter) = try FilterParser.filter(key: "name", value: #"in.("a,b","say \"hi\"",plain, spaced ,"(x)")"#)
        #expect(filter.operation == .in(["a,b", #"say "hi""#, "plain", " spaced ", "(x)"]))
        let (_, empty) = try FilterParser.filter(key: "id", value: "in.()")
        #expect(empty.operation == .in([""]))
        let (_, uuids) = try FilterParser.filter(
            key: "school_id", value: "in.(C1000000-0000-4000-8000-000000000001,c1000000-0000-4000-8000-000000000002)")
        #expect(uuids.operation == .in(["C1000000-0000-4000-8000-000000000001", "c1000000-0000-4000-8000-000000000002"]))
    }

    @Test func nestedLogicTrees() throws {
        let (path, tree) = try LogicParser.parse(
            key: "or",
            value: #"(is_read.eq.false,and(activity_type.in.(like,"comment"),not.or(post_id.is.null,created_at.gt.2024-01-01)),name.eq."a,b")"#)
        #expect(path.isEmpty)
        guard case .group(.or, negated: false, let members) = tree else { Issue.record("not an or group"); return }
        #expect(members.count == 3)
        #expect(members[0] == .filter(Filter(field: FieldReference(name: "is_read"), negated: false, operation: .compare(.eq, quantifier: nil, value: "false"))))
        guard case .group(.and, negated: false, let inner) = members[1] else { Issue.record("no and"); return }
        #expect(inner[0] == .filter(Filter(field: FieldReference(name: "activity_type"), negated: false, operation: .in(["like", "comment"]))))
        guard case .group(.or, negated: true, let deepest) = inner[1] else { Issue.record("no not.or"); return }
        #expect(deepest.count == 2)
        #expect(members[2] == .filter(Filter(field: FieldReference(name: "name"), negated: false, operation: .compare(.eq, quantifier: nil, value: "a,b"))))

        let (embedPath, negated) = try LogicParser.parse(key: "actor.not.and", value: "(a.eq.1,b.cs.{x,y})")
        #expect(embedPath == ["actor"])
        guard case .group(.and, negated: true, let pair) = negated else { Issue.record("not not.and"); return }
        #expect(pair[1] == .filter(Filter(field: FieldReference(name: "b"), negated: false, operation: .compare(.cs, quantifier: nil, value: "{x,y}"))))
    }

    @Test func orderTerms() throws {
        let terms = try OrderParser.parse("occurred_at.desc.nullslast,id,name.asc,created_at.nullsfirst,actor(username).desc")
        #expect(terms == [
            OrderTerm(relation: nil, field: FieldReference(name: "occurred_at"), direction: .desc, nulls: .nullslast),
            OrderTerm(relation: nil, field: FieldReference(name: "id"), direction: nil, nulls: nil),
            OrderTerm(relation: nil, field: FieldReference(name: "name"), direction: .asc, nulls: nil),
            OrderTerm(relation: nil, field: FieldReference(name: "created_at"), direction: nil, nulls: .nullsfirst),
            OrderTerm(relation: "actor", field: FieldReference(name: "username"), direction: .desc, nulls: nil),
        ])
    }

    @Test func wholeQueryStrings() throws {
        let parameters = try QueryParameters(
            query: "select=*,actor:profiles!actor_id(username)&user_id=eq.A1&created_at=gte.2024-01-01T00%3A00%3A00"
                + "&created_at=lt.2025-01-01&order=created_at.desc.nullslast&limit=50&offset=10"
                + "&actor.order=username&actor.limit=1&or=(is_read.eq.false,is_read.is.null)&columns=%22a%22,b&on_conflict=id"
                + "&name=eq.Mary+Jane")
        #expect(parameters.select.count == 2)
        #expect(parameters.filters.count == 4)
        #expect(parameters.filters[1].filter.operation == .compare(.gte, quantifier: nil, value: "2024-01-01T00:00:00"))
        #expect(parameters.filters[3].filter.operation == .compare(.eq, quantifier: nil, value: "Mary Jane"))
        #expect(parameters.order[[]]?.first?.direction == .desc)
        #expect(parameters.order[["actor"]]?.first?.field.name == "username")
        #expect(parameters.limits == [[]: 50, ["actor"]: 1])
        #expect(parameters.offsets == [[]: 10])
        #expect(parameters.logic.count == 1)
        #expect(parameters.columns == ["a", "b"])
        #expect(parameters.onConflict == ["id"])
    }

    @Test func rpcReadsTakeOperatorlessParametersAsArguments() throws {
        let parameters = try QueryParameters(query: "name=Sofia&id=eq.1", isRPCRead: true)
        #expect(parameters.arguments.map(\.name) == ["name"])
        #expect(parameters.filters.count == 1)
    }

    /// PostgREST's select parser stops where no `,` follows an item: after an embed whatever is
    /// left is ignored; after a column only a `)` may be left (a column must end at `,`, `)` or
    /// the end), anything else is PGRST100 as there.
    @Test func whatFollowsTheTopLevelIsReadAsPostgRESTReadsIt() throws {
        for (query, names) in [
            ("select=name,projects(count)'", ["name", "projects"]), ("select=name,projects(id)junk", ["name", "projects"]),
            ("select=name,projects(id))", ["name", "projects"]), ("select=id,name)", ["id", "name"]),
        ] {
            let items = try QueryParameters(query: query).select
            #expect(items.map { item in
                switch item {
                case .column(let column): column.field.name
                case .embed(let embed): embed.relation
                }
            } == names, "\(query)")
        }
        for query in ["select=id'", "select=name,projects(count')", "select=name,projects(id) junk"] {
            #expect(throws: RESTError.self, "\(query)") { try QueryParameters(query: query) }
        }
    }

    @Test(arguments: [
        ("select=id,", "select parameter"),
        ("select=actor:profiles(username", "select parameter"),
        ("select=id!hint", "select parameter"),
        ("select=id::", "select parameter"),
                ("col=noop.1", "filter"),
        ("col=eq1", "filter"),
        ("col=in.(1,2", "filter"),
        ("col=in.1,2", "filter"),
        ("col=is.maybe", "filter"),
        ("col=not.nope.1", "filter"),
        ("col=eq(some).1", "filter"),
        ("or=(a.eq.1,b)", "logic tree"),
        ("or=a.eq.1", "logic tree"),
        ("or=()", "logic tree"),
        ("or=(a.eq.1,xor(b.eq.2))", "logic tree"),
        ("order=id.ac", "order"),
        ("order=id.desc.nulls", "order"),
        ("order=id.descc", "order"),
        ("order=id;drop", "order"),
        ("columns=a,,b", "columns parameter"),
    ])
    func malformedInputIsPGRST100(query: String, subject: String) {
        #expect {
            _ = try QueryParameters(query: query)
        } throws: { error in
            guard let error = error as? RESTError else { return false }
            return error.status == 400 && error.code == "PGRST100"
                && error.message.hasPrefix("\"failed to parse \(subject) (") && error.message.contains("(line 1, column ")
                && (error.details ?? "").hasPrefix("unexpected ")
        }
    }

    @Test func parseErrorsPointAtTheOffendingCharacter() {
        do {
            _ = try QueryParameters(query: "col=noop.0")
            Issue.record("parsed")
        } catch {
            #expect(error.message == "\"failed to parse filter (noop.0)\" (line 1, column 1)")
            #expect(error.details == "unexpected \"n\" expecting \"not\" or operator (eq, gt, ...)")
            #expect(error.body == #"{"code":"PGRST100","details":"unexpected \"n\" expecting \"not\" or operator (eq, gt, ...)","hint":null,"message":"\"failed to parse filter (noop.0)\" (line 1, column 1)"}"#)
        }
    }

    @Test func preferences() throws {
        let preferences = try Preferences(headerValues: ["return=representation, count=exact", "resolution=merge-duplicates,missing=default,bogus"])
        #expect(preferences.representation == .representation)
        #expect(preferences.count == "exact")
        #expect(preferences.resolution == .mergeDuplicates)
        #expect(preferences.missing == .default)
        #expect(throws: RESTError.self) { try Preferences(headerValues: ["handling=strict, bogus"]) }
    }

    @Test func rangesFromParametersAndHeader() throws {
        #expect(try RowRange(offset: nil, limit: nil, rangeHeader: nil) == .all)
        #expect(try RowRange(offset: 10, limit: 5, rangeHeader: nil) == RowRange(offset: 10, limit: 5))
        #expect(try RowRange(offset: nil, limit: nil, rangeHeader: "0-24") == RowRange(offset: 0, limit: 25))
        #expect(try RowRange(offset: nil, limit: 10, rangeHeader: "5-") == RowRange(offset: 5, limit: 5))
        #expect(throws: RESTError.self) { try RowRange(offset: nil, limit: -1, rangeHeader: nil) }
        #expect(throws: RESTError.self) { try RowRange(offset: nil, limit: nil, rangeHeader: "9-3") }
        #expect(RowRange(offset: 0, limit: 50).contentRange(returned: 50, total: nil) == "0-49/*")
        #expect(RowRange(offset: 0, limit: 50).contentRange(returned: 0, total: 0) == "*/0")
        #expect(RowRange(offset: 0, limit: 50).contentRange(returned: 0, total: nil) == "*/*")
        #expect(RowRange(offset: 5, limit: 2).contentRange(returned: 2, total: 9) == "5-6/9")
    }

    @Test func rangesAtTheEndsOfIntSaturateInsteadOfOverflowing() throws {
        #expect(try RowRange(offset: .max, limit: 10, rangeHeader: nil) == RowRange(offset: .max, limit: 10))
        #expect(try RowRange(offset: 3, limit: .max, rangeHeader: nil) == RowRange(offset: 3, limit: .max))
        #expect(try RowRange(offset: nil, limit: nil, rangeHeader: "0-9223372036854775807") == RowRange(offset: 0, limit: .max))
        #expect(try RowRange(offset: 5, limit: nil, rangeHeader: "9223372036854775807-9223372036854775807")
            == RowRange(offset: .max, limit: 1))
        #expect(throws: RESTError.self) { try RowRange(offset: .max, limit: .min, rangeHeader: nil) }
        #expect(throws: RESTError.self) { try RowRange(offset: nil, limit: .min, rangeHeader: "3-") }
        #expect(RowRange(offset: .max, limit: 10).contentRange(returned: 0, total: 4) == "*/4")
        #expect(RowRange(offset: .max, limit: 10).contentRange(returned: 1, total: nil) == "9223372036854775807-9223372036854775807/*")
    }
}

/// `RESTConfiguration` from the environment.
@Suite("REST configuration")
struct RESTConfigurationTests {
    @Test func bodyLimitFromTheEnvironment() throws {
        #expect(try RESTConfiguration(reading: EnvironmentReader([:])).maximumBodyBytes == 1 << 20)
        #expect(try RESTConfiguration(reading: EnvironmentReader(["COMPASS_REST_MAX_BODY_BYTES": "2048"])).maximumBodyBytes == 2048)
        #expect(throws: ConfigurationError.self) { try RESTConfiguration(reading: EnvironmentReader(["COMPASS_REST_MAX_BODY_BYTES": "lots"])) }
        #expect(throws: ConfigurationError.self) { try RESTConfiguration(reading: EnvironmentReader(["COMPASS_REST_MAX_BODY_BYTES": "0"])) }
    }

    @Test func hardeningSettingsFromTheEnvironment() throws {
        let defaults = try RESTConfiguration(reading: EnvironmentReader([:]))
        #expect(defaults.maximumReplyBytes == 16 << 20)
        #expect(defaults.maximumEmbedDepth == 8)
        #expect(defaults.requiresFilteredWrites)
        let set = try RESTConfiguration(reading: EnvironmentReader([
            "COMPASS_REST_MAX_REPLY_BYTES": "4096", "COMPASS_REST_MAX_EMBED_DEPTH": "2", "COMPASS_REST_SAFE_UPDATE": "false",
        ]))
        #expect(set.maximumReplyBytes == 4096)
        #expect(set.maximumEmbedDepth == 2)
        #expect(!set.requiresFilteredWrites)
        for (name, value) in [("COMPASS_REST_MAX_REPLY_BYTES", "0"), ("COMPASS_REST_MAX_EMBED_DEPTH", "-1"), ("COMPASS_REST_MAX_EMBED_DEPTH", "65"),
                              ("COMPASS_REST_SAFE_UPDATE", "maybe")] {
            #expect(throws: ConfigurationError.self) { try RESTConfiguration(reading: EnvironmentReader([name: value])) }
        }
    }

    /// Found by fuzzing: a `Prefer` token that is only `=` (or starts with it) trapped on an empty split.
    @Test func preferTokensWithoutANameAreIgnoredNotFatal() throws {
        for header in ["=", "=x", " = ", "return=minimal,=,count=exact"] {
            _ = try Preferences(headerValues: [header])
        }
        #expect(throws: RESTError.self) { try Preferences(headerValues: ["handling=strict, ="]) }
    }
}

/// The "Perhaps you meant" hints' matcher.
@Suite("Fuzzy name matching")
struct FuzzyMatchTests {
    static let tables = ["schools", "school_status_history", "interactions", "documents", "coaches"]

    @Test func nearNamesAreSuggestedAndFarOnesAreNot() {
        #expect(FuzzyMatch.best(for: "schoolz", among: Self.tables, minimumScore: 0.75) == "schools")
        #expect(FuzzyMatch.best(for: "INTERACTION", among: Self.tables, minimumScore: 0.75) == "interactions")
        #expect(FuzzyMatch.best(for: "payments", among: Self.tables, minimumScore: 0.75) == nil)
        #expect(FuzzyMatch.best(for: "", among: Self.tables, minimumScore: 0.33) == nil)
    }

    @Test func aNameFarLongerThanEveryCandidateIsNeverMatched() {
        // Skipped by its length alone: the edit distance is at least the difference in length.
        let huge = String(repeating: "a", count: 16_000)
        #expect(FuzzyMatch.best(for: huge, among: Self.tables, minimumScore: 0.33) == nil)
        #expect(FuzzyMatch.best(for: "schools" + String(repeating: "s", count: 8), among: ["schools"], minimumScore: 0.33) == "schools")
        #expect(FuzzyMatch.best(for: "schools" + String(repeating: "s", count: 16), among: ["schools"], minimumScore: 0.33) == nil)
    }
}
