import Testing

@testable import CompassREST

/// Relationships inferred for views from the columns they show as they are (no database).
@Suite("View relationships")
struct ViewSourcesTests {
    static func table(_ name: String, _ columns: [String], isView: Bool = false) -> TableInfo {
        TableInfo(
            name: name, isView: isView,
            columns: columns.map { ColumnInfo(name: $0, type: "uuid", isNullable: true, defaultExpression: nil) },
            primaryKey: isView ? [] : ["id"], uniqueKeys: isView ? [] : [["id"]])
    }

    static let tables = [
        "schools": table("schools", ["id", "name"]),
        "interactions": table("interactions", ["id", "school_id"]),
        "school_names": table("school_names", ["sid", "name"], isView: true),
        "renamed": table("renamed", ["name"], isView: true),
    ]

    static let foreignKey = CatalogForeignKey(
        constraint: "interactions_school_id_fkey", table: "interactions", foreignTable: "schools",
        tableSchema: "public", foreignSchema: "public", columns: [["school_id", "id"]])

    static func column(_ view: String, _ name: String, from table: String, _ source: String, schema: String = "public") -> CatalogViewColumn {
        CatalogViewColumn(view: view, column: name, sourceSchema: schema, sourceTable: table, sourceColumn: source)
    }

    @Test func aViewShowingTheKeyColumnsIsEmbeddableBothWays() {
        let views = ViewSources(schema: "public", tables: Self.tables, columns: [
            Self.column("school_names", "sid", from: "schools", "id"), Self.column("school_names", "name", from: "schools", "name"),
        ])
        let found = views.relationships(foreignKeys: [Self.foreignKey])
        let toView = found["interactions"]?.first
        #expect(toView?.foreignTable == "school_names")
        #expect(toView?.cardinality == .manyToOne)
        #expect(toView?.columns.map { [$0.0, $0.1] } == [["school_id", "sid"]])
        #expect(found["school_names"]?.first?.cardinality == .oneToMany)
        #expect(found["schools"] == nil)
    }

    @Test func aViewReadingAViewOfAnotherSchemaRelatesThroughIt() {
        var tables = Self.tables
        tables["school_chain"] = Self.table("school_chain", ["sid"], isView: true)
        let middle = CatalogViewColumn(viewSchema: "extensions", view: "mid", column: "sid", sourceSchema: "public", sourceTable: "schools", sourceColumn: "id")
        let views = ViewSources(schema: "public", tables: tables, columns: [middle, Self.column("school_chain", "sid", from: "mid", "sid", schema: "extensions")])
        let found = views.relationships(foreignKeys: [Self.foreignKey])
        #expect(found["interactions"]?.map(\.foreignTable) == ["school_chain"])
        // The middle view is not exposed: nothing relates to it by name.
        #expect(found["mid"] == nil)
    }

    @Test func aNameTwoOriginsClaimAndViewsMissingTheKeyGetNothing() {
        let views = ViewSources(schema: "public", tables: Self.tables, columns: [
            Self.column("school_names", "sid", from: "schools", "id"),
            Self.column("school_names", "sid", from: "other", "id", schema: "private"),
            Self.column("renamed", "name", from: "schools", "name"),
        ])
        #expect(views.relationships(foreignKeys: [Self.foreignKey]).isEmpty)
    }

    @Test func eachNameAViewShowsAKeyColumnUnderIsARelationshipOfItsOwn() {
        var tables = Self.tables
        tables["school_pairs"] = Self.table("school_pairs", ["first", "second"], isView: true)
        let views = ViewSources(schema: "public", tables: tables, columns: [
            Self.column("school_pairs", "first", from: "interactions", "school_id"),
            Self.column("school_pairs", "second", from: "interactions", "school_id"),
        ])
        let found = views.relationships(foreignKeys: [Self.foreignKey])
        #expect(found["school_pairs"]?.map { $0.columns.map { [$0.0, $0.1] } }.sorted { $0[0][0] < $1[0][0] } == [[["first", "id"]], [["second", "id"]]])
    }

    @Test func aViewShowingATablesWholeKeyInheritsIt() {
        var tables = Self.tables
        tables["school_ids"] = Self.table("school_ids", ["name", "school"], isView: true)
        let views = ViewSources(schema: "public", tables: tables, columns: [
            Self.column("school_ids", "school", from: "schools", "id"), Self.column("school_ids", "name", from: "schools", "name"),
            Self.column("renamed", "name", from: "schools", "name"),
        ])
        #expect(views.primaryKeys() == ["school_ids": ["school"]])
    }

    /// A rule as Postgres prints it, cut down: a column whose expression holds a subquery with
    /// its own target list, and names escaped as `outToken` escapes them.
    @Test func onlyTheRulesTopLevelTargetEntriesAreTheViewsColumns() {
        let rule = [
            #"({QUERY :commandType 1 :rtable <> :jointree {FROMEXPR :fromlist <> :quals {SUBLINK :subselect {QUERY"#,
            #":targetList ({TARGETENTRY :expr {VAR :varno 1} :resno 1 :resname site_id :ressortgroupref 0 :resorigtbl 700 :resorigcol 1 :resjunk false})}}}"#,
            #":targetList ({TARGETENTRY :expr {VAR :varno 1 :varattno 2} :resno 1 :resname job\ id\(1\) :ressortgroupref 0 :resorigtbl 500 :resorigcol 2 :resjunk false}"#,
            #"{TARGETENTRY :expr {SUBLINK :subselect {QUERY :targetList ({TARGETENTRY :expr {VAR} :resno 1 :resname name :ressortgroupref 0 :resorigtbl 700 :resorigcol 2 :resjunk false})}}"#,
            #":resno 2 :resname site_name :ressortgroupref 0 :resorigtbl 0 :resorigcol 0 :resjunk false}) :override 0})"#,
        ].joined(separator: " ")
        #expect(ViewRuleTargets.entries(of: rule) == [
            ViewRuleTargets.Entry(name: "job id(1)", table: 500, column: 2),
            ViewRuleTargets.Entry(name: "site_name", table: 0, column: 0),
        ])
        #expect(ViewRuleTargets.entries(of: "({QUERY :targetList <> :override 0})").isEmpty)
    }
}
